// DataStream programs over Row records: printing as Flink prints rows, field aggregations
// by position and by name, and declared type information.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

namespace eddy {
namespace {

TEST(RowStreamTest, PrintsRowsAsFlinkDoes) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->fromElements(Row::of("Alice", 12), Row::ofKind(RowKind::UPDATE_BEFORE, "Bob", nullptr),
                    Row::of("John", 10.5))
      .print();
  testing::internal::CaptureStdout();
  env->execute();
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "+I[Alice, 12]\n-U[Bob, null]\n+I[John, 10.5]\n");
}

TEST(RowStreamTest, PrintToErrWritesTheIdentifiedLinesToStderrOnly) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  auto rows = env->fromElements(Row::of("Alice", 12), Row::of("Bob", 3));
  rows.printToErr("orders");
  rows.filter([](const Row& row) { return row.getFieldAs<int32_t>(1) > 5; }).print("big");
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  env->execute();
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "big> +I[Alice, 12]\n");
  EXPECT_EQ(err, "orders> +I[Alice, 12]\norders> +I[Bob, 3]\n");
}

TEST(RowStreamTest, PrintWritesBooleansAsJavaDoes) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->fromElements(true, false, true).print();
  testing::internal::CaptureStdout();
  env->execute();
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "true\nfalse\ntrue\n");
}

TEST(RowStreamTest, SumByPositionAndByName) {
  auto rows = [] {
    auto names = std::vector<std::string>{"name", "score"};
    std::vector<Row> result;
    for (auto [name, score] : std::vector<std::pair<std::string, int32_t>>{
             {"Alice", 12}, {"Bob", 10}, {"Alice", 100}}) {
      Row row = Row::withNamedPositions(names);
      row.setField(0, name);
      row.setField(1, score);
      result.push_back(row);
    }
    return result;
  };
  for (bool byName : {false, true}) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(2);
    auto keyed = env->fromCollection(rows()).keyBy(
        [](const Row& row) { return row.getFieldAs<std::string>(0); });
    auto sums = (byName ? keyed.sum("score") : keyed.sum(1)).executeAndCollect(10);
    std::vector<std::string> printed;
    for (const Row& row : sums) printed.push_back(row.toString());
    std::sort(printed.begin(), printed.end());
    EXPECT_EQ(printed, (std::vector<std::string>{"+I[Alice, 112]", "+I[Alice, 12]",
                                                 "+I[Bob, 10]"}))
        << (byName ? "by name" : "by position");
  }
}

TEST(RowStreamTest, AggregatingANonNumericRowFieldFailsTheJob) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(1);
  env->fromElements(Row::of("a", "x"), Row::of("a", "y"))
      .keyBy([](const Row& row) { return row.getFieldAs<std::string>(0); })
      .sum(1)
      .addSink([](const Row&) {});
  try {
    env->execute();
    FAIL() << "expected the job to fail";
  } catch (const JobExecutionException& error) {
    EXPECT_NE(std::string(error.what()).find("Aggregation field position 1 is not a number: STRING"),
              std::string::npos)
        << error.what();
  }
}

TEST(RowStreamTest, ReturnsDeclaresTheTypeInformation) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  auto stream = env->fromElements(Row::of("Alice", 12))
                    .map([](const Row& row) { return row; })
                    .returns(Types::ROW_NAMED({"name", "score"}, {Types::STRING, Types::INT}));
  EXPECT_EQ(stream.getType().toString(), "Row(name: String, score: Integer)");
  EXPECT_EQ(env->fromElements(std::string("x")).getType().toString(), "String");
}

}  // namespace
}  // namespace eddy

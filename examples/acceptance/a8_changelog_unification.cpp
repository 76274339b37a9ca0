// ACCEPTANCE A8 (seed 001, "Changelog Unification"): two row streams become tables with an
// event-time column and a watermark, an interval join in SQL pairs users with their orders
// within five minutes, and a KeyedProcessFunction with ValueState deduplicates the names. The
// output is the same in BATCH and STREAMING: time-based operations produce insert-only results.
//
//   a8_changelog_unification [--batch] [--cast]
//     --batch  env.setRuntimeMode(BATCH) (default STREAMING)
//     --cast   the Python variant: the streams' column is `ts1` and the schema computes
//              `ts` with columnByExpression("ts", "CAST(ts1 AS TIMESTAMP(3))")
#include <eddy/eddy.h>

#include <string>

using namespace eddy;

namespace {

Schema schemaOf(bool cast, const char* third, const DataType& thirdType) {
  Schema::Builder builder = Schema::newBuilder();
  if (cast) {
    builder.columnByExpression("ts", "CAST(ts1 AS TIMESTAMP(3))");
  } else {
    builder.column("ts", DataTypes::TIMESTAMP(3));
  }
  return builder.column("uid", DataTypes::INT())
      .column(third, thirdType)
      .watermark("ts", "ts - INTERVAL '1' SECOND")
      .build();
}

/// Emits a name the first time it is seen.
class Deduplicate final : public KeyedProcessFunction<std::string, Row, std::string> {
 public:
  void open(const OpenContext&) override {
    seen_ = getRuntimeContext().getState(ValueStateDescriptor<std::string>("seen"));
  }
  void processElement(const Row& row, Context&, Collector<std::string>& out) override {
    const std::string& name = row.getFieldAs<std::string>("name");
    if (!seen_->value()) {
      seen_->update(name);
      out.collect(name);
    }
  }

 private:
  ValueState<std::string>* seen_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  bool batch = false;
  bool cast = false;
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    batch = batch || argument == "--batch";
    cast = cast || argument == "--cast";
  }
  // setup DataStream API
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  // use BATCH or STREAMING mode
  env->setRuntimeMode(batch ? RuntimeExecutionMode::BATCH : RuntimeExecutionMode::STREAMING);
  // setup Table API
  auto tableEnv = StreamTableEnvironment::create(*env);
  const char* timeName = cast ? "ts1" : "ts";

  // create a user stream
  DataStream<Row> userStream =
      env->fromElements(Row::of(LocalDateTime::parse("2021-08-21T13:00:00"), 1, "Alice"),
                        Row::of(LocalDateTime::parse("2021-08-21T13:05:00"), 2, "Bob"),
                        Row::of(LocalDateTime::parse("2021-08-21T13:10:00"), 2, "Bob"))
          .returns(Types::ROW_NAMED({timeName, "uid", "name"},
                                    {Types::LOCAL_DATE_TIME, Types::INT, Types::STRING}));
  // create an order stream
  DataStream<Row> orderStream =
      env->fromElements(Row::of(LocalDateTime::parse("2021-08-21T13:02:00"), 1, 122),
                        Row::of(LocalDateTime::parse("2021-08-21T13:07:00"), 2, 239),
                        Row::of(LocalDateTime::parse("2021-08-21T13:11:00"), 2, 999))
          .returns(Types::ROW_NAMED({timeName, "uid", "amount"},
                                    {Types::LOCAL_DATE_TIME, Types::INT, Types::INT}));

  // create corresponding tables
  tableEnv->createTemporaryView("UserTable", userStream,
                                schemaOf(cast, "name", DataTypes::STRING()));
  tableEnv->createTemporaryView("OrderTable", orderStream,
                                schemaOf(cast, "amount", DataTypes::INT()));

  // perform interval join
  Table joinedTable = tableEnv->sqlQuery(
      "SELECT U.name, O.amount "
      "FROM UserTable U, OrderTable O "
      "WHERE U.uid = O.uid AND O.ts BETWEEN U.ts AND U.ts + INTERVAL '5' MINUTES");
  DataStream<Row> joinedStream = tableEnv->toDataStream(joinedTable);
  joinedStream.print();

  // implement a custom operator using ProcessFunction and value state
  joinedStream.keyBy([](const Row& row) { return row.getFieldAs<std::string>("name"); })
      .process(Deduplicate())
      .print();

  // execute unified pipeline
  env->execute();
  return 0;
}

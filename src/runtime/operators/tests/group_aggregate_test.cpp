// GroupAggregate over chunks in running jobs: the changelog of seed example A2 in STREAMING,
// final insert-only rows in BATCH, retraction of -U/-D input, and every aggregate kind.
#include "runtime/operators/aggregate/group_aggregate_operator.h"

#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <map>
#include <utility>

#include "eddy/state/key_group_range.h"
#include "runtime/operators/aggregate/expand_operator.h"
#include "runtime/operators/chunk_exchange.h"
#include "vector/chunk_operations.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using function::Accumulator;
using function::AggregateCall;
using function::AggregateKind;
using function::accumulate;
using function::aggregateResult;
using function::createAccumulator;
namespace {

LogicalTypePtr stringType() { return LogicalType::varchar(2147483647); }
LogicalTypePtr intType() { return LogicalType::simple(LogicalTypeRoot::INTEGER); }
LogicalTypePtr bigintType() { return LogicalType::simple(LogicalTypeRoot::BIGINT, false); }

LogicalTypePtr rowType(std::vector<std::pair<std::string, LogicalTypePtr>> fields) {
  std::vector<RowField> rowFields;
  for (auto& [name, type] : fields) rowFields.push_back(RowField{name, type, std::nullopt});
  return LogicalType::row(std::move(rowFields));
}

/// Runs rows → HASH(grouping) → GroupAggregate → Rows and returns the printed rows in
/// arrival order.
std::vector<std::string> aggregate(const std::vector<Row>& input, LogicalTypePtr inputType,
                                   std::shared_ptr<GroupAggregateSpec> spec,
                                   RuntimeExecutionMode mode, int parallelism) {
  spec->inputRowType = inputType;
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  env->setRuntimeMode(mode);
  std::shared_ptr<const GroupAggregateSpec> constSpec = spec;
  auto rows = env->fromCollection(std::vector<vector::Chunk>{vector::rowsToChunk(input, inputType)})
                  .partitionCustom(ChunkKeyPartitioner::factory(spec->groupingColumns))
                  .transform<vector::Chunk>(
                      "GroupAggregate",
                      std::make_shared<LambdaOperatorFactory>([constSpec] {
                        return std::make_unique<GroupAggregateOperator>(constSpec);
                      }),
                      true)
                  .transform<Row>("ChunkToRows", std::make_shared<LambdaOperatorFactory>([] {
                                    return std::make_unique<ChunkToRowsOperator>();
                                  }))
                  .executeAndCollect(1000);
  std::vector<std::string> printed;
  for (const Row& row : rows) printed.push_back(row.toString());
  return printed;
}

std::shared_ptr<GroupAggregateSpec> sumScoreByName() {
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->groupingColumns = {0};
  spec->calls = {AggregateCall{AggregateKind::SUM, 1, intType()}};
  spec->outputRowType = rowType({{"name", stringType()}, {"score", intType()}});
  return spec;
}

const std::vector<Row> kScores = {Row::of("Alice", 12), Row::of("Bob", 10), Row::of("Alice", 100)};

TEST(GroupAggregateTest, StreamingEmitsTheChangelogOfSeedExampleA2) {
  auto inputType = rowType({{"name", stringType()}, {"score", intType()}});
  EXPECT_EQ(aggregate(kScores, inputType, sumScoreByName(), RuntimeExecutionMode::STREAMING, 1),
            (std::vector<std::string>{"+I[Alice, 12]", "+I[Bob, 10]", "-U[Alice, 12]",
                                      "+U[Alice, 112]"}));
}

TEST(GroupAggregateTest, StreamingKeepsPerKeyOrderAtHigherParallelism) {
  auto inputType = rowType({{"name", stringType()}, {"score", intType()}});
  auto printed = aggregate(kScores, inputType, sumScoreByName(), RuntimeExecutionMode::STREAMING, 3);
  std::vector<std::string> alice;
  for (const auto& row : printed) {
    if (row.find("Alice") != std::string::npos) alice.push_back(row);
  }
  EXPECT_EQ(alice, (std::vector<std::string>{"+I[Alice, 12]", "-U[Alice, 12]", "+U[Alice, 112]"}));
  EXPECT_EQ(std::count(printed.begin(), printed.end(), "+I[Bob, 10]"), 1);
  EXPECT_EQ(printed.size(), 4u);
}

TEST(GroupAggregateTest, BatchEmitsOnlyFinalRows) {
  auto inputType = rowType({{"name", stringType()}, {"score", intType()}});
  for (int parallelism : {1, 2}) {
    auto printed = aggregate(kScores, inputType, sumScoreByName(), RuntimeExecutionMode::BATCH,
                             parallelism);
    std::sort(printed.begin(), printed.end());
    EXPECT_EQ(printed, (std::vector<std::string>{"+I[Alice, 112]", "+I[Bob, 10]"}));
  }
}

TEST(GroupAggregateTest, RetractionsUpdateAndDeleteGroups) {
  auto inputType = rowType({{"k", stringType()}, {"v", intType()}});
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->groupingColumns = {0};
  spec->calls = {AggregateCall{AggregateKind::SUM, 1, intType()},
                 AggregateCall{AggregateKind::MIN, 1, intType()},
                 AggregateCall{AggregateKind::COUNT_STAR, -1, bigintType()}};
  spec->outputRowType =
      rowType({{"k", stringType()}, {"s", intType()}, {"m", intType()}, {"c", bigintType()}});
  std::vector<Row> input = {Row::of("a", 5), Row::of("a", 3),
                            Row::ofKind(RowKind::UPDATE_BEFORE, "a", 3),
                            Row::ofKind(RowKind::UPDATE_AFTER, "a", 3),  // same result: silent
                            Row::ofKind(RowKind::DELETE, "a", 3), Row::ofKind(RowKind::DELETE, "a", 5),
                            Row::ofKind(RowKind::DELETE, "never", 1)};
  EXPECT_EQ(aggregate(input, inputType, spec, RuntimeExecutionMode::STREAMING, 1),
            (std::vector<std::string>{
                "+I[a, 5, 5, 1]", "-U[a, 5, 5, 1]", "+U[a, 8, 3, 2]",  // +3
                "-U[a, 8, 3, 2]", "+U[a, 5, 5, 1]",                    // -U 3
                "-U[a, 5, 5, 1]", "+U[a, 8, 3, 2]",                    // +U 3
                "-U[a, 8, 3, 2]", "+U[a, 5, 5, 1]",                    // -D 3
                "-D[a, 5, 5, 1]"}));                                   // -D 5
}

TEST(GroupAggregateTest, EveryAggregateKindWithNullsAndAGlobalGroup) {
  auto decimalType = LogicalType::decimal(10, 2);
  auto inputType = rowType({{"v", intType()}, {"d", decimalType}});
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->groupingColumns = {};
  spec->calls = {AggregateCall{AggregateKind::COUNT_STAR, -1, bigintType()},
                 AggregateCall{AggregateKind::COUNT, 0, bigintType()},
                 AggregateCall{AggregateKind::SUM, 0, intType()},
                 AggregateCall{AggregateKind::AVG, 0, intType()},
                 AggregateCall{AggregateKind::MIN, 0, intType()},
                 AggregateCall{AggregateKind::MAX, 0, intType()},
                 AggregateCall{AggregateKind::SUM, 1, LogicalType::decimal(38, 2)},
                 AggregateCall{AggregateKind::AVG, 1, LogicalType::decimal(38, 6)}};
  spec->outputRowType =
      rowType({{"c", bigintType()}, {"cv", bigintType()}, {"s", intType()}, {"a", intType()},
               {"mn", intType()}, {"mx", intType()}, {"sd", LogicalType::decimal(38, 2)},
               {"ad", LogicalType::decimal(38, 6)}});
  std::vector<Row> input = {Row::of(7, Decimal::fromString("1.10")), Row::of(nullptr, nullptr),
                            Row::of(2, Decimal::fromString("2.25"))};
  EXPECT_EQ(aggregate(input, inputType, spec, RuntimeExecutionMode::BATCH, 2),
            (std::vector<std::string>{"+I[3, 2, 9, 4, 2, 7, 3.35, 1.675000]"}));
  // An empty input still gives one row for a global aggregate in BATCH.
  EXPECT_EQ(aggregate({}, inputType, spec, RuntimeExecutionMode::BATCH, 1),
            (std::vector<std::string>{"+I[0, 0, null, null, null, null, null, null]"}));
}

TEST(GroupAggregateTest, MinAndMaxWithoutRetractionKeepTheExtremeOnly) {
  // Over an insert-only input the planner clears `retractable`: MIN/MAX keep one value.
  AggregateCall min{AggregateKind::MIN, 0, stringType()};
  AggregateCall max{AggregateKind::MAX, 0, stringType()};
  min.retractable = max.retractable = false;
  Accumulator low = createAccumulator(min);
  Accumulator high = createAccumulator(max);
  EXPECT_EQ(aggregateResult(min, low).toString(), "null");
  for (const Value& value : {Value("m"), Value(), Value("b"), Value("z"), Value("b")}) {
    accumulate(min, low, value, false);
    accumulate(max, high, value, false);
  }
  EXPECT_EQ(low.size(), 1u);
  EXPECT_EQ(aggregateResult(min, low).toString(), "b");
  EXPECT_EQ(aggregateResult(max, high).toString(), "z");
  EXPECT_THROW(accumulate(min, low, Value("a"), true), InternalError);
  // With DISTINCT the distinct map wraps the same single-value accumulator.
  min.distinct = true;
  Accumulator distinctLow = createAccumulator(min);
  for (const Value& value : {Value("q"), Value("c"), Value("c")}) {
    accumulate(min, distinctLow, value, false);
  }
  EXPECT_EQ(aggregateResult(min, distinctLow).toString(), "c");
}

TEST(GroupAggregateTest, DistinctCountsManyValuesWithRetractions) {
  // The distinct values live in a hash table: 100 000 of them, each seen twice, then retracted.
  AggregateCall count{AggregateKind::COUNT, 0, bigintType()};
  count.distinct = true;
  AggregateCall sum{AggregateKind::SUM, 0, bigintType()};
  sum.distinct = true;
  Accumulator counted = createAccumulator(count);
  Accumulator summed = createAccumulator(sum);
  for (int round = 0; round < 2; ++round) {
    for (int64_t v = 0; v < 100000; ++v) {
      accumulate(count, counted, Value(v * 1024), false);
      accumulate(sum, summed, Value(v), false);
    }
  }
  accumulate(count, counted, Value(), false);  // NULL is not a value
  EXPECT_EQ(aggregateResult(count, counted).toString(), "100000");
  EXPECT_EQ(aggregateResult(sum, summed).toString(), "4999950000");
  // Once: still counted; twice: gone. Retracting an unknown value changes nothing.
  for (int64_t v = 0; v < 50000; ++v) accumulate(count, counted, Value(v * 1024), true);
  EXPECT_EQ(aggregateResult(count, counted).toString(), "100000");
  for (int64_t v = 0; v < 50000; ++v) accumulate(count, counted, Value(v * 1024), true);
  accumulate(count, counted, Value(int64_t{7}), true);
  EXPECT_EQ(aggregateResult(count, counted).toString(), "50000");
  // Deleted slots are reused: values come back.
  for (int64_t v = 0; v < 10; ++v) accumulate(count, counted, Value(v * 1024), false);
  EXPECT_EQ(aggregateResult(count, counted).toString(), "50010");
}

TEST(GroupAggregateTest, MiniBatchEmitsOneChangePerKeyAndBundle) {
  auto inputType = rowType({{"k", stringType()}, {"v", intType()}});
  auto spec = sumScoreByName();
  spec->inputRowType = inputType;
  spec->miniBatchLatencyMillis = 100;
  spec->miniBatchSize = 5;
  testing::OneInputOperatorTestHarness<GroupAggregateOperator> harness(
      std::make_unique<GroupAggregateOperator>(spec), inputType, {.operatorName = "GroupAggregate"});
  // Buffered until the latency passes: then one +I per key, in order of first arrival.
  EXPECT_EQ(harness.push({Row::of("a", 1), Row::of("b", 2)}), testing::Rows{});
  EXPECT_EQ(harness.push({Row::of("a", 3)}), testing::Rows{});
  EXPECT_EQ(harness.advanceProcessingTime(99), testing::Rows{});
  EXPECT_EQ(harness.advanceProcessingTime(100), (testing::Rows{"+I[a, 4]", "+I[b, 2]"}));
  // Five rows fill the bundle: flushed at once, one -U/+U per changed key; a group created and
  // retracted inside the bundle emits nothing.
  EXPECT_EQ(harness.push({Row::of("a", 10), Row::of("c", 7), Row::of("a", 20),
                          Row::ofKind(RowKind::DELETE, "c", 7), Row::of("b", 2)}),
            (testing::Rows{"-U[a, 4]", "+U[a, 34]", "-U[b, 2]", "+U[b, 4]"}));
  // A watermark flushes the bundle before it is forwarded; so does the end of input.
  EXPECT_EQ(harness.push({Row::ofKind(RowKind::DELETE, "b", 2), Row::ofKind(RowKind::DELETE, "b", 2)}),
            testing::Rows{});
  EXPECT_EQ(harness.watermark(1000), (testing::Rows{"-D[b, 4]"}));
  EXPECT_EQ(harness.push({Row::of("d", 1)}), testing::Rows{});
  EXPECT_EQ(harness.finish(), (testing::Rows{"+I[d, 1]"}));
}

TEST(GroupAggregateTest, LocalPhaseEmitsOnePartialRowPerKeyAndBundle) {
  // SUM(v), COUNT(*) by k: a partial row is k, SUM's [sum, count], COUNT's [count], then the
  // key's net row count.
  auto inputType = rowType({{"k", stringType()}, {"v", intType()}});
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->inputRowType = inputType;
  spec->groupingColumns = {0};
  spec->calls = {AggregateCall{AggregateKind::SUM, 1, intType()},
                 AggregateCall{AggregateKind::COUNT_STAR, -1, bigintType()}};
  spec->calls[0].retractable = true;
  spec->miniBatchLatencyMillis = 100;
  spec->miniBatchSize = 5;
  spec->phase = AggregatePhase::kLocal;
  spec->outputRowType = partialAggregateRowType(*spec);
  EXPECT_EQ(spec->outputRowType->asSummaryString(),
            "ROW<`k` STRING, `acc0$0` BIGINT, `acc0$1` BIGINT NOT NULL, "
            "`acc1$0` BIGINT NOT NULL, `row_count$` BIGINT NOT NULL> NOT NULL");
  testing::OneInputOperatorTestHarness<GroupAggregateOperator> harness(
      std::make_unique<GroupAggregateOperator>(spec), inputType);
  EXPECT_EQ(harness.push({Row::of("a", 1), Row::of("b", 2), Row::of("a", 3)}), testing::Rows{});
  EXPECT_EQ(harness.advanceProcessingTime(100),
            (testing::Rows{"+I[a, 4, 2, 2, 2]", "+I[b, 2, 1, 1, 1]"}));
  // Retractions subtract: a key retracted inside the bundle still sends its (net zero or
  // negative) partial, since its sum may have changed.
  EXPECT_EQ(harness.push({Row::of("c", 7), Row::ofKind(RowKind::DELETE, "a", 3),
                          Row::ofKind(RowKind::DELETE, "c", 7), Row::of("a", 5),
                          Row::ofKind(RowKind::DELETE, "b", 2)}),
            (testing::Rows{"+I[c, 0, 0, 0, 0]", "+I[a, 2, 0, 0, 0]", "+I[b, -2, -1, -1, -1]"}));
  EXPECT_EQ(harness.push({Row::of("d", 1)}), testing::Rows{});
  EXPECT_EQ(harness.watermark(10), (testing::Rows{"+I[d, 1, 1, 1, 1]"}));
  EXPECT_EQ(harness.push({Row::of("d", 2)}), testing::Rows{});
  EXPECT_EQ(harness.finish(), (testing::Rows{"+I[d, 2, 1, 1, 1]"}));
}

TEST(GroupAggregateTest, GlobalPhaseMergesPartialsIntoTheChangelog) {
  auto inputType = rowType({{"k", stringType()}, {"v", intType()}});
  auto complete = std::make_shared<GroupAggregateSpec>();
  complete->inputRowType = inputType;
  complete->groupingColumns = {0};
  complete->calls = {AggregateCall{AggregateKind::SUM, 1, intType()},
                     AggregateCall{AggregateKind::COUNT_STAR, -1, bigintType()}};
  complete->outputRowType =
      rowType({{"k", stringType()}, {"total", intType()}, {"rows", bigintType()}});
  auto global = std::make_shared<GroupAggregateSpec>(*complete);
  global->phase = AggregatePhase::kGlobal;
  global->inputRowType = partialAggregateRowType(*complete);
  testing::OneInputOperatorTestHarness<GroupAggregateOperator> harness(
      std::make_unique<GroupAggregateOperator>(global), global->inputRowType);
  auto partial = [](const char* key, int64_t sum, int64_t count) {
    return Row::of(key, sum, count, count, count);
  };
  // Two local subtasks' partials of one key merge; a new key's first partial is its +I.
  EXPECT_EQ(harness.push({partial("a", 4, 2), partial("b", 2, 1), partial("a", 10, 1)}),
            (testing::Rows{"+I[a, 4, 2]", "+I[b, 2, 1]", "-U[a, 4, 2]", "+U[a, 14, 3]"}));
  // A partial that nets to nothing changes nothing; one that takes the last rows deletes.
  EXPECT_EQ(harness.push({partial("a", 0, 0), partial("b", -2, -1), partial("c", 0, 0)}),
            (testing::Rows{"-D[b, 2, 1]"}));
}

TEST(GroupAggregateTest, ExpandCopiesRowsPerDistinctArgumentWithBucketsAndFilters) {
  // COUNT(*), COUNT(DISTINCT x) FILTER (WHERE f), COUNT(DISTINCT y): copy 0 buckets by x and
  // feeds the first two calls, copy 1 buckets by y and feeds the third.
  auto inputType = rowType({{"k", stringType()},
                            {"x", intType()},
                            {"y", intType()},
                            {"f", LogicalType::simple(LogicalTypeRoot::BOOLEAN)}});
  auto spec = std::make_shared<ExpandSpec>();
  spec->inputRowType = inputType;
  spec->outputRowType = expandRowType(inputType, 3);
  spec->bucketColumns = {1, 2};
  spec->bucketCount = 4;
  spec->calls = {{0, -1}, {0, 3}, {1, -1}};
  EXPECT_EQ(spec->outputRowType->asSummaryString(),
            "ROW<`k` STRING, `x` INT, `y` INT, `f` BOOLEAN, `$bucket` INT NOT NULL, "
            "`$filter0` BOOLEAN NOT NULL, `$filter1` BOOLEAN NOT NULL, "
            "`$filter2` BOOLEAN NOT NULL> NOT NULL");
  testing::OneInputOperatorTestHarness<> harness(std::make_unique<ExpandOperator>(spec),
                                                 inputType);
  // The bucket of an INT value is its key group among 4 (the key bytes the exchange hashes).
  auto bucket = [](int32_t value) {
    std::string bytes;
    vector::Chunk chunk = vector::rowsToChunk({Row::of(value)}, rowType({{"v", intType()}}));
    vector::appendKeyBytes(chunk, {0}, 0, bytes);
    return std::to_string(assignToKeyGroup(bytes, 4));
  };
  EXPECT_EQ(harness.push({Row::of("a", 1, 7, true), Row::ofKind(RowKind::DELETE, "b", 2, 8, nullptr)}),
            (testing::Rows{"+I[a, 1, 7, true, " + bucket(1) + ", true, true, false]",
                           "-D[b, 2, 8, null, " + bucket(2) + ", true, false, false]",
                           "+I[a, 1, 7, true, " + bucket(7) + ", false, false, true]",
                           "-D[b, 2, 8, null, " + bucket(8) + ", false, false, true]"}));
}

TEST(GroupAggregateTest, StateTtlStartsAnIdleGroupAfresh) {
  // table.exec.state.ttl = 1 s: Alice's sum survives an update after 0.5 s, and is gone after
  // 1 s without one, so her next row is a new group (+I), as Flink's state TTL does.
  auto spec = sumScoreByName();
  LogicalTypePtr inputType = rowType({{"name", stringType()}, {"score", intType()}});
  spec->inputRowType = inputType;
  spec->stateTtlMillis = 1000;
  ManualClock clock(0);
  testing::OneInputOperatorTestHarness<> harness(std::make_unique<GroupAggregateOperator>(spec),
                                                 inputType, {.clock = &clock});
  auto push = [&](const Row& row) { return harness.push({row}); };
  EXPECT_EQ(push(Row::of("Alice", 1)), (std::vector<std::string>{"+I[Alice, 1]"}));
  clock.advance(500);
  EXPECT_EQ(push(Row::of("Alice", 2)),
            (std::vector<std::string>{"-U[Alice, 1]", "+U[Alice, 3]"}));
  clock.advance(999);
  EXPECT_EQ(push(Row::of("Alice", 4)),
            (std::vector<std::string>{"-U[Alice, 3]", "+U[Alice, 7]"}));
  clock.advance(1000);
  EXPECT_EQ(push(Row::of("Alice", 5)), (std::vector<std::string>{"+I[Alice, 5]"}));
}

}  // namespace
}  // namespace eddy::runtime::operators

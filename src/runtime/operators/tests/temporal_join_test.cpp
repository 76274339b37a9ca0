// The event-time temporal join over chunks, through a harness that drives one subtask: the
// version valid at each left row's time, emission when the watermark passes it, updates and
// deletions of the versioned side, out-of-order and late rows, the residual condition, NULL keys
// and times, release of superseded versions, compaction of stored chunks, and BATCH.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/join/temporal_join_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::JoinType;
namespace {

using testing::Rows;

LogicalTypePtr ordersType() { return parseLogicalType("ROW<id INT, currency STRING, t BIGINT>"); }
LogicalTypePtr ratesType() { return parseLogicalType("ROW<currency STRING, rate INT, t BIGINT>"); }

/// orders(id, currency, t) JOIN rates(currency, rate, t) FOR SYSTEM_TIME AS OF orders.t ON
/// currency, and `condition` over (id, currency, t, currency0, rate, t0) when given.
std::shared_ptr<const TemporalJoinSpec> temporalSpec(JoinType type,
                                                     expression::ExpressionPtr condition = nullptr) {
  auto spec = std::make_shared<TemporalJoinSpec>();
  spec->joinType = type;
  spec->leftRowType = ordersType();
  spec->rightRowType = ratesType();
  spec->leftKeys = {1};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 2;
  spec->rightTimeColumn = 2;
  spec->condition = std::move(condition);
  spec->outputRowType = parseLogicalType(
      type == JoinType::LEFT
          ? "ROW<id INT, currency STRING, t BIGINT, currency0 STRING, rate INT, t0 BIGINT>"
          : "ROW<id INT, currency STRING, t BIGINT, currency0 STRING NOT NULL, rate INT, t0 "
            "BIGINT>");
  return spec;
}

class TemporalJoinHarness : public testing::TwoInputOperatorTestHarness<TemporalJoinOperator> {
 public:
  explicit TemporalJoinHarness(std::shared_ptr<const TemporalJoinSpec> spec,
                               RuntimeExecutionMode mode = RuntimeExecutionMode::STREAMING)
      : TwoInputOperatorTestHarness(std::make_unique<TemporalJoinOperator>(std::move(spec)),
                                    ordersType(), ratesType(),
                                    {.operatorName = "TemporalJoin", .mode = mode}) {}
  size_t storedRows() const { return operatorUnderTest().storedRows(); }
};

TEST(TemporalJoinTest, EachOrderJoinsTheRateValidAtItsTime) {
  TemporalJoinHarness join(temporalSpec(JoinType::INNER));
  EXPECT_EQ(join.right({Row::of("EUR", 114, 0), Row::of("YEN", 1, 0)}), Rows{});
  EXPECT_EQ(join.right({Row::of("EUR", 116, 10), Row::of("EUR", 119, 20)}), Rows{});
  EXPECT_EQ(join.left({Row::of(1, "EUR", 5), Row::of(2, "EUR", 10), Row::of(3, "YEN", 12),
                       Row::of(4, "EUR", 25), Row::of(5, "USD", 7)}),
            Rows{});
  // Rows wait for the watermark; then come key by key (by their earliest due time), each key's
  // rows in time order. USD has no rate: the INNER join drops order 5.
  EXPECT_EQ(join.watermark(9), (Rows{"+I[1, EUR, 5, EUR, 114, 0]"}));
  EXPECT_EQ(join.takeWatermarks(), std::vector<int64_t>{9});
  EXPECT_EQ(join.watermark(30), (Rows{"+I[2, EUR, 10, EUR, 116, 10]",
                                      "+I[4, EUR, 25, EUR, 119, 20]", "+I[3, YEN, 12, YEN, 1, 0]"}));
  // Only the last version at or before the watermark is kept per key.
  EXPECT_EQ(join.storedRows(), 2u);
  EXPECT_EQ(join.finish(), Rows{});
  EXPECT_EQ(join.storedRows(), 0u);
}

TEST(TemporalJoinTest, LeftJoinPadsRowsWithoutAVersion) {
  TemporalJoinHarness join(temporalSpec(JoinType::LEFT));
  EXPECT_EQ(join.right({Row::of("EUR", 114, 10)}), Rows{});
  EXPECT_EQ(join.left({Row::of(1, "EUR", 5), Row::of(2, "EUR", 10), Row::of(3, "USD", 12)}),
            Rows{});
  EXPECT_EQ(join.watermark(20),
            (Rows{"+I[1, EUR, 5, null, null, null]", "+I[2, EUR, 10, EUR, 114, 10]",
                  "+I[3, USD, 12, null, null, null]"}));
}

TEST(TemporalJoinTest, UpdatesAndDeletionsOfTheVersionedSide) {
  TemporalJoinHarness join(temporalSpec(JoinType::LEFT));
  join.right({Row::ofKind(RowKind::INSERT, "EUR", 100, 0),
              Row::ofKind(RowKind::UPDATE_BEFORE, "EUR", 100, 0),
              Row::ofKind(RowKind::UPDATE_AFTER, "EUR", 110, 10),
              Row::ofKind(RowKind::DELETE, "EUR", 110, 20),
              Row::ofKind(RowKind::INSERT, "EUR", 130, 30)});
  join.left({Row::of(1, "EUR", 0), Row::of(2, "EUR", 15), Row::of(3, "EUR", 20),
             Row::of(4, "EUR", 29), Row::of(5, "EUR", 35)});
  EXPECT_EQ(join.watermark(40),
            (Rows{"+I[1, EUR, 0, EUR, 100, 0]", "+I[2, EUR, 15, EUR, 110, 10]",
                  "+I[3, EUR, 20, null, null, null]", "+I[4, EUR, 29, null, null, null]",
                  "+I[5, EUR, 35, EUR, 130, 30]"}));
  // Two versions at one time: the later arrival wins.
  join.right({Row::of("EUR", 140, 50), Row::of("EUR", 150, 50)});
  join.left({Row::of(6, "EUR", 50)});
  EXPECT_EQ(join.watermark(50), (Rows{"+I[6, EUR, 50, EUR, 150, 50]"}));
  EXPECT_EQ(join.storedRows(), 1u);
}

TEST(TemporalJoinTest, OutOfOrderVersionsAndLateOrders) {
  TemporalJoinHarness join(temporalSpec(JoinType::INNER));
  join.right({Row::of("EUR", 120, 20)});
  join.right({Row::of("EUR", 110, 10)});  // an older version, arriving later
  join.left({Row::of(1, "EUR", 15), Row::of(2, "EUR", 25), Row::of(3, "EUR", 12)});
  EXPECT_EQ(join.watermark(30), (Rows{"+I[3, EUR, 12, EUR, 110, 10]", "+I[1, EUR, 15, EUR, 110, 10]",
                                      "+I[2, EUR, 25, EUR, 120, 20]"}));
  // A row behind the watermark is joined at the next one against the versions still kept.
  EXPECT_EQ(join.left({Row::of(4, "EUR", 22)}), Rows{});
  EXPECT_EQ(join.watermark(31), (Rows{"+I[4, EUR, 22, EUR, 120, 20]"}));
  EXPECT_EQ(join.lateRecordsDropped(), 0);
  // The end of input emits what still waits.
  join.left({Row::of(5, "EUR", 1000)});
  EXPECT_EQ(join.finish(), (Rows{"+I[5, EUR, 1000, EUR, 120, 20]"}));
}

TEST(TemporalJoinTest, ResidualConditionAndNulls) {
  auto intType = LogicalType::simple(LogicalTypeRoot::INTEGER);
  // id < rate
  auto condition =
      expression::call("<", {expression::column(0, intType), expression::column(4, intType)});
  TemporalJoinHarness left(temporalSpec(JoinType::LEFT, condition));
  left.right({Row::of("EUR", 5, 0), Row::of(nullptr, 7, 0)});
  EXPECT_EQ(left.left({Row::of(1, "EUR", 1), Row::of(9, "EUR", 2), Row::of(2, nullptr, 3),
                       Row::of(3, "EUR", nullptr)}),
            (Rows{"+I[2, null, 3, null, null, null]", "+I[3, EUR, null, null, null, null]"}));
  EXPECT_EQ(left.watermark(10),
            (Rows{"+I[1, EUR, 1, EUR, 5, 0]", "+I[9, EUR, 2, null, null, null]"}));

  TemporalJoinHarness inner(temporalSpec(JoinType::INNER, condition));
  inner.right({Row::of("EUR", 5, 0)});
  EXPECT_EQ(inner.left({Row::of(1, "EUR", 1), Row::of(9, "EUR", 2), Row::of(2, nullptr, 3)}),
            Rows{});
  EXPECT_EQ(inner.watermark(10), (Rows{"+I[1, EUR, 1, EUR, 5, 0]"}));
}

TEST(TemporalJoinTest, SupersededVersionsAreReleasedAndChunksCompacted) {
  TemporalJoinHarness join(temporalSpec(JoinType::INNER));
  // 20 000 versions of 10 currencies over time 0..1999; only the last of each stays.
  for (int chunk = 0; chunk < 20; ++chunk) {
    std::vector<Row> rates;
    for (int i = 0; i < 1000; ++i) {
      const int n = chunk * 1000 + i;
      rates.push_back(Row::of("C" + std::to_string(n % 10), n, static_cast<int64_t>(n / 10)));
    }
    join.right(rates);
  }
  EXPECT_EQ(join.storedRows(), 20000u);
  join.watermark(5000);
  EXPECT_EQ(join.storedRows(), 10u);
  // The kept versions still join after the compaction moved them.
  join.left({Row::of(1, "C3", 6000), Row::of(2, "C9", 6001)});
  EXPECT_EQ(join.watermark(7000),
            (Rows{"+I[1, C3, 6000, C3, 19993, 1999]", "+I[2, C9, 6001, C9, 19999, 1999]"}));
}

TEST(TemporalJoinTest, BatchJoinsEverythingAtTheEnd) {
  TemporalJoinHarness join(temporalSpec(JoinType::LEFT), RuntimeExecutionMode::BATCH);
  EXPECT_EQ(join.left({Row::of(1, "EUR", 5), Row::of(2, "EUR", 15)}), Rows{});
  EXPECT_EQ(join.right({Row::of("EUR", 100, 0), Row::of("EUR", 110, 10)}), Rows{});
  EXPECT_EQ(join.watermark(100), Rows{});
  EXPECT_EQ(join.finish(),
            (Rows{"+I[1, EUR, 5, EUR, 100, 0]", "+I[2, EUR, 15, EUR, 110, 10]"}));
}

}  // namespace
}  // namespace eddy::runtime::operators

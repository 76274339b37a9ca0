// The temporal join's state in checkpoints: a subtask snapshotted midway and restored into a
// fresh operator goes on exactly as the uninterrupted one (versions, deletions and waiting
// probe rows stored before the checkpoint, probe rows and versions after it, the watermark a
// late row waits behind, more rows than one chunk holds), a restore at another parallelism
// splits the rows and versions by key group (and merges them back), and bytes that do not
// decode are refused naming the state.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/join/temporal_join_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::JoinType;
namespace {

using testing::concat;
using testing::Rows;
using testing::sorted;
using testing::sortedRowsOnly;

LogicalTypePtr ordersType() { return parseLogicalType("ROW<id INT, currency STRING, t BIGINT>"); }
LogicalTypePtr ratesType() { return parseLogicalType("ROW<currency STRING, rate INT, t BIGINT>"); }

/// orders(id, currency, t) JOIN rates(currency, rate, t) FOR SYSTEM_TIME AS OF orders.t ON
/// currency.
std::shared_ptr<const TemporalJoinSpec> temporalSpec(JoinType type) {
  auto spec = std::make_shared<TemporalJoinSpec>();
  spec->joinType = type;
  spec->leftRowType = ordersType();
  spec->rightRowType = ratesType();
  spec->leftKeys = {1};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 2;
  spec->rightTimeColumn = 2;
  spec->outputRowType = parseLogicalType(
      "ROW<id INT, currency STRING, t BIGINT, currency0 STRING, rate INT, t0 BIGINT>");
  return spec;
}

/// One TemporalJoinOperator subtask, printing the watermarks among the rows; as subtask
/// `subtask` (restored from its snapshots where given).
class TemporalJoinHarness : public testing::TwoInputOperatorTestHarness<TemporalJoinOperator> {
 public:
  explicit TemporalJoinHarness(const std::shared_ptr<const TemporalJoinSpec>& spec,
                               testing::SubtaskOptions subtask = {})
      : TwoInputOperatorTestHarness(
            std::make_unique<TemporalJoinOperator>(spec), spec->leftRowType, spec->rightRowType,
            {.operatorName = "TemporalJoin", .watermarksAmongRows = testing::printWatermarkMillis},
            std::move(subtask)) {}

  size_t storedRows() const { return operatorUnderTest().storedRows(); }
};

Row deletedRate(const std::string& currency, int rate, int64_t time) {
  return Row::ofKind(RowKind::DELETE, currency, rate, time);
}

using Script = testing::Script<TemporalJoinHarness>;

/// testing::expectRestoreChangesNothing for a temporal join of `spec` (the restored subtask's
/// snapshot equals the one it was restored from, so it holds the same rows and versions).
Rows expectTemporalRestoreChangesNothing(const std::shared_ptr<const TemporalJoinSpec>& spec,
                                         const Script& before, const Script& after) {
  return testing::expectRestoreChangesNothing<TemporalJoinHarness>(
      [&spec](testing::SubtaskOptions subtask) {
        return std::make_unique<TemporalJoinHarness>(spec, std::move(subtask));
      },
      before, after);
}

// Before the checkpoint: EUR's versions at 0, 10 and 20, USD's at 0 ended by a deletion at
// 15, YEN's at 0, and orders 2 (EUR at 25) and 3 (USD at 12) waiting behind watermark 9.
// After it: order 8 arrives behind watermark 9 and a repeated watermark 9 emits nothing (the
// watermark came through); orders arriving then join the versions of before the checkpoint
// (order 6 finds USD deleted), and a version arriving after the checkpoint is order 2's.
Script ratesBefore() {
  return [](TemporalJoinHarness& join) {
    return concat({join.right({Row::of("EUR", 114, 0), Row::of("YEN", 1, 0),
                               Row::of("USD", 7, 0)}),
                   join.right({Row::of("EUR", 116, 10), Row::of("EUR", 119, 20)}),
                   join.right({deletedRate("USD", 7, 15)}),
                   join.left({Row::of(1, "EUR", 5), Row::of(2, "EUR", 25), Row::of(3, "USD", 12)}),
                   join.watermark(9)});
  };
}

Script ordersAfter() {
  return [](TemporalJoinHarness& join) {
    return concat({join.left({Row::of(8, "EUR", 8)}), join.watermark(9),
                   join.left({Row::of(4, "EUR", 15), Row::of(5, "YEN", 30), Row::of(6, "USD", 16),
                              Row::of(7, "EUR", 3)}),
                   join.watermark(20), join.right({Row::of("EUR", 120, 25)}), join.watermark(40),
                   join.finish()});
  };
}

TEST(TemporalJoinCheckpointTest, VersionsBeforeAndProbeRowsAfterTheRestore) {
  {
    TemporalJoinHarness join(temporalSpec(JoinType::INNER));
    EXPECT_EQ(ratesBefore()(join), (Rows{"+I[1, EUR, 5, EUR, 114, 0]", "watermark 9"}));
    EXPECT_EQ(join.storedRows(), 8u);  // two orders waiting, six versions
  }
  EXPECT_EQ(expectTemporalRestoreChangesNothing(temporalSpec(JoinType::INNER), ratesBefore(),
                                                ordersAfter()),
            (Rows{"+I[7, EUR, 3, EUR, 114, 0]", "+I[8, EUR, 8, EUR, 114, 0]",
                  "+I[4, EUR, 15, EUR, 116, 10]", "+I[3, USD, 12, USD, 7, 0]", "watermark 20",
                  "+I[2, EUR, 25, EUR, 120, 25]", "+I[5, YEN, 30, YEN, 1, 0]", "watermark 40"}));
  // LEFT: order 6, at USD's deletion, is padded.
  EXPECT_EQ(expectTemporalRestoreChangesNothing(temporalSpec(JoinType::LEFT), ratesBefore(),
                                                ordersAfter()),
            (Rows{"+I[7, EUR, 3, EUR, 114, 0]", "+I[8, EUR, 8, EUR, 114, 0]",
                  "+I[4, EUR, 15, EUR, 116, 10]", "+I[3, USD, 12, USD, 7, 0]",
                  "+I[6, USD, 16, null, null, null]", "watermark 20",
                  "+I[2, EUR, 25, EUR, 120, 25]", "+I[5, YEN, 30, YEN, 1, 0]", "watermark 40"}));
}

// 1500 orders of one key waiting (more than a chunk), fifteen versions and a deletion: each
// order joins the version valid at its time after the restore, the ones at the deletion none.
TEST(TemporalJoinCheckpointTest, ManyWaitingRowsAndVersions) {
  Script before = [](TemporalJoinHarness& join) {
    std::vector<Row> rates;
    for (int version = 0; version < 15; ++version) {
      rates.push_back(Row::of("EUR", version, int64_t{100} * version));
    }
    rates.push_back(deletedRate("EUR", 0, 550));
    std::vector<Row> orders[2];
    for (int id = 0; id < 1500; ++id) {
      orders[id < 1000 ? 0 : 1].push_back(Row::of(id, "EUR", int64_t{id}));
    }
    return concat({join.right(rates), join.left(orders[0]), join.left(orders[1])});
  };
  Script after = [](TemporalJoinHarness& join) {
    return concat({join.watermark(2000), join.finish()});
  };
  const Rows out =
      expectTemporalRestoreChangesNothing(temporalSpec(JoinType::INNER), before, after);
  ASSERT_EQ(out.size(), 1450u + 1);  // orders 550..599 see the deletion; then the watermark
  EXPECT_EQ(out[0], "+I[0, EUR, 0, EUR, 0, 0]");
  EXPECT_EQ(out[549], "+I[549, EUR, 549, EUR, 5, 500]");
  EXPECT_EQ(out[550], "+I[600, EUR, 600, EUR, 6, 600]");
  EXPECT_EQ(out[1449], "+I[1499, EUR, 1499, EUR, 14, 1400]");
  EXPECT_EQ(out[1450], "watermark 2000");
}

// A snapshot taken at parallelism 1 restored at 2: each subtask gets the waiting orders and
// the versions of its key groups, and the union of what the two emit is the uninterrupted
// output; their snapshots restored at parallelism 1 again go on as well.
TEST(TemporalJoinCheckpointTest, RestoreAtAnotherParallelismSplitsTheStateByKeyGroup) {
  const auto spec = temporalSpec(JoinType::LEFT);
  std::vector<Row> rates, orders, moreOrders;
  for (int i = 0; i < 12; ++i) {
    const std::string currency = "cur" + std::to_string(i);
    rates.push_back(Row::of(currency, i, int64_t{0}));
    rates.push_back(Row::of(currency, 100 + i, int64_t{10}));
    orders.push_back(Row::of(i, currency, int64_t{5}));
    orders.push_back(Row::of(100 + i, currency, int64_t{15}));
    moreOrders.push_back(Row::of(200 + i, currency, int64_t{30}));
  }
  orders.push_back(Row::of(999, "nowhere", int64_t{5}));  // no rate: padded
  const size_t firstSubtaskKeys =
      testing::rowsOfSubtask(moreOrders, ordersType(), {1}, 0, 2).size();
  ASSERT_GT(firstSubtaskKeys, 0u);
  ASSERT_LT(firstSubtaskKeys, 12u);  // both subtasks get keys

  TemporalJoinHarness uninterrupted(spec);
  TemporalJoinHarness single(spec);
  for (TemporalJoinHarness* join : {&uninterrupted, &single}) {
    join->right(rates);
    join->left(orders);
  }
  const OperatorSnapshot atOne = single.snapshot(1);
  const Rows expected = uninterrupted.watermark(20);
  const size_t storedAfterWatermark = uninterrupted.storedRows();
  const Rows expectedLast = concat({uninterrupted.left(moreOrders), uninterrupted.watermark(40)});
  EXPECT_EQ(sortedRowsOnly(expected).size(), 25u);

  Rows union2;
  std::vector<OperatorSnapshot> atTwo;
  size_t restoredRows = 0;
  for (int subtask = 0; subtask < 2; ++subtask) {
    TemporalJoinHarness part(spec,
                             {.subtaskIndex = subtask, .parallelism = 2, .restoredFrom = {atOne}});
    EXPECT_GT(part.storedRows(), 0u);
    restoredRows += part.storedRows();
    const Rows out = part.watermark(20);
    union2.insert(union2.end(), out.begin(), out.end());
    atTwo.push_back(part.snapshot(2));
  }
  EXPECT_EQ(restoredRows, single.storedRows());
  EXPECT_EQ(sortedRowsOnly(union2), sortedRowsOnly(expected));

  // Back to parallelism 1 from the two subtasks' snapshots: the versions kept at watermark 20
  // are the ones the orders at 30 join.
  TemporalJoinHarness merged(spec, {.restoredFrom = atTwo});
  EXPECT_EQ(merged.storedRows(), storedAfterWatermark);
  EXPECT_EQ(sorted(concat({merged.left(moreOrders), merged.watermark(40)})), sorted(expectedLast));
}

TEST(TemporalJoinCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  const auto spec = temporalSpec(JoinType::INNER);
  TemporalJoinHarness join(spec);
  join.right({Row::of("EUR", 114, 0), deletedRate("EUR", 0, 10), Row::of("EUR", 116, 20)});
  join.left({Row::of(1, "EUR", 5), Row::of(2, "EUR", 25)});
  const OperatorSnapshot snapshot = join.snapshot(1);
  {
    TemporalJoinHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
    EXPECT_EQ(restored.storedRows(), 5u);
    EXPECT_EQ(restored.watermark(30), (Rows{"+I[1, EUR, 5, EUR, 114, 0]",
                                            "+I[2, EUR, 25, EUR, 116, 20]", "watermark 30"}));
  }
  for (const char* stateName :
       {TemporalJoinOperator::kLeftRowsStateName, TemporalJoinOperator::kVersionsStateName}) {
    testing::expectEveryTruncationRefused(
        snapshot, stateName, "operator 'TemporalJoin'", [&](const OperatorSnapshot& cut) {
          TemporalJoinHarness restored(spec, {.restoredFrom = {cut}});
        });
  }
}

}  // namespace
}  // namespace eddy::runtime::operators

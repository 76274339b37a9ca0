// The group aggregate's state in checkpoints: its accumulators are keyed ValueState, so a
// subtask snapshotted midway and restored goes on exactly as the uninterrupted one, also at
// another parallelism; a checkpoint taken while a mini-batch is buffered flushes the bundle
// before the barrier (prepareSnapshotPreBarrier), so nothing buffered is lost and the restored
// subtask goes on from the flushed accumulators; a LOCAL phase sends its partial rows before the
// barrier and keeps nothing; a GLOBAL phase flushes its buffered partials.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/aggregate/group_aggregate_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using function::AggregateCall;
using function::AggregateKind;
namespace {

using testing::Rows;

LogicalTypePtr inputType() { return parseLogicalType("ROW<k STRING, v INT>"); }

/// SELECT k, SUM(v), COUNT(*) GROUP BY k; under mini-batch (5 rows or 100 ms) when asked.
std::shared_ptr<GroupAggregateSpec> sumAndCount(bool miniBatch) {
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->inputRowType = inputType();
  spec->groupingColumns = {0};
  spec->calls = {
      AggregateCall{AggregateKind::SUM, 1, LogicalType::simple(LogicalTypeRoot::INTEGER)},
      AggregateCall{AggregateKind::COUNT_STAR, -1,
                    LogicalType::simple(LogicalTypeRoot::BIGINT, false)}};
  spec->outputRowType = parseLogicalType("ROW<k STRING, total INT, n BIGINT NOT NULL>");
  if (miniBatch) {
    spec->miniBatchLatencyMillis = 100;
    spec->miniBatchSize = 5;
  }
  return spec;
}

/// One GroupAggregateOperator subtask of `spec`, as subtask `subtask` (restored from its
/// snapshots where given).
class AggregateHarness : public testing::OneInputOperatorTestHarness<GroupAggregateOperator> {
 public:
  AggregateHarness(std::shared_ptr<const GroupAggregateSpec> spec,
                   testing::SubtaskOptions subtask = {})
      : OneInputOperatorTestHarness(std::make_unique<GroupAggregateOperator>(spec),
                                    spec->inputRowType, {.operatorName = "GroupAggregate"},
                                    std::move(subtask)) {}
};

/// Makes harnesses of `spec`, as expectRestoreChangesNothing asks.
auto harnesses(std::shared_ptr<const GroupAggregateSpec> spec) {
  return [spec](testing::SubtaskOptions subtask) {
    return std::make_unique<AggregateHarness>(spec, std::move(subtask));
  };
}

/// What a changelog leaves: the rows it inserted and did not retract, sorted.
Rows materialize(const Rows& changelog) {
  std::multiset<std::string> rows;
  for (const std::string& change : changelog) {
    const std::string row = change.substr(2);
    if (change.starts_with("+I") || change.starts_with("+U")) {
      rows.insert(row);
    } else if (auto found = rows.find(row); found != rows.end()) {
      rows.erase(found);
    } else {
      ADD_FAILURE() << "retraction of a row not inserted: " << change;
    }
  }
  return Rows(rows.begin(), rows.end());
}

TEST(GroupAggregateCheckpointTest, AccumulatorsComeBackFromKeyedState) {
  using Harness = AggregateHarness;
  testing::Script<Harness> before = [](Harness& aggregate) {
    return aggregate.push({Row::of("a", 1), Row::of("b", 2), Row::of("a", 3)});
  };
  testing::Script<Harness> after = [](Harness& aggregate) {
    return testing::concat(
        {aggregate.push({Row::of("a", 10), Row::ofKind(RowKind::DELETE, "b", 2), Row::of("c", 7)}),
         aggregate.finish()});
  };
  const std::shared_ptr<const GroupAggregateSpec> spec = sumAndCount(false);
  EXPECT_EQ(testing::expectRestoreChangesNothing<Harness>(harnesses(spec), before, after),
            (Rows{"-U[a, 4, 2]", "+U[a, 14, 3]", "-D[b, 2, 1]", "+I[c, 7, 1]"}));
}

// Three rows are buffered when the checkpoint comes: prepareSnapshotPreBarrier flushes them
// (their changes travel before the barrier), the snapshot holds the accumulators they made, and
// the restored subtask's first change of `a` retracts the flushed row. What the changelog leaves
// is what the uninterrupted run's leaves.
TEST(GroupAggregateCheckpointTest, CheckpointDuringAMiniBatchLosesNothing) {
  const std::shared_ptr<const GroupAggregateSpec> spec = sumAndCount(true);
  AggregateHarness uninterrupted(spec);
  EXPECT_EQ(uninterrupted.push({Row::of("a", 1), Row::of("b", 2)}), Rows{});
  EXPECT_EQ(uninterrupted.push({Row::of("a", 3)}), Rows{});
  // The fifth row fills the bundle.
  const Rows uninterruptedRows = testing::concat(
      {uninterrupted.push({Row::of("a", 10), Row::of("c", 7)}), uninterrupted.finish()});
  EXPECT_EQ(uninterruptedRows, (Rows{"+I[a, 14, 3]", "+I[b, 2, 1]", "+I[c, 7, 1]"}));

  AggregateHarness first(spec);
  EXPECT_EQ(first.push({Row::of("a", 1), Row::of("b", 2)}), Rows{});
  EXPECT_EQ(first.push({Row::of("a", 3)}), Rows{});
  first.takeEvents();
  const OperatorSnapshot snapshot = first.snapshot(1);
  const Rows flushed = first.takeEvents();  // emitted by prepareSnapshotPreBarrier
  EXPECT_EQ(flushed, (Rows{"+I[a, 4, 2]", "+I[b, 2, 1]"}));

  AggregateHarness restored(spec, {.restoredFrom = {snapshot}});
  EXPECT_EQ(restored.push({Row::of("a", 10), Row::of("c", 7)}), Rows{});  // buffered again
  const Rows restoredRows = restored.finish();
  EXPECT_EQ(restoredRows, (Rows{"-U[a, 4, 2]", "+U[a, 14, 3]", "+I[c, 7, 1]"}));
  EXPECT_EQ(materialize(testing::concat({flushed, restoredRows})), materialize(uninterruptedRows));
}

// A LOCAL phase sends the partial rows of its bundle before the barrier and keeps nothing: its
// snapshot has no state block, and after the restore nothing of the old bundle comes again.
TEST(GroupAggregateCheckpointTest, LocalPhaseFlushesItsPartialsBeforeTheBarrier) {
  auto spec = sumAndCount(true);
  spec->phase = AggregatePhase::kLocal;
  spec->outputRowType = partialAggregateRowType(*spec);
  AggregateHarness local(spec);
  EXPECT_EQ(local.push({Row::of("a", 1), Row::of("b", 2), Row::of("a", 3)}), Rows{});
  local.takeEvents();
  const OperatorSnapshot snapshot = local.snapshot(1);
  EXPECT_EQ(local.takeEvents(), (Rows{"+I[a, 4, 2, 2, 2]", "+I[b, 2, 1, 1, 1]"}));
  for (const auto& [keyGroup, section] : snapshot.keyedState) {
    EXPECT_EQ(section.size(), 3u) << "key group " << keyGroup;  // 01 <keyGroup> 00: no block
  }
  AggregateHarness restored(spec, {.restoredFrom = {snapshot}});
  EXPECT_EQ(restored.push({Row::of("a", 5)}), Rows{});
  EXPECT_EQ(restored.finish(), Rows{"+I[a, 5, 1, 1, 1]"});
}

// A GLOBAL phase under mini-batch buffers partial rows: they are merged and their changes sent
// before the barrier, and the restored subtask merges later partials into those accumulators.
TEST(GroupAggregateCheckpointTest, GlobalPhaseFlushesItsBufferedPartials) {
  const auto complete = sumAndCount(true);
  auto global = std::make_shared<GroupAggregateSpec>(*complete);
  global->phase = AggregatePhase::kGlobal;
  global->inputRowType = partialAggregateRowType(*complete);
  auto partial = [](const char* key, int64_t sum, int64_t count) {
    return Row::of(key, sum, count, count, count);
  };
  AggregateHarness first(global);
  EXPECT_EQ(first.push({partial("a", 4, 2), partial("b", 2, 1)}), Rows{});
  first.takeEvents();
  const OperatorSnapshot snapshot = first.snapshot(1);
  EXPECT_EQ(first.takeEvents(), (Rows{"+I[a, 4, 2]", "+I[b, 2, 1]"}));
  AggregateHarness restored(global, {.restoredFrom = {snapshot}});
  EXPECT_EQ(restored.push({partial("a", 10, 1)}), Rows{});
  EXPECT_EQ(restored.finish(), (Rows{"-U[a, 4, 2]", "+U[a, 14, 3]"}));
}

// A snapshot at parallelism 1 restored at 2: each subtask gets the groups of its key groups;
// together they emit the uninterrupted changelog; back at parallelism 1 as well.
TEST(GroupAggregateCheckpointTest, RestoreAtAnotherParallelismSplitsTheGroupsByKeyGroup) {
  const std::shared_ptr<const GroupAggregateSpec> spec = sumAndCount(false);
  std::vector<Row> first, second, third;
  for (int i = 0; i < 16; ++i) {
    const std::string key = "key" + std::to_string(i);
    first.push_back(Row::of(key, i));
    second.push_back(Row::of(key, 100));
    third.push_back(Row::ofKind(RowKind::DELETE, key, i));
  }
  const size_t firstSubtaskRows = testing::rowsOfSubtask(first, inputType(), {0}, 0, 2).size();
  ASSERT_GT(firstSubtaskRows, 0u);
  ASSERT_LT(firstSubtaskRows, first.size());  // both subtasks get groups

  const Rows after = testing::expectRescalingChangesNothing<AggregateHarness>(
      harnesses(spec), [&](AggregateHarness& aggregate) { return aggregate.push(first); },
      [&](AggregateHarness& aggregate, int subtask, int parallelism) {
        return aggregate.push(
            testing::rowsOfSubtask(second, inputType(), {0}, subtask, parallelism));
      },
      [&](AggregateHarness& aggregate, int, int) { return aggregate.push(third); });
  EXPECT_EQ(after.size(), 32u);  // -U/+U per group
}

}  // namespace
}  // namespace eddy::runtime::operators

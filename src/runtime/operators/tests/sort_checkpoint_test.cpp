// The streaming sort's state in checkpoints: a temporal sort snapshotted midway and restored
// into a fresh operator emits exactly what the uninterrupted one does (the rows waiting for the
// watermark, in time and key order with rows that arrive after the restore; the watermark: a
// row late before the checkpoint is late after it); a LIMIT goes on counting from the rows it
// passed before; at another parallelism the rows go to the subtask owning the empty key; and
// truncated bytes are refused naming the state.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/sort/sort_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::SortKey;
namespace {

using testing::Rows;

LogicalTypePtr rowType() { return parseLogicalType("ROW<ts TIMESTAMP(3), v INT>"); }

/// A row at a wall-clock time on 2020-04-15 ("08:01").
Row at(std::string_view time, int value) {
  return Row::of(LocalDateTime::parse("2020-04-15T" + std::string(time)), value);
}

int64_t millis(std::string_view time) {
  return LocalDateTime::parse("2020-04-15T" + std::string(time)).getMillisecond();
}

/// ORDER BY ts, v DESC on a rowtime ts (STREAMING: a temporal sort).
std::shared_ptr<const SortSpec> temporalSortSpec() {
  auto spec = std::make_shared<SortSpec>();
  spec->rowType = rowType();
  spec->keys = {SortKey{0, true, true}, SortKey{1, false, false}};
  spec->timeColumn = 0;
  return spec;
}

/// LIMIT 3 OFFSET 1 without ORDER BY.
std::shared_ptr<const SortSpec> limitSpec() {
  auto spec = std::make_shared<SortSpec>();
  spec->rowType = rowType();
  spec->offset = 1;
  spec->fetch = 3;
  return spec;
}

/// One SortOperator subtask, watermarks among the rows as "Watermark[<wall clock>]"; as
/// subtask `subtask` (restored from its snapshots where given).
class SortHarness : public testing::OneInputOperatorTestHarness<SortOperator> {
 public:
  explicit SortHarness(const std::shared_ptr<const SortSpec>& spec,
                       testing::SubtaskOptions subtask = {})
      : OneInputOperatorTestHarness(std::make_unique<SortOperator>(spec), spec->rowType,
                                    {.operatorName = "TemporalSort",
                                     .watermarksAmongRows = testing::printWatermarkWallClock},
                                    std::move(subtask)) {}

  using OneInputOperatorTestHarness::watermark;
  Rows watermark(std::string_view time) { return watermark(millis(time)); }
  size_t pendingRows() const { return operatorUnderTest().pendingRows(); }
};

using Script = testing::Script<SortHarness>;

/// Makes harnesses of `spec`, as expectRestoreChangesNothing asks.
auto harnesses(std::shared_ptr<const SortSpec> spec) {
  return [spec](testing::SubtaskOptions subtask) {
    return std::make_unique<SortHarness>(spec, std::move(subtask));
  };
}

Script temporalBefore = [](SortHarness& sort) {
  return testing::concat(
      {sort.push({at("08:03", 1), at("08:01", 2), at("08:03", 5), at("08:05", 3)}),
       sort.watermark("08:02")});
};
Script temporalAfter = [](SortHarness& sort) {
  Rows out = testing::concat({sort.push({at("08:02", 9), at("08:04", 4), at("08:03", 7)}),
                              sort.watermark("08:04"), sort.finish()});
  EXPECT_EQ(sort.lateRecordsDropped(), 1);
  return out;
};

// The rows of 08:03 that waited at the checkpoint are emitted with the one that came after it,
// by v descending; 08:02 is behind the restored watermark.
TEST(SortCheckpointTest, TemporalSortWaitingRowsAndWatermarkComeBack) {
  {
    SortHarness sort(temporalSortSpec());
    EXPECT_EQ(temporalBefore(sort),
              (Rows{"+I[2020-04-15T08:01, 2]", "Watermark[2020-04-15T08:02]"}));
    EXPECT_EQ(sort.pendingRows(), 3u);
  }
  EXPECT_EQ(
      testing::expectRestoreChangesNothing<SortHarness>(harnesses(temporalSortSpec()),
                                                        temporalBefore, temporalAfter),
      (Rows{"+I[2020-04-15T08:03, 7]", "+I[2020-04-15T08:03, 5]", "+I[2020-04-15T08:03, 1]",
            "+I[2020-04-15T08:04, 4]", "Watermark[2020-04-15T08:04]", "+I[2020-04-15T08:05, 3]"}));
}

// LIMIT 3 OFFSET 1: the rows seen before the checkpoint count after it.
TEST(SortCheckpointTest, LimitCountsTheRowsSeenBeforeTheCheckpoint) {
  Script before = [](SortHarness& limit) { return limit.push({at("08:00", 0), at("08:01", 1)}); };
  Script after = [](SortHarness& limit) {
    return testing::concat({limit.push({at("08:02", 2), at("08:03", 3), at("08:04", 4)}),
                            limit.push({at("08:05", 5)}), limit.finish()});
  };
  {
    SortHarness limit(limitSpec());
    EXPECT_EQ(before(limit), Rows{"+I[2020-04-15T08:01, 1]"});
  }
  EXPECT_EQ(
      testing::expectRestoreChangesNothing<SortHarness>(harnesses(limitSpec()), before, after),
      (Rows{"+I[2020-04-15T08:02, 2]", "+I[2020-04-15T08:03, 3]"}));
}

// At parallelism 2 the subtask owning the empty key's key group gets every waiting row, the
// other none; both get the watermark, and together they emit what the uninterrupted sort does.
TEST(SortCheckpointTest, RestoreAtAnotherParallelismGivesTheRowsToTheEmptyKeysSubtask) {
  SortHarness uninterrupted(temporalSortSpec());
  SortHarness single(temporalSortSpec());
  temporalBefore(uninterrupted);
  temporalBefore(single);
  const OperatorSnapshot atOne = single.snapshot(1);
  const Rows expected =
      testing::concat({uninterrupted.push({at("08:02", 9)}), uninterrupted.watermark("08:04")});
  const int owner = computeOperatorIndexForKeyGroup(128, 2, assignToKeyGroup("", 128));
  const Rows union2 = testing::runRestoredSubtasks<SortHarness>(
      harnesses(temporalSortSpec()), {atOne}, 2, [&](SortHarness& part, int subtask) {
        EXPECT_EQ(part.pendingRows(), subtask == owner ? 3u : 0u);
        Rows out = testing::concat({part.push({at("08:02", 9)}), part.watermark("08:04")});
        EXPECT_EQ(part.lateRecordsDropped(), 1);  // both restored the watermark
        return out;
      });
  EXPECT_EQ(testing::sortedRowsOnly(union2), testing::sortedRowsOnly(expected));
  EXPECT_EQ(testing::sortedRowsOnly(expected).size(), 2u);
}

TEST(SortCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  const auto spec = temporalSortSpec();
  SortHarness sort(spec);
  temporalBefore(sort);
  const OperatorSnapshot snapshot = sort.snapshot(1);
  {
    SortHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
    EXPECT_EQ(restored.pendingRows(), 3u);
  }
  testing::expectEveryTruncationRefused(
      snapshot, SortOperator::kRowsStateName, "TemporalSort",
      [&](const OperatorSnapshot& cut) { SortHarness restored(spec, {.restoredFrom = {cut}}); });
}

}  // namespace
}  // namespace eddy::runtime::operators

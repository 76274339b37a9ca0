// ChangelogNormalize's last rows in checkpoints: they are the keyed ValueState "last-row", so a
// subtask snapshotted midway and restored turns the rest of an upsert changelog into exactly
// the retractions of the uninterrupted one (an upsert of a key seen before the checkpoint is
// -U old / +U new, an identical one nothing, a delete -D with the stored row), also at another
// parallelism.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/normalize/changelog_normalize_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {
namespace {

using testing::Rows;

LogicalTypePtr rowType() { return parseLogicalType("ROW<id INT, name STRING>"); }

/// One ChangelogNormalizeOperator subtask keyed by id, as subtask `subtask` (restored from its
/// snapshots where given).
class NormalizeHarness : public testing::OneInputOperatorTestHarness<> {
 public:
  explicit NormalizeHarness(testing::SubtaskOptions subtask = {})
      : OneInputOperatorTestHarness(
            std::make_unique<ChangelogNormalizeOperator>(rowType(), std::vector<int>{0}), rowType(),
            {.operatorName = "ChangelogNormalize"}, std::move(subtask)) {}
};

/// Makes harnesses, as expectRestoreChangesNothing asks.
auto harnesses() {
  return [](testing::SubtaskOptions subtask) {
    return std::make_unique<NormalizeHarness>(std::move(subtask));
  };
}

Row upsert(int id, const char* name) { return Row::ofKind(RowKind::UPDATE_AFTER, id, name); }
Row remove(int id, const char* name) { return Row::ofKind(RowKind::DELETE, id, name); }

TEST(ChangelogNormalizeCheckpointTest, LastRowsComeBackFromKeyedState) {
  testing::Script<NormalizeHarness> before = [](NormalizeHarness& normalize) {
    return normalize.push({Row::of(1, "a"), Row::of(2, "b"), upsert(1, "c")});
  };
  testing::Script<NormalizeHarness> after = [](NormalizeHarness& normalize) {
    return testing::concat({normalize.push({upsert(1, "d"), upsert(2, "b"), remove(2, "x"),
                                            remove(3, "y"), upsert(3, "z")}),
                            normalize.finish()});
  };
  EXPECT_EQ(testing::expectRestoreChangesNothing<NormalizeHarness>(harnesses(), before, after),
            (Rows{"-U[1, c]", "+U[1, d]", "-D[2, b]", "+I[3, z]"}));
}

// A snapshot at parallelism 1 restored at 2: each subtask gets the last rows of its key groups.
TEST(ChangelogNormalizeCheckpointTest, RestoreAtAnotherParallelismSplitsTheKeysByKeyGroup) {
  std::vector<Row> first, second, third;
  for (int id = 0; id < 16; ++id) {
    first.push_back(Row::of(id, "old"));
    second.push_back(upsert(id, "new"));
    third.push_back(remove(id, "any"));
  }
  const size_t firstSubtaskRows = testing::rowsOfSubtask(first, rowType(), {0}, 0, 2).size();
  ASSERT_GT(firstSubtaskRows, 0u);
  ASSERT_LT(firstSubtaskRows, first.size());  // both subtasks get keys

  const Rows after = testing::expectRescalingChangesNothing<NormalizeHarness>(
      harnesses(), [&](NormalizeHarness& normalize) { return normalize.push(first); },
      [&](NormalizeHarness& normalize, int subtask, int parallelism) {
        return normalize.push(testing::rowsOfSubtask(second, rowType(), {0}, subtask, parallelism));
      },
      [&](NormalizeHarness& normalize, int, int) { return normalize.push(third); });
  EXPECT_EQ(after.size(), 32u);  // -U old / +U new per key
}

}  // namespace
}  // namespace eddy::runtime::operators

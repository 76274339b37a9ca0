// The sink upsert materializer's lists in checkpoints: a subtask snapshotted midway and
// restored into a fresh operator goes on exactly as the uninterrupted one (rows listed before
// the checkpoint retracted after it, by all columns and by an upsert key), a restore at another
// parallelism splits the keys by key group (and merges them back), the block bytes are the
// documented ones, and truncated bytes are refused naming the state.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/sink/sink_upsert_materializer_operator.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {
namespace {

using testing::Rows;

LogicalTypePtr rowType() { return parseLogicalType("ROW<id INT, name STRING, amount INT>"); }

std::shared_ptr<const SinkUpsertMaterializerSpec> materializerSpec(std::vector<int> upsertKey) {
  auto spec = std::make_shared<SinkUpsertMaterializerSpec>();
  spec->rowType = rowType();
  spec->primaryKey = {0};
  spec->upsertKey = std::move(upsertKey);
  return spec;
}

/// One SinkUpsertMaterializerOperator subtask, as subtask `subtask` (restored from its
/// snapshots where given).
class MaterializerHarness
    : public testing::OneInputOperatorTestHarness<SinkUpsertMaterializerOperator> {
 public:
  explicit MaterializerHarness(std::vector<int> upsertKey, testing::SubtaskOptions subtask = {})
      : OneInputOperatorTestHarness(std::make_unique<SinkUpsertMaterializerOperator>(
                                        materializerSpec(std::move(upsertKey))),
                                    rowType(), {.operatorName = "SinkMaterializer"},
                                    std::move(subtask)) {}
  int64_t storedRows() const { return operatorUnderTest().storedRows(); }
};

using Script = testing::Script<MaterializerHarness>;

/// Makes harnesses with upsert key `upsertKey`, as expectRestoreChangesNothing asks.
auto harnesses(std::vector<int> upsertKey) {
  return [upsertKey](testing::SubtaskOptions subtask) {
    return std::make_unique<MaterializerHarness>(upsertKey, std::move(subtask));
  };
}

/// A change of the sink's input: `kind` of the row (id, name, amount).
Row change(RowKind kind, int id, const char* name, int amount) {
  return Row::ofKind(kind, id, name, amount);
}
Row insert(int id, const char* name, int amount) {
  return change(RowKind::INSERT, id, name, amount);
}

// Without an upsert key (rows matched by all columns): rows listed before the checkpoint are
// retracted after it, the last listed showing the row before it, the only one deleting its key.
TEST(SinkUpsertMaterializerCheckpointTest, RetractionsOfRowsListedBeforeTheCheckpoint) {
  Script beforeCheckpoint = [](MaterializerHarness& sink) {
    return sink.push(
        {insert(1, "a", 10), insert(1, "b", 20), insert(2, "c", 5), insert(3, "d", 1)});
  };
  Script afterCheckpoint = [](MaterializerHarness& sink) {
    Rows out =
        testing::concat({sink.push({change(RowKind::UPDATE_BEFORE, 1, "b", 20)}),
                         sink.push({change(RowKind::DELETE, 2, "c", 5)}),
                         sink.push({change(RowKind::UPDATE_BEFORE, 1, "a", 10)}),
                         sink.push({change(RowKind::UPDATE_AFTER, 3, "d", 2)}), sink.finish()});
    EXPECT_EQ(sink.storedRows(), 2);  // (3, d, 1) and (3, d, 2)
    return out;
  };
  {
    MaterializerHarness sink({});
    EXPECT_EQ(beforeCheckpoint(sink),
              (Rows{"+I[1, a, 10]", "+U[1, b, 20]", "+I[2, c, 5]", "+I[3, d, 1]"}));
  }
  EXPECT_EQ(testing::expectRestoreChangesNothing<MaterializerHarness>(
                harnesses({}), beforeCheckpoint, afterCheckpoint),
            (Rows{"+U[1, a, 10]", "-D[2, c, 5]", "-D[1, a, 10]", "+U[3, d, 2]"}));
}

// With an upsert key (name): a row of a listed upsert key replaces it in its place, and the
// retraction of the last listed row brings back the replaced one.
TEST(SinkUpsertMaterializerCheckpointTest, UpsertKeyReplacesARowListedBeforeTheCheckpoint) {
  Script beforeCheckpoint = [](MaterializerHarness& sink) {
    return sink.push({insert(1, "a", 10), insert(1, "b", 20)});
  };
  Script afterCheckpoint = [](MaterializerHarness& sink) {
    return testing::concat({sink.push({change(RowKind::UPDATE_AFTER, 1, "a", 11)}),
                            sink.push({change(RowKind::DELETE, 1, "b", 20)}),
                            sink.push({change(RowKind::DELETE, 1, "a", 11)}), sink.finish()});
  };
  EXPECT_EQ(testing::expectRestoreChangesNothing<MaterializerHarness>(
                harnesses({1}), beforeCheckpoint, afterCheckpoint),
            (Rows{"+U[1, a, 11]", "+U[1, a, 11]", "-D[1, a, 11]"}));
}

// A snapshot at parallelism 1 restored at 2: each subtask gets the lists of its key groups; the
// union of what they emit for the rows the exchange sends them is the uninterrupted output; their
// snapshots restored at parallelism 1 again go on as well.
TEST(SinkUpsertMaterializerCheckpointTest, RestoreAtAnotherParallelismSplitsTheKeysByKeyGroup) {
  std::vector<Row> first, second, third;
  for (int id = 0; id < 16; ++id) {
    first.push_back(insert(id, "x", id));
    first.push_back(insert(id, "y", 100 + id));
    // The last listed goes: (id, x) shows again; then the only one left: the key is deleted.
    second.push_back(change(RowKind::UPDATE_BEFORE, id, "y", 100 + id));
    third.push_back(change(RowKind::DELETE, id, "x", id));
  }
  const LogicalTypePtr type = rowType();
  const size_t firstSubtaskRows = testing::rowsOfSubtask(first, type, {0}, 0, 2).size();
  ASSERT_GT(firstSubtaskRows, 0u);
  ASSERT_LT(firstSubtaskRows, first.size());  // both subtasks get keys

  const Rows after = testing::expectRescalingChangesNothing<MaterializerHarness>(
      harnesses({}), [&](MaterializerHarness& sink) { return sink.push(first); },
      [&](MaterializerHarness& sink, int subtask, int parallelism) {
        return sink.push(testing::rowsOfSubtask(second, type, {0}, subtask, parallelism));
      },
      [&](MaterializerHarness& sink, int, int) {
        EXPECT_EQ(sink.storedRows(), 16);
        Rows out = sink.push(third);
        EXPECT_EQ(sink.storedRows(), 0);
        return out;
      },
      [](const MaterializerHarness& sink) { return static_cast<size_t>(sink.storedRows()); });
  EXPECT_EQ(after.size(), 16u);
}

// The example of docs/state_format.md, "Sink upsert materializer".
TEST(SinkUpsertMaterializerCheckpointTest, BlockBytesFollowTheDocumentedFormat) {
  MaterializerHarness sink({});
  sink.push({insert(1, "a", 10)});
  int keyGroup = -1;
  const std::string body = testing::onlyBlockBody(
      sink.snapshot(1), SinkUpsertMaterializerOperator::kRowsStateName, &keyGroup);
  EXPECT_EQ(keyGroup, testing::keyGroupOfRow(insert(1, "a", 10), rowType(), {0}));
  EXPECT_EQ(testing::hex(body),
            "01 05 01 80 00 00 01 01 0e 03 04 80 00 00 01 09 01 61 04 80 00 00 0a");
}

TEST(SinkUpsertMaterializerCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  MaterializerHarness sink({});
  sink.push({insert(1, "a", 10), insert(1, "b", 20), insert(2, "c", 5)});
  const OperatorSnapshot snapshot = sink.snapshot(1);
  {
    MaterializerHarness restored({}, {.restoredFrom = {snapshot}});  // intact: restores
    EXPECT_EQ(restored.storedRows(), 3);
  }
  testing::expectEveryTruncationRefused(snapshot, SinkUpsertMaterializerOperator::kRowsStateName,
                                        "SinkMaterializer", [](const OperatorSnapshot& cut) {
                                          MaterializerHarness restored({}, {.restoredFrom = {cut}});
                                        });
}

}  // namespace
}  // namespace eddy::runtime::operators

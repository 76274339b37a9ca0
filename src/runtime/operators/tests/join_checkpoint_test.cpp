// The regular join's state in checkpoints: a subtask snapshotted midway and restored into a
// fresh operator goes on exactly as the uninterrupted one (inner joins with retractions and
// duplicates, outer joins whose padded rows are retracted and re-inserted after the restore,
// SEMI and ANTI joins, the state TTL, the watermark CURRENT_WATERMARK reads, more rows than one
// chunk holds), a restore at another parallelism splits the stored rows by key group (and
// merges them back), and bytes that do not decode are refused naming the state.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "runtime/operators/tests/checkpoint_test_harness.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {

using relational::JoinType;
using relational::outputsLeftOnly;
namespace {

using testing::blockBody;
using testing::concat;
using testing::hex;
using testing::Rows;
using testing::sorted;

LogicalTypePtr leftType() { return parseLogicalType("ROW<lk STRING, lv INT>"); }
LogicalTypePtr rightType() { return parseLogicalType("ROW<rk STRING, rv INT>"); }

/// ROW<lk, lv> ⋈ ROW<rk, rv> on lk = rk.
std::shared_ptr<const JoinSpec> joinSpec(JoinType type, int64_t stateTtlMillis = 0) {
  auto spec = std::make_shared<JoinSpec>();
  spec->joinType = type;
  spec->leftRowType = leftType();
  spec->rightRowType = rightType();
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->outputRowType = outputsLeftOnly(type)
                            ? leftType()
                            : parseLogicalType("ROW<lk STRING, lv INT, rk STRING, rv INT>");
  spec->stateTtlMillis = stateTtlMillis;
  return spec;
}

/// One JoinOperator subtask; as subtask `subtask` (restored from its snapshots where given).
class JoinHarness : public testing::TwoInputOperatorTestHarness<JoinOperator> {
 public:
  explicit JoinHarness(const std::shared_ptr<const JoinSpec>& spec,
                       testing::SubtaskOptions subtask = {},
                       const Clock* clock = &SystemClock::instance())
      : TwoInputOperatorTestHarness(std::make_unique<JoinOperator>(spec), spec->leftRowType,
                                    spec->rightRowType, {.operatorName = "Join", .clock = clock},
                                    std::move(subtask)) {}

  int64_t storedRows() const { return operatorUnderTest().storedRows(); }
  int64_t heldRows() const { return operatorUnderTest().heldRows(); }
};

template <typename Key>
Row deleted(Key key, int value) {
  return Row::ofKind(RowKind::DELETE, key, value);
}

using Script = testing::Script<JoinHarness>;

/// testing::expectRestoreChangesNothing for a join of `spec` (the restored subtask's snapshot
/// equals the one it was restored from, so it holds the same rows and counts).
Rows expectJoinRestoreChangesNothing(const std::shared_ptr<const JoinSpec>& spec,
                                     const Script& before, const Script& after) {
  return testing::expectRestoreChangesNothing<JoinHarness>(
      [&spec](testing::SubtaskOptions subtask) {
        return std::make_unique<JoinHarness>(spec, std::move(subtask));
      },
      before, after);
}

// Duplicates and retractions of rows stored before the checkpoint: the multiplicity of (a, 1)
// came through (its -D after the restore leaves one copy), the retracting side finds its rows
// again (their hashes are recomputed), and update kinds are forwarded as before.
// The order every snapshot writes keys in (key group, then key bytes as std::string_view
// compares them), through 16-byte prefixes: keys that are prefixes of each other, zero bytes,
// bytes above 0x7f, keys longer than a prefix that differ only after it.
TEST(JoinCheckpointTest, SnapshotKeysAreSortedByKeyGroupThenKeyBytes) {
  std::vector<std::string> bytes = {"", std::string(1, '\0'), "a", std::string("a\0", 2), "ab",
                                    "abcdefgh", std::string("abcdefgh\0", 9), "abcdefghi",
                                    "abcdefghh", "\xff", "\x80\x01", "\x7f",
                                    "abcdefghijklmnop", std::string("abcdefghijklmnop\0", 17),
                                    "abcdefghijklmnopr", "abcdefghijklmnopq"};
  uint64_t random = 42;
  for (int i = 0; i < 2000; ++i) {
    std::string key;
    random = random * 6364136223846793005ULL + 1442695040888963407ULL;
    const int length = static_cast<int>(random >> 60);  // 0..15
    for (int b = 0; b < length; ++b) {
      random = random * 6364136223846793005ULL + 1442695040888963407ULL;
      key.push_back(static_cast<char>(random >> 56 & 0x3));  // few byte values: many ties
    }
    bytes.push_back(std::move(key));
  }
  std::vector<SnapshotKey> keys;
  for (size_t i = 0; i < bytes.size(); ++i) {
    keys.push_back(SnapshotKey{static_cast<int>(i % 3), bytes[i], static_cast<int32_t>(i)});
  }
  std::vector<SnapshotKey> expected = keys;
  std::stable_sort(expected.begin(), expected.end(), [](const auto& left, const auto& right) {
    if (left.keyGroup != right.keyGroup) return left.keyGroup < right.keyGroup;
    return left.bytes < right.bytes;
  });
  sortSnapshotKeys(keys);
  ASSERT_EQ(keys.size(), expected.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    ASSERT_EQ(keys[i].keyGroup, expected[i].keyGroup) << i;
    ASSERT_EQ(keys[i].bytes, expected[i].bytes) << i;
  }
}

TEST(JoinCheckpointTest, InnerJoinRetractsRowsStoredBeforeTheCheckpoint) {
  Script before = [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 1), Row::of("a", 1), Row::of("b", 2)}),
                   join.right({Row::of("a", 10)}), join.left({Row::of("c", 3)})});
  };
  Script after = [](JoinHarness& join) {
    return concat({join.right({deleted("a", 10)}), join.left({deleted("a", 1)}),
                   join.right({Row::of("a", 11)}), join.right({Row::of("b", 20)}),
                   join.left({Row::ofKind(RowKind::UPDATE_BEFORE, "c", 3),
                              Row::ofKind(RowKind::UPDATE_AFTER, "c", 4)}),
                   join.right({Row::of("c", 30)}),
                   join.left({Row::ofKind(RowKind::UPDATE_BEFORE, "b", 2),
                              Row::ofKind(RowKind::UPDATE_AFTER, "b", 5)})});
  };
  {
    JoinHarness join(joinSpec(JoinType::INNER));
    EXPECT_EQ(before(join), (Rows{"+I[a, 1, a, 10]", "+I[a, 1, a, 10]"}));
    EXPECT_EQ(join.storedRows(), 4);  // (a, 1) twice is one stored row of count 2
  }
  EXPECT_EQ(expectJoinRestoreChangesNothing(joinSpec(JoinType::INNER), before, after),
            (Rows{"-D[a, 1, a, 10]", "-D[a, 1, a, 10]", "+I[a, 1, a, 11]", "+I[b, 2, b, 20]",
                  "+I[c, 4, c, 30]", "-U[b, 2, b, 20]", "+U[b, 5, b, 20]"}));
}

// The numbers of associations come through: (a, 1), padded before the checkpoint, has its
// padded row retracted by its first match after the restore (-D, then +I of the joined row),
// (b, 2), matched before it, gets its padded row back when its match leaves, and a second
// match of a row joined after the restore retracts nothing.
Script outerBefore() {
  return [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 1)}), join.left({Row::of("b", 2)}),
                   join.right({Row::of("b", 20)}), join.right({Row::of("c", 5)})});
  };
}

Script outerAfter() {
  return [](JoinHarness& join) {
    return concat({join.right({Row::of("a", 10)}), join.right({deleted("b", 20)}),
                   join.right({Row::of("a", 11)}), join.left({Row::of("c", 6)}),
                   join.left({deleted("b", 2)})});
  };
}

TEST(JoinCheckpointTest, LeftJoinRetractsAPaddedRowAtItsFirstMatchAfterTheRestore) {
  {
    JoinHarness join(joinSpec(JoinType::LEFT));
    EXPECT_EQ(outerBefore()(join), (Rows{"+I[a, 1, null, null]", "+I[b, 2, null, null]",
                                         "-D[b, 2, null, null]", "+I[b, 2, b, 20]"}));
  }
  EXPECT_EQ(expectJoinRestoreChangesNothing(joinSpec(JoinType::LEFT), outerBefore(), outerAfter()),
            (Rows{"-D[a, 1, null, null]", "+I[a, 1, a, 10]", "-D[b, 2, b, 20]",
                  "+I[b, 2, null, null]", "+I[a, 1, a, 11]", "+I[c, 6, c, 5]",
                  "-D[b, 2, null, null]"}));
}

TEST(JoinCheckpointTest, FullJoinRetractsPaddedRowsOfBothSidesAfterTheRestore) {
  {
    JoinHarness join(joinSpec(JoinType::FULL));
    EXPECT_EQ(outerBefore()(join),
              (Rows{"+I[a, 1, null, null]", "+I[b, 2, null, null]", "-D[b, 2, null, null]",
                    "+I[b, 2, b, 20]", "+I[null, null, c, 5]"}));
  }
  EXPECT_EQ(expectJoinRestoreChangesNothing(joinSpec(JoinType::FULL), outerBefore(), outerAfter()),
            (Rows{"-D[a, 1, null, null]", "+I[a, 1, a, 10]", "-D[b, 2, b, 20]",
                  "+I[b, 2, null, null]", "+I[a, 1, a, 11]", "-D[null, null, c, 5]",
                  "+I[c, 6, c, 5]", "-D[b, 2, null, null]"}));
}

// SEMI and ANTI joins keep a left row's number of partners: (a, 5) has two before the
// checkpoint, so it changes visibility only when the second leaves after the restore.
Script semiAntiBefore() {
  return [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 5), Row::of("b", 1)}), join.right({Row::of("a", 9)}),
                   join.right({Row::of("a", 10)})});
  };
}

Script semiAntiAfter() {
  return [](JoinHarness& join) {
    return concat({join.right({deleted("a", 9)}), join.right({deleted("a", 10)}),
                   join.left({Row::of("a", 6)}), join.right({Row::of("b", 3)}),
                   join.left({deleted("b", 1)})});
  };
}

TEST(JoinCheckpointTest, AntiJoinKeepsTheNumberOfPartnersThroughTheRestore) {
  {
    JoinHarness join(joinSpec(JoinType::ANTI));
    EXPECT_EQ(semiAntiBefore()(join), (Rows{"+I[a, 5]", "+I[b, 1]", "-D[a, 5]"}));
  }
  EXPECT_EQ(
      expectJoinRestoreChangesNothing(joinSpec(JoinType::ANTI), semiAntiBefore(), semiAntiAfter()),
      (Rows{"+I[a, 5]", "+I[a, 6]", "-D[b, 1]"}));
}

TEST(JoinCheckpointTest, SemiJoinKeepsTheNumberOfPartnersThroughTheRestore) {
  {
    JoinHarness join(joinSpec(JoinType::SEMI));
    EXPECT_EQ(semiAntiBefore()(join), Rows{"+I[a, 5]"});
  }
  EXPECT_EQ(
      expectJoinRestoreChangesNothing(joinSpec(JoinType::SEMI), semiAntiBefore(), semiAntiAfter()),
      (Rows{"-D[a, 5]", "+I[b, 1]", "-D[b, 1]"}));
}

// table.exec.state.ttl = 1 s: the rows' last writes come through, so Alice's left row, written
// at 0, has expired at 1200 after a restore at 600 (stamping it with the restore time would
// keep it), while Bob's, rewritten at 600, still joins. A snapshot taken once Alice's rows
// have expired leaves them out.
TEST(JoinCheckpointTest, StateTtlGoesOnFromTheOriginalWrites) {
  const auto spec = joinSpec(JoinType::INNER, 1000);
  ManualClock clock(0);
  JoinHarness first(spec, {}, &clock);
  EXPECT_EQ(first.left({Row::of("Alice", 1), Row::of("Bob", 2)}), Rows{});
  clock.advance(600);
  EXPECT_EQ(first.left({Row::of("Bob", 3)}), Rows{});
  const OperatorSnapshot at600 = first.snapshot(1);

  ManualClock restoredClock(600);
  JoinHarness restored(spec, {.restoredFrom = {at600}}, &restoredClock);
  EXPECT_EQ(restored.storedRows(), 3);
  restoredClock.advance(600);
  EXPECT_EQ(restored.right({Row::of("Alice", 10), Row::of("Bob", 20)}),
            (Rows{"+I[Bob, 2, Bob, 20]", "+I[Bob, 3, Bob, 20]"}));

  clock.advance(500);  // 1100: Alice's rows expired, Bob's not
  const OperatorSnapshot at1100 = first.snapshot(2);
  ManualClock laterClock(1100);
  JoinHarness later(spec, {.restoredFrom = {at1100}}, &laterClock);
  EXPECT_EQ(later.storedRows(), 2);
  EXPECT_EQ(later.right({Row::of("Bob", 21)}),
            (Rows{"+I[Bob, 2, Bob, 21]", "+I[Bob, 3, Bob, 21]"}));
}

// CURRENT_WATERMARK in the condition reads the watermark of before the checkpoint: lt > the
// watermark (10 s) holds for (a, 20 s), not for (a, 5 s); without the watermark, until the
// next one, it would be NULL and neither would join.
TEST(JoinCheckpointTest, TheConditionReadsTheWatermarkOfBeforeTheRestore) {
  const LogicalTypePtr rowtime =
      parseLogicalType("TIMESTAMP(3)")->copyWithTimestampKind(TimestampKind::ROWTIME);
  auto spec = std::make_shared<JoinSpec>();
  spec->joinType = JoinType::INNER;
  auto field = [](std::string name, LogicalTypePtr type) {
    return RowField{std::move(name), std::move(type), std::nullopt};
  };
  spec->leftRowType =
      LogicalType::row({field("lk", parseLogicalType("STRING")), field("lt", rowtime)});
  spec->rightRowType = rightType();
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->condition = expression::call(
      ">", {expression::column(1, rowtime),
            expression::call("CURRENT_WATERMARK", {expression::column(1, rowtime)})});
  spec->outputRowType = LogicalType::row(
      {field("lk", parseLogicalType("STRING")), field("lt", rowtime),
       field("rk", parseLogicalType("STRING")), field("rv", parseLogicalType("INT"))});
  Script before = [](JoinHarness& join) { return join.watermark(10000); };
  Script after = [](JoinHarness& join) {
    return concat({join.left({Row::of("a", LocalDateTime::ofEpochMillis(20000))}),
                   join.right({Row::of("a", 1)}),
                   join.left({Row::of("a", LocalDateTime::ofEpochMillis(5000))})});
  };
  EXPECT_EQ(expectJoinRestoreChangesNothing(spec, before, after),
            Rows{"+I[a, 1970-01-01T00:00:20, a, 1]"});
}

// More rows under one key than a chunk holds (cut into several chunks on restore), matched and
// retracted after the restore.
TEST(JoinCheckpointTest, ManyRowsUnderOneKey) {
  Script before = [](JoinHarness& join) {
    Rows out;
    for (int chunk = 0; chunk < 3; ++chunk) {
      std::vector<Row> rows;
      for (int i = 0; i < 1000; ++i) rows.push_back(Row::of("hot", chunk * 1000 + i));
      Rows part = join.left(rows);
      out.insert(out.end(), part.begin(), part.end());
    }
    return out;
  };
  Script after = [](JoinHarness& join) {
    std::vector<Row> retracted;
    for (int i = 0; i < 3000; i += 7) retracted.push_back(deleted("hot", i));
    return concat({join.left(retracted), join.right({Row::of("hot", -1)}),
                   join.right({deleted("hot", -1)})});
  };
  const Rows after1 = expectJoinRestoreChangesNothing(joinSpec(JoinType::LEFT), before, after);
  // Each remaining left row: -D padded, +I joined, then -D joined, +I padded.
  const size_t remaining = 3000 - (3000 + 6) / 7;
  EXPECT_EQ(after1.size(), 3000 - remaining + 4 * remaining);
  EXPECT_EQ(after1.front(), "-D[hot, 0, null, null]");
  EXPECT_EQ(after1.back(), "+I[hot, 2999, null, null]");
}

// An asynchronous snapshot (frozen on the task thread, written later on another) writes the
// rows as they were at its freeze, byte for byte as a synchronous one taken then, although the
// operator goes on meanwhile: it retracts most stored rows (their chunks are freed and the
// store compacted) and stores new ones.
TEST(JoinCheckpointTest, AnAsynchronousSnapshotWritesTheRowsOfItsFreeze) {
  JoinHarness join(joinSpec(JoinType::LEFT));
  for (int chunk = 0; chunk < 6; ++chunk) {
    std::vector<Row> rows;
    for (int i = 0; i < 1000; ++i) {
      rows.push_back(Row::of("k" + std::to_string(i % 100), chunk * 1000 + i));
    }
    join.left(rows);
  }
  join.right({Row::of("k1", 10), Row::of("k2", 20)});
  const OperatorSnapshot atFreeze = join.snapshot(1);
  JoinHarness::FrozenSnapshot frozen = join.freezeSnapshot(2);

  std::vector<Row> retracted;
  for (int i = 0; i < 5990; ++i) retracted.push_back(deleted("k" + std::to_string(i % 100), i));
  join.left(retracted);
  join.right({deleted("k1", 10), Row::of("k3", 30)});
  join.left({Row::of("new", 1)});
  EXPECT_EQ(join.storedRows(), 10 + 2 + 1);
  // Five of the six chunks the frozen rows are in were let go by the store.
  EXPECT_LT(join.heldRows(), 2000);
  EXPECT_NE(join.snapshot(3).keyedState, atFreeze.keyedState);

  OperatorSnapshot written;
  std::thread writer([&] { written = frozen.write(); });
  writer.join();
  EXPECT_EQ(written.keyedState, atFreeze.keyedState);
  EXPECT_EQ(written.operatorState, atFreeze.operatorState);
}

/// The rows of `rows` (first column: the key) that subtask `subtask` of `parallelism` gets.
std::vector<Row> rowsOfSubtask(const std::vector<Row>& rows, int subtask, int parallelism) {
  return testing::rowsOfSubtask(rows, leftType(), {0}, subtask, parallelism);
}

// A snapshot taken at parallelism 1 restored at 2: each subtask gets the stored rows of its key
// groups, and the union of what the two emit, given the rows the exchange sends them, is the
// uninterrupted output; their snapshots restored at parallelism 1 again go on as well.
TEST(JoinCheckpointTest, RestoreAtAnotherParallelismSplitsTheRowsByKeyGroup) {
  const auto spec = joinSpec(JoinType::FULL);
  std::vector<Row> keysLeft, keysRight, moreRight, lastRight;
  for (int i = 0; i < 12; ++i) {
    const std::string key = "key" + std::to_string(i);
    keysLeft.push_back(Row::of(key, i));
    if (i % 2 == 0) keysRight.push_back(Row::of(key, 100 + i));  // the odd keys stay padded
    moreRight.push_back(Row::of(key, 200 + i));
    lastRight.push_back(deleted(key, 200 + i));
  }
  const size_t firstSubtaskKeys = rowsOfSubtask(keysLeft, 0, 2).size();
  ASSERT_GT(firstSubtaskKeys, 0u);
  ASSERT_LT(firstSubtaskKeys, 12u);  // both subtasks get keys

  JoinHarness uninterrupted(spec);
  JoinHarness single(spec);
  for (JoinHarness* join : {&uninterrupted, &single}) {
    join->left(keysLeft);
    join->right(keysRight);
  }
  const OperatorSnapshot atOne = single.snapshot(1);
  const Rows expected = uninterrupted.right(moreRight);
  const int64_t storedAfterMore = uninterrupted.storedRows();
  const Rows expectedLast = uninterrupted.right(lastRight);
  EXPECT_EQ(expected.size(), 18u);  // 6 joined rows, 6 padded rows retracted and joined

  Rows union2;
  std::vector<OperatorSnapshot> atTwo;
  int64_t restoredRows = 0;
  for (int subtask = 0; subtask < 2; ++subtask) {
    JoinHarness part(spec, {.subtaskIndex = subtask, .parallelism = 2, .restoredFrom = {atOne}});
    EXPECT_GT(part.storedRows(), 0);
    restoredRows += part.storedRows();
    const Rows out = part.right(rowsOfSubtask(moreRight, subtask, 2));
    union2.insert(union2.end(), out.begin(), out.end());
    atTwo.push_back(part.snapshot(2));
  }
  EXPECT_EQ(restoredRows, single.storedRows());
  EXPECT_EQ(sorted(union2), sorted(expected));

  // Back to parallelism 1 from the two subtasks' snapshots.
  JoinHarness merged(spec, {.restoredFrom = atTwo});
  EXPECT_EQ(merged.storedRows(), storedAfterMore);
  EXPECT_EQ(sorted(merged.right(lastRight)), sorted(expectedLast));
}

// The example of docs/state_format.md, "Regular join": the left row (a, 1) of a LEFT join
// without a match, in the key group of its key.
TEST(JoinCheckpointTest, BlockBytesFollowTheDocumentedFormat) {
  JoinHarness join(joinSpec(JoinType::LEFT));
  join.left({Row::of("a", 1)});
  const OperatorSnapshot snapshot = join.snapshot(1);
  int keyGroup = -1;
  const std::string body =
      testing::onlyBlockBody(snapshot, JoinOperator::kLeftRowsStateName, &keyGroup);
  EXPECT_EQ(keyGroup, testing::keyGroupOfRow(Row::of("a", 1), leftType(), {0}));
  for (const auto& [group, section] : snapshot.keyedState) {
    EXPECT_TRUE(blockBody(section, JoinOperator::kRightRowsStateName).empty()) << group;
  }
  EXPECT_EQ(hex(body),
            "01 03 01 01 61 01 13 01 01 80 00 00 00 00 00 00 00 02 09 01 61 04 80 00 00 01");
}

TEST(JoinCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  const auto spec = joinSpec(JoinType::FULL);
  JoinHarness join(spec);
  join.left({Row::of("a", 1), Row::of("a", 2)});
  join.right({Row::of("a", 3)});
  const OperatorSnapshot snapshot = join.snapshot(1);
  {
    JoinHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
    EXPECT_EQ(restored.storedRows(), 3);
  }
  for (const char* stateName :
       {JoinOperator::kLeftRowsStateName, JoinOperator::kRightRowsStateName}) {
    testing::expectEveryTruncationRefused(
        snapshot, stateName, "operator 'Join'",
        [&](const OperatorSnapshot& cut) { JoinHarness restored(spec, {.restoredFrom = {cut}}); });
  }
}

// An inner join's rows carry no associations: restored into a LEFT join (the query changed),
// they are refused rather than padded wrongly.
TEST(JoinCheckpointTest, RowsWithoutAssociationsAreRefusedByAnOuterSide) {
  JoinHarness inner(joinSpec(JoinType::INNER));
  inner.left({Row::of("a", 1)});
  const OperatorSnapshot snapshot = inner.snapshot(1);
  try {
    JoinHarness left(joinSpec(JoinType::LEFT), {.restoredFrom = {snapshot}});
    ADD_FAILURE() << "restored";
  } catch (const InternalError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find(JoinOperator::kLeftRowsStateName), std::string::npos) << message;
    EXPECT_NE(message.find("associations"), std::string::npos) << message;
  }
}

// Nothing stored: no block of the join's states in any key group.
TEST(JoinCheckpointTest, EmptyStateWritesNoBlock) {
  JoinHarness join(joinSpec(JoinType::INNER));
  join.left({Row::of("a", 1)});
  join.left({deleted("a", 1)});
  EXPECT_EQ(join.storedRows(), 0);
  const OperatorSnapshot snapshot = join.snapshot(1);
  for (const auto& [group, section] : snapshot.keyedState) {
    EXPECT_EQ(section.size(), 3u) << "key group " << group;  // 01 <keyGroup> 00
  }
}

}  // namespace
}  // namespace eddy::runtime::operators

// The interval join's state in checkpoints: a subtask snapshotted midway and restored into a
// fresh operator goes on exactly as the uninterrupted one (inner and outer joins, the joined
// flags of outer rows, processing time, rows of many types, more rows than one chunk holds), a
// restore at another parallelism splits the stored rows by key group (and merges them back),
// and bytes that do not decode are refused naming the state.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "eddy/detail/state/key_group_snapshot.h"
#include "runtime/operators/join/interval_join_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using relational::JoinType;
namespace {

using testing::Rows;

LogicalTypePtr leftType() { return parseLogicalType("ROW<lk STRING, lt BIGINT, lv INT>"); }
LogicalTypePtr rightType() { return parseLogicalType("ROW<rk STRING, rt BIGINT, rv INT>"); }

/// ROW<lk, lt, lv> ⋈ ROW<rk, rt, rv> on lk = rk and lt + lower <= rt <= lt + upper.
std::shared_ptr<const IntervalJoinSpec> intervalSpec(JoinType type, int64_t lower, int64_t upper,
                                                     bool processingTime = false) {
  auto spec = std::make_shared<IntervalJoinSpec>();
  spec->joinType = type;
  spec->leftRowType = leftType();
  spec->rightRowType = rightType();
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 1;
  spec->rightTimeColumn = 1;
  spec->lowerBound = lower;
  spec->upperBound = upper;
  spec->processingTime = processingTime;
  spec->outputRowType =
      parseLogicalType("ROW<lk STRING, lt BIGINT, lv INT, rk STRING, rt BIGINT, rv INT>");
  return spec;
}

/// One IntervalJoinOperator subtask, printing the watermarks among the rows; as subtask
/// `subtask` (restored from its snapshots where given).
class JoinHarness : public testing::TwoInputOperatorTestHarness<IntervalJoinOperator> {
 public:
  explicit JoinHarness(const std::shared_ptr<const IntervalJoinSpec>& spec,
                       testing::SubtaskOptions subtask = {})
      : TwoInputOperatorTestHarness(
            std::make_unique<IntervalJoinOperator>(spec), spec->leftRowType, spec->rightRowType,
            {.operatorName = "IntervalJoin", .watermarksAmongRows = testing::printWatermarkMillis},
            std::move(subtask)) {}

  size_t bufferedRows() const { return operatorUnderTest().bufferedRows(); }
};

/// What a script drives a harness through; returns everything it emitted, in order.
using Script = std::function<Rows(JoinHarness&)>;

Rows concat(std::vector<Rows> parts) {
  Rows all;
  for (Rows& part : parts) all.insert(all.end(), part.begin(), part.end());
  return all;
}

Rows sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// Runs `before` then `after` on one harness (the uninterrupted run) and on two, the second
/// restored from a snapshot of the first taken between them; expects equal output before and
/// after, equal state sizes, and a snapshot of the restored operator equal to the one it was
/// restored from. Returns the output after the checkpoint.
Rows expectRestoreChangesNothing(const std::shared_ptr<const IntervalJoinSpec>& spec,
                                 const Script& before, const Script& after) {
  JoinHarness uninterrupted(spec);
  const Rows expectedBefore = before(uninterrupted);
  const Rows expectedAfter = after(uninterrupted);

  JoinHarness first(spec);
  EXPECT_EQ(before(first), expectedBefore);
  const OperatorSnapshot snapshot = first.snapshot(1);
  JoinHarness restored(spec, {.restoredFrom = {snapshot}});
  EXPECT_EQ(restored.bufferedRows(), first.bufferedRows());
  EXPECT_EQ(restored.snapshot(2), snapshot);  // the same bytes: nothing lost or reordered
  EXPECT_EQ(after(restored), expectedAfter);
  EXPECT_EQ(restored.bufferedRows(), 0u);
  return expectedAfter;
}

// rt BETWEEN lt - 5 AND lt + 10; rows on both sides stored at the checkpoint, some already
// released, then rows of either side joining stored rows of the other after the restore.
TEST(IntervalJoinCheckpointTest, InnerJoinRestoredGoesOnAsAnUninterruptedRun) {
  Script before = [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 100, 1), Row::of("b", 100, 2), Row::of("c", 103, 3)}),
                   join.right({Row::of("a", 98, 10)}), join.right({Row::of("b", 120, 11)}),
                   join.watermark(100), join.left({Row::of("a", 105, 4)}),
                   join.right({Row::of("c", 110, 12)}),
                   join.watermark(104)});  // releases the right row a@98
  };
  Script after = [](JoinHarness& join) {
    return concat({join.right({Row::of("a", 108, 13)}), join.left({Row::of("b", 115, 5)}),
                   join.left({Row::of("c", 106, 6)}), join.watermark(112),
                   join.right({Row::of("a", 111, 14)}), join.watermark(200), join.finish()});
  };
  {
    JoinHarness join(intervalSpec(JoinType::INNER, -5, 10));
    EXPECT_EQ(before(join), (Rows{"+I[a, 100, 1, a, 98, 10]", "watermark 90",
                                  "+I[c, 103, 3, c, 110, 12]", "watermark 94"}));
    EXPECT_EQ(join.bufferedRows(), 6u);
  }
  EXPECT_EQ(expectRestoreChangesNothing(intervalSpec(JoinType::INNER, -5, 10), before, after),
            (Rows{"+I[a, 100, 1, a, 108, 13]", "+I[a, 105, 4, a, 108, 13]",
                  "+I[b, 115, 5, b, 120, 11]", "+I[c, 106, 6, c, 110, 12]", "watermark 102",
                  "+I[a, 105, 4, a, 111, 14]", "watermark 190"}));
}

// rt BETWEEN lt AND lt + 10. Before the checkpoint a@100 joins (a right row arriving after it)
// and c's right row is joined by an arriving left row; after it, at their release, only the
// rows that never joined are padded: the joined flags came through the snapshot.
TEST(IntervalJoinCheckpointTest, OuterJoinPadsAtCleanupAfterTheRestore) {
  Script before = [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 100, 1), Row::of("a", 102, 2), Row::of("b", 100, 3)}),
                   join.right({Row::of("c", 103, 12)}), join.left({Row::of("c", 95, 4)}),
                   join.right({Row::of("a", 101, 10)}), join.watermark(100)});
  };
  Script after = [](JoinHarness& join) {
    return concat({join.right({Row::of("b", 200, 11)}), join.watermark(111), join.watermark(112),
                   join.finish()});
  };
  EXPECT_EQ(expectRestoreChangesNothing(intervalSpec(JoinType::LEFT, 0, 10), before, after),
            (Rows{"+I[b, 100, 3, null, null, null]", "watermark 101",
                  "+I[a, 102, 2, null, null, null]", "watermark 102"}));
  // FULL: the right rows joined before the checkpoint (a@101 on arrival, c@103 by an arriving
  // left row) are not padded either; b@200 never joined and is padded at finish().
  EXPECT_EQ(
      expectRestoreChangesNothing(intervalSpec(JoinType::FULL, 0, 10), before, after),
      (Rows{"+I[b, 100, 3, null, null, null]", "watermark 101", "+I[a, 102, 2, null, null, null]",
            "watermark 102", "+I[null, null, null, b, 200, 11]"}));
}

// The watermark comes back with the rows: a row behind it is as late after the restore as in
// the uninterrupted run (an outer one padded at once, an inner one dropped), instead of being
// stored and joining the other late row.
TEST(IntervalJoinCheckpointTest, LateRowsStayLateAfterTheRestore) {
  Script before = [](JoinHarness& join) {
    return concat({join.left({Row::of("a", 100, 1)}), join.watermark(200)});
  };
  Script after = [](JoinHarness& join) {
    Rows out = concat({join.left({Row::of("b", 150, 2)}), join.right({Row::of("b", 155, 3)}),
                       join.watermark(250), join.finish()});
    EXPECT_EQ(join.lateRecordsDropped(), 2);
    return out;
  };
  EXPECT_EQ(expectRestoreChangesNothing(intervalSpec(JoinType::LEFT, 0, 10), before, after),
            (Rows{"+I[b, 150, 2, null, null, null]", "watermark 240"}));
}

// Processing time: the rows' arrival times are in the snapshot; the restored subtask (whose
// clock starts at 0 here) releases them by its own timers at the same clock times.
TEST(IntervalJoinCheckpointTest, ProcessingTimeCleanupTimersComeBackWithTheRows) {
  Script before = [](JoinHarness& join) {
    join.advanceProcessingTime(100);
    Rows out = join.left({Row::of("a", nullptr, 1), Row::of("b", nullptr, 2)});
    join.advanceProcessingTime(105);
    return concat({out, join.right({Row::of("a", nullptr, 3)})});
  };
  Script after = [](JoinHarness& join) {
    return concat({join.advanceProcessingTime(110), join.advanceProcessingTime(111),
                   join.advanceProcessingTime(200), join.finish()});
  };
  EXPECT_EQ(expectRestoreChangesNothing(intervalSpec(JoinType::LEFT, 0, 10, true), before, after),
            Rows{"+I[b, null, 2, null, null, null]"});
}

// Every column type round trips (NULLs, a TIMESTAMP(3) time column, DECIMAL, DOUBLE, DATE,
// BOOLEAN, BYTES, ARRAY, a TIMESTAMP(9) with nanoseconds), and a key with more rows than one chunk
// holds is cut into several chunks on restore.
TEST(IntervalJoinCheckpointTest, ManyRowsOfManyTypes) {
  auto type = parseLogicalType(
      "ROW<k STRING, ts TIMESTAMP(3), d DECIMAL(10, 2), f DOUBLE, dt DATE, b BOOLEAN, "
      "y BYTES, a ARRAY<INT>, ns TIMESTAMP(9)>");
  auto spec = std::make_shared<IntervalJoinSpec>();
  spec->joinType = JoinType::FULL;
  spec->leftRowType = type;
  spec->rightRowType = type;
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->leftTimeColumn = 1;
  spec->rightTimeColumn = 1;
  spec->lowerBound = -5;
  spec->upperBound = 5;
  spec->outputRowType = parseLogicalType(
      "ROW<k STRING, ts TIMESTAMP(3), d DECIMAL(10, 2), f DOUBLE, dt DATE, b BOOLEAN, "
      "y BYTES, a ARRAY<INT>, ns TIMESTAMP(9), k0 STRING, ts0 TIMESTAMP(3), "
      "d0 DECIMAL(10, 2), f0 DOUBLE, dt0 DATE, b0 BOOLEAN, y0 BYTES, a0 ARRAY<INT>, "
      "ns0 TIMESTAMP(9)>");
  auto row = [](std::string key, int64_t time, int i) {
    Row row =
        Row::of(std::move(key), LocalDateTime::ofEpochMillis(time),
                Decimal::fromString(std::to_string(i) + ".25"), i / 4.0, LocalDate::ofEpochDay(i),
                i % 2 == 0, Value::ofBytes(Bytes{1, static_cast<uint8_t>(i % 256)}),
                Value::ofArray({Value(i), Value()}),
                LocalDateTime::ofEpochMillis(time, i % 1000 * 1000 + 7));
    if (i % 7 == 0) row.setField(2 + (i / 7) % 7, Value());
    return row;
  };
  Script before = [&](JoinHarness& join) {
    Rows out;
    for (int chunk = 0; chunk < 3; ++chunk) {
      std::vector<Row> rows;
      for (int i = 0; i < 1000; ++i) {
        const int n = chunk * 1000 + i;
        rows.push_back(row(n % 3 == 0 ? "k" + std::to_string(n) : "hot", 1000 + n, n));
      }
      Rows part = join.push(0, rows);
      out.insert(out.end(), part.begin(), part.end());
    }
    return concat(
        {out, join.push(1, {row("hot", 1500, 1), row("k999", 1995, 2)}), join.watermark(1200)});
  };
  Script after = [&](JoinHarness& join) {
    return concat({join.push(1, {row("hot", 2500, 3), row("k2001", 3003, 4), row("zz", 3000, 5)}),
                   join.watermark(3000), join.finish()});
  };
  const Rows after1 = expectRestoreChangesNothing(spec, before, after);
  EXPECT_GT(after1.size(), 2000u);
}

// Returns the subtask of `parallelism` that owns key `key` of the left input (both inputs'
// keys have the same bytes), as the exchange routes it.
int subtaskOfKey(const std::string& key, int parallelism) {
  const vector::Chunk chunk = vector::rowsToChunk({Row::of(key, 0, 0)}, leftType());
  std::string bytes;
  vector::appendKeyBytes(chunk, {0}, 0, bytes);
  return computeOperatorIndexForKeyGroup(128, parallelism, assignToKeyGroup(bytes, 128));
}

/// The rows of `rows` (first column: the key) that subtask `subtask` of `parallelism` gets.
std::vector<Row> rowsOfSubtask(const std::vector<Row>& rows, int subtask, int parallelism) {
  std::vector<Row> mine;
  for (const Row& row : rows) {
    if (subtaskOfKey(row.getField(0).get<std::string>(), parallelism) == subtask)
      mine.push_back(row);
  }
  return mine;
}

// A snapshot taken at parallelism 1 restored at 2: each subtask gets the stored rows of its key
// groups, and the union of what the two emit, given the rows the exchange sends them, is the
// uninterrupted output; their snapshots restored at parallelism 1 again go on as well.
TEST(IntervalJoinCheckpointTest, RestoreAtAnotherParallelismSplitsTheRowsByKeyGroup) {
  const auto spec = intervalSpec(JoinType::FULL, -5, 10);
  std::vector<Row> keysLeft, keysRight, moreLeft, moreRight, lastRight;
  for (int i = 0; i < 12; ++i) {
    const std::string key = "key" + std::to_string(i);
    keysLeft.push_back(Row::of(key, 100 + i, i));
    keysLeft.push_back(Row::of("solo" + std::to_string(i), 101, 500 + i));  // padded later
    keysRight.push_back(Row::of(key, 95 + 2 * i, 100 + i));
    moreLeft.push_back(Row::of(key, 120 + i, 200 + i));
    moreRight.push_back(Row::of(key, 105 + i, 300 + i));
    lastRight.push_back(Row::of(key, 128 + i, 400 + i));
  }
  int firstSubtaskKeys = 0;
  for (const Row& row : keysLeft) {
    if (subtaskOfKey(row.getField(0).get<std::string>(), 2) == 0) ++firstSubtaskKeys;
  }
  ASSERT_GT(firstSubtaskKeys, 0);
  ASSERT_LT(firstSubtaskKeys, 24);  // both subtasks get keys

  JoinHarness uninterrupted(spec);
  JoinHarness single(spec);
  for (JoinHarness* join : {&uninterrupted, &single}) {
    join->left(keysLeft);
    join->right(keysRight);
    join->watermark(104);
  }
  const OperatorSnapshot atOne = single.snapshot(1);
  Rows expected = concat(
      {uninterrupted.right(moreRight), uninterrupted.left(moreLeft), uninterrupted.watermark(125)});
  const Rows expectedLast = concat({uninterrupted.right(lastRight), uninterrupted.finish()});

  Rows union2;
  std::vector<OperatorSnapshot> atTwo;
  size_t restoredRows = 0;
  for (int subtask = 0; subtask < 2; ++subtask) {
    JoinHarness part(spec, {.subtaskIndex = subtask, .parallelism = 2, .restoredFrom = {atOne}});
    EXPECT_GT(part.bufferedRows(), 0u);
    restoredRows += part.bufferedRows();
    Rows out = concat({part.right(rowsOfSubtask(moreRight, subtask, 2)),
                       part.left(rowsOfSubtask(moreLeft, subtask, 2)), part.watermark(125)});
    union2.insert(union2.end(), out.begin(), out.end());
    atTwo.push_back(part.snapshot(2));
  }
  EXPECT_EQ(restoredRows, single.bufferedRows());
  // Each subtask emits the watermark: compare the rows.
  auto withoutWatermarks = [](Rows rows) {
    std::erase_if(rows, [](const std::string& row) { return row.starts_with("watermark"); });
    return sorted(std::move(rows));
  };
  EXPECT_EQ(withoutWatermarks(union2), withoutWatermarks(expected));
  EXPECT_FALSE(withoutWatermarks(expected).empty());

  // Back to parallelism 1 from the two subtasks' snapshots.
  JoinHarness merged(spec, {.restoredFrom = atTwo});
  EXPECT_EQ(sorted(concat({merged.right(lastRight), merged.finish()})), sorted(expectedLast));
}

/// The body of state `stateName`'s block in `section`; empty when it has none.
std::string blockBody(std::string_view section, std::string_view stateName) {
  section.remove_prefix(1);            // version
  serialization::readVarint(section);  // key group
  const uint64_t blockCount = serialization::readVarint(section);
  for (uint64_t block = 0; block < blockCount; ++block) {
    const std::string_view name = state::readLengthPrefixed(section);
    section.remove_prefix(2);  // kind, flags
    const std::string_view body = state::readLengthPrefixed(section);
    if (name == stateName) return std::string(body);
  }
  return {};
}

std::string hex(std::string_view bytes) {
  std::string out;
  for (unsigned char byte : bytes) {
    if (!out.empty()) out += ' ';
    out += "0123456789abcdef"[byte >> 4];
    out += "0123456789abcdef"[byte & 15];
  }
  return out;
}

// The example of docs/state_format.md, "Interval join": the left row (a, 100, 1) at time 100,
// not joined, in the key group of its key.
TEST(IntervalJoinCheckpointTest, BlockBytesFollowTheDocumentedFormat) {
  JoinHarness join(intervalSpec(JoinType::LEFT, 0, 10));
  join.left({Row::of("a", 100, 1)});
  const OperatorSnapshot snapshot = join.snapshot(1);
  std::string body;
  int blocks = 0;
  for (const auto& [group, section] : snapshot.keyedState) {
    const std::string found = blockBody(section, IntervalJoinOperator::kLeftRowsStateName);
    if (found.empty()) continue;
    ++blocks;
    body = found;
    EXPECT_EQ(group, subtaskOfKey("a", 128));  // at parallelism 128 a subtask is a key group
    EXPECT_TRUE(blockBody(section, IntervalJoinOperator::kRightRowsStateName).empty());
  }
  EXPECT_EQ(blocks, 1);
  EXPECT_EQ(hex(body),
            "01 03 01 01 61 01 1b 80 00 00 00 00 00 00 64 00 03 09 01 61 05 80 00 00 00 00 00 "
            "00 64 04 80 00 00 01");
}

/// `section` with the body of state `stateName`'s block cut to its first `keep` bytes (the
/// framing around it rewritten to fit, see docs/state_format.md); empty when the section has
/// no such block.
std::string withTruncatedBlock(std::string_view section, std::string_view stateName, size_t keep) {
  std::string out;
  out.push_back(section.front());  // version
  section.remove_prefix(1);
  serialization::writeVarint(serialization::readVarint(section), out);  // key group
  const uint64_t blockCount = serialization::readVarint(section);
  serialization::writeVarint(blockCount, out);
  bool found = false;
  for (uint64_t block = 0; block < blockCount; ++block) {
    const std::string_view name = state::readLengthPrefixed(section);
    state::writeLengthPrefixed(name, out);
    out.append(section.substr(0, 2));  // kind, flags
    section.remove_prefix(2);
    std::string_view body = state::readLengthPrefixed(section);
    if (name == stateName) {
      found = true;
      body = body.substr(0, keep);
    }
    state::writeLengthPrefixed(body, out);
  }
  return found ? out : std::string();
}

TEST(IntervalJoinCheckpointTest, TruncatedStateIsRefusedNamingIt) {
  const auto spec = intervalSpec(JoinType::LEFT, 0, 10);
  JoinHarness join(spec);
  join.left({Row::of("a", 100, 1), Row::of("a", 101, 2)});
  join.right({Row::of("a", 105, 3)});
  const OperatorSnapshot snapshot = join.snapshot(1);
  for (const char* stateName :
       {IntervalJoinOperator::kLeftRowsStateName, IntervalJoinOperator::kRightRowsStateName}) {
    // The section holding the state's block, and the length of its body.
    int keyGroup = -1;
    size_t bodySize = 0;
    for (const auto& [group, section] : snapshot.keyedState) {
      if (withTruncatedBlock(section, stateName, 0).empty()) continue;
      keyGroup = group;
      // Cutting nothing off gives the section back.
      for (size_t keep = 0; withTruncatedBlock(section, stateName, keep) != section; ++keep) {
        bodySize = keep + 1;
      }
    }
    ASSERT_GE(keyGroup, 0) << stateName;
    ASSERT_GT(bodySize, 10u);
    {
      JoinHarness restored(spec, {.restoredFrom = {snapshot}});  // intact: restores
      EXPECT_EQ(restored.bufferedRows(), 3u);
    }
    for (size_t keep = 0; keep < bodySize; ++keep) {
      OperatorSnapshot cut = snapshot;
      cut.keyedState[keyGroup] =
          withTruncatedBlock(snapshot.keyedState.at(keyGroup), stateName, keep);
      try {
        JoinHarness restored(spec, {.restoredFrom = {cut}});
        ADD_FAILURE() << stateName << " cut to " << keep << " bytes was restored";
      } catch (const InternalError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find(stateName), std::string::npos) << message;
        EXPECT_NE(message.find("IntervalJoin"), std::string::npos) << message;
        EXPECT_NE(message.find("key group " + std::to_string(keyGroup)), std::string::npos)
            << message;
      }
    }
  }
}

// A key group's rows restored into another key group (the keys hash elsewhere) are refused.
TEST(IntervalJoinCheckpointTest, RowsUnderAnotherKeyGroupAreRefused) {
  const auto spec = intervalSpec(JoinType::INNER, 0, 10);
  JoinHarness join(spec);
  join.left({Row::of("a", 100, 1)});
  OperatorSnapshot snapshot = join.snapshot(1);
  std::string section;
  int keyGroup = -1;
  for (const auto& [group, bytes] : snapshot.keyedState) {
    if (!withTruncatedBlock(bytes, IntervalJoinOperator::kLeftRowsStateName, 0).empty()) {
      keyGroup = group;
      section = bytes;
    }
  }
  ASSERT_GE(keyGroup, 0);
  // The same section, claimed by the next key group.
  const int otherGroup = (keyGroup + 1) % 128;
  std::string moved;
  moved.push_back(section.front());
  std::string_view rest = std::string_view(section).substr(1);
  serialization::readVarint(rest);
  serialization::writeVarint(static_cast<uint64_t>(otherGroup), moved);
  moved.append(rest);
  std::string empty;  // keyGroup's section without blocks
  empty.push_back(section.front());
  serialization::writeVarint(static_cast<uint64_t>(keyGroup), empty);
  empty.push_back(0);
  snapshot.keyedState[keyGroup] = empty;
  snapshot.keyedState[otherGroup] = moved;
  try {
    JoinHarness restored(spec, {.restoredFrom = {snapshot}});
    ADD_FAILURE() << "restored";
  } catch (const InternalError& error) {
    EXPECT_NE(std::string(error.what()).find(IntervalJoinOperator::kLeftRowsStateName),
              std::string::npos)
        << error.what();
  }
}

// An asynchronous snapshot writes the rows as they were at its freeze, byte for byte as a
// synchronous one taken then, while the operator goes on: a watermark releases every stored row
// (their chunks are freed) and new rows are stored.
TEST(IntervalJoinCheckpointTest, AnAsynchronousSnapshotWritesTheRowsOfItsFreeze) {
  JoinHarness join(intervalSpec(JoinType::INNER, -5, 10));
  for (int chunk = 0; chunk < 4; ++chunk) {
    std::vector<Row> rows;
    for (int i = 0; i < 1000; ++i) {
      rows.push_back(Row::of("k" + std::to_string(i % 50), int64_t{1000} + i, chunk));
    }
    join.left(rows);
  }
  join.right({Row::of("k1", int64_t{1001}, 7)});
  const OperatorSnapshot atFreeze = join.snapshot(1);
  JoinHarness::FrozenSnapshot frozen = join.freezeSnapshot(2);

  join.watermark(5000);
  EXPECT_EQ(join.bufferedRows(), 0u);
  join.left({Row::of("later", int64_t{6000}, 1)});
  EXPECT_NE(join.snapshot(3).keyedState, atFreeze.keyedState);

  OperatorSnapshot written;
  std::thread writer([&] { written = frozen.write(); });
  writer.join();
  EXPECT_EQ(written.keyedState, atFreeze.keyedState);
}

// Nothing stored: no block of the join's states in any key group.
TEST(IntervalJoinCheckpointTest, EmptyStateWritesNoBlock) {
  const auto spec = intervalSpec(JoinType::LEFT, 0, 10);
  JoinHarness join(spec);
  join.left({Row::of("a", 100, 1)});
  join.watermark(110);
  EXPECT_EQ(join.bufferedRows(), 0u);
  const OperatorSnapshot snapshot = join.snapshot(1);
  for (const auto& [group, section] : snapshot.keyedState) {
    EXPECT_EQ(section.size(), 3u) << "key group " << group;  // 01 <keyGroup> 00
  }
}

}  // namespace
}  // namespace eddy::runtime::operators

// table.exec.state.ttl bounds the state of the Table operators that honour it, as in Flink,
// whose state TTL removes expired entries in the background: a GROUP BY, a regular join, a
// Top-N, the deduplications and an unbounded OVER aggregate fed
// ever new keys (100 per 100 ms of a manual clock, a TTL of 1 s, so 1000 keys live at any
// time) keep about the keys of one TTL window in state, not every key they ever saw, and what
// they emit is what lazy expiry alone gives: a key seen within the TTL goes on, an older one
// starts afresh or finds no partner.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/aggregate/group_aggregate_operator.h"
#include "runtime/operators/join/join_operator.h"
#include "runtime/operators/over/over_aggregate_operator.h"
#include "runtime/operators/rank/rank_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {
namespace {

using function::AggregateCall;
using function::AggregateKind;
using testing::Rows;

constexpr int64_t kTtlMillis = 1000;
constexpr int kChunks = 100;
constexpr int kKeysPerChunk = 100;
constexpr int64_t kMillisPerChunk = 100;
/// The keys written within one TTL: what must stay.
constexpr size_t kLiveKeys = kKeysPerChunk * kTtlMillis / kMillisPerChunk;
/// What may be in state: the live keys and half as many again for those that expired since
/// the cleanup cursor last passed them (about one chunk's worth with 5 visits per row).
constexpr size_t kBound = kLiveKeys * 3 / 2;

std::string keyName(int index) { return "k-" + std::to_string(index); }

/// The rows of chunk `chunk`: its kKeysPerChunk new keys, each with its number as value.
std::vector<Row> newKeys(int chunk) {
  std::vector<Row> rows;
  for (int i = chunk * kKeysPerChunk; i < (chunk + 1) * kKeysPerChunk; ++i) {
    rows.push_back(Row::of(keyName(i), i));
  }
  return rows;
}

LogicalTypePtr nameScoreType() { return parseLogicalType("ROW<name STRING, score INT>"); }

/// SELECT name, COUNT(*) FROM t GROUP BY name, with table.exec.state.ttl = kTtlMillis.
std::shared_ptr<const GroupAggregateSpec> countByName() {
  auto spec = std::make_shared<GroupAggregateSpec>();
  spec->inputRowType = nameScoreType();
  spec->groupingColumns = {0};
  spec->calls = {AggregateCall{AggregateKind::COUNT_STAR, -1,
                               LogicalType::simple(LogicalTypeRoot::BIGINT, false)}};
  spec->outputRowType = parseLogicalType("ROW<name STRING, cnt BIGINT NOT NULL>");
  spec->stateTtlMillis = kTtlMillis;
  return spec;
}

class GroupAggregateHarness : public testing::OneInputOperatorTestHarness<GroupAggregateOperator> {
 public:
  GroupAggregateHarness(const std::shared_ptr<const GroupAggregateSpec>& spec, const Clock* clock)
      : OneInputOperatorTestHarness(std::make_unique<GroupAggregateOperator>(spec),
                                    spec->inputRowType,
                                    {.operatorName = "GroupAggregate", .clock = clock}) {}

  size_t groupsInState() const { return operatorUnderTest().groupsInState(); }
};

TEST(TableStateTtlTest, GroupAggregateKeepsTheGroupsOfOneTtlNotEveryGroupEverSeen) {
  ManualClock clock(0);
  GroupAggregateHarness aggregate(countByName(), &clock);
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    const Rows output = aggregate.push(newKeys(chunk));
    ASSERT_EQ(output.size(), static_cast<size_t>(kKeysPerChunk));
    ASSERT_EQ(output.front(), "+I[" + keyName(chunk * kKeysPerChunk) + ", 1]");
    ASSERT_LE(aggregate.groupsInState(), kBound) << "after chunk " << chunk;
    if (chunk >= 9) {
      ASSERT_GE(aggregate.groupsInState(), kLiveKeys) << "after chunk " << chunk;
    }
    clock.advance(kMillisPerChunk);
  }
  // 10000 groups were seen; without the cleanup every one would still be in state.
  EXPECT_LE(aggregate.groupsInState(), kBound);

  // The last chunk's groups (written 100 ms ago) go on; the first chunk's start afresh.
  Rows continued;
  for (int i = (kChunks - 1) * kKeysPerChunk; i < kChunks * kKeysPerChunk; ++i) {
    continued.push_back("-U[" + keyName(i) + ", 1]");
    continued.push_back("+U[" + keyName(i) + ", 2]");
  }
  EXPECT_EQ(aggregate.push(newKeys(kChunks - 1)), continued);
  Rows restarted;
  for (int i = 0; i < kKeysPerChunk; ++i) restarted.push_back("+I[" + keyName(i) + ", 1]");
  EXPECT_EQ(aggregate.push(newKeys(0)), restarted);
}

/// ROW<lk, lv> JOIN ROW<rk, rv> ON lk = rk, with table.exec.state.ttl = kTtlMillis.
std::shared_ptr<const JoinSpec> innerJoinOnKey() {
  auto spec = std::make_shared<JoinSpec>();
  spec->joinType = relational::JoinType::INNER;
  spec->leftRowType = parseLogicalType("ROW<lk STRING, lv INT>");
  spec->rightRowType = parseLogicalType("ROW<rk STRING, rv INT>");
  spec->leftKeys = {0};
  spec->rightKeys = {0};
  spec->outputRowType = parseLogicalType("ROW<lk STRING, lv INT, rk STRING, rv INT>");
  spec->stateTtlMillis = kTtlMillis;
  return spec;
}

class JoinHarness : public testing::TwoInputOperatorTestHarness<JoinOperator> {
 public:
  JoinHarness(const std::shared_ptr<const JoinSpec>& spec, const Clock* clock)
      : TwoInputOperatorTestHarness(std::make_unique<JoinOperator>(spec), spec->leftRowType,
                                    spec->rightRowType, {.operatorName = "Join", .clock = clock}) {}

  int64_t storedRows() const { return operatorUnderTest().storedRows(); }
  int64_t heldRows() const { return operatorUnderTest().heldRows(); }
  size_t keysInState() const { return operatorUnderTest().keysInState(); }
};

TEST(TableStateTtlTest, RegularJoinKeepsTheRowsOfOneTtlNotEveryRowEverStored) {
  ManualClock clock(0);
  JoinHarness join(innerJoinOnKey(), &clock);
  const auto bound = static_cast<int64_t>(kBound);
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    ASSERT_EQ(join.left(newKeys(chunk)), Rows{});  // no right row: nothing joins
    // No row finds the expired keys again: only the cleanup releases them, and their chunks.
    ASSERT_LE(join.storedRows(), bound) << "after chunk " << chunk;
    ASSERT_LE(join.heldRows(), bound) << "after chunk " << chunk;
    ASSERT_LE(join.keysInState(), kBound) << "after chunk " << chunk;
    if (chunk >= 9) {
      ASSERT_GE(join.storedRows(), static_cast<int64_t>(kLiveKeys)) << "after chunk " << chunk;
    }
    clock.advance(kMillisPerChunk);
  }
  // A right row finds the left row of a key written 100 ms ago, not one of 10 s ago.
  const int recent = kChunks * kKeysPerChunk - 1;
  EXPECT_EQ(join.right({Row::of(keyName(recent), 7), Row::of(keyName(0), 8)}),
            (Rows{"+I[" + keyName(recent) + ", " + std::to_string(recent) + ", " + keyName(recent) +
                  ", 7]"}));
}

/// ROW_NUMBER() OVER (PARTITION BY name ORDER BY score DESC) <= 2 with the rank number, or the
/// deduplication keeping the last row by score (`deduplicate`), with table.exec.state.ttl.
std::shared_ptr<const RankSpec> topTwoByName(bool deduplicate, bool keepFirstArrival = false) {
  auto spec = std::make_shared<RankSpec>();
  spec->inputRowType = nameScoreType();
  spec->partitionKeys = {0};
  spec->sortKeys = {relational::SortKey{1, keepFirstArrival, false}};
  spec->rankKind = relational::RankKind::ROW_NUMBER;
  spec->rankEnd = deduplicate || keepFirstArrival ? 1 : 2;
  spec->outputRankNumber = !deduplicate && !keepFirstArrival;
  spec->inputInsertOnly = true;
  spec->deduplicate = deduplicate;
  spec->keepFirstArrival = keepFirstArrival;
  spec->outputRowType = spec->outputRankNumber
                            ? parseLogicalType("ROW<name STRING, score INT, rn BIGINT NOT NULL>")
                            : nameScoreType();
  spec->stateTtlMillis = kTtlMillis;
  return spec;
}

class RankHarness : public testing::OneInputOperatorTestHarness<RankOperator> {
 public:
  RankHarness(const std::shared_ptr<const RankSpec>& spec, const Clock* clock)
      : OneInputOperatorTestHarness(std::make_unique<RankOperator>(spec), spec->inputRowType,
                                    {.operatorName = "Rank", .clock = clock}) {}

  size_t stateRows() const { return operatorUnderTest().stateRows(); }
};

TEST(TableStateTtlTest, TopNAndDeduplicateKeepThePartitionsOfOneTtlNotEveryPartitionEverSeen) {
  for (const bool deduplicate : {false, true}) {
    SCOPED_TRACE(deduplicate ? "Deduplicate" : "Top-2");
    ManualClock clock(0);
    RankHarness rank(topTwoByName(deduplicate), &clock);
    for (int chunk = 0; chunk < kChunks; ++chunk) {
      ASSERT_EQ(rank.push(newKeys(chunk)).size(), static_cast<size_t>(kKeysPerChunk));
      // No row finds the expired partitions again: only the cleanup forgets them.
      ASSERT_LE(rank.stateRows(), kBound) << "after chunk " << chunk;
      if (chunk >= 9) {
        ASSERT_GE(rank.stateRows(), kLiveKeys) << "after chunk " << chunk;
      }
      clock.advance(kMillisPerChunk);
    }
    // A partition written 100 ms ago goes on; one of 10 s ago starts afresh, retracting nothing.
    const int recent = kChunks * kKeysPerChunk - 1;
    const std::string name = keyName(recent);
    if (deduplicate) {
      EXPECT_EQ(rank.push({Row::of(name, recent + 1), Row::of(keyName(0), -5)}),
                (Rows{"-U[" + name + ", " + std::to_string(recent) + "]",
                      "+U[" + name + ", " + std::to_string(recent + 1) + "]",
                      "+I[" + keyName(0) + ", -5]"}));
    } else {
      EXPECT_EQ(rank.push({Row::of(name, -1), Row::of(keyName(0), -5)}),
                (Rows{"+I[" + name + ", -1, 2]", "+I[" + keyName(0) + ", -5, 1]"}));
    }
  }
}

// Keeping the first row on processing time: the row expires the TTL after it was written, and
// the key's next row is its first again (Flink's ProcTimeDeduplicateKeepFirstRowFunction).
TEST(TableStateTtlTest, KeepingTheFirstRowEmitsAKeyAgainOnceItsRowExpired) {
  ManualClock clock(0);
  RankHarness first(topTwoByName(false, /*keepFirstArrival=*/true), &clock);
  EXPECT_EQ(first.push({Row::of("a", 1), Row::of("a", 2)}), (Rows{"+I[a, 1]"}));
  clock.advance(kTtlMillis - 1);
  EXPECT_EQ(first.push({Row::of("a", 3)}), Rows{});
  clock.advance(1);
  EXPECT_EQ(first.push({Row::of("a", 4), Row::of("a", 5)}), (Rows{"+I[a, 4]"}));
}

/// SELECT name, score, SUM(score) OVER (PARTITION BY name ORDER BY proctime ROWS BETWEEN
/// UNBOUNDED PRECEDING AND CURRENT ROW), with table.exec.state.ttl = kTtlMillis.
std::shared_ptr<const OverAggregateSpec> runningSumByName() {
  auto spec = std::make_shared<OverAggregateSpec>();
  spec->inputRowType = nameScoreType();
  spec->partitionKeys = {0};
  spec->processingTime = true;
  spec->unit = relational::OverFrameUnit::ROWS;
  spec->calls = {AggregateCall{AggregateKind::SUM, 1, LogicalType::simple(LogicalTypeRoot::INTEGER)}};
  spec->outputRowType = parseLogicalType("ROW<name STRING, score INT, total INT>");
  spec->stateTtlMillis = kTtlMillis;
  return spec;
}

class OverHarness : public testing::OneInputOperatorTestHarness<OverAggregateOperator> {
 public:
  OverHarness(const std::shared_ptr<const OverAggregateSpec>& spec, const Clock* clock)
      : OneInputOperatorTestHarness(std::make_unique<OverAggregateOperator>(spec),
                                    spec->inputRowType,
                                    {.operatorName = "OverAggregate", .clock = clock}) {}

  size_t partitionCount() const { return operatorUnderTest().partitionCount(); }
};

TEST(TableStateTtlTest, UnboundedOverKeepsThePartitionsOfOneTtlNotEveryPartitionEverSeen) {
  ManualClock clock(0);
  OverHarness over(runningSumByName(), &clock);
  for (int chunk = 0; chunk < kChunks; ++chunk) {
    ASSERT_EQ(over.push(newKeys(chunk)).size(), static_cast<size_t>(kKeysPerChunk));
    ASSERT_LE(over.partitionCount(), kBound) << "after chunk " << chunk;
    if (chunk >= 9) {
      ASSERT_GE(over.partitionCount(), kLiveKeys) << "after chunk " << chunk;
    }
    clock.advance(kMillisPerChunk);
  }
  // A partition written 100 ms ago goes on; one of 10 s ago starts afresh.
  const int recent = kChunks * kKeysPerChunk - 1;
  const std::string name = keyName(recent);
  EXPECT_EQ(over.push({Row::of(name, 1), Row::of(keyName(0), 1)}),
            (Rows{"+I[" + name + ", 1, " + std::to_string(recent + 1) + "]",
                  "+I[" + keyName(0) + ", 1, 1]"}));
}

}  // namespace
}  // namespace eddy::runtime::operators

// The regular join over chunks: exact STREAMING changelogs for every join type (rows arriving
// on either side in a chosen order, through a harness that drives one subtask directly),
// duplicates, NULL keys, residual conditions and joins without equi keys; BATCH results at
// finish(); and whole jobs wiring two partitioned inputs through transformTwoInput.
#include "runtime/operators/join/join_operator.h"

#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <algorithm>
#include <random>

#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {


using relational::JoinType;
using relational::joinTypeName;
using relational::outputsLeftOnly;
namespace {

using testing::Rows;

LogicalTypePtr leftType() { return parseLogicalType("ROW<lk STRING, lv INT>"); }
LogicalTypePtr rightType() { return parseLogicalType("ROW<rk STRING, rv INT>"); }
LogicalTypePtr outputType() {
  return parseLogicalType("ROW<lk STRING, lv INT, rk STRING, rv INT>");
}

/// ROW<lk, lv> ⋈ ROW<rk, rv>, on lk = rk unless `equiKeys` is false, and `condition` (over
/// lk, lv, rk, rv) when given.
std::shared_ptr<const JoinSpec> joinSpec(JoinType type,
                                         expression::ExpressionPtr condition = nullptr,
                                         bool equiKeys = true) {
  auto spec = std::make_shared<JoinSpec>();
  spec->joinType = type;
  spec->leftRowType = leftType();
  spec->rightRowType = rightType();
  if (equiKeys) {
    spec->leftKeys = {0};
    spec->rightKeys = {0};
  }
  spec->condition = std::move(condition);
  spec->outputRowType = outputsLeftOnly(type) ? leftType() : outputType();
  return spec;
}

/// lv < rv over the joined row.
expression::ExpressionPtr leftValueBelowRightValue() {
  auto intType = LogicalType::simple(LogicalTypeRoot::INTEGER);
  return expression::call("<", {expression::column(1, intType), expression::column(3, intType)});
}

/// Drives one JoinOperator subtask, so a test decides on which side and in which order rows
/// arrive (Flink's KeyedTwoInputStreamOperatorTestHarness).
class JoinHarness : public testing::TwoInputOperatorTestHarness<JoinOperator> {
 public:
  JoinHarness(std::shared_ptr<const JoinSpec> spec, RuntimeExecutionMode mode,
              const Clock* clock = &SystemClock::instance())
      : TwoInputOperatorTestHarness(std::make_unique<JoinOperator>(std::move(spec)), leftType(),
                                    rightType(),
                                    {.operatorName = "Join", .mode = mode, .clock = clock}) {}

  int64_t storedRows() const { return operatorUnderTest().storedRows(); }
  int64_t heldRows() const { return operatorUnderTest().heldRows(); }
};

template <typename Key>
Row deleted(Key key, int value) {
  return Row::ofKind(RowKind::DELETE, key, value);
}

Rows sorted(Rows rows) {
  std::sort(rows.begin(), rows.end());
  return rows;
}

TEST(JoinTest, TypeNamesAreFlinks) {
  EXPECT_EQ(joinTypeName(JoinType::INNER), "InnerJoin");
  EXPECT_EQ(joinTypeName(JoinType::LEFT), "LeftOuterJoin");
  EXPECT_EQ(joinTypeName(JoinType::RIGHT), "RightOuterJoin");
  EXPECT_EQ(joinTypeName(JoinType::FULL), "FullOuterJoin");
  EXPECT_EQ(joinTypeName(JoinType::SEMI), "LeftSemiJoin");
  EXPECT_EQ(joinTypeName(JoinType::ANTI), "LeftAntiJoin");
}

TEST(JoinTest, StreamingSemiJoinEmitsALeftRowOnceWhileItHasPartners) {
  // lv < rv besides lk = rk: the partners of (a, 5) are the right rows of a above 5.
  JoinHarness join(joinSpec(JoinType::SEMI, leftValueBelowRightValue()),
                   RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 5), Row::of("b", 1)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 3)}), Rows{});  // 5 < 3 does not hold
  EXPECT_EQ(join.right({Row::of("a", 9), Row::of("a", 10)}), Rows{"+I[a, 5]"});  // once
  EXPECT_EQ(join.left({Row::of("a", 7), Row::of("a", 5)}), (Rows{"+I[a, 7]", "+I[a, 5]"}));
  EXPECT_EQ(join.right({deleted("a", 9)}), Rows{});  // 10 is still a partner
  EXPECT_EQ(join.right({deleted("a", 10)}), (Rows{"-D[a, 5]", "-D[a, 5]", "-D[a, 7]"}));
  EXPECT_EQ(join.right({Row::of("a", 6)}), (Rows{"+I[a, 5]", "+I[a, 5]"}));
  // A left row keeps its kind: -U/+U of a matched row are forwarded, of an unmatched one not.
  EXPECT_EQ(join.left({Row::ofKind(RowKind::UPDATE_BEFORE, "a", 5),
                       Row::ofKind(RowKind::UPDATE_AFTER, "a", 8)}),
            Rows{"-U[a, 5]"});
  // A right row that changes a left row's visibility lends it its kind (Flink's semi join).
  EXPECT_EQ(join.right({Row::ofKind(RowKind::UPDATE_BEFORE, "a", 6),
                        Row::ofKind(RowKind::UPDATE_AFTER, "a", 30)}),
            (Rows{"-U[a, 5]", "+U[a, 5]", "+U[a, 7]", "+U[a, 8]"}));
}

TEST(JoinTest, StreamingAntiJoinEmitsALeftRowWhileItHasNoPartner) {
  JoinHarness join(joinSpec(JoinType::ANTI, leftValueBelowRightValue()),
                   RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 5), Row::of("b", 1), Row::of(nullptr, 2)}),
            (Rows{"+I[a, 5]", "+I[b, 1]", "+I[null, 2]"}));  // a NULL key has no partner
  EXPECT_EQ(join.right({Row::of("a", 3)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 9), Row::of("a", 10)}), Rows{"-D[a, 5]"});
  EXPECT_EQ(join.left({Row::of("a", 20)}), Rows{"+I[a, 20]"});
  EXPECT_EQ(join.left({Row::of("a", 6)}), Rows{});
  EXPECT_EQ(join.right({deleted("a", 9), deleted("a", 10)}), (Rows{"+I[a, 5]", "+I[a, 6]"}));
  EXPECT_EQ(join.left({deleted("a", 20)}), Rows{"-D[a, 20]"});
}

TEST(JoinTest, BatchSemiAndAntiJoins) {
  auto run = [](JoinType type) {
    JoinHarness join(joinSpec(type, leftValueBelowRightValue()), RuntimeExecutionMode::BATCH);
    join.left({Row::of("a", 5), Row::of("a", 5), Row::of("a", 50), Row::of("b", 1),
               Row::of(nullptr, 2)});
    join.right({Row::of("a", 3), Row::of("a", 9), Row::of("a", 9), Row::of(nullptr, 40)});
    return join.finish();
  };
  EXPECT_EQ(run(JoinType::SEMI), (Rows{"+I[a, 5]", "+I[a, 5]"}));
  EXPECT_EQ(run(JoinType::ANTI), (Rows{"+I[a, 50]", "+I[b, 1]", "+I[null, 2]"}));
}

TEST(JoinTest, StateTtlExpiresAKeysRowsOfOneSide) {
  // table.exec.state.ttl = 1 s: Alice's left row is gone 1 s after it was stored, so a right
  // row arriving later finds no partner; Bob's was rewritten and still joins.
  auto spec = std::make_shared<JoinSpec>(*joinSpec(JoinType::INNER));
  spec->stateTtlMillis = 1000;
  ManualClock clock(0);
  JoinHarness join(spec, RuntimeExecutionMode::STREAMING, &clock);
  EXPECT_EQ(join.left({Row::of("Alice", 1), Row::of("Bob", 2)}), Rows{});
  clock.advance(600);
  EXPECT_EQ(join.left({Row::of("Bob", 3)}), Rows{});
  clock.advance(600);
  EXPECT_EQ(join.right({Row::of("Alice", 10), Row::of("Bob", 20)}),
            (Rows{"+I[Bob, 2, Bob, 20]", "+I[Bob, 3, Bob, 20]"}));
}

TEST(JoinTest, StreamingInnerJoinMatchesWhicheverSideArrivesLast) {
  JoinHarness join(joinSpec(JoinType::INNER), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("Alice", 12)}), Rows{});
  EXPECT_EQ(join.right({Row::of("Alice", 7), Row::of("Bob", 1)}), Rows{"+I[Alice, 12, Alice, 7]"});
  EXPECT_EQ(join.left({Row::of("Bob", 2), Row::of("Carol", 3), Row::of("Alice", 13)}),
            (Rows{"+I[Bob, 2, Bob, 1]", "+I[Alice, 13, Alice, 7]"}));
  EXPECT_EQ(join.right({deleted("Alice", 7)}),
            (Rows{"-D[Alice, 12, Alice, 7]", "-D[Alice, 13, Alice, 7]"}));
  EXPECT_EQ(join.left({Row::of("Alice", 14)}), Rows{});
  // An inner join forwards the input's update kinds, as Flink does.
  EXPECT_EQ(join.left({Row::ofKind(RowKind::UPDATE_BEFORE, "Bob", 2),
                       Row::ofKind(RowKind::UPDATE_AFTER, "Bob", 5)}),
            (Rows{"-U[Bob, 2, Bob, 1]", "+U[Bob, 5, Bob, 1]"}));
  // A retraction of a row never stored still retracts what it matches (Flink does the same).
  EXPECT_EQ(join.right({deleted("Carol", 9)}), (Rows{"-D[Carol, 3, Carol, 9]"}));
}

TEST(JoinTest, StreamingLeftJoinPadsUntilTheFirstMatchAndAfterTheLast) {
  JoinHarness join(joinSpec(JoinType::LEFT), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 1)}), Rows{"+I[a, 1, null, null]"});
  EXPECT_EQ(join.right({Row::of("a", 10)}), (Rows{"-D[a, 1, null, null]", "+I[a, 1, a, 10]"}));
  EXPECT_EQ(join.right({Row::of("a", 11)}), Rows{"+I[a, 1, a, 11]"});
  EXPECT_EQ(join.right({deleted("a", 10)}), Rows{"-D[a, 1, a, 10]"});
  // The right side is not outer: its -U is forwarded; the left row is padded again after it.
  EXPECT_EQ(join.right({Row::ofKind(RowKind::UPDATE_BEFORE, "a", 11)}),
            (Rows{"-U[a, 1, a, 11]", "+I[a, 1, null, null]"}));
  EXPECT_EQ(join.right({Row::of("a", 12)}), (Rows{"-D[a, 1, null, null]", "+I[a, 1, a, 12]"}));
  // A left row arriving to a match is never padded; its retraction retracts the pairs.
  EXPECT_EQ(join.left({Row::of("a", 2)}), Rows{"+I[a, 2, a, 12]"});
  EXPECT_EQ(join.left({deleted("a", 2)}), Rows{"-D[a, 2, a, 12]"});
  EXPECT_EQ(join.right({deleted("a", 12)}), (Rows{"-D[a, 1, a, 12]", "+I[a, 1, null, null]"}));
  EXPECT_EQ(join.left({deleted("a", 1)}), Rows{"-D[a, 1, null, null]"});
  // Nothing is left in state: a new right row matches nothing.
  EXPECT_EQ(join.right({Row::of("a", 13)}), Rows{});
}

TEST(JoinTest, StreamingLeftJoinChangelogOfTheBrief) {
  JoinHarness join(joinSpec(JoinType::LEFT), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("l", 1)}), Rows{"+I[l, 1, null, null]"});
  EXPECT_EQ(join.right({Row::of("l", 2)}), (Rows{"-D[l, 1, null, null]", "+I[l, 1, l, 2]"}));
  EXPECT_EQ(join.right({deleted("l", 2)}), (Rows{"-D[l, 1, l, 2]", "+I[l, 1, null, null]"}));
}

TEST(JoinTest, StreamingRightJoinMirrorsTheLeftJoin) {
  JoinHarness join(joinSpec(JoinType::RIGHT), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.right({Row::of("r", 1)}), Rows{"+I[null, null, r, 1]"});
  EXPECT_EQ(join.left({Row::of("r", 2)}), (Rows{"-D[null, null, r, 1]", "+I[r, 2, r, 1]"}));
  EXPECT_EQ(join.left({Row::ofKind(RowKind::UPDATE_AFTER, "r", 3)}), Rows{"+I[r, 3, r, 1]"});
  EXPECT_EQ(join.left({deleted("r", 2)}), Rows{"-D[r, 2, r, 1]"});
  EXPECT_EQ(join.left({deleted("r", 3)}), (Rows{"-D[r, 3, r, 1]", "+I[null, null, r, 1]"}));
  // The right side is outer: its retraction is -D even when it arrives as -U.
  EXPECT_EQ(join.right({Row::ofKind(RowKind::UPDATE_BEFORE, "r", 1)}),
            Rows{"-D[null, null, r, 1]"});
}

TEST(JoinTest, StreamingFullJoinPadsBothSides) {
  JoinHarness join(joinSpec(JoinType::FULL), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("k", 1)}), Rows{"+I[k, 1, null, null]"});
  EXPECT_EQ(join.right({Row::of("k", 2)}), (Rows{"-D[k, 1, null, null]", "+I[k, 1, k, 2]"}));
  EXPECT_EQ(join.right({Row::of("k", 3)}), Rows{"+I[k, 1, k, 3]"});
  EXPECT_EQ(join.left({deleted("k", 1)}), (Rows{"-D[k, 1, k, 2]", "+I[null, null, k, 2]",
                                                "-D[k, 1, k, 3]", "+I[null, null, k, 3]"}));
  EXPECT_EQ(join.left({Row::of("k", 4)}), (Rows{"-D[null, null, k, 2]", "+I[k, 4, k, 2]",
                                                "-D[null, null, k, 3]", "+I[k, 4, k, 3]"}));
  EXPECT_EQ(join.right({Row::of("other", 5)}), Rows{"+I[null, null, other, 5]"});
}

TEST(JoinTest, StreamingDuplicatesCountWithTheirMultiplicity) {
  JoinHarness join(joinSpec(JoinType::LEFT), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 1), Row::of("a", 1)}),
            (Rows{"+I[a, 1, null, null]", "+I[a, 1, null, null]"}));
  EXPECT_EQ(join.right({Row::of("a", 2)}), (Rows{"-D[a, 1, null, null]", "+I[a, 1, a, 2]",
                                                 "-D[a, 1, null, null]", "+I[a, 1, a, 2]"}));
  EXPECT_EQ(join.right({Row::of("a", 2)}), (Rows{"+I[a, 1, a, 2]", "+I[a, 1, a, 2]"}));
  EXPECT_EQ(join.right({deleted("a", 2)}), (Rows{"-D[a, 1, a, 2]", "-D[a, 1, a, 2]"}));
  EXPECT_EQ(join.left({deleted("a", 1)}), Rows{"-D[a, 1, a, 2]"});
  EXPECT_EQ(join.right({deleted("a", 2)}), (Rows{"-D[a, 1, a, 2]", "+I[a, 1, null, null]"}));
  EXPECT_EQ(join.left({deleted("a", 1)}), Rows{"-D[a, 1, null, null]"});
  EXPECT_EQ(join.right({Row::of("a", 3)}), Rows{});
}

TEST(JoinTest, StreamingInsertAndRetractionInOneChunk) {
  JoinHarness join(joinSpec(JoinType::LEFT), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.right({Row::of("a", 9)}), Rows{});
  EXPECT_EQ(join.left({Row::of("a", 1), Row::of("b", 2), deleted("a", 1), Row::of("a", 3)}),
            (Rows{"+I[a, 1, a, 9]", "+I[b, 2, null, null]", "-D[a, 1, a, 9]", "+I[a, 3, a, 9]"}));
  EXPECT_EQ(
      join.right({deleted("a", 9), Row::of("b", 8)}),
      (Rows{"-D[a, 3, a, 9]", "+I[a, 3, null, null]", "-D[b, 2, null, null]", "+I[b, 2, b, 8]"}));
}

TEST(JoinTest, StreamingNullKeysNeverMatch) {
  JoinHarness join(joinSpec(JoinType::FULL), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of(nullptr, 1)}), Rows{"+I[null, 1, null, null]"});
  EXPECT_EQ(join.right({Row::of(nullptr, 2)}), Rows{"+I[null, null, null, 2]"});
  EXPECT_EQ(join.left({deleted(nullptr, 1)}), Rows{"-D[null, 1, null, null]"});
  JoinHarness inner(joinSpec(JoinType::INNER), RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(inner.left({Row::of(nullptr, 1)}), Rows{});
  EXPECT_EQ(inner.right({Row::of(nullptr, 2)}), Rows{});
}

TEST(JoinTest, StreamingResidualConditionDecidesWhatMatches) {
  JoinHarness join(joinSpec(JoinType::LEFT, leftValueBelowRightValue()),
                   RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 5)}), Rows{"+I[a, 5, null, null]"});
  EXPECT_EQ(join.right({Row::of("a", 3)}), Rows{});
  EXPECT_EQ(join.right({Row::of("a", 9)}), (Rows{"-D[a, 5, null, null]", "+I[a, 5, a, 9]"}));
  EXPECT_EQ(join.left({Row::of("a", 4), Row::of("a", 10), Row::of("a", nullptr)}),
            (Rows{"+I[a, 4, a, 9]", "+I[a, 10, null, null]", "+I[a, null, null, null]"}));
  EXPECT_EQ(join.right({deleted("a", 9)}), (Rows{"-D[a, 5, a, 9]", "+I[a, 5, null, null]",
                                                 "-D[a, 4, a, 9]", "+I[a, 4, null, null]"}));
}

TEST(JoinTest, StreamingJoinWithoutEquiKeysIsACrossJoinWithACondition) {
  JoinHarness join(joinSpec(JoinType::INNER, leftValueBelowRightValue(), /*equiKeys=*/false),
                   RuntimeExecutionMode::STREAMING);
  EXPECT_EQ(join.left({Row::of("a", 1), Row::of("b", 5)}), Rows{});
  EXPECT_EQ(join.right({Row::of("x", 3), Row::of("y", 6)}),
            (Rows{"+I[a, 1, x, 3]", "+I[a, 1, y, 6]", "+I[b, 5, y, 6]"}));
  EXPECT_EQ(join.left({deleted("a", 1)}), (Rows{"-D[a, 1, x, 3]", "-D[a, 1, y, 6]"}));
}

TEST(JoinTest, StreamingManyCandidatesAreEvaluatedInWindows) {
  // 300 × 100 candidate pairs exceed one evaluation window; the condition keeps lv < rv.
  JoinHarness join(joinSpec(JoinType::LEFT, leftValueBelowRightValue()),
                   RuntimeExecutionMode::STREAMING);
  std::vector<Row> rights;
  for (int i = 0; i < 100; ++i) rights.push_back(Row::of("k", i));
  EXPECT_EQ(join.right(rights), Rows{});
  std::vector<Row> lefts;
  for (int i = 0; i < 300; ++i) lefts.push_back(Row::of("k", i));
  Rows output = join.left(lefts);
  int64_t expectedPairs = 0;
  for (int l = 0; l < 300; ++l) {
    for (int r = 0; r < 100; ++r) expectedPairs += l < r ? 1 : 0;
  }
  EXPECT_EQ(
      std::count_if(output.begin(), output.end(),
                    [](const std::string& row) { return row.find("null") == std::string::npos; }),
      expectedPairs);
  EXPECT_EQ(static_cast<int64_t>(output.size()), expectedPairs + 201);  // padded: lv in 99..299
  EXPECT_EQ(output.front(), "+I[k, 0, k, 1]");
  EXPECT_EQ(output.back(), "+I[k, 299, null, null]");
}

TEST(JoinTest, RetractedRowsLeaveTheStateAndSparseChunksAreCompacted) {
  // 5000 left rows kept, then 4000 of them retracted: 1000 rows stay, and once fewer than a
  // quarter of the held rows are kept the chunks are compacted to those 1000. Joins still find
  // exactly the rows that remain, with their multiplicity.
  JoinHarness join(joinSpec(JoinType::INNER), RuntimeExecutionMode::STREAMING);
  std::vector<Row> inserts;
  for (int i = 0; i < 5000; ++i) inserts.push_back(Row::of("k" + std::to_string(i % 2500), i));
  EXPECT_EQ(join.left(inserts), Rows{});
  EXPECT_EQ(join.storedRows(), 5000);
  EXPECT_EQ(join.heldRows(), 5000);
  std::vector<Row> deletes;
  for (int i = 1000; i < 5000; ++i) deletes.push_back(deleted("k" + std::to_string(i % 2500), i));
  EXPECT_EQ(join.left(deletes), Rows{});
  EXPECT_EQ(join.storedRows(), 1000);
  EXPECT_EQ(join.heldRows(), 1000);
  EXPECT_EQ(join.right({Row::of("k7", 70), Row::of("k1500", 0), Row::of("k999", 99)}),
            (Rows{"+I[k7, 7, k7, 70]", "+I[k999, 999, k999, 99]"}));
  EXPECT_EQ(join.left({Row::of("k7", 7)}), Rows{"+I[k7, 7, k7, 70]"});
  EXPECT_EQ(join.left({deleted("k7", 7)}), Rows{"-D[k7, 7, k7, 70]"});
  EXPECT_EQ(join.right({Row::of("k7", 71)}), Rows{"+I[k7, 7, k7, 71]"});
}

TEST(JoinTest, BatchEmitsEverythingAtFinish) {
  auto run = [](JoinType type) {
    JoinHarness join(joinSpec(type), RuntimeExecutionMode::BATCH);
    Rows early = join.left({Row::of("a", 1), Row::of("b", 2)});
    Rows more = join.right({Row::of("b", 20), Row::of("c", 30)});
    Rows late = join.left({Row::of("b", 3), Row::of(nullptr, 4)});
    Rows last = join.right({Row::of("b", 21), Row::of(nullptr, 40)});
    EXPECT_TRUE(early.empty() && more.empty() && late.empty() && last.empty());
    return join.finish();
  };
  EXPECT_EQ(run(JoinType::INNER),
            (Rows{"+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]", "+I[b, 3, b, 21]"}));
  EXPECT_EQ(run(JoinType::LEFT),
            (Rows{"+I[a, 1, null, null]", "+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]",
                  "+I[b, 3, b, 21]", "+I[null, 4, null, null]"}));
  EXPECT_EQ(run(JoinType::RIGHT),
            (Rows{"+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]", "+I[b, 3, b, 21]",
                  "+I[null, null, c, 30]", "+I[null, null, null, 40]"}));
  EXPECT_EQ(run(JoinType::FULL),
            (Rows{"+I[a, 1, null, null]", "+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]",
                  "+I[b, 3, b, 21]", "+I[null, 4, null, null]", "+I[null, null, c, 30]",
                  "+I[null, null, null, 40]"}));
}

TEST(JoinTest, BatchDuplicatesAndResidualCondition) {
  JoinHarness join(joinSpec(JoinType::FULL, leftValueBelowRightValue()),
                   RuntimeExecutionMode::BATCH);
  join.left({Row::of("a", 5), Row::of("a", 5), Row::of("a", 50)});
  join.right({Row::of("a", 3), Row::of("a", 9), Row::of("a", 9)});
  EXPECT_EQ(join.finish(),
            (Rows{"+I[a, 5, a, 9]", "+I[a, 5, a, 9]", "+I[a, 5, a, 9]", "+I[a, 5, a, 9]",
                  "+I[a, 50, null, null]", "+I[null, null, a, 3]"}));
}

TEST(JoinTest, BatchJoinWithoutEquiKeys) {
  JoinHarness join(joinSpec(JoinType::LEFT, leftValueBelowRightValue(), /*equiKeys=*/false),
                   RuntimeExecutionMode::BATCH);
  join.left({Row::of("a", 1), Row::of("b", 5), Row::of("c", 9)});
  join.right({Row::of("x", 3), Row::of("y", 6)});
  EXPECT_EQ(join.finish(),
            (Rows{"+I[a, 1, x, 3]", "+I[a, 1, y, 6]", "+I[b, 5, y, 6]", "+I[c, 9, null, null]"}));
}

TEST(JoinTest, BatchOutputComesInChunksOfAtMostTheBatchSize) {
  JoinHarness join(joinSpec(JoinType::INNER), RuntimeExecutionMode::BATCH);
  std::vector<Row> lefts;
  for (int i = 0; i < 1500; ++i) lefts.push_back(Row::of("k", i));
  join.left(lefts);
  join.right({Row::of("k", -1), Row::of("k", -2)});
  Rows output = join.finish();  // CollectingOutput checks every chunk's size
  ASSERT_EQ(output.size(), 3000u);
  EXPECT_EQ(output[0], "+I[k, 0, k, -1]");
  EXPECT_EQ(output[1], "+I[k, 0, k, -2]");
  EXPECT_EQ(output[2999], "+I[k, 1499, k, -2]");
}

TEST(JoinTest, BatchOuterJoinWithAnEmptyInput) {
  JoinHarness full(joinSpec(JoinType::FULL), RuntimeExecutionMode::BATCH);
  full.right({Row::of("x", 1), Row::of(nullptr, 2)});
  EXPECT_EQ(full.finish(), (Rows{"+I[null, null, x, 1]", "+I[null, null, null, 2]"}));
  JoinHarness left(joinSpec(JoinType::LEFT), RuntimeExecutionMode::BATCH);
  left.left({Row::of("y", 3)});
  EXPECT_EQ(left.finish(), Rows{"+I[y, 3, null, null]"});
  JoinHarness inner(joinSpec(JoinType::INNER), RuntimeExecutionMode::BATCH);
  EXPECT_EQ(inner.finish(), Rows{});
}

/// `spec` joining by sorting and merging in BATCH.
std::shared_ptr<const JoinSpec> sortMerge(std::shared_ptr<const JoinSpec> spec) {
  auto copy = std::make_shared<JoinSpec>(*spec);
  copy->batchAlgorithm = BatchJoinAlgorithm::SORT_MERGE;
  return copy;
}

TEST(JoinTest, BatchSortMergeJoinEmitsNullKeysThenEachKeyInOrder) {
  auto run = [](JoinType type) {
    JoinHarness join(sortMerge(joinSpec(type)), RuntimeExecutionMode::BATCH);
    join.left({Row::of("b", 2), Row::of("a", 1)});
    join.right({Row::of("b", 20), Row::of("c", 30)});
    join.left({Row::of("b", 3), Row::of(nullptr, 4)});
    join.right({Row::of("b", 21), Row::of(nullptr, 40)});
    return join.finish();
  };
  EXPECT_EQ(batchJoinAlgorithmName(BatchJoinAlgorithm::SORT_MERGE), "SortMergeJoin");
  EXPECT_EQ(batchJoinAlgorithmName(BatchJoinAlgorithm::HASH), "HashJoin");
  EXPECT_EQ(run(JoinType::INNER),
            (Rows{"+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]", "+I[b, 3, b, 21]"}));
  EXPECT_EQ(run(JoinType::LEFT),
            (Rows{"+I[null, 4, null, null]", "+I[a, 1, null, null]", "+I[b, 2, b, 20]",
                  "+I[b, 2, b, 21]", "+I[b, 3, b, 20]", "+I[b, 3, b, 21]"}));
  EXPECT_EQ(run(JoinType::RIGHT),
            (Rows{"+I[null, null, null, 40]", "+I[b, 2, b, 20]", "+I[b, 2, b, 21]",
                  "+I[b, 3, b, 20]", "+I[b, 3, b, 21]", "+I[null, null, c, 30]"}));
  EXPECT_EQ(run(JoinType::FULL),
            (Rows{"+I[null, 4, null, null]", "+I[null, null, null, 40]", "+I[a, 1, null, null]",
                  "+I[b, 2, b, 20]", "+I[b, 2, b, 21]", "+I[b, 3, b, 20]", "+I[b, 3, b, 21]",
                  "+I[null, null, c, 30]"}));
  EXPECT_EQ(run(JoinType::SEMI), (Rows{"+I[b, 2]", "+I[b, 3]"}));
  EXPECT_EQ(run(JoinType::ANTI), (Rows{"+I[null, 4]", "+I[a, 1]"}));
}

TEST(JoinTest, BatchSortMergeJoinWithDuplicatesAndResidualCondition) {
  JoinHarness join(sortMerge(joinSpec(JoinType::FULL, leftValueBelowRightValue())),
                   RuntimeExecutionMode::BATCH);
  join.left({Row::of("a", 5), Row::of("a", 5), Row::of("a", 50)});
  join.right({Row::of("a", 3), Row::of("a", 9), Row::of("a", 9)});
  EXPECT_EQ(join.finish(),
            (Rows{"+I[a, 5, a, 9]", "+I[a, 5, a, 9]", "+I[a, 5, a, 9]", "+I[a, 5, a, 9]",
                  "+I[a, 50, null, null]", "+I[null, null, a, 3]"}));
  JoinHarness semi(sortMerge(joinSpec(JoinType::ANTI, leftValueBelowRightValue())),
                   RuntimeExecutionMode::BATCH);
  semi.left({Row::of("a", 5), Row::of("a", 50), Row::of("b", 1)});
  semi.right({Row::of("a", 9)});
  EXPECT_EQ(semi.finish(), (Rows{"+I[a, 50]", "+I[b, 1]"}));
}

TEST(JoinTest, BatchSortMergeJoinTakesALongRunOfOneKeyInWindows) {
  JoinHarness join(sortMerge(joinSpec(JoinType::INNER)), RuntimeExecutionMode::BATCH);
  std::vector<Row> lefts;
  for (int i = 0; i < 1500; ++i) lefts.push_back(Row::of("k", i));
  std::vector<Row> rights;
  for (int i = 0; i < 20; ++i) rights.push_back(Row::of("k", -i));
  join.left(lefts);
  join.right(rights);
  Rows output = join.finish();  // 30000 candidates: more than one condition window
  ASSERT_EQ(output.size(), 30000u);
  EXPECT_EQ(output[0], "+I[k, 0, k, 0]");
  EXPECT_EQ(output[1], "+I[k, 0, k, -1]");
  EXPECT_EQ(output[29999], "+I[k, 1499, k, -19]");
}

TEST(JoinTest, BatchAutoSortsAndMergesOnlyWhenTheRightInputIsBig) {
  // Hash output follows the left rows' arrival order; sort-merge output the keys' order.
  auto firstKeys = [](int64_t rightRows) {
    auto spec = std::make_shared<JoinSpec>(*joinSpec(JoinType::INNER));
    EXPECT_EQ(spec->batchAlgorithm, BatchJoinAlgorithm::AUTO);
    JoinHarness join(spec, RuntimeExecutionMode::BATCH);
    join.left({Row::of("k2", 1), Row::of("k1", 2), Row::of("k0", 3)});
    std::vector<Row> rights;
    for (int64_t i = 0; i < rightRows; ++i) rights.push_back(Row::of("k" + std::to_string(i), 0));
    join.right(rights);
    Rows output = join.finish();
    return Rows(output.begin(), output.begin() + 3);
  };
  EXPECT_EQ(firstKeys(1000), (Rows{"+I[k2, 1, k2, 0]", "+I[k1, 2, k1, 0]", "+I[k0, 3, k0, 0]"}));
  EXPECT_EQ(firstKeys(kSortMergeMinimumBuildRows),
            (Rows{"+I[k0, 3, k0, 0]", "+I[k1, 2, k1, 0]", "+I[k2, 1, k2, 0]"}));
}

TEST(JoinTest, BatchSortMergeAndHashJoinAgreeOnEveryJoinType) {
  std::mt19937 random(7);
  std::vector<Row> lefts;
  std::vector<Row> rights;
  auto key = [&]() -> Value {
    int k = static_cast<int>(random() % 12);
    return k == 0 ? Value() : Value(std::string(1, static_cast<char>('a' + k)));
  };
  for (int i = 0; i < 400; ++i) lefts.push_back(Row::of(key(), static_cast<int>(random() % 50)));
  for (int i = 0; i < 300; ++i) rights.push_back(Row::of(key(), static_cast<int>(random() % 50)));
  for (JoinType type : {JoinType::INNER, JoinType::LEFT, JoinType::RIGHT, JoinType::FULL,
                        JoinType::SEMI, JoinType::ANTI}) {
    for (bool withCondition : {false, true}) {
      auto spec = joinSpec(type, withCondition ? leftValueBelowRightValue() : nullptr);
      JoinHarness hash(spec, RuntimeExecutionMode::BATCH);
      JoinHarness merge(sortMerge(spec), RuntimeExecutionMode::BATCH);
      for (JoinHarness* join : {&hash, &merge}) {
        join->left(lefts);
        join->right(rights);
      }
      Rows expected = sorted(hash.finish());
      EXPECT_GT(expected.size(), 20u) << joinTypeName(type);  // not a vacuous comparison
      EXPECT_EQ(sorted(merge.finish()), expected) << joinTypeName(type) << " " << withCondition;
    }
  }
}

TEST(JoinTest, StreamingOutputComesInChunksOfAtMostTheBatchSize) {
  JoinHarness join(joinSpec(JoinType::FULL), RuntimeExecutionMode::STREAMING);
  std::vector<Row> rights;
  for (int i = 0; i < 1500; ++i) rights.push_back(Row::of("k", i));
  EXPECT_EQ(join.right(rights).size(), 1500u);  // padded
  Rows output = join.left({Row::of("k", -1)});  // CollectingOutput checks every chunk's size
  ASSERT_EQ(output.size(), 3000u);
  EXPECT_EQ(output[0], "-D[null, null, k, 0]");
  EXPECT_EQ(output[1], "+I[k, -1, k, 0]");
  EXPECT_EQ(output[2999], "+I[k, -1, k, 1499]");
}

TEST(JoinTest, BatchRejectsUpdatingInput) {
  JoinHarness join(joinSpec(JoinType::INNER), RuntimeExecutionMode::BATCH);
  EXPECT_THROW(join.left({deleted("a", 1)}), InternalError);
}


/// Runs left ⋈ right as a job: two collection sources, each HASH-partitioned by its key
/// columns, the JoinOperator via transformTwoInput, then rows. Returns the rows sorted.
Rows runJob(const std::vector<Row>& lefts, const std::vector<Row>& rights,
            std::shared_ptr<const JoinSpec> spec, RuntimeExecutionMode mode, int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  env->setRuntimeMode(mode);
  auto left =
      env->fromCollection(std::vector<vector::Chunk>{vector::rowsToChunk(lefts, leftType())})
          .partitionCustom(ChunkKeyPartitioner::factory(spec->leftKeys));
  auto right =
      env->fromCollection(std::vector<vector::Chunk>{vector::rowsToChunk(rights, rightType())})
          .partitionCustom(ChunkKeyPartitioner::factory(spec->rightKeys));
  auto rows = left.transformTwoInput<vector::Chunk>("Join", right,
                                                    std::make_shared<LambdaOperatorFactory>([spec] {
                                                      return std::make_unique<JoinOperator>(spec);
                                                    }))
                  .transform<Row>("ChunkToRows", std::make_shared<LambdaOperatorFactory>([] {
                                    return std::make_unique<ChunkToRowsOperator>();
                                  }))
                  .executeAndCollect(1000);
  Rows printed;
  for (const Row& row : rows) printed.push_back(row.toString());
  return sorted(std::move(printed));
}

const std::vector<Row> kOrders = {Row::of("Alice", 12), Row::of("Bob", 10), Row::of("Alice", 100),
                                  Row::of("Dave", 1), Row::of(nullptr, 5)};
const std::vector<Row> kCustomers = {Row::of("Alice", 7), Row::of("Bob", 3), Row::of("Carol", 4),
                                     Row::of(nullptr, 6)};

TEST(JoinTest, JobInnerJoinInBothModesAtParallelismOneAndTwo) {
  const Rows expected = {"+I[Alice, 100, Alice, 7]", "+I[Alice, 12, Alice, 7]",
                         "+I[Bob, 10, Bob, 3]"};
  for (RuntimeExecutionMode mode : {RuntimeExecutionMode::BATCH, RuntimeExecutionMode::STREAMING}) {
    for (int parallelism : {1, 2}) {
      EXPECT_EQ(runJob(kOrders, kCustomers, joinSpec(JoinType::INNER), mode, parallelism), expected)
          << "parallelism " << parallelism;
    }
  }
}

TEST(JoinTest, JobFullOuterJoinInBatchMode) {
  for (int parallelism : {1, 2}) {
    EXPECT_EQ(runJob(kOrders, kCustomers, joinSpec(JoinType::FULL), RuntimeExecutionMode::BATCH,
                     parallelism),
              sorted({"+I[Alice, 12, Alice, 7]", "+I[Alice, 100, Alice, 7]", "+I[Bob, 10, Bob, 3]",
                      "+I[Dave, 1, null, null]", "+I[null, 5, null, null]",
                      "+I[null, null, Carol, 4]", "+I[null, null, null, 6]"}))
        << "parallelism " << parallelism;
  }
}

}  // namespace
}  // namespace eddy::runtime::operators

// Flink's SinkUpsertMaterializer through a harness: per primary key the rows that hold it, +I
// for the first, +U for each later one, a retraction of the last row listed showing the row
// before it (+U), of the only one deleting the key (-D), of any other changing nothing; rows
// matched by the input's upsert key (replaced in place) or, without one, by all columns.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "runtime/operators/sink/sink_upsert_materializer_operator.h"
#include "runtime/operators/tests/operator_test_harness.h"

namespace eddy::runtime::operators {
namespace {

using testing::Rows;

LogicalTypePtr rowType() { return parseLogicalType("ROW<id INT, name STRING, amount INT>"); }

class MaterializerHarness
    : public testing::OneInputOperatorTestHarness<SinkUpsertMaterializerOperator> {
 public:
  explicit MaterializerHarness(std::vector<int> upsertKey = {})
      : OneInputOperatorTestHarness(
            std::make_unique<SinkUpsertMaterializerOperator>(spec(std::move(upsertKey))),
            rowType(), {.operatorName = "SinkMaterializer"}) {}
  int64_t storedRows() const { return operatorUnderTest().storedRows(); }

 private:
  static std::shared_ptr<const SinkUpsertMaterializerSpec> spec(std::vector<int> upsertKey) {
    auto spec = std::make_shared<SinkUpsertMaterializerSpec>();
    spec->rowType = rowType();
    spec->primaryKey = {0};
    spec->upsertKey = std::move(upsertKey);
    return spec;
  }
};

Row insert(int id, const char* name, int amount) { return Row::of(id, name, amount); }
Row before(int id, const char* name, int amount) {
  return Row::ofKind(RowKind::UPDATE_BEFORE, id, name, amount);
}
Row after(int id, const char* name, int amount) {
  return Row::ofKind(RowKind::UPDATE_AFTER, id, name, amount);
}
Row remove(int id, const char* name, int amount) {
  return Row::ofKind(RowKind::DELETE, id, name, amount);
}

TEST(SinkUpsertMaterializerTest, EachKeyShowsItsLastListedRow) {
  MaterializerHarness sink;
  // Two rows of the query hold key 1: the second is an update of the key.
  EXPECT_EQ(sink.push({insert(1, "a", 10), insert(1, "b", 20), insert(2, "c", 5)}),
            (Rows{"+I[1, a, 10]", "+U[1, b, 20]", "+I[2, c, 5]"}));
  // Retracting a row that is not the last listed changes nothing downstream.
  EXPECT_EQ(sink.push({before(1, "a", 10)}), Rows{});
  // A new row follows; retracting it (the last listed) brings back the row before it.
  EXPECT_EQ(sink.push({after(1, "a", 11)}), (Rows{"+U[1, a, 11]"}));
  EXPECT_EQ(sink.push({remove(1, "a", 11)}), (Rows{"+U[1, b, 20]"}));
  // Retracting the only row deletes the key, with the retracted row's fields.
  EXPECT_EQ(sink.push({remove(1, "b", 20), before(2, "c", 5), after(2, "c", 6)}),
            (Rows{"-D[1, b, 20]", "-D[2, c, 5]", "+I[2, c, 6]"}));
  EXPECT_EQ(sink.storedRows(), 1);
  // A retraction of a row never listed (state cleared) is ignored.
  EXPECT_EQ(sink.push({remove(3, "x", 1), remove(2, "c", 7)}), Rows{});
  EXPECT_EQ(sink.finish(), Rows{});
}

TEST(SinkUpsertMaterializerTest, EqualRowsAreListedOnceEach) {
  MaterializerHarness sink;
  EXPECT_EQ(sink.push({insert(1, "a", 10), insert(1, "a", 10)}),
            (Rows{"+I[1, a, 10]", "+U[1, a, 10]"}));
  // The first equal row goes (not the last listed: nothing changes downstream); the other
  // still holds the key.
  EXPECT_EQ(sink.push({remove(1, "a", 10)}), Rows{});
  EXPECT_EQ(sink.storedRows(), 1);
  EXPECT_EQ(sink.push({remove(1, "a", 10)}), (Rows{"-D[1, a, 10]"}));
  EXPECT_EQ(sink.storedRows(), 0);
}

TEST(SinkUpsertMaterializerTest, WithAnUpsertKeyARowReplacesItsPredecessorInPlace) {
  MaterializerHarness sink(/*upsertKey=*/{0, 1});
  EXPECT_EQ(sink.push({insert(1, "a", 10), insert(1, "b", 20)}),
            (Rows{"+I[1, a, 10]", "+U[1, b, 20]"}));
  // +U of (1, a) without its -U: it takes (1, a)'s place, before (1, b).
  EXPECT_EQ(sink.push({after(1, "a", 12)}), (Rows{"+U[1, a, 12]"}));
  EXPECT_EQ(sink.storedRows(), 2);
  // A retraction finds its row by the upsert key, whatever the other columns say.
  EXPECT_EQ(sink.push({remove(1, "b", 99)}), (Rows{"+U[1, a, 12]"}));
  EXPECT_EQ(sink.push({before(1, "a", 10)}), (Rows{"-D[1, a, 10]"}));
  EXPECT_EQ(sink.storedRows(), 0);
}

TEST(SinkUpsertMaterializerTest, ManyKeysKeepTheirRowsAcrossCompaction) {
  MaterializerHarness sink;
  // 10000 keys, each inserted then replaced: the first rows' chunks are released and the
  // store compacts; the last rows stay readable.
  std::vector<Row> rows;
  for (int i = 0; i < 10000; ++i) rows.push_back(insert(i, "old", i));
  EXPECT_EQ(sink.push(rows).size(), 10000u);
  rows.clear();
  for (int i = 0; i < 10000; ++i) {
    rows.push_back(before(i, "old", i));
    rows.push_back(after(i, "new", i + 1));
  }
  Rows out = sink.push(rows);
  ASSERT_EQ(out.size(), 20000u);
  EXPECT_EQ(out[0], "-D[0, old, 0]");
  EXPECT_EQ(out[1], "+I[0, new, 1]");
  EXPECT_EQ(sink.storedRows(), 10000);
  EXPECT_EQ(sink.push({remove(9999, "new", 10000)}), (Rows{"-D[9999, new, 10000]"}));
  EXPECT_EQ(sink.push({insert(42, "more", 0)}), (Rows{"+U[42, more, 0]"}));
}

}  // namespace
}  // namespace eddy::runtime::operators

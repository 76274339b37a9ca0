// MapState on the heap backend: a map of user entries per key, with user keys stored as
// objects (hashable) or as their serialized bytes (not hashable).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "heap_backend_fixture.h"

namespace eddy {

// A user key type abseil cannot hash (no AbslHashValue, no operator==): MapState must fall
// back to keying entries by its serialized bytes.
struct GridCell {
  int32_t row;
  int32_t column;
};

template <>
struct TypeSerializer<GridCell> {
  static void serialize(const GridCell& cell, std::string& out) {
    TypeSerializer<int32_t>::serialize(cell.row, out);
    TypeSerializer<int32_t>::serialize(cell.column, out);
  }
  static GridCell deserialize(std::string_view& in) {
    int32_t row = TypeSerializer<int32_t>::deserialize(in);
    return GridCell{row, TypeSerializer<int32_t>::deserialize(in)};
  }
};

namespace state {
namespace {

using Entries = std::vector<std::pair<std::string, int64_t>>;

template <typename T>
std::vector<T> sorted(std::vector<T> values) {
  std::sort(values.begin(), values.end());
  return values;
}

class MapStateTest : public HeapBackendFixture {
 protected:
  MapState<std::string, int64_t>* counts_ =
      backend_.getMapState(MapStateDescriptor<std::string, int64_t>("counts"));
};

TEST_F(MapStateTest, IsEmptyUntilPut) {
  selectKey("alice");
  EXPECT_TRUE(counts_->isEmpty());
  EXPECT_EQ(counts_->get("x"), std::nullopt);
  EXPECT_FALSE(counts_->contains("x"));
  EXPECT_EQ(counts_->entries(), Entries{});
}

TEST_F(MapStateTest, PutGetContainsAndReplace) {
  selectKey("alice");
  counts_->put("x", 1);
  counts_->put("y", 2);
  counts_->put("x", 10);
  EXPECT_EQ(counts_->get("x"), 10);
  EXPECT_EQ(counts_->get("y"), 2);
  EXPECT_TRUE(counts_->contains("y"));
  EXPECT_FALSE(counts_->contains("z"));
  EXPECT_FALSE(counts_->isEmpty());
}

TEST_F(MapStateTest, EntriesKeysAndValues) {
  selectKey("alice");
  counts_->putAll({{"x", 1}, {"y", 2}, {"z", 3}});
  EXPECT_EQ(sorted(counts_->entries()), (Entries{{"x", 1}, {"y", 2}, {"z", 3}}));
  EXPECT_EQ(sorted(counts_->keys()), (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(sorted(counts_->values()), (std::vector<int64_t>{1, 2, 3}));
}

TEST_F(MapStateTest, RemoveDeletesOneEntryAndTheLastLeavesItEmpty) {
  selectKey("alice");
  counts_->putAll({{"x", 1}, {"y", 2}});
  counts_->remove("x");
  counts_->remove("absent");
  EXPECT_EQ(counts_->entries(), (Entries{{"y", 2}}));
  counts_->remove("y");
  EXPECT_TRUE(counts_->isEmpty());
}

TEST_F(MapStateTest, KeysHoldSeparateMapsAndClearIsPerKey) {
  selectKey("alice");
  counts_->put("x", 1);
  selectKey("bob");
  EXPECT_EQ(counts_->get("x"), std::nullopt);
  counts_->put("x", 2);
  counts_->put("y", 3);
  selectKey("alice");
  EXPECT_EQ(counts_->entries(), (Entries{{"x", 1}}));
  counts_->clear();
  EXPECT_TRUE(counts_->isEmpty());
  selectKey("bob");
  EXPECT_EQ(sorted(counts_->entries()), (Entries{{"x", 2}, {"y", 3}}));
}

TEST_F(MapStateTest, UnhashableUserKeysAreStoredAsBytes) {
  static_assert(!MapUserKeyStorage<GridCell, TypeSerializer<GridCell>>::kStoresObjects);
  static_assert(MapUserKeyStorage<std::string, TypeSerializer<std::string>>::kStoresObjects);
  MapState<GridCell, std::string>* cells =
      backend_.getMapState(MapStateDescriptor<GridCell, std::string>("cells"));
  selectKey("board");
  cells->put(GridCell{1, 2}, "rook");
  cells->put(GridCell{3, 4}, "pawn");
  cells->put(GridCell{1, 2}, "king");
  EXPECT_EQ(cells->get(GridCell{1, 2}), "king");
  EXPECT_TRUE(cells->contains(GridCell{3, 4}));
  EXPECT_FALSE(cells->contains(GridCell{2, 1}));
  std::vector<std::pair<int32_t, int32_t>> keys;
  for (const GridCell& cell : cells->keys()) keys.emplace_back(cell.row, cell.column);
  EXPECT_EQ(sorted(keys), (std::vector<std::pair<int32_t, int32_t>>{{1, 2}, {3, 4}}));
  cells->remove(GridCell{1, 2});
  EXPECT_EQ(cells->values(), std::vector<std::string>{"pawn"});
}

}  // namespace
}  // namespace state
}  // namespace eddy

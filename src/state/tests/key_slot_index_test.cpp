// KeySlotIndex and KeyGroupTable, the per-key-group storage of the heap backend's states:
// dense slots, erasure moving the last key into the freed slot, and agreement with a
// std::map over a long random sequence of operations.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "eddy/detail/state/heap_keyed_state.h"

namespace eddy::state {
namespace {

TEST(KeySlotIndexTest, EmptyIndexFindsNothing) {
  KeySlotIndex index;
  EXPECT_EQ(index.size(), 0u);
  EXPECT_EQ(index.find("a"), KeySlotIndex::kNotFound);
}

TEST(KeySlotIndexTest, SlotsAreDenseAndErasureMovesTheLastKey) {
  KeySlotIndex index;
  EXPECT_EQ(index.insert("a"), std::make_pair(size_t{0}, true));
  EXPECT_EQ(index.insert("b"), std::make_pair(size_t{1}, true));
  EXPECT_EQ(index.insert("c"), std::make_pair(size_t{2}, true));
  EXPECT_EQ(index.insert("b"), std::make_pair(size_t{1}, false));
  index.eraseSlot(0);  // "c" moves into slot 0
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.find("a"), KeySlotIndex::kNotFound);
  EXPECT_EQ(index.find("c"), 0u);
  EXPECT_EQ(index.keyAt(0), "c");
  EXPECT_EQ(index.find("b"), 1u);
  index.eraseSlot(1);  // the last slot: nothing moves
  EXPECT_EQ(index.size(), 1u);
  EXPECT_EQ(index.find("b"), KeySlotIndex::kNotFound);
  EXPECT_EQ(index.find("c"), 0u);
}

TEST(KeySlotIndexTest, KeysWithZeroBytesAreDistinct) {
  KeySlotIndex index;
  index.insert(std::string("a\0b", 3));
  index.insert(std::string("a\0c", 3));
  EXPECT_EQ(index.size(), 2u);
  EXPECT_EQ(index.find(std::string("a\0c", 3)), 1u);
  EXPECT_EQ(index.find("a"), KeySlotIndex::kNotFound);
}

TEST(KeyGroupTableTest, AgreesWithAnOrderedMap) {
  KeyGroupTable<int> table;
  std::map<std::string, int> expected;
  std::mt19937 random(42);
  for (int step = 0; step < 20000; ++step) {
    // Short and long keys (beyond the small-string buffer, whose moves relocate the bytes).
    std::string key = std::to_string(random() % 500);
    if (random() % 2) key += std::string(40, 'x');
    switch (random() % 3) {
      case 0:
        table.insertOrAssign(key, step);
        expected[key] = step;
        break;
      case 1:
        table.erase(key);
        expected.erase(key);
        break;
      default: {
        int* found = table.find(key);
        auto it = expected.find(key);
        ASSERT_EQ(found != nullptr, it != expected.end()) << key;
        if (found) {
          ASSERT_EQ(*found, it->second) << key;
        }
      }
    }
    ASSERT_EQ(table.size(), expected.size());
  }
  std::map<std::string, int> actual;
  for (size_t slot = 0; slot < table.size(); ++slot) {
    actual[std::string(table.keyAt(slot))] = table.entryAt(slot);
  }
  EXPECT_EQ(actual, expected);
}

TEST(KeyGroupTableTest, ShrinksWhenMostKeysAreErasedAndKeepsTheRest) {
  // What a key group goes through when the TTL cleanup removes most of its keys: the table
  // gives its memory back and still finds every key left, and grows again.
  KeyGroupTable<int> table;
  for (int i = 0; i < 10000; ++i) table.add("key-" + std::to_string(i), i);
  EXPECT_GE(table.capacity(), 10000u);
  for (int i = 0; i < 10000; ++i) {
    if (i % 1000 != 0) table.erase("key-" + std::to_string(i));
  }
  ASSERT_EQ(table.size(), 10u);
  EXPECT_LT(table.capacity(), 64u);
  for (int i = 0; i < 10000; ++i) {
    const int* found = table.find("key-" + std::to_string(i));
    if (i % 1000 == 0) {
      ASSERT_NE(found, nullptr) << i;
      EXPECT_EQ(*found, i);
    } else {
      EXPECT_EQ(found, nullptr) << i;
    }
  }
  for (int i = 0; i < 10000; i += 1000) table.erase("key-" + std::to_string(i));
  EXPECT_EQ(table.size(), 0u);
  EXPECT_EQ(table.find("key-0"), nullptr);
  table.add("again", 1);  // an index emptied and shrunk takes keys again
  ASSERT_NE(table.find("again"), nullptr);
  EXPECT_EQ(*table.find("again"), 1);
  EXPECT_EQ(table.keyAt(0), "again");
}

}  // namespace
}  // namespace eddy::state

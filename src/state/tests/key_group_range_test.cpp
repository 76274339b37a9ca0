// Key group assignment and the split of key groups across subtasks.
#include "eddy/state/key_group_range.h"

#include <gtest/gtest.h>

#include <string>

#include "eddy/types/type_serializer.h"

namespace eddy {
namespace {

TEST(KeyGroupRangeTest, AssignmentIsDeterministicAndInRange) {
  std::string alice = serializeToString(std::string("alice"));
  int keyGroup = assignToKeyGroup(alice, 128);
  EXPECT_EQ(assignToKeyGroup(alice, 128), keyGroup);
  EXPECT_GE(keyGroup, 0);
  EXPECT_LT(keyGroup, 128);
  for (int64_t key = 0; key < 1000; ++key) {
    int assigned = assignToKeyGroup(serializeToString(key), 128);
    ASSERT_GE(assigned, 0);
    ASSERT_LT(assigned, 128);
  }
}

// Golden values: key groups are persisted in checkpoints, so a change of the hash (and thus of
// every key's key group) breaks restores and must be noticed.
TEST(KeyGroupRangeTest, AssignmentMatchesGoldenValues) {
  EXPECT_EQ(assignToKeyGroup(serializeToString(std::string("alice")), 128), 127);
  EXPECT_EQ(assignToKeyGroup(serializeToString(std::string("bob")), 128), 27);
  EXPECT_EQ(assignToKeyGroup(serializeToString(int64_t{42}), 128), 120);
  // XXH3_64bits of no bytes is 0x2D06800538D394C2 (the xxHash reference value).
  // Its top 7 bits, 0b0010110, are key group 22 of 128.
  EXPECT_EQ(assignToKeyGroup("", 128), 22);
}

TEST(KeyGroupRangeTest, KeysSpreadOverKeyGroups) {
  std::vector<int> perKeyGroup(128, 0);
  for (int64_t key = 0; key < 12800; ++key)
    ++perKeyGroup[assignToKeyGroup(serializeToString(key), 128)];
  for (int keyGroup = 0; keyGroup < 128; ++keyGroup) {
    EXPECT_GT(perKeyGroup[keyGroup], 50) << "key group " << keyGroup;
    EXPECT_LT(perKeyGroup[keyGroup], 150) << "key group " << keyGroup;
  }
}

TEST(KeyGroupRangeTest, RangesAndOperatorIndexAgreeAtEveryParallelism) {
  constexpr int kMaxParallelism = 128;
  for (int parallelism = 1; parallelism <= 8; ++parallelism) {
    int nextKeyGroup = 0;
    for (int operatorIndex = 0; operatorIndex < parallelism; ++operatorIndex) {
      KeyGroupRange range =
          computeKeyGroupRangeForOperatorIndex(kMaxParallelism, parallelism, operatorIndex);
      // Ranges are contiguous, non-empty and cover every key group exactly once.
      EXPECT_EQ(range.startKeyGroup, nextKeyGroup) << parallelism << "/" << operatorIndex;
      EXPECT_GT(range.size(), 0);
      nextKeyGroup = range.endKeyGroup + 1;
      for (int keyGroup = range.startKeyGroup; keyGroup <= range.endKeyGroup; ++keyGroup) {
        EXPECT_EQ(computeOperatorIndexForKeyGroup(kMaxParallelism, parallelism, keyGroup),
                  operatorIndex)
            << "parallelism " << parallelism << ", key group " << keyGroup;
      }
    }
    EXPECT_EQ(nextKeyGroup, kMaxParallelism) << "parallelism " << parallelism;
  }
}

TEST(KeyGroupRangeTest, RangesAtParallelismThree) {
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 0), (KeyGroupRange{0, 42}));
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 1), (KeyGroupRange{43, 85}));
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 3, 2), (KeyGroupRange{86, 127}));
  EXPECT_EQ(computeKeyGroupRangeForOperatorIndex(128, 1, 0), (KeyGroupRange{0, 127}));
}

TEST(KeyGroupRangeTest, RangeSizeAndContains) {
  KeyGroupRange range{10, 12};
  EXPECT_EQ(range.size(), 3);
  EXPECT_TRUE(range.contains(10));
  EXPECT_TRUE(range.contains(12));
  EXPECT_FALSE(range.contains(9));
  EXPECT_FALSE(range.contains(13));
  EXPECT_EQ(KeyGroupRange{}.size(), 0);
  EXPECT_FALSE(KeyGroupRange{}.contains(0));
}

}  // namespace
}  // namespace eddy

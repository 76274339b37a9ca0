// ReducingState on the heap backend: added values folded by the descriptor's reduce function.
#include <gtest/gtest.h>

#include <string>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

class ReducingStateTest : public HeapBackendFixture {
 protected:
  ReducingState<int64_t>* sum_ = backend_.getReducingState(ReducingStateDescriptor<int64_t>(
      "sum", [](const int64_t& left, const int64_t& right) { return left + right; }));
};

TEST_F(ReducingStateTest, IsAbsentUntilAdded) {
  selectKey("alice");
  EXPECT_EQ(sum_->get(), std::nullopt);
}

TEST_F(ReducingStateTest, FoldsAddedValues) {
  selectKey("alice");
  sum_->add(5);
  EXPECT_EQ(sum_->get(), 5);
  sum_->add(7);
  sum_->add(-2);
  EXPECT_EQ(sum_->get(), 10);
}

TEST_F(ReducingStateTest, ReduceFunctionSeesAccumulatedThenAdded) {
  ReducingState<std::string>* joined =
      backend_.getReducingState(ReducingStateDescriptor<std::string>(
          "joined", [](const std::string& accumulated, const std::string& added) {
            return accumulated + "," + added;
          }));
  selectKey("alice");
  joined->add("a");
  joined->add("b");
  joined->add("c");
  EXPECT_EQ(joined->get(), "a,b,c");
}

TEST_F(ReducingStateTest, KeysFoldSeparatelyAndClearIsPerKey) {
  selectKey("alice");
  sum_->add(1);
  selectKey("bob");
  sum_->add(100);
  selectKey("alice");
  sum_->add(2);
  EXPECT_EQ(sum_->get(), 3);
  sum_->clear();
  EXPECT_EQ(sum_->get(), std::nullopt);
  sum_->add(4);
  EXPECT_EQ(sum_->get(), 4);
  selectKey("bob");
  EXPECT_EQ(sum_->get(), 100);
}

}  // namespace
}  // namespace eddy::state

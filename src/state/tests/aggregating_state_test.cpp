// AggregatingState on the heap backend: inputs folded into a hidden accumulator by an
// AggregateFunction, reads return getResult.
#include <gtest/gtest.h>

#include <memory>
#include <utility>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

// The average of int64 inputs; the accumulator is (sum, count).
class AverageFunction : public AggregateFunction<int64_t, std::pair<int64_t, int64_t>, double> {
 public:
  std::pair<int64_t, int64_t> createAccumulator() const override { return {0, 0}; }
  std::pair<int64_t, int64_t> add(const int64_t& value,
                                  std::pair<int64_t, int64_t> accumulator) const override {
    return {accumulator.first + value, accumulator.second + 1};
  }
  double getResult(const std::pair<int64_t, int64_t>& accumulator) const override {
    return static_cast<double>(accumulator.first) / static_cast<double>(accumulator.second);
  }
  std::pair<int64_t, int64_t> merge(std::pair<int64_t, int64_t> left,
                                    std::pair<int64_t, int64_t> right) const override {
    return {left.first + right.first, left.second + right.second};
  }
};

using AverageDescriptor = AggregatingStateDescriptor<int64_t, std::pair<int64_t, int64_t>, double>;

class AggregatingStateTest : public HeapBackendFixture {
 protected:
  AggregatingState<int64_t, double>* average_ = backend_.getAggregatingState(
      AverageDescriptor("average", std::make_shared<AverageFunction>()));
};

TEST_F(AggregatingStateTest, IsAbsentUntilAdded) {
  selectKey("alice");
  EXPECT_EQ(average_->get(), std::nullopt);
}

TEST_F(AggregatingStateTest, FoldsInputsIntoTheAccumulator) {
  selectKey("alice");
  average_->add(1);
  EXPECT_EQ(average_->get(), 1.0);
  average_->add(2);
  average_->add(6);
  EXPECT_EQ(average_->get(), 3.0);
}

TEST_F(AggregatingStateTest, KeysAggregateSeparatelyAndClearIsPerKey) {
  selectKey("alice");
  average_->add(10);
  selectKey("bob");
  average_->add(1);
  average_->add(2);
  EXPECT_EQ(average_->get(), 1.5);
  average_->clear();
  EXPECT_EQ(average_->get(), std::nullopt);
  selectKey("alice");
  EXPECT_EQ(average_->get(), 10.0);
}

TEST_F(AggregatingStateTest, MergeCombinesAccumulators) {
  AverageFunction function;
  auto left = function.add(4, function.add(2, function.createAccumulator()));
  auto right = function.add(9, function.createAccumulator());
  EXPECT_EQ(function.getResult(function.merge(left, right)), 5.0);
}

}  // namespace
}  // namespace eddy::state

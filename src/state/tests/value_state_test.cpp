// ValueState on the heap backend: one value per key.
#include <gtest/gtest.h>

#include <string>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

class ValueStateTest : public HeapBackendFixture {};

TEST_F(ValueStateTest, IsAbsentUntilUpdated) {
  ValueState<std::string>* seen = backend_.getValueState(ValueStateDescriptor<std::string>("seen"));
  selectKey("alice");
  EXPECT_EQ(seen->value(), std::nullopt);
  seen->update("first");
  EXPECT_EQ(seen->value(), "first");
}

TEST_F(ValueStateTest, UpdateReplacesTheValue) {
  ValueState<int64_t>* count = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  selectKey("alice");
  count->update(1);
  count->update(42);
  EXPECT_EQ(count->value(), 42);
}

TEST_F(ValueStateTest, KeysHoldSeparateValues) {
  ValueState<int64_t>* count = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  selectKey("alice");
  count->update(1);
  selectKey("bob");
  EXPECT_EQ(count->value(), std::nullopt);
  count->update(2);
  selectKey("alice");
  EXPECT_EQ(count->value(), 1);
  selectKey("bob");
  EXPECT_EQ(count->value(), 2);
}

TEST_F(ValueStateTest, ClearRemovesOnlyTheCurrentKeysValue) {
  ValueState<int64_t>* count = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  selectKey("alice");
  count->update(1);
  selectKey("bob");
  count->update(2);
  count->clear();
  EXPECT_EQ(count->value(), std::nullopt);
  selectKey("alice");
  EXPECT_EQ(count->value(), 1);
}

TEST_F(ValueStateTest, StatesWithDifferentNamesAreIndependent) {
  ValueState<int64_t>* first = backend_.getValueState(ValueStateDescriptor<int64_t>("first"));
  ValueState<int64_t>* second = backend_.getValueState(ValueStateDescriptor<int64_t>("second"));
  selectKey("alice");
  first->update(1);
  EXPECT_EQ(second->value(), std::nullopt);
  second->update(2);
  EXPECT_EQ(first->value(), 1);
  EXPECT_EQ(second->value(), 2);
}

TEST_F(ValueStateTest, ReturnedValueIsACopy) {
  ValueState<std::vector<int32_t>>* list =
      backend_.getValueState(ValueStateDescriptor<std::vector<int32_t>>("numbers"));
  selectKey("alice");
  list->update({1, 2});
  std::vector<int32_t> copy = *list->value();
  copy.push_back(3);
  EXPECT_EQ(list->value(), (std::vector<int32_t>{1, 2}));
}

}  // namespace
}  // namespace eddy::state

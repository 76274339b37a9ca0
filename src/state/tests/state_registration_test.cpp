// Registering states on a backend: the same object on re-request, errors for mismatching
// kinds or types, and the current key contract.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

class StateRegistrationTest : public HeapBackendFixture {};

// Expects `statement` to throw ExceptionType with exactly `message`.
template <typename ExceptionType, typename Statement>
void expectThrowsWithMessage(Statement statement, const std::string& message) {
  try {
    statement();
    ADD_FAILURE() << "expected an exception with message: " << message;
  } catch (const ExceptionType& exception) {
    EXPECT_EQ(exception.what(), message);
  }
}

TEST_F(StateRegistrationTest, SameNameReturnsTheSameState) {
  ValueState<int64_t>* first = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  ValueState<int64_t>* second = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  EXPECT_EQ(first, second);
  ListState<int64_t>* list = backend_.getListState(ListStateDescriptor<int64_t>("list"));
  EXPECT_EQ(list, backend_.getListState(ListStateDescriptor<int64_t>("list")));
  EXPECT_EQ(backend_.registeredStateNames(), (std::vector<std::string>{"count", "list"}));
}

TEST_F(StateRegistrationTest, ReRequestedStateKeepsItsValues) {
  selectKey("alice");
  backend_.getValueState(ValueStateDescriptor<int64_t>("count"))->update(7);
  EXPECT_EQ(backend_.getValueState(ValueStateDescriptor<int64_t>("count"))->value(), 7);
}

TEST_F(StateRegistrationTest, AnotherKindUnderTheSameNameIsRejected) {
  backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  expectThrowsWithMessage<ValidationException>(
      [&] { backend_.getListState(ListStateDescriptor<int64_t>("count")); },
      "State 'count' is registered as a ValueState and cannot be accessed as a ListState");
}

TEST_F(StateRegistrationTest, AnotherValueTypeUnderTheSameNameIsRejected) {
  backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  expectThrowsWithMessage<ValidationException>(
      [&] { backend_.getValueState(ValueStateDescriptor<std::string>("count")); },
      "State 'count' is registered with descriptor eddy::ValueStateDescriptor<long, "
      "eddy::TypeSerializer<long, void> > and cannot be accessed with descriptor "
      "eddy::ValueStateDescriptor<std::string, eddy::TypeSerializer<std::string, void> >");
}

TEST_F(StateRegistrationTest, DescriptorsMustBeComplete) {
  expectThrowsWithMessage<ValidationException>(
      [&] { backend_.getValueState(ValueStateDescriptor<int64_t>("")); },
      "A state name must not be empty");
  expectThrowsWithMessage<ValidationException>(
      [&] { backend_.getReducingState(ReducingStateDescriptor<int64_t>("sum", nullptr)); },
      "ReducingState 'sum' has no reduce function");
  using Descriptor = AggregatingStateDescriptor<int64_t, int64_t, int64_t>;
  expectThrowsWithMessage<ValidationException>(
      [&] { backend_.getAggregatingState(Descriptor("total", nullptr)); },
      "AggregatingState 'total' has no aggregate function");
  EXPECT_EQ(backend_.registeredStateNames(), std::vector<std::string>{});
}

TEST_F(StateRegistrationTest, CurrentKeyAndKeyGroupFollowSetCurrentKey) {
  EXPECT_EQ(backend_.currentKeyGroup(), -1);
  EXPECT_EQ(backend_.currentKey(), "");
  std::string keyBytes = serializeToString(std::string("alice"));
  int keyGroup = assignToKeyGroup(keyBytes, kMaxParallelism);
  backend_.setCurrentKey(keyBytes, keyGroup);
  EXPECT_EQ(backend_.currentKey(), keyBytes);
  EXPECT_EQ(backend_.currentKeyGroup(), keyGroup);
  EXPECT_EQ(backend_.keyGroupRange(), (KeyGroupRange{0, 127}));
  EXPECT_EQ(backend_.maxParallelism(), 128);
}

TEST_F(StateRegistrationTest, AccessBeforeAnyCurrentKeyIsAnInternalError) {
  ValueState<int64_t>* count = backend_.getValueState(ValueStateDescriptor<int64_t>("count"));
  expectThrowsWithMessage<InternalError>([&] { count->value(); },
                                         "Keyed state was accessed before a current key was set");
}

TEST_F(StateRegistrationTest, KeyGroupOutsideTheRangeIsAnInternalError) {
  ManualClock clock;
  HeapKeyedStateBackend backend(KeyGroupRange{64, 127}, kMaxParallelism, clock);
  expectThrowsWithMessage<InternalError>(
      [&] { backend.setCurrentKey("k", 63); },
      "setCurrentKey: key group 63 is outside the backend's key groups [64, 127]");
  expectThrowsWithMessage<InternalError>(
      [&] { backend.setCurrentKey("k", 128); },
      "setCurrentKey: key group 128 is outside the backend's key groups [64, 127]");
  backend.setCurrentKey("k", 64);
  EXPECT_EQ(backend.currentKeyGroup(), 64);
}

}  // namespace
}  // namespace eddy::state

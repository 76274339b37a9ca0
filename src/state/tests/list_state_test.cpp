// ListState on the heap backend: an ordered list of elements per key.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

using Strings = std::vector<std::string>;

class ListStateTest : public HeapBackendFixture {
 protected:
  ListState<std::string>* events_ =
      backend_.getListState(ListStateDescriptor<std::string>("events"));
};

TEST_F(ListStateTest, IsEmptyUntilAdded) {
  selectKey("alice");
  EXPECT_EQ(events_->get(), Strings{});
}

TEST_F(ListStateTest, AddAndAddAllAppendInOrder) {
  selectKey("alice");
  events_->add("a");
  events_->addAll({"b", "c"});
  events_->add("d");
  events_->addAll({});
  EXPECT_EQ(events_->get(), (Strings{"a", "b", "c", "d"}));
}

TEST_F(ListStateTest, UpdateReplacesAndEmptyUpdateClears) {
  selectKey("alice");
  events_->addAll({"a", "b"});
  events_->update({"x"});
  EXPECT_EQ(events_->get(), Strings{"x"});
  events_->update({});
  EXPECT_EQ(events_->get(), Strings{});
}

TEST_F(ListStateTest, KeysHoldSeparateLists) {
  selectKey("alice");
  events_->add("a1");
  selectKey("bob");
  events_->add("b1");
  events_->add("b2");
  selectKey("alice");
  events_->add("a2");
  EXPECT_EQ(events_->get(), (Strings{"a1", "a2"}));
  selectKey("bob");
  EXPECT_EQ(events_->get(), (Strings{"b1", "b2"}));
}

TEST_F(ListStateTest, ClearRemovesOnlyTheCurrentKeysList) {
  selectKey("alice");
  events_->add("a");
  selectKey("bob");
  events_->add("b");
  events_->clear();
  EXPECT_EQ(events_->get(), Strings{});
  selectKey("alice");
  EXPECT_EQ(events_->get(), Strings{"a"});
}

}  // namespace
}  // namespace eddy::state

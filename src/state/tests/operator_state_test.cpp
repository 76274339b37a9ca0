// Operator list state (OperatorStateStore), its redistribution over a new parallelism (even
// split as Flink's round robin, union), key group redistribution, and the backend loader.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "eddy/clock.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/operator_snapshot.h"
#include "eddy/state/operator_state_store.h"
#include "state/state_backend_loader.h"
#include "state/state_redistribution.h"

namespace eddy::state {
namespace {

using runtime::OperatorSnapshot;
using Elements = std::vector<int32_t>;

/// A subtask's snapshot holding list state "list" and union list state "union".
OperatorSnapshot snapshotWith(const Elements& list, const Elements& unionList) {
  OperatorStateStore store;
  store.getListState(ListStateDescriptor<int32_t>("list"))->update(list);
  store.getUnionListState(ListStateDescriptor<int32_t>("union"))->update(unionList);
  OperatorSnapshot snapshot;
  store.snapshot(snapshot.operatorState);
  return snapshot;
}

Elements listOf(const OperatorSnapshot& snapshot, const std::string& name, bool isUnion) {
  OperatorStateStore store(snapshot.operatorState);
  ListStateDescriptor<int32_t> descriptor(name);
  return isUnion ? store.getUnionListState(descriptor)->get()
                 : store.getListState(descriptor)->get();
}

TEST(OperatorStateStoreTest, RestoresWhatItSnapshotted) {
  OperatorSnapshot snapshot = snapshotWith({1, 2, 3}, {7});
  EXPECT_EQ(listOf(snapshot, "list", false), (Elements{1, 2, 3}));
  EXPECT_EQ(listOf(snapshot, "union", true), (Elements{7}));
  // A restored state nobody registered again is written unchanged into the next snapshot.
  OperatorStateStore store(snapshot.operatorState);
  OperatorSnapshot next;
  store.snapshot(next.operatorState);
  EXPECT_EQ(next.operatorState, snapshot.operatorState);
}

TEST(OperatorStateStoreTest, RejectsAnotherModeForARestoredState) {
  OperatorStateStore store(snapshotWith({1}, {2}).operatorState);
  try {
    store.getUnionListState(ListStateDescriptor<int32_t>("list"));
    FAIL() << "expected ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Operator state 'list' was restored as a list state and cannot be accessed as a "
                 "union list state");
  }
}

TEST(OperatorStateRedistributionTest, TwoToThreeSplitsEvenlyAndUnionsAll) {
  std::vector<OperatorSnapshot> previous{snapshotWith({1, 2, 3}, {10}),
                                         snapshotWith({4, 5}, {20, 21})};
  std::vector<OperatorSnapshot> assigned = redistributeOperatorSnapshots(previous, 3, 128);
  ASSERT_EQ(assigned.size(), 3u);
  EXPECT_EQ(listOf(assigned[0], "list", false), (Elements{1, 2}));
  EXPECT_EQ(listOf(assigned[1], "list", false), (Elements{3, 4}));
  EXPECT_EQ(listOf(assigned[2], "list", false), (Elements{5}));
  for (const OperatorSnapshot& snapshot : assigned) {
    EXPECT_EQ(listOf(snapshot, "union", true), (Elements{10, 20, 21}));
  }
}

TEST(OperatorStateRedistributionTest, ThreeToOneGathersInSubtaskOrder) {
  std::vector<OperatorSnapshot> previous{snapshotWith({1}, {10}), snapshotWith({2, 3}, {}),
                                         snapshotWith({}, {30})};
  std::vector<OperatorSnapshot> assigned = redistributeOperatorSnapshots(previous, 1, 128);
  ASSERT_EQ(assigned.size(), 1u);
  EXPECT_EQ(listOf(assigned[0], "list", false), (Elements{1, 2, 3}));
  EXPECT_EQ(listOf(assigned[0], "union", true), (Elements{10, 30}));
}

TEST(OperatorStateRedistributionTest, TheSubtasksWithAnExtraElementRotateOverStates) {
  // Flink's round robin: state "a" gives its one extra element to subtask 0; the next state
  // starts at subtask 1.
  auto snapshotOf = [](const Elements& a, const Elements& b) {
    OperatorStateStore store;
    store.getListState(ListStateDescriptor<int32_t>("a"))->update(a);
    store.getListState(ListStateDescriptor<int32_t>("b"))->update(b);
    OperatorSnapshot snapshot;
    store.snapshot(snapshot.operatorState);
    return snapshot;
  };
  std::vector<OperatorSnapshot> previous{snapshotOf({1, 2}, {5, 6}), snapshotOf({3, 4}, {7, 8})};
  std::vector<OperatorSnapshot> assigned = redistributeOperatorSnapshots(previous, 3, 128);
  EXPECT_EQ(listOf(assigned[0], "a", false), (Elements{1, 2}));
  EXPECT_EQ(listOf(assigned[1], "a", false), (Elements{3}));
  EXPECT_EQ(listOf(assigned[2], "a", false), (Elements{4}));
  EXPECT_EQ(listOf(assigned[1], "b", false), (Elements{5, 6}));
  EXPECT_EQ(listOf(assigned[2], "b", false), (Elements{7}));
  EXPECT_EQ(listOf(assigned[0], "b", false), (Elements{8}));
}

TEST(OperatorStateRedistributionTest, SameParallelismKeepsSplitStateAndUnionsUnionState) {
  std::vector<OperatorSnapshot> previous{snapshotWith({1, 2, 3}, {10}), snapshotWith({4}, {20})};
  std::vector<OperatorSnapshot> assigned = redistributeOperatorSnapshots(previous, 2, 128);
  EXPECT_EQ(listOf(assigned[0], "list", false), (Elements{1, 2, 3}));
  EXPECT_EQ(listOf(assigned[1], "list", false), (Elements{4}));
  EXPECT_EQ(listOf(assigned[0], "union", true), (Elements{10, 20}));
  EXPECT_EQ(listOf(assigned[1], "union", true), (Elements{10, 20}));
}

TEST(OperatorStateRedistributionTest, KeyGroupsGoToTheSubtaskOwningThem) {
  OperatorSnapshot old0;
  old0.keyedState = {{0, "s0"}, {64, "s64"}};
  OperatorSnapshot old1;
  old1.keyedState = {{127, "s127"}};
  std::vector<OperatorSnapshot> assigned = redistributeOperatorSnapshots({old0, old1}, 2, 128);
  EXPECT_EQ(assigned[0].keyedState, (std::map<int, std::string>{{0, "s0"}}));
  EXPECT_EQ(assigned[1].keyedState, (std::map<int, std::string>{{64, "s64"}, {127, "s127"}}));
  assigned = redistributeOperatorSnapshots({old0, old1}, 1, 128);
  EXPECT_EQ(assigned[0].keyedState,
            (std::map<int, std::string>{{0, "s0"}, {64, "s64"}, {127, "s127"}}));
}

TEST(OperatorStateRedistributionTest, OwnBlobsStayAtTheSameParallelismOnly) {
  OperatorSnapshot old0;
  old0.operatorState["position"] = "3";
  OperatorSnapshot old1;
  old1.operatorState["position"] = "5";
  std::vector<OperatorSnapshot> same = redistributeOperatorSnapshots({old0, old1}, 2, 128);
  EXPECT_EQ(same[0].operatorState.at("position"), "3");
  EXPECT_EQ(same[1].operatorState.at("position"), "5");
  try {
    redistributeOperatorSnapshots({old0, old1}, 3, 128);
    FAIL() << "expected ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Operator state 'position' cannot be redistributed from parallelism 2 to 3: "
                 "only operator list state can");
  }
}

TEST(OperatorStateRedistributionTest, FinishedOnlyWhenEveryOldSubtaskWas) {
  OperatorSnapshot finished;
  finished.finished = true;
  EXPECT_TRUE(redistributeOperatorSnapshots({finished, finished}, 3, 128)[2].finished);
  EXPECT_FALSE(redistributeOperatorSnapshots({finished, OperatorSnapshot{}}, 3, 128)[0].finished);
}

TEST(StateBackendLoaderTest, HashmapOnlyAndTheOptionNamedOtherwise) {
  ManualClock clock(0);
  EXPECT_NE(dynamic_cast<HeapKeyedStateBackend*>(
                loadKeyedStateBackend("HashMap", KeyGroupRange{0, 127}, 128, clock).get()),
            nullptr);
  try {
    loadKeyedStateBackend("rocksdb", KeyGroupRange{0, 127}, 128, clock);
    FAIL() << "expected ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Option 'state.backend.type' = 'rocksdb' is not supported yet: eddy keeps keyed "
                 "state in the 'hashmap' backend only");
  }
  try {
    loadKeyedStateBackend("memory", KeyGroupRange{0, 127}, 128, clock);
    FAIL() << "expected ValidationException";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Could not parse value 'memory' for key 'state.backend.type': expected one of "
                 "'hashmap', 'rocksdb'.");
  }
}

}  // namespace
}  // namespace eddy::state

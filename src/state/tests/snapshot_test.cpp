// Key group snapshots of the heap backend: exact bytes, round trips of every state kind,
// rescaling between parallelism 1 and 2, lazy restore by state name, TTL across snapshots.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

using std::chrono::milliseconds;

constexpr KeyGroupRange kAllKeyGroups{0, kMaxParallelism - 1};

ValueStateDescriptor<int64_t> countDescriptor() { return ValueStateDescriptor<int64_t>("count"); }
ListStateDescriptor<std::string> eventsDescriptor() {
  return ListStateDescriptor<std::string>("events");
}
MapStateDescriptor<std::string, int64_t> tagsDescriptor() {
  return MapStateDescriptor<std::string, int64_t>("tags");
}

std::string keyName(int index) { return "key-" + std::to_string(index); }

int keyGroupOf(const std::string& key) {
  return assignToKeyGroup(serializeToString(key), kMaxParallelism);
}

/// Snapshots every key group `from` owns into `into` (each restored key group must be owned).
void copyKeyGroups(const KeyedStateBackend& from, KeyGroupRange keyGroups,
                   KeyedStateBackend& into) {
  for (int keyGroup = keyGroups.startKeyGroup; keyGroup <= keyGroups.endKeyGroup; ++keyGroup) {
    std::string section;
    from.snapshotKeyGroup(keyGroup, section);
    into.restoreKeyGroup(keyGroup, section);
  }
}

// Writes count = index, events = [e<index>, f<index>], tags = {t: index} for keys [0, keyCount).
void fillKeys(KeyedStateBackend& backend, int keyCount) {
  ValueState<int64_t>* count = backend.getValueState(countDescriptor());
  ListState<std::string>* events = backend.getListState(eventsDescriptor());
  MapState<std::string, int64_t>* tags = backend.getMapState(tagsDescriptor());
  for (int index = 0; index < keyCount; ++index) {
    selectKeyOn(backend, keyName(index));
    count->update(index);
    events->addAll({"e" + std::to_string(index), "f" + std::to_string(index)});
    tags->put("t", index);
  }
}

// Expects exactly the values fillKeys wrote for key `index`.
void expectKeyFilled(KeyedStateBackend& backend, int index) {
  selectKeyOn(backend, keyName(index));
  EXPECT_EQ(backend.getValueState(countDescriptor())->value(), index) << keyName(index);
  EXPECT_EQ(backend.getListState(eventsDescriptor())->get(),
            (std::vector<std::string>{"e" + std::to_string(index), "f" + std::to_string(index)}));
  EXPECT_EQ(backend.getMapState(tagsDescriptor())->entries(),
            (std::vector<std::pair<std::string, int64_t>>{{"t", index}}));
}

class SnapshotTest : public HeapBackendFixture {};

TEST_F(SnapshotTest, SectionBytesFollowTheDocumentedFormat) {
  ManualClock clock;
  HeapKeyedStateBackend backend(KeyGroupRange{5, 5}, kMaxParallelism, clock);
  ValueState<int32_t>* value = backend.getValueState(ValueStateDescriptor<int32_t>("v"));
  backend.setCurrentKey("k", 5);
  value->update(7);
  std::string section;
  backend.snapshotKeyGroup(5, section);
  const std::string expected(
      "\x01"                   // format version
      "\x05"                   // key group
      "\x01"                   // one state block
      "\x01v"                  // state name
      "\x01"                   // kind: ValueState
      "\x00"                   // flags: no timestamps
      "\x08"                   // body length
      "\x01"                   // one key
      "\x01k"                  // key bytes
      "\x04\x80\x00\x00\x07",  // value: TypeSerializer<int32_t> bytes of 7
      16);
  EXPECT_EQ(section, expected);
}

TEST_F(SnapshotTest, EmptyKeyGroupWritesAnEmptySection) {
  backend_.getValueState(countDescriptor());
  std::string section;
  backend_.snapshotKeyGroup(3, section);
  EXPECT_EQ(section, std::string("\x01\x03\x00", 3));
}

TEST_F(SnapshotTest, EveryStateKindRoundTrips) {
  class SumFunction : public AggregateFunction<int64_t, int64_t, std::string> {
   public:
    int64_t createAccumulator() const override { return 0; }
    int64_t add(const int64_t& value, int64_t accumulator) const override {
      return accumulator + value;
    }
    std::string getResult(const int64_t& accumulator) const override {
      return "sum=" + std::to_string(accumulator);
    }
    int64_t merge(int64_t left, int64_t right) const override { return left + right; }
  };
  auto reducing = ReducingStateDescriptor<std::string>(
      "longest", [](const std::string& left, const std::string& right) {
        return left.size() >= right.size() ? left : right;
      });
  auto aggregating = AggregatingStateDescriptor<int64_t, int64_t, std::string>(
      "sum", std::make_shared<SumFunction>());

  fillKeys(backend_, 20);
  selectKey("alice");
  backend_.getReducingState(reducing)->add("ab");
  backend_.getReducingState(reducing)->add("abcd");
  backend_.getAggregatingState(aggregating)->add(40);
  backend_.getAggregatingState(aggregating)->add(2);

  ManualClock clock;
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  for (int index = 0; index < 20; ++index) expectKeyFilled(restored, index);
  selectKeyOn(restored, std::string("alice"));
  EXPECT_EQ(restored.getReducingState(reducing)->get(), "abcd");
  EXPECT_EQ(restored.getAggregatingState(aggregating)->get(), "sum=42");
  EXPECT_EQ(restored.getValueState(countDescriptor())->value(), std::nullopt);
}

TEST_F(SnapshotTest, RescalingFromOneToTwoSubtasksSplitsKeysByKeyGroup) {
  constexpr int kKeyCount = 200;
  fillKeys(backend_, kKeyCount);

  ManualClock clock;
  std::vector<std::unique_ptr<HeapKeyedStateBackend>> subtasks;
  for (int operatorIndex = 0; operatorIndex < 2; ++operatorIndex) {
    KeyGroupRange range = computeKeyGroupRangeForOperatorIndex(kMaxParallelism, 2, operatorIndex);
    subtasks.push_back(std::make_unique<HeapKeyedStateBackend>(range, kMaxParallelism, clock));
    copyKeyGroups(backend_, range, *subtasks.back());
  }

  std::vector<int> keysPerSubtask(2, 0);
  for (int index = 0; index < kKeyCount; ++index) {
    int owner = computeOperatorIndexForKeyGroup(kMaxParallelism, 2, keyGroupOf(keyName(index)));
    expectKeyFilled(*subtasks[owner], index);
    ++keysPerSubtask[owner];
  }
  EXPECT_GT(keysPerSubtask[0], 0);
  EXPECT_GT(keysPerSubtask[1], 0);

  // Each subtask holds exactly its keys: its snapshot, restored alone into a backend owning
  // every key group, yields its keys and no others.
  for (int operatorIndex = 0; operatorIndex < 2; ++operatorIndex) {
    HeapKeyedStateBackend alone(kAllKeyGroups, kMaxParallelism, clock);
    copyKeyGroups(*subtasks[operatorIndex], subtasks[operatorIndex]->keyGroupRange(), alone);
    ValueState<int64_t>* count = alone.getValueState(countDescriptor());
    for (int index = 0; index < kKeyCount; ++index) {
      int owner = computeOperatorIndexForKeyGroup(kMaxParallelism, 2, keyGroupOf(keyName(index)));
      selectKeyOn(alone, keyName(index));
      if (owner == operatorIndex) {
        EXPECT_EQ(count->value(), index);
      } else {
        EXPECT_EQ(count->value(), std::nullopt) << keyName(index);
      }
    }
  }
}

TEST_F(SnapshotTest, RescalingFromTwoSubtasksBackToOneRestoresEveryKey) {
  ManualClock clock;
  HeapKeyedStateBackend merged(kAllKeyGroups, kMaxParallelism, clock);
  for (int operatorIndex = 0; operatorIndex < 2; ++operatorIndex) {
    KeyGroupRange range = computeKeyGroupRangeForOperatorIndex(kMaxParallelism, 2, operatorIndex);
    HeapKeyedStateBackend subtask(range, kMaxParallelism, clock);
    ValueState<int64_t>* count = subtask.getValueState(countDescriptor());
    for (int index = 0; index < 100; ++index) {
      if (!range.contains(keyGroupOf(keyName(index)))) continue;
      selectKeyOn(subtask, keyName(index));
      count->update(index * 10);
    }
    copyKeyGroups(subtask, range, merged);
  }
  ValueState<int64_t>* count = merged.getValueState(countDescriptor());
  for (int index = 0; index < 100; ++index) {
    selectKeyOn(merged, keyName(index));
    EXPECT_EQ(count->value(), index * 10) << keyName(index);
  }
}

TEST_F(SnapshotTest, RestoreBeforeRegistrationIsDecodedWhenTheStateIsRegistered) {
  fillKeys(backend_, 10);
  ManualClock clock;
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  EXPECT_EQ(restored.registeredStateNames(), std::vector<std::string>{});
  for (int index = 0; index < 10; ++index) expectKeyFilled(restored, index);
}

TEST_F(SnapshotTest, UnregisteredRestoredStateSurvivesTheNextSnapshot) {
  fillKeys(backend_, 10);
  ManualClock clock;
  HeapKeyedStateBackend intermediate(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, intermediate);
  // Only "count" is registered before the next checkpoint; "events" and "tags" stay raw.
  intermediate.getValueState(countDescriptor());
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(intermediate, kAllKeyGroups, restored);
  for (int index = 0; index < 10; ++index) expectKeyFilled(restored, index);
}

// An asynchronous snapshot: the sections written after the freeze, once the values and the
// registered states have changed, are those a synchronous snapshot wrote at the freeze, and
// restored states not yet registered are kept in them.
TEST_F(SnapshotTest, AFrozenSnapshotWritesTheStateOfItsFreeze) {
  fillKeys(backend_, 20);
  ManualClock clock;
  HeapKeyedStateBackend partly(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, partly);
  ValueState<int64_t>* count = partly.getValueState(countDescriptor());  // the others stay raw
  std::map<int, std::string> atFreeze;
  partly.snapshotKeyGroups(atFreeze);
  std::unique_ptr<FrozenKeyedState> frozen = partly.freezeKeyGroups();
  for (int index = 0; index < 30; ++index) {
    selectKeyOn(partly, keyName(index));
    count->update(100 + index);
  }
  partly.getListState(eventsDescriptor())->add("after the freeze");
  std::map<int, std::string> now;
  partly.snapshotKeyGroups(now);
  EXPECT_NE(now, atFreeze);
  std::map<int, std::string> written;
  frozen->write(written);
  EXPECT_EQ(written, atFreeze);
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  restored.restoreKeyGroups(written);
  for (int index = 0; index < 20; ++index) expectKeyFilled(restored, index);
}

TEST_F(SnapshotTest, RestoredKindMustMatchTheRegisteredKind) {
  fillKeys(backend_, 1);
  ManualClock clock;
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  try {
    restored.getListState(ListStateDescriptor<int64_t>("count"));
    FAIL() << "expected a ValidationException";
  } catch (const ValidationException& exception) {
    EXPECT_STREQ(
        exception.what(),
        "State 'count' was restored as a ValueState and cannot be accessed as a ListState");
  }
}

TEST_F(SnapshotTest, SnapshotOmitsExpiredEntries) {
  auto ttl = StateTtlConfig::newBuilder(milliseconds(100)).build();
  ValueStateDescriptor<int64_t> count("count");
  count.enableTimeToLive(ttl);
  MapStateDescriptor<std::string, int64_t> tags("tags");
  tags.enableTimeToLive(ttl);
  ListStateDescriptor<std::string> events("events");
  events.enableTimeToLive(ttl);

  selectKey("old");
  backend_.getValueState(count)->update(1);
  backend_.getListState(events)->add("old-event");
  backend_.getMapState(tags)->put("old-tag", 1);
  clock_.set(60);
  backend_.getListState(events)->add("new-event");
  backend_.getMapState(tags)->put("new-tag", 2);
  selectKey("new");
  backend_.getValueState(count)->update(2);
  clock_.set(100);  // everything written at 0 has expired, nothing has been read since

  // Restore without TTL, so nothing is filtered on the reading side.
  ManualClock clock(100);
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  selectKeyOn(restored, std::string("old"));
  EXPECT_EQ(restored.getValueState(countDescriptor())->value(), std::nullopt);
  EXPECT_EQ(restored.getListState(eventsDescriptor())->get(),
            std::vector<std::string>{"new-event"});
  EXPECT_EQ(restored.getMapState(tagsDescriptor())->entries(),
            (std::vector<std::pair<std::string, int64_t>>{{"new-tag", 2}}));
  selectKeyOn(restored, std::string("new"));
  EXPECT_EQ(restored.getValueState(countDescriptor())->value(), 2);

  // A key group whose only entry expired writes an empty section.
  int oldKeyGroup = keyGroupOf("old");
  ASSERT_NE(oldKeyGroup, keyGroupOf("new"));
  clock_.set(160);
  std::string section;
  backend_.snapshotKeyGroup(oldKeyGroup, section);
  EXPECT_EQ(section, std::string("\x01") + static_cast<char>(oldKeyGroup) + std::string(1, '\0'));
}

TEST_F(SnapshotTest, TtlTimestampsSurviveARestore) {
  ValueStateDescriptor<int64_t> count("count");
  count.enableTimeToLive(StateTtlConfig::newBuilder(milliseconds(100)).build());
  selectKey("alice");
  backend_.getValueState(count)->update(1);
  clock_.set(50);

  ManualClock clock(50);
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  ValueState<int64_t>* restoredCount = restored.getValueState(count);
  selectKeyOn(restored, std::string("alice"));
  clock.set(99);
  EXPECT_EQ(restoredCount->value(), 1);
  clock.set(100);  // 100 ms after the write at 0, not after the restore at 50
  EXPECT_EQ(restoredCount->value(), std::nullopt);
}

TEST_F(SnapshotTest, ValuesWithoutTimestampsAreStampedWhenRestoredIntoTtlState) {
  selectKey("alice");
  backend_.getValueState(countDescriptor())->update(1);
  ManualClock clock(1000);
  HeapKeyedStateBackend restored(kAllKeyGroups, kMaxParallelism, clock);
  copyKeyGroups(backend_, kAllKeyGroups, restored);
  ValueStateDescriptor<int64_t> count("count");
  count.enableTimeToLive(StateTtlConfig::newBuilder(milliseconds(100)).build());
  ValueState<int64_t>* restoredCount = restored.getValueState(count);
  selectKeyOn(restored, std::string("alice"));
  clock.set(1099);
  EXPECT_EQ(restoredCount->value(), 1);
  clock.set(1100);
  EXPECT_EQ(restoredCount->value(), std::nullopt);
}

TEST_F(SnapshotTest, RestoringAKeyGroupTheBackendDoesNotOwnIsAnInternalError) {
  std::string section;
  backend_.snapshotKeyGroup(0, section);
  ManualClock clock;
  HeapKeyedStateBackend upperHalf(KeyGroupRange{64, 127}, kMaxParallelism, clock);
  EXPECT_THROW(upperHalf.restoreKeyGroup(0, section), InternalError);
  // A section written for key group 0 cannot be restored as key group 64.
  EXPECT_THROW(upperHalf.restoreKeyGroup(64, section), InternalError);
  EXPECT_THROW(upperHalf.restoreKeyGroup(64, std::string("\x07\x40\x00", 3)), InternalError);
}

}  // namespace
}  // namespace eddy::state

// State TTL's cleanup in the background on the heap backend (Flink's incremental cleanup):
// expired entries disappear although their keys are never accessed again, live ones and the
// key being accessed stay, lists and maps keep their live values, runCleanupForEveryRecord
// cleans without any state access, disableCleanupInBackground turns it off, and the resident
// memory of a backend whose keys keep coming and expiring stays flat.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

using std::chrono::milliseconds;

constexpr int64_t kTtlMillis = 100;

StateTtlConfig::Builder ttlBuilder() {
  return StateTtlConfig::newBuilder(milliseconds(kTtlMillis));
}

ValueStateDescriptor<int64_t> countWithTtl(const StateTtlConfig& config) {
  ValueStateDescriptor<int64_t> descriptor("count");
  descriptor.enableTimeToLive(config);
  return descriptor;
}

std::string keyName(const std::string& prefix, int index) {
  return prefix + "-" + std::to_string(index);
}

/// Writes `count` of `keys` as prefix-0.. into `state`, one key after the other.
void writeKeys(KeyedStateBackend& backend, ValueState<int64_t>* state, const std::string& prefix,
               int count) {
  for (int i = 0; i < count; ++i) {
    selectKeyOn(backend, keyName(prefix, i));
    state->update(i);
  }
}

TEST(StateTtlCleanupConfigTest, IncrementalCleanupIsOnByDefaultAsInFlink) {
  StateTtlConfig config = ttlBuilder().build();
  const StateTtlConfig::CleanupStrategies& cleanup = config.getCleanupStrategies();
  EXPECT_TRUE(cleanup.isCleanupInBackground());
  EXPECT_FALSE(cleanup.inFullSnapshot());
  ASSERT_TRUE(cleanup.getIncrementalCleanupStrategy().has_value());
  EXPECT_EQ(cleanup.getIncrementalCleanupStrategy()->getCleanupSize(), 5);
  EXPECT_FALSE(cleanup.getIncrementalCleanupStrategy()->runCleanupForEveryRecord());

  StateTtlConfig explicitly =
      ttlBuilder().cleanupIncrementally(10, true).cleanupFullSnapshot().build();
  EXPECT_EQ(explicitly.getCleanupStrategies().getIncrementalCleanupStrategy()->getCleanupSize(),
            10);
  EXPECT_TRUE(explicitly.getCleanupStrategies()
                  .getIncrementalCleanupStrategy()
                  ->runCleanupForEveryRecord());
  EXPECT_TRUE(explicitly.isCleanupInFullSnapshot());

  StateTtlConfig disabled = ttlBuilder().disableCleanupInBackground().build();
  EXPECT_FALSE(disabled.getCleanupStrategies().isCleanupInBackground());
  EXPECT_EQ(disabled.getCleanupStrategies().getIncrementalCleanupStrategy(), std::nullopt);
  // An explicit strategy still runs without the default one, as in Flink.
  StateTtlConfig explicitOnly =
      ttlBuilder().disableCleanupInBackground().cleanupIncrementally(3, false).build();
  EXPECT_EQ(explicitOnly.getCleanupStrategies().getIncrementalCleanupStrategy()->getCleanupSize(),
            3);

  EXPECT_THROW(ttlBuilder().cleanupIncrementally(0, false).build(), ValidationException);
  EXPECT_THROW(ttlBuilder().cleanupIncrementally(-1, true).build(), ValidationException);
}

class StateTtlCleanupTest : public HeapBackendFixture {};

TEST_F(StateTtlCleanupTest, ExpiredEntriesDisappearWithoutTheirKeysBeingAccessed) {
  ValueState<int64_t>* count = backend_.getValueState(countWithTtl(ttlBuilder().build()));
  writeKeys(backend_, count, "old", 1000);
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 1000u);
  clock_.set(kTtlMillis);  // every "old" key has expired; none is accessed again
  // 400 writes of new keys, each visiting 5 positions at the time it stamps: 2000 positions,
  // more than one round over the 1000 + 400 entries and the 128 key group ends.
  writeKeys(backend_, count, "new", 400);
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 400u);
  EXPECT_EQ(backend_.numKeyValueStateEntries(), 400u);
  for (int i = 0; i < 400; ++i) {
    selectKey(keyName("new", i));
    ASSERT_EQ(count->value(), i);
  }
  selectKey(keyName("old", 7));
  EXPECT_EQ(count->value(), std::nullopt);
}

TEST_F(StateTtlCleanupTest, LiveEntriesStayWhateverTheCleanupVisits) {
  ValueState<int64_t>* count = backend_.getValueState(countWithTtl(ttlBuilder().build()));
  writeKeys(backend_, count, "a", 500);
  clock_.set(kTtlMillis - 1);             // all still live
  writeKeys(backend_, count, "b", 2000);  // 10000 positions: several rounds over every entry
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 2500u);
  selectKey(keyName("a", 499));
  EXPECT_EQ(count->value(), 499);
}

TEST_F(StateTtlCleanupTest, DisablingCleanupInBackgroundKeepsExpiredEntriesUntilAccessed) {
  ValueState<int64_t>* count =
      backend_.getValueState(countWithTtl(ttlBuilder().disableCleanupInBackground().build()));
  writeKeys(backend_, count, "old", 1000);
  clock_.set(kTtlMillis);
  writeKeys(backend_, count, "new", 400);
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 1400u);
  // Still invisible, and removed on access.
  selectKey(keyName("old", 7));
  EXPECT_EQ(count->value(), std::nullopt);
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 1399u);
}

TEST_F(StateTtlCleanupTest, ALargerCleanupSizeCleansFaster) {
  ValueState<int64_t>* count =
      backend_.getValueState(countWithTtl(ttlBuilder().cleanupIncrementally(100, false).build()));
  writeKeys(backend_, count, "old", 1000);
  clock_.set(kTtlMillis);
  writeKeys(backend_, count, "new", 20);  // 20 × 100 positions
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 20u);
}

TEST_F(StateTtlCleanupTest, RunCleanupForEveryRecordCleansWithoutAnyStateAccess) {
  ValueState<int64_t>* count =
      backend_.getValueState(countWithTtl(ttlBuilder().cleanupIncrementally(5, true).build()));
  writeKeys(backend_, count, "old", 1000);
  clock_.set(kTtlMillis);
  // Records whose function does not touch the state: only setCurrentKey.
  for (int i = 0; i < 300; ++i) selectKey(keyName("record", i));  // 1500 positions
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 0u);
}

// One key group, so the cursor walks the keys in the order they were added.
class SingleKeyGroupCleanupTest : public ::testing::Test {
 protected:
  void selectKey(const std::string& key) { selectKeyOn(backend_, key); }

  ManualClock clock_{0};
  HeapKeyedStateBackend backend_{KeyGroupRange{0, 0}, 1, clock_};
};

TEST_F(SingleKeyGroupCleanupTest, TheKeyBeingAccessedIsLeftToItsOwnAccess) {
  // ReturnExpiredIfNotCleanedUp: the read that finds alice's expired value returns it once;
  // the cleanup step of that very read passes alice and must not take it away first.
  ValueState<std::string>* seen = backend_.getValueState([] {
    ValueStateDescriptor<std::string> descriptor("seen");
    descriptor.enableTimeToLive(ttlBuilder().returnExpiredIfNotCleanedUp().build());
    return descriptor;
  }());
  selectKey("alice");
  seen->update("a");  // slot 0, at 0
  clock_.set(50);
  selectKey("bob");
  seen->update("b");  // slot 1, at 50; its step (at 50) leaves the cursor on bob
  clock_.set(kTtlMillis);
  selectKey("bob");
  // A read cleans at the time of the state's last clock reading (50, nothing expired), then
  // reads the clock (100); the step leaves the cursor on alice.
  EXPECT_EQ(seen->value(), "b");
  selectKey("alice");
  // This step runs at 100 and passes alice, expired, twice: she is the key being read.
  EXPECT_EQ(seen->value(), "a");
  EXPECT_EQ(seen->value(), std::nullopt);
  EXPECT_EQ(backend_.numKeyValueStateEntries("seen"), 1u);
  selectKey("bob");
  EXPECT_EQ(seen->value(), "b");
}

TEST_F(SingleKeyGroupCleanupTest, ErasingMovesTheLastKeyWithoutLosingTheCurrentOne) {
  // The current key sits in the last slot; the cleanup step of its access erases expired keys
  // before it, which moves it forward. Its value and an in-place change must still be its.
  ValueState<int64_t>* count = backend_.getValueState(countWithTtl(ttlBuilder().build()));
  for (int i = 0; i < 4; ++i) {
    selectKey(keyName("old", i));
    count->update(i);  // slots 0-3, at 0
  }
  clock_.set(kTtlMillis - 1);
  selectKey("live");
  count->update(100);  // slot 4, the last; its step (at 99) erases nothing, ends on old-1
  clock_.set(kTtlMillis);
  selectKey("live");
  // The step (at 100) erases old-1, moving live into slot 1, passes live, erases old-2 and
  // old-3; old-0 is left.
  int64_t* value = count->valuePointer();
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(*value, 100);
  *value = 101;
  EXPECT_EQ(count->value(), 101);
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 2u);
  selectKey("other");
  count->update(7);  // its step erases old-0
  EXPECT_EQ(backend_.numKeyValueStateEntries("count"), 2u);
  selectKey("live");
  EXPECT_EQ(count->value(), 101);
  selectKey(keyName("old", 0));
  EXPECT_EQ(count->value(), std::nullopt);
}

TEST_F(SingleKeyGroupCleanupTest, ListsAndMapsKeepTheirLiveValues) {
  ListStateDescriptor<std::string> eventsDescriptor("events");
  eventsDescriptor.enableTimeToLive(ttlBuilder().build());
  MapStateDescriptor<std::string, int64_t> tagsDescriptor("tags");
  tagsDescriptor.enableTimeToLive(ttlBuilder().build());
  ListState<std::string>* events = backend_.getListState(eventsDescriptor);
  MapState<std::string, int64_t>* tags = backend_.getMapState(tagsDescriptor);
  selectKey("alice");
  events->add("old");
  tags->put("old", 1);
  selectKey("gone");
  events->add("gone");
  tags->put("gone", 3);
  clock_.set(60);
  selectKey("alice");
  events->add("new");
  tags->put("new", 2);
  clock_.set(kTtlMillis);
  for (int i = 0; i < 10; ++i) {  // other keys: the cursor passes alice and gone repeatedly
    selectKey(keyName("other", i));
    events->add("x");
    tags->put("x", 0);
  }
  // gone's only values (0) expired: gone is removed; alice keeps her entry for "new" (60).
  EXPECT_EQ(backend_.numKeyValueStateEntries("events"), 11u);
  EXPECT_EQ(backend_.numKeyValueStateEntries("tags"), 11u);
  selectKey("alice");
  EXPECT_EQ(events->get(), std::vector<std::string>{"new"});
  EXPECT_EQ(tags->entries(), (std::vector<std::pair<std::string, int64_t>>{{"new", 2}}));
  selectKey("gone");
  EXPECT_EQ(events->get(), std::vector<std::string>{});
  EXPECT_TRUE(tags->isEmpty());
  clock_.set(200);
  for (int i = 0; i < 10; ++i) {
    selectKey(keyName("more", i));
    events->add("y");
    tags->put("y", 0);
  }
  // alice's "new" (60) and the others' values (100) have expired; the "more" keys live.
  EXPECT_EQ(backend_.numKeyValueStateEntries("events"), 10u);
  EXPECT_EQ(backend_.numKeyValueStateEntries("tags"), 10u);
}

TEST_F(StateTtlCleanupTest, ARestoreLeavesOutWhatExpiredSinceTheSnapshot) {
  ValueState<int64_t>* count = backend_.getValueState(countWithTtl(ttlBuilder().build()));
  writeKeys(backend_, count, "early", 10);
  clock_.set(50);
  writeKeys(backend_, count, "late", 10);
  std::map<int, std::string> sections;
  backend_.snapshotKeyGroups(sections);

  ManualClock clock(120);  // the early keys (written at 0) expired at 100
  HeapKeyedStateBackend restored(KeyGroupRange{0, kMaxParallelism - 1}, kMaxParallelism, clock);
  for (const auto& [keyGroup, bytes] : sections) restored.restoreKeyGroup(keyGroup, bytes);
  ValueState<int64_t>* restoredCount = restored.getValueState(countWithTtl(ttlBuilder().build()));
  EXPECT_EQ(restored.numKeyValueStateEntries("count"), 10u);
  selectKeyOn(restored, keyName("late", 3));
  EXPECT_EQ(restoredCount->value(), 3);
}

// Resident memory from /proc/self/statm, in bytes; nullopt where there is none.
std::optional<int64_t> residentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t sizePages = 0;
  int64_t residentPages = 0;
  if (!(statm >> sizePages >> residentPages)) return std::nullopt;
  return residentPages * static_cast<int64_t>(sysconf(_SC_PAGESIZE));
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

TEST_F(StateTtlCleanupTest, ResidentMemoryStaysFlatWhileKeysKeepComingAndExpiring) {
  // The shape of a GROUP BY over ever new keys with table.exec.state.ttl: 100 new keys per
  // millisecond of a manual clock, each with a 100-byte value, and a TTL of 1 s, so about
  // 100 K keys (~25 MB) are live at any time. Two phases of 1 M keys each: the first reaches
  // the steady state, the second must not grow the process's resident memory by more than a
  // fraction of the ~200 MB that 1 M more entries take when nothing is cleaned up.
  // It measures the whole process, so it can fail spuriously where something else in the
  // process allocates meanwhile (nothing does in this binary), or where freed memory is not
  // reused (a sanitizer's quarantine: skipped under AddressSanitizer).
  if (kUnderAddressSanitizer) GTEST_SKIP() << "freed memory is quarantined, not reused";
  if (!residentBytes()) GTEST_SKIP() << "no /proc/self/statm";
  ValueStateDescriptor<std::string> descriptor("payload");
  descriptor.enableTimeToLive(StateTtlConfig::newBuilder(milliseconds(1000)).build());
  ValueState<std::string>* payload = backend_.getValueState(descriptor);
  const std::string value(100, 'v');
  int64_t key = 0;
  auto runPhase = [&](int64_t keys) {
    for (int64_t i = 0; i < keys; ++i, ++key) {
      if (key % 100 == 0) clock_.set(key / 100);
      selectKey("key-" + std::to_string(key));
      payload->update(value);
    }
  };
  constexpr int64_t kKeysPerPhase = 1'000'000;
  runPhase(kKeysPerPhase);
  const int64_t afterFirstPhase = *residentBytes();
  const size_t entriesAfterFirstPhase = backend_.numKeyValueStateEntries("payload");
  runPhase(kKeysPerPhase);
  const int64_t afterSecondPhase = *residentBytes();
  const size_t entriesAfterSecondPhase = backend_.numKeyValueStateEntries("payload");
  // 100 K live keys, and what expired since the cursor last passed (at most a quarter more).
  EXPECT_GE(entriesAfterFirstPhase, 100'000u);
  EXPECT_LE(entriesAfterFirstPhase, 130'000u);
  EXPECT_LE(entriesAfterSecondPhase, 130'000u);
  constexpr int64_t kMiB = 1024 * 1024;
  EXPECT_LT(afterSecondPhase - afterFirstPhase, 48 * kMiB)
      << "resident memory went from " << afterFirstPhase / kMiB << " MiB to "
      << afterSecondPhase / kMiB << " MiB";
}

}  // namespace
}  // namespace eddy::state

// State TTL on the heap backend, driven by a ManualClock: expiry per value, per list element
// and per map entry; OnCreateAndWrite versus OnReadAndWrite; both visibilities.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "heap_backend_fixture.h"

namespace eddy::state {
namespace {

using std::chrono::milliseconds;
using Strings = std::vector<std::string>;
using Entries = std::vector<std::pair<std::string, int64_t>>;

StateTtlConfig ttlConfig(StateTtlConfig::UpdateType updateType,
                         StateTtlConfig::StateVisibility visibility =
                             StateTtlConfig::StateVisibility::NeverReturnExpired) {
  return StateTtlConfig::newBuilder(milliseconds(100))
      .setUpdateType(updateType)
      .setStateVisibility(visibility)
      .cleanupFullSnapshot()
      .build();
}

template <typename Descriptor>
Descriptor withTtl(Descriptor descriptor, const StateTtlConfig& config) {
  descriptor.enableTimeToLive(config);
  return descriptor;
}

class StateTtlTest : public HeapBackendFixture {};

TEST_F(StateTtlTest, BuilderKeepsTheSettingsAndRejectsNonPositiveTtl) {
  StateTtlConfig config = StateTtlConfig::newBuilder(milliseconds(5000))
                              .updateTtlOnReadAndWrite()
                              .returnExpiredIfNotCleanedUp()
                              .build();
  EXPECT_EQ(config.getTtl(), milliseconds(5000));
  EXPECT_EQ(config.getUpdateType(), StateTtlConfig::UpdateType::OnReadAndWrite);
  EXPECT_EQ(config.getStateVisibility(),
            StateTtlConfig::StateVisibility::ReturnExpiredIfNotCleanedUp);
  EXPECT_FALSE(config.isCleanupInFullSnapshot());
  EXPECT_TRUE(config.isEnabled());
  EXPECT_THROW(StateTtlConfig::newBuilder(milliseconds(0)).build(), ValidationException);
}

TEST_F(StateTtlTest, ValueExpiresAfterTtlSinceWriteWhenReadsDoNotRefresh) {
  ValueState<std::string>* seen =
      backend_.getValueState(withTtl(ValueStateDescriptor<std::string>("seen"),
                                     ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  seen->update("v");
  clock_.set(99);
  EXPECT_EQ(seen->value(), "v");  // a read, which must not refresh the timestamp
  clock_.set(100);
  EXPECT_EQ(seen->value(), std::nullopt);
}

TEST_F(StateTtlTest, ValueWriteRefreshesTheTimestamp) {
  ValueState<std::string>* seen =
      backend_.getValueState(withTtl(ValueStateDescriptor<std::string>("seen"),
                                     ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  seen->update("v1");
  clock_.set(80);
  seen->update("v2");
  clock_.set(179);
  EXPECT_EQ(seen->value(), "v2");
  clock_.set(180);
  EXPECT_EQ(seen->value(), std::nullopt);
}

TEST_F(StateTtlTest, AnInPlaceChangeIsAWrite) {
  ValueState<std::string>* seen =
      backend_.getValueState(withTtl(ValueStateDescriptor<std::string>("seen"),
                                     ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  EXPECT_EQ(seen->valuePointer(), nullptr);  // nothing yet
  seen->update("v");
  clock_.set(80);
  std::string* value = seen->valuePointer();
  ASSERT_NE(value, nullptr);
  *value += "2";
  clock_.set(179);
  EXPECT_EQ(seen->value(), "v2");
  clock_.set(180);
  EXPECT_EQ(seen->valuePointer(), nullptr);  // expired 100 after the in-place write
  EXPECT_EQ(seen->value(), std::nullopt);
}

TEST_F(StateTtlTest, ValueReadRefreshesTheTimestampWithOnReadAndWrite) {
  ValueState<std::string>* seen =
      backend_.getValueState(withTtl(ValueStateDescriptor<std::string>("seen"),
                                     ttlConfig(StateTtlConfig::UpdateType::OnReadAndWrite)));
  selectKey("alice");
  seen->update("v");
  clock_.set(90);
  EXPECT_EQ(seen->value(), "v");  // refreshed to 90
  clock_.set(189);
  EXPECT_EQ(seen->value(), "v");  // refreshed to 189
  clock_.set(289);
  EXPECT_EQ(seen->value(), std::nullopt);
}

TEST_F(StateTtlTest, ExpiryIsPerKey) {
  ValueState<int64_t>* count =
      backend_.getValueState(withTtl(ValueStateDescriptor<int64_t>("count"),
                                     ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  count->update(1);
  clock_.set(50);
  selectKey("bob");
  count->update(2);
  clock_.set(120);
  EXPECT_EQ(count->value(), 2);
  selectKey("alice");
  EXPECT_EQ(count->value(), std::nullopt);
}

TEST_F(StateTtlTest, ExpiredValueIsReturnedOnceWhenVisibilityAllows) {
  ValueState<std::string>* seen = backend_.getValueState(
      withTtl(ValueStateDescriptor<std::string>("seen"),
              ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite,
                        StateTtlConfig::StateVisibility::ReturnExpiredIfNotCleanedUp)));
  selectKey("alice");
  seen->update("v");
  clock_.set(500);
  EXPECT_EQ(seen->value(), "v");  // expired, not cleaned up yet: returned and cleaned up
  EXPECT_EQ(seen->value(), std::nullopt);
}

TEST_F(StateTtlTest, ListElementsExpireOneByOne) {
  ListState<std::string>* events =
      backend_.getListState(withTtl(ListStateDescriptor<std::string>("events"),
                                    ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  events->add("a");
  clock_.set(50);
  events->addAll({"b", "c"});
  clock_.set(99);
  EXPECT_EQ(events->get(), (Strings{"a", "b", "c"}));
  clock_.set(100);
  EXPECT_EQ(events->get(), (Strings{"b", "c"}));
  events->add("d");
  clock_.set(150);
  EXPECT_EQ(events->get(), Strings{"d"});
  clock_.set(200);
  EXPECT_EQ(events->get(), Strings{});
}

TEST_F(StateTtlTest, ListReadRefreshesElementsWithOnReadAndWrite) {
  ListState<std::string>* events =
      backend_.getListState(withTtl(ListStateDescriptor<std::string>("events"),
                                    ttlConfig(StateTtlConfig::UpdateType::OnReadAndWrite)));
  selectKey("alice");
  events->addAll({"a", "b"});
  clock_.set(90);
  EXPECT_EQ(events->get(), (Strings{"a", "b"}));
  clock_.set(150);
  EXPECT_EQ(events->get(), (Strings{"a", "b"}));
  clock_.set(250);
  EXPECT_EQ(events->get(), Strings{});
}

TEST_F(StateTtlTest, MapEntriesExpireOneByOne) {
  MapState<std::string, int64_t>* counts =
      backend_.getMapState(withTtl(MapStateDescriptor<std::string, int64_t>("counts"),
                                   ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  counts->put("a", 1);
  clock_.set(50);
  counts->put("b", 2);
  clock_.set(60);
  EXPECT_EQ(counts->get("a"), 1);  // does not refresh "a"
  clock_.set(100);
  EXPECT_EQ(counts->get("a"), std::nullopt);
  EXPECT_FALSE(counts->contains("a"));
  EXPECT_TRUE(counts->contains("b"));
  EXPECT_EQ(counts->entries(), (Entries{{"b", 2}}));
  EXPECT_FALSE(counts->isEmpty());
  clock_.set(150);
  EXPECT_EQ(counts->keys(), std::vector<std::string>{});
  EXPECT_TRUE(counts->isEmpty());
}

TEST_F(StateTtlTest, MapReadRefreshesOnlyTheEntryReadWithOnReadAndWrite) {
  MapState<std::string, int64_t>* counts =
      backend_.getMapState(withTtl(MapStateDescriptor<std::string, int64_t>("counts"),
                                   ttlConfig(StateTtlConfig::UpdateType::OnReadAndWrite)));
  selectKey("alice");
  counts->putAll({{"a", 1}, {"b", 2}});
  clock_.set(90);
  EXPECT_EQ(counts->get("a"), 1);  // refreshes "a" only
  clock_.set(120);
  EXPECT_EQ(counts->entries(), (Entries{{"a", 1}}));
  EXPECT_EQ(counts->get("b"), std::nullopt);
}

TEST_F(StateTtlTest, ReducingStateDropsAnExpiredValueBeforeFolding) {
  ReducingState<int64_t>* sum = backend_.getReducingState(
      withTtl(ReducingStateDescriptor<int64_t>(
                  "sum", [](const int64_t& left, const int64_t& right) { return left + right; }),
              ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  sum->add(1);
  clock_.set(40);
  sum->add(2);  // refreshes to 40
  clock_.set(139);
  EXPECT_EQ(sum->get(), 3);
  clock_.set(140);
  EXPECT_EQ(sum->get(), std::nullopt);
  sum->add(5);
  EXPECT_EQ(sum->get(), 5);
  clock_.set(300);
  sum->add(7);  // the expired 5 is not folded in
  EXPECT_EQ(sum->get(), 7);
}

class CountFunction : public AggregateFunction<std::string, int64_t, int64_t> {
 public:
  int64_t createAccumulator() const override { return 0; }
  int64_t add(const std::string&, int64_t accumulator) const override { return accumulator + 1; }
  int64_t getResult(const int64_t& accumulator) const override { return accumulator; }
  int64_t merge(int64_t left, int64_t right) const override { return left + right; }
};

TEST_F(StateTtlTest, AggregatingStateStartsAFreshAccumulatorAfterExpiry) {
  AggregatingState<std::string, int64_t>* count = backend_.getAggregatingState(
      withTtl(AggregatingStateDescriptor<std::string, int64_t, int64_t>(
                  "count", std::make_shared<CountFunction>()),
              ttlConfig(StateTtlConfig::UpdateType::OnCreateAndWrite)));
  selectKey("alice");
  count->add("x");
  count->add("y");
  EXPECT_EQ(count->get(), 2);
  clock_.set(100);
  EXPECT_EQ(count->get(), std::nullopt);
  count->add("z");
  EXPECT_EQ(count->get(), 1);
}

TEST_F(StateTtlTest, DisabledUpdateTypeTurnsTtlOff) {
  ValueStateDescriptor<int64_t> descriptor("count");
  descriptor.enableTimeToLive(StateTtlConfig::newBuilder(milliseconds(100))
                                  .setUpdateType(StateTtlConfig::UpdateType::Disabled)
                                  .build());
  EXPECT_FALSE(descriptor.getTtlConfig().has_value());
  ValueState<int64_t>* count = backend_.getValueState(descriptor);
  selectKey("alice");
  count->update(1);
  clock_.set(1'000'000);
  EXPECT_EQ(count->value(), 1);
}

}  // namespace
}  // namespace eddy::state

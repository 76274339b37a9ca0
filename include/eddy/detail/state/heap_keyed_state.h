// The heap backend's typed state objects. Each registered state is one object that is both
// the user-facing interface (ValueState<V>, ListState<V>, ...) and a table of typed values:
// per key group of the backend's range, a KeySlotIndex from the serialized key bytes the
// runtime passed to setCurrentKey to a dense slot, and a vector of the keys' entries by slot.
// Reads and writes touch C++ objects only; serializers run only when a key group is
// snapshotted or restored. Partitioning by key group lets a snapshot write (and a rescale
// move) one key group's entries on their own.
//
// With TTL, every value (list element, map entry) is a TtlValue carrying the processing time
// of its last access; without TTL the timestamp is never read or written. Expired values are
// removed when the key that holds them is accessed, never written to snapshots nor restored
// from them, and removed in the background by incremental cleanup (Flink's heap backend
// TtlIncrementalCleanup, StateTtlConfig::IncrementalCleanupStrategy, on by default): each
// state keeps a cursor over its entries, all key groups in turn, and the first access of a
// state after the current key changed (and, with runCleanupForEveryRecord, every
// setCurrentKey) advances it by cleanupSize positions, removing the keys none of whose values
// is live and the expired elements of the others. The cursor does not allocate and reads the
// time the state last read from the clock (a stale time only removes less), so a step costs
// cleanupSize reads of adjacent entries plus one erase per expired key. A key group's tables
// shrink once they are a quarter full, so memory follows the live keys down.
//
// These classes are internal to eddy (namespace eddy::state) and live in an installed header
// only because the state templates are instantiated in user code (a user function's
// getState(descriptor) builds the typed state of its value types). They use no third-party
// header: the key index is implemented in src/state (key_slot_index.cpp) with a Swiss table,
// and a MapState's user keys are held in a std::unordered_map. Ownership and threading: the
// heap backend (src/state/heap_keyed_state_backend.h) owns them, shares its HeapKeyContext
// with them by reference, and calls them (as does the user function) from the one task thread
// of the subtask.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eddy/clock.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/state/state_ttl_config.h"

namespace eddy {
class KeyedStateBackend;
}  // namespace eddy

namespace eddy::state {

/// What the heap state objects read from their backend: the current key and the clock. Owned
/// by the backend, which outlives the states.
struct HeapKeyContext {
  /// Serialized bytes of the current key.
  std::string currentKey;
  /// currentKeyGroup - range.startKeyGroup; -1 until the first setCurrentKey.
  int currentKeyGroupIndex = -1;
  /// Number of key groups in the backend's range.
  int keyGroupCount = 0;
  /// Changes with every setCurrentKey: a state's cached slot of the current key is valid while
  /// it is the one it was cached at.
  uint64_t keyVersion = 0;
  const Clock* clock = nullptr;
};

/// Throws InternalError: state was accessed before the runtime set a current key.
[[noreturn]] void throwNoCurrentKey();

/// A value with the processing time of its last access (Flink's TtlValue).
template <typename T>
struct TtlValue {
  T userValue;
  int64_t lastAccessTimestamp = 0;
};

/// A descriptor's TTL config reduced to what the read and write paths test.
class TtlPolicy {
 public:
  explicit TtlPolicy(const std::optional<StateTtlConfig>& config) {
    if (config && config->isEnabled()) {
      enabled_ = true;
      ttlMillis_ = config->getTtl().count();
      updateOnRead_ = config->getUpdateType() == StateTtlConfig::UpdateType::OnReadAndWrite;
      returnExpired_ = config->getStateVisibility() ==
                       StateTtlConfig::StateVisibility::ReturnExpiredIfNotCleanedUp;
      if (std::optional<StateTtlConfig::IncrementalCleanupStrategy> incremental =
              config->getCleanupStrategies().getIncrementalCleanupStrategy()) {
        cleanupSize_ = incremental->getCleanupSize();
        cleanupForEveryRecord_ = incremental->runCleanupForEveryRecord();
      }
    }
  }

  bool enabled() const { return enabled_; }
  bool updateOnRead() const { return updateOnRead_; }
  bool returnExpired() const { return returnExpired_; }
  /// The positions one step of incremental cleanup visits; 0: no incremental cleanup.
  int cleanupSize() const { return cleanupSize_; }
  /// Whether every setCurrentKey runs a step too (runCleanupForEveryRecord).
  bool cleanupForEveryRecord() const { return cleanupForEveryRecord_; }
  /// Flink's rule: expired once lastAccess + ttl <= now.
  bool isExpired(int64_t lastAccessTimestamp, int64_t now) const {
    return enabled_ && now - lastAccessTimestamp >= ttlMillis_;
  }

 private:
  bool enabled_ = false;
  int64_t ttlMillis_ = 0;
  bool updateOnRead_ = false;
  bool returnExpired_ = false;
  int cleanupSize_ = 0;
  bool cleanupForEveryRecord_ = false;
};

/// Whether every value of `value` has expired at `now` (then the key's entry goes); the
/// expired elements of a list and entries of a map are removed from them. Incremental cleanup
/// and restore call it.
template <typename T>
bool purgeExpiredValues(TtlValue<T>& value, const TtlPolicy& ttl, int64_t now) {
  return ttl.isExpired(value.lastAccessTimestamp, now);
}
template <typename T, typename Allocator>
bool purgeExpiredValues(std::vector<TtlValue<T>, Allocator>& values, const TtlPolicy& ttl,
                        int64_t now) {
  std::erase_if(values, [&](const TtlValue<T>& value) {
    return ttl.isExpired(value.lastAccessTimestamp, now);
  });
  return values.empty();
}
template <typename K, typename T, typename Hash, typename Equal, typename Allocator>
bool purgeExpiredValues(std::unordered_map<K, TtlValue<T>, Hash, Equal, Allocator>& values,
                        const TtlPolicy& ttl, int64_t now) {
  std::erase_if(values, [&](const auto& entry) {
    return ttl.isExpired(entry.second.lastAccessTimestamp, now);
  });
  return values.empty();
}

/// A key group's tables (KeySlotIndex, KeyGroupTable) give memory back when an erase leaves
/// them at most a quarter full and they have at least this capacity.
inline constexpr size_t kTableShrinkMinimumCapacity = 64;

/// The type-erased face of a heap state, through which the backend registers, snapshots and
/// restores it.
class HeapRegisteredState {
 public:
  virtual ~HeapRegisteredState() = default;

  /// The user-facing state object (this object seen through its State interface).
  virtual State* userState() = 0;

  /// Whether snapshotKeyGroup writes a TTL timestamp before every value.
  virtual bool writesTimestamps() const = 0;

  /// Appends the body of this state's block for one key group (see docs/state_format.md):
  /// varint key count, then each key's entry, leaving out expired values. Returns the number
  /// of keys written; appends nothing and returns 0 when no key has a live value.
  virtual size_t snapshotKeyGroup(int keyGroupIndex, int64_t now, std::string& out) const = 0;

  /// Reads a body written by snapshotKeyGroup, replacing the values of keys it contains.
  /// `hasTimestamps` says whether the writer stored timestamps; values restored without one
  /// into a state with TTL are stamped `now`; values expired at `now` are left out.
  virtual void restoreKeyGroup(int keyGroupIndex, std::string_view body, bool hasTimestamps,
                               int64_t now) = 0;

  /// The keys that have an entry, expired or not, over all key groups (Flink's
  /// numKeyValueStateEntries; for tests and metrics, O(key groups)).
  virtual size_t entryCount() const = 0;

  /// Whether the backend is to call cleanupIncrementally() on every setCurrentKey.
  virtual bool cleansUpForEveryRecord() const = 0;
  /// One step of incremental cleanup (see the file comment) at processing time `now`; the
  /// backend calls it after setCurrentKey when cleansUpForEveryRecord().
  virtual void cleanupIncrementally(int64_t now) = 0;
};

/// The keys of one key group of one state: serialized key bytes to dense slots 0..size()-1
/// (a Swiss table in src/state/key_slot_index.cpp). Slots are what KeyGroupTable indexes its
/// entries with; erasing a slot moves the last slot's key into it, so slots stay dense.
class KeySlotIndex {
 public:
  static constexpr size_t kNotFound = static_cast<size_t>(-1);

  KeySlotIndex();
  ~KeySlotIndex();
  KeySlotIndex(KeySlotIndex&& other) noexcept;
  KeySlotIndex& operator=(KeySlotIndex&& other) noexcept;

  size_t size() const;
  /// The slot of `key`, or kNotFound.
  size_t find(std::string_view key) const;
  /// The slot of `key`, added as slot size() when absent; `.second` tells whether it was.
  std::pair<size_t, bool> insert(std::string_view key);
  /// Removes the key of `slot`; the key of the last slot (if another) takes its place. A large
  /// index (kTableShrinkMinimumCapacity) shrinks to fit when a quarter full.
  void eraseSlot(size_t slot);
  std::string_view keyAt(size_t slot) const;

 private:
  struct Keys;
  std::unique_ptr<Keys> keys_;  // null until the first insert
};

/// One key group of one state: each key's entry, by the key's slot.
template <typename Entry>
class KeyGroupTable {
 public:
  size_t size() const { return entries_.size(); }
  /// The entries the table has room for without growing (it shrinks when a quarter full).
  size_t capacity() const { return entries_.capacity(); }
  std::string_view keyAt(size_t slot) const { return index_.keyAt(slot); }
  Entry& entryAt(size_t slot) { return entries_[slot]; }
  const Entry& entryAt(size_t slot) const { return entries_[slot]; }

  /// The key's entry, or nullptr.
  Entry* find(std::string_view key) {
    size_t slot = index_.find(key);
    return slot == KeySlotIndex::kNotFound ? nullptr : &entries_[slot];
  }
  /// The key's slot, or KeySlotIndex::kNotFound.
  size_t findSlot(std::string_view key) const { return index_.find(key); }
  /// Adds an absent key with its entry; returns its slot.
  size_t add(std::string_view key, Entry entry) {
    auto [slot, added] = index_.insert(key);
    if (!added) [[unlikely]]
      throw InternalError("a state key added twice");
    entries_.push_back(std::move(entry));
    return slot;
  }
  /// The key's entry, default-constructed when absent (for list and map entries).
  Entry& findOrCreate(std::string_view key) {
    auto [slot, added] = index_.insert(key);
    if (added) entries_.emplace_back();
    return entries_[slot];
  }
  /// Sets the key's entry (Entry need not be default-constructible).
  void insertOrAssign(std::string_view key, Entry entry) {
    auto [slot, added] = index_.insert(key);
    if (added) {
      entries_.push_back(std::move(entry));
    } else {
      entries_[slot] = std::move(entry);
    }
  }
  void erase(std::string_view key) {
    size_t slot = index_.find(key);
    if (slot != KeySlotIndex::kNotFound) eraseSlot(slot);
  }
  /// Removes the entry at `slot`; the last slot's entry moves into it, and the entries move
  /// when the table shrinks (a quarter full), so every pointer find returned is invalid
  /// afterwards.
  void eraseSlot(size_t slot) {
    index_.eraseSlot(slot);
    if (slot + 1 != entries_.size()) entries_[slot] = std::move(entries_.back());
    entries_.pop_back();
    if (entries_.capacity() >= kTableShrinkMinimumCapacity &&
        entries_.size() * 4 <= entries_.capacity()) {
      entries_.shrink_to_fit();
    }
  }
  /// Removes the entry `entry` points at (one find or findOrCreate returned).
  void eraseEntry(const Entry* entry) { eraseSlot(static_cast<size_t>(entry - entries_.data())); }

 private:
  KeySlotIndex index_;
  std::vector<Entry> entries_;
};

/// The per-key-group tables of one state with entries of type Entry, and the loops that
/// snapshot and restore them; the typed states below supply how one entry is encoded.
template <typename Entry>
class HeapStateTable : public HeapRegisteredState {
 public:
  using KeyMap = KeyGroupTable<Entry>;

  bool writesTimestamps() const final { return ttl_.enabled(); }

  size_t snapshotKeyGroup(int keyGroupIndex, int64_t now, std::string& out) const final {
    std::string entries;
    size_t count = 0;
    const KeyMap& keyGroup = keyGroups_[keyGroupIndex];
    for (size_t slot = 0; slot < keyGroup.size(); ++slot) {
      size_t mark = entries.size();
      writeLengthPrefixed(keyGroup.keyAt(slot), entries);
      if (writeEntry(keyGroup.entryAt(slot), now, entries)) {
        ++count;
      } else {
        entries.resize(mark);  // every value of this key expired
      }
    }
    if (count == 0) return 0;
    serialization::writeVarint(count, out);
    out.append(entries);
    return count;
  }

  void restoreKeyGroup(int keyGroupIndex, std::string_view body, bool hasTimestamps,
                       int64_t now) final {
    cache_ = SlotCache{};
    KeyMap& keyGroup = keyGroups_[keyGroupIndex];
    uint64_t count = serialization::readVarint(body);
    for (uint64_t i = 0; i < count; ++i) {
      std::string_view key = readLengthPrefixed(body);
      Entry entry = readEntry(body, hasTimestamps, now);
      // Values that expired since the snapshot would only wait for the cleanup.
      if (ttl_.enabled() && purgeExpiredValues(entry, ttl_, now)) continue;
      keyGroup.insertOrAssign(key, std::move(entry));
    }
    if (!body.empty()) throw InternalError("trailing bytes after a state block in a snapshot");
  }

  size_t entryCount() const final {
    size_t count = 0;
    for (const KeyMap& keyGroup : keyGroups_) count += keyGroup.size();
    return count;
  }

  bool cleansUpForEveryRecord() const final {
    return ttl_.cleanupSize() > 0 && ttl_.cleanupForEveryRecord();
  }
  void cleanupIncrementally(int64_t now) final {
    lastNow_ = now;
    runIncrementalCleanup(now);
  }

 protected:
  HeapStateTable(const HeapKeyContext& context, const std::optional<StateTtlConfig>& ttlConfig)
      : context_(context), ttl_(ttlConfig), keyGroups_(context.keyGroupCount) {}

  /// Appends one key's entry without its expired values; false when none is live.
  virtual bool writeEntry(const Entry& entry, int64_t now, std::string& out) const = 0;
  /// Consumes one key's entry from the front of `in`.
  virtual Entry readEntry(std::string_view& in, bool hasTimestamps, int64_t now) const = 0;

  KeyMap& currentKeyGroupMap() {
    int index = context_.currentKeyGroupIndex;
    if (index < 0) [[unlikely]]
      throwNoCurrentKey();
    return keyGroups_[index];
  }

  /// The current key's entry, or nullptr.
  Entry* findEntry() {
    KeyMap& keyGroup = currentKeyGroupMap();
    const size_t slot = currentSlot(keyGroup);
    return slot == KeySlotIndex::kNotFound ? nullptr : &keyGroup.entryAt(slot);
  }

  /// The current key's entry, default-constructed when absent.
  Entry& findOrCreateEntry() {
    KeyMap& keyGroup = currentKeyGroupMap();
    size_t slot = currentSlot(keyGroup);
    if (slot == KeySlotIndex::kNotFound) {
      slot = cache_.slot = keyGroup.add(context_.currentKey, Entry{});
    }
    return keyGroup.entryAt(slot);
  }

  void setEntry(Entry entry) {
    KeyMap& keyGroup = currentKeyGroupMap();
    const size_t slot = currentSlot(keyGroup);
    if (slot == KeySlotIndex::kNotFound) {
      cache_.slot = keyGroup.add(context_.currentKey, std::move(entry));
    } else {
      keyGroup.entryAt(slot) = std::move(entry);
    }
  }

  /// Removes the current key's entry (the pointer findEntry returned is invalid afterwards).
  void eraseEntry() {
    KeyMap& keyGroup = currentKeyGroupMap();
    const size_t slot = currentSlot(keyGroup);
    if (slot == KeySlotIndex::kNotFound) return;
    keyGroup.eraseSlot(slot);  // moves another key into `slot`: only the current key's is known
    cache_.slot = KeySlotIndex::kNotFound;
  }

  /// The time to stamp on a write: the clock with TTL, 0 (never read) without.
  int64_t stampForWrite() const { return ttl_.enabled() ? now() : 0; }
  /// The clock's time, kept for the incremental cleanup (which reads no clock of its own).
  int64_t now() const { return lastNow_ = context_.clock->currentTimeMillis(); }

  /// Writes one value's TTL prefix when this state stores timestamps.
  void writeValueTimestamp(int64_t timestamp, std::string& out) const {
    if (ttl_.enabled()) state::writeTimestamp(timestamp, out);
  }
  /// Reads a value's TTL prefix when the writer stored one; `now` otherwise.
  static int64_t readValueTimestamp(std::string_view& in, bool hasTimestamps, int64_t now) {
    return hasTimestamps ? readTimestamp(in) : now;
  }

  const HeapKeyContext& context_;
  const TtlPolicy ttl_;

 private:
  // The current key's slot, looked up once per key: a function reads then writes the key the
  // runtime set (value() then update()), and the write finds the slot the read found. Only this
  // state adds or erases its keys, through the functions above and the incremental cleanup,
  // which keep the cache true.
  struct SlotCache {
    uint64_t keyVersion = 0;  // 0: none (setCurrentKey makes versions from 1)
    size_t slot = KeySlotIndex::kNotFound;
  };
  // The first access after the current key changed looks its slot up and runs a step of the
  // incremental cleanup; later accesses of the same key run none, so a pointer into the
  // current key's entry stays valid until the key changes (or the entry is erased).
  size_t currentSlot(const KeyMap& keyGroup) {
    if (cache_.keyVersion != context_.keyVersion) {
      cache_ = SlotCache{context_.keyVersion, keyGroup.findSlot(context_.currentKey)};
      // A state that has not read the clock yet has no values that could have expired.
      if (ttl_.cleanupSize() > 0 && lastNow_ != kNoTimeRead) runIncrementalCleanup(lastNow_);
    }
    return cache_.slot;
  }

  // One step of incremental cleanup: visits the next cleanupSize positions of the cursor (a
  // position is a key's entry, or the end of a key group, where the cursor moves to the next
  // one) and removes the keys none of whose values is live at `now`. The current key's entry,
  // when cached, is left to its own access, whose TTL rules apply (an expired value may be
  // returned once); erasing a slot moves the key group's last key into it, visited next, and
  // the cache follows the current key when it is that one.
  void runIncrementalCleanup(int64_t now) {
    const bool cached =
        cache_.keyVersion == context_.keyVersion && cache_.slot != KeySlotIndex::kNotFound;
    // The key group of the cached current key; keyGroups_.size() (none) when nothing is cached.
    const size_t currentGroup =
        cached ? static_cast<size_t>(context_.currentKeyGroupIndex) : keyGroups_.size();
    for (int visit = ttl_.cleanupSize(); visit > 0; --visit) {
      KeyMap& keyGroup = keyGroups_[cleanupGroup_];
      if (cleanupSlot_ >= keyGroup.size()) {
        cleanupSlot_ = 0;
        if (++cleanupGroup_ == keyGroups_.size()) cleanupGroup_ = 0;
        continue;
      }
      const bool inCurrentGroup = cleanupGroup_ == currentGroup;
      if ((inCurrentGroup && cleanupSlot_ == cache_.slot) ||
          !purgeExpiredValues(keyGroup.entryAt(cleanupSlot_), ttl_, now)) {
        ++cleanupSlot_;
        continue;
      }
      const size_t last = keyGroup.size() - 1;
      keyGroup.eraseSlot(cleanupSlot_);
      if (inCurrentGroup && cache_.slot == last) cache_.slot = cleanupSlot_;
    }
  }

  static constexpr int64_t kNoTimeRead = std::numeric_limits<int64_t>::min();

  std::vector<KeyMap> keyGroups_;
  SlotCache cache_;
  // Incremental cleanup: the cursor (key group index, slot) and the clock's last reading.
  size_t cleanupGroup_ = 0;
  size_t cleanupSlot_ = 0;
  mutable int64_t lastNow_ = kNoTimeRead;
};

/// A table of one value of type T per key: the storage of value, reducing and aggregating
/// state.
template <typename T, typename Serializer>
class HeapSingleValueTable : public HeapStateTable<TtlValue<T>> {
 protected:
  using Base = HeapStateTable<TtlValue<T>>;
  using Base::Base;

  /// The current key's value under TTL rules: a live value (its timestamp refreshed when
  /// reads refresh it); an expired one is removed and returned only when visibility allows.
  std::optional<T> readCurrent() {
    TtlValue<T>* entry = this->findEntry();
    if (entry == nullptr) return std::nullopt;
    if (this->ttl_.enabled()) {
      int64_t now = this->now();
      if (this->ttl_.isExpired(entry->lastAccessTimestamp, now)) {
        std::optional<T> expired;
        if (this->ttl_.returnExpired()) expired = std::move(entry->userValue);
        this->eraseEntry();
        return expired;
      }
      if (this->ttl_.updateOnRead()) entry->lastAccessTimestamp = now;
    }
    return entry->userValue;
  }

  /// The current key's live value for an in-place update, or nullptr; an expired value is
  /// removed whatever the visibility (Flink folds new input into live values only).
  TtlValue<T>* findLive(int64_t now) {
    TtlValue<T>* entry = this->findEntry();
    if (entry == nullptr) return nullptr;
    if (this->ttl_.isExpired(entry->lastAccessTimestamp, now)) {
      this->eraseEntry();
      return nullptr;
    }
    return entry;
  }

  bool writeEntry(const TtlValue<T>& entry, int64_t now, std::string& out) const final {
    if (this->ttl_.isExpired(entry.lastAccessTimestamp, now)) return false;
    this->writeValueTimestamp(entry.lastAccessTimestamp, out);
    writeSerializedValue<T, Serializer>(entry.userValue, out);
    return true;
  }

  TtlValue<T> readEntry(std::string_view& in, bool hasTimestamps, int64_t now) const final {
    int64_t timestamp = Base::readValueTimestamp(in, hasTimestamps, now);
    return TtlValue<T>{readSerializedValue<T, Serializer>(readLengthPrefixed(in)), timestamp};
  }
};

/// ValueState on the heap.
template <typename V, typename Serializer>
class HeapValueState final : public ValueState<V>, public HeapSingleValueTable<V, Serializer> {
 public:
  HeapValueState(const HeapKeyContext& context, const std::optional<StateTtlConfig>& ttlConfig)
      : HeapSingleValueTable<V, Serializer>(context, ttlConfig) {}

  State* userState() override { return static_cast<ValueState<V>*>(this); }

  std::optional<V> value() override { return this->readCurrent(); }
  void update(V value) override {
    this->setEntry(TtlValue<V>{std::move(value), this->stampForWrite()});
  }
  V* valuePointer() override {
    int64_t timestamp = this->stampForWrite();
    TtlValue<V>* current = this->findLive(timestamp);
    if (!current) return nullptr;
    current->lastAccessTimestamp = timestamp;
    return &current->userValue;
  }
  void clear() override { this->eraseEntry(); }
};

/// ReducingState on the heap.
template <typename V, typename Serializer>
class HeapReducingState final : public ReducingState<V>,
                                public HeapSingleValueTable<V, Serializer> {
 public:
  using ReduceFunction = std::function<V(const V&, const V&)>;

  HeapReducingState(const HeapKeyContext& context, const std::optional<StateTtlConfig>& ttlConfig,
                    ReduceFunction reduceFunction)
      : HeapSingleValueTable<V, Serializer>(context, ttlConfig),
        reduceFunction_(std::move(reduceFunction)) {}

  State* userState() override { return static_cast<ReducingState<V>*>(this); }

  std::optional<V> get() override { return this->readCurrent(); }
  void add(V value) override {
    int64_t timestamp = this->stampForWrite();
    if (TtlValue<V>* current = this->findLive(timestamp)) {
      current->userValue = reduceFunction_(current->userValue, value);
      current->lastAccessTimestamp = timestamp;
    } else {
      this->setEntry(TtlValue<V>{std::move(value), timestamp});
    }
  }
  void clear() override { this->eraseEntry(); }

 private:
  ReduceFunction reduceFunction_;
};

/// AggregatingState on the heap; stores the accumulator.
template <typename IN, typename ACC, typename OUT, typename AccumulatorSerializer>
class HeapAggregatingState final : public AggregatingState<IN, OUT>,
                                   public HeapSingleValueTable<ACC, AccumulatorSerializer> {
 public:
  HeapAggregatingState(const HeapKeyContext& context,
                       const std::optional<StateTtlConfig>& ttlConfig,
                       std::shared_ptr<AggregateFunction<IN, ACC, OUT>> aggregateFunction)
      : HeapSingleValueTable<ACC, AccumulatorSerializer>(context, ttlConfig),
        aggregateFunction_(std::move(aggregateFunction)) {}

  State* userState() override { return static_cast<AggregatingState<IN, OUT>*>(this); }

  std::optional<OUT> get() override {
    std::optional<ACC> accumulator = this->readCurrent();
    if (!accumulator) return std::nullopt;
    return aggregateFunction_->getResult(*accumulator);
  }
  void add(IN value) override {
    int64_t timestamp = this->stampForWrite();
    if (TtlValue<ACC>* current = this->findLive(timestamp)) {
      current->userValue = aggregateFunction_->add(value, std::move(current->userValue));
      current->lastAccessTimestamp = timestamp;
    } else {
      this->setEntry(TtlValue<ACC>{
          aggregateFunction_->add(value, aggregateFunction_->createAccumulator()), timestamp});
    }
  }
  void clear() override { this->eraseEntry(); }

 private:
  std::shared_ptr<AggregateFunction<IN, ACC, OUT>> aggregateFunction_;
};

/// ListState on the heap: a vector of elements per key, each with its own timestamp.
template <typename V, typename Serializer>
class HeapListState final : public ListState<V>, public HeapStateTable<std::vector<TtlValue<V>>> {
 public:
  using Elements = std::vector<TtlValue<V>>;

  HeapListState(const HeapKeyContext& context, const std::optional<StateTtlConfig>& ttlConfig)
      : HeapStateTable<Elements>(context, ttlConfig) {}

  State* userState() override { return static_cast<ListState<V>*>(this); }

  std::vector<V> get() override {
    Elements* elements = this->findEntry();
    std::vector<V> result;
    if (elements == nullptr) return result;
    result.reserve(elements->size());
    if (!this->ttl_.enabled()) {
      for (const auto& element : *elements) result.push_back(element.userValue);
      return result;
    }
    int64_t now = this->now();
    size_t kept = 0;
    for (auto& element : *elements) {
      if (this->ttl_.isExpired(element.lastAccessTimestamp, now)) {
        if (this->ttl_.returnExpired()) result.push_back(std::move(element.userValue));
        continue;  // dropped from the list
      }
      if (this->ttl_.updateOnRead()) element.lastAccessTimestamp = now;
      result.push_back(element.userValue);
      if (&(*elements)[kept] != &element) (*elements)[kept] = std::move(element);
      ++kept;
    }
    if (kept == 0) {
      this->eraseEntry();
    } else {
      elements->resize(kept);
    }
    return result;
  }

  void add(V value) override {
    this->findOrCreateEntry().push_back(TtlValue<V>{std::move(value), this->stampForWrite()});
  }

  void addAll(std::vector<V> values) override {
    if (values.empty()) return;
    int64_t timestamp = this->stampForWrite();
    Elements& elements = this->findOrCreateEntry();
    elements.reserve(elements.size() + values.size());
    for (auto& value : values) elements.push_back(TtlValue<V>{std::move(value), timestamp});
  }

  void update(std::vector<V> values) override {
    if (values.empty()) {
      this->eraseEntry();
      return;
    }
    int64_t timestamp = this->stampForWrite();
    Elements elements;
    elements.reserve(values.size());
    for (auto& value : values) elements.push_back(TtlValue<V>{std::move(value), timestamp});
    this->setEntry(std::move(elements));
  }

  void clear() override { this->eraseEntry(); }

 protected:
  bool writeEntry(const Elements& elements, int64_t now, std::string& out) const override {
    size_t live = 0;
    for (const auto& element : elements) {
      if (!this->ttl_.isExpired(element.lastAccessTimestamp, now)) ++live;
    }
    if (live == 0) return false;
    serialization::writeVarint(live, out);
    for (const auto& element : elements) {
      if (this->ttl_.isExpired(element.lastAccessTimestamp, now)) continue;
      this->writeValueTimestamp(element.lastAccessTimestamp, out);
      writeSerializedValue<V, Serializer>(element.userValue, out);
    }
    return true;
  }

  Elements readEntry(std::string_view& in, bool hasTimestamps, int64_t now) const override {
    uint64_t count = serialization::readVarint(in);
    Elements elements;
    elements.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      int64_t timestamp = this->readValueTimestamp(in, hasTimestamps, now);
      elements.push_back(
          TtlValue<V>{readSerializedValue<V, Serializer>(readLengthPrefixed(in)), timestamp});
    }
    return elements;
  }
};

/// How MapState stores user keys: as the K objects themselves when std::hash can hash them
/// (no serialization on access), otherwise as their serialized bytes.
template <typename K, typename KeySerializer>
struct MapUserKeyStorage {
  static constexpr bool kStoresObjects =
      std::is_default_constructible_v<std::hash<K>> && std::equality_comparable<K>;
  using StoredKey = std::conditional_t<kStoresObjects, K, std::string>;

  /// What to look a user key up with: the key itself, or its bytes.
  static decltype(auto) lookupKey(const K& key) {
    if constexpr (kStoresObjects) {
      return (key);
    } else {
      std::string bytes;
      KeySerializer::serialize(key, bytes);
      return bytes;
    }
  }

  static StoredKey toStored(K key) {
    if constexpr (kStoresObjects) {
      return key;
    } else {
      std::string bytes;
      KeySerializer::serialize(key, bytes);
      return bytes;
    }
  }

  static K fromStored(const StoredKey& stored) {
    if constexpr (kStoresObjects) {
      return stored;
    } else {
      return readSerializedValue<K, KeySerializer>(stored);
    }
  }

  /// Appends the length-prefixed serialized user key.
  static void write(const StoredKey& stored, std::string& out) {
    if constexpr (kStoresObjects) {
      writeSerializedValue<K, KeySerializer>(stored, out);
    } else {
      writeLengthPrefixed(stored, out);
    }
  }

  static StoredKey read(std::string_view& in) {
    std::string_view bytes = readLengthPrefixed(in);
    if constexpr (kStoresObjects) {
      return readSerializedValue<K, KeySerializer>(bytes);
    } else {
      return std::string(bytes);
    }
  }
};

/// MapState on the heap: a hash map of user entries per key, each with its own timestamp.
template <typename K, typename V, typename KeySerializer, typename ValueSerializer>
class HeapMapState final
    : public MapState<K, V>,
      public HeapStateTable<std::unordered_map<
          typename MapUserKeyStorage<K, KeySerializer>::StoredKey, TtlValue<V>>> {
 public:
  using UserKeys = MapUserKeyStorage<K, KeySerializer>;
  using UserMap = std::unordered_map<typename UserKeys::StoredKey, TtlValue<V>>;

  HeapMapState(const HeapKeyContext& context, const std::optional<StateTtlConfig>& ttlConfig)
      : HeapStateTable<UserMap>(context, ttlConfig) {}

  State* userState() override { return static_cast<MapState<K, V>*>(this); }

  std::optional<V> get(const K& key) override {
    UserMap* userMap = this->findEntry();
    if (userMap == nullptr) return std::nullopt;
    auto it = userMap->find(UserKeys::lookupKey(key));
    if (it == userMap->end()) return std::nullopt;
    if (this->ttl_.enabled()) {
      int64_t now = this->now();
      if (this->ttl_.isExpired(it->second.lastAccessTimestamp, now)) {
        std::optional<V> expired;
        if (this->ttl_.returnExpired()) expired = std::move(it->second.userValue);
        eraseUserEntry(*userMap, it);
        return expired;
      }
      if (this->ttl_.updateOnRead()) it->second.lastAccessTimestamp = now;
    }
    return it->second.userValue;
  }

  void put(K key, V value) override {
    this->findOrCreateEntry().insert_or_assign(
        UserKeys::toStored(std::move(key)), TtlValue<V>{std::move(value), this->stampForWrite()});
  }

  void putAll(std::vector<std::pair<K, V>> entries) override {
    if (entries.empty()) return;
    int64_t timestamp = this->stampForWrite();
    UserMap& userMap = this->findOrCreateEntry();
    for (auto& [key, value] : entries) {
      userMap.insert_or_assign(UserKeys::toStored(std::move(key)),
                               TtlValue<V>{std::move(value), timestamp});
    }
  }

  void remove(const K& key) override {
    UserMap* userMap = this->findEntry();
    if (userMap == nullptr) return;
    auto it = userMap->find(UserKeys::lookupKey(key));
    if (it != userMap->end()) eraseUserEntry(*userMap, it);
  }

  bool contains(const K& key) override {
    UserMap* userMap = this->findEntry();
    if (userMap == nullptr) return false;
    auto it = userMap->find(UserKeys::lookupKey(key));
    if (it == userMap->end()) return false;
    if (this->ttl_.enabled()) {
      int64_t now = this->now();
      if (this->ttl_.isExpired(it->second.lastAccessTimestamp, now)) {
        eraseUserEntry(*userMap, it);
        return this->ttl_.returnExpired();
      }
      if (this->ttl_.updateOnRead()) it->second.lastAccessTimestamp = now;
    }
    return true;
  }

  std::vector<std::pair<K, V>> entries() override {
    std::vector<std::pair<K, V>> result;
    forEachVisible([&result](const typename UserKeys::StoredKey& key, const V& value) {
      result.emplace_back(UserKeys::fromStored(key), value);
    });
    return result;
  }

  std::vector<K> keys() override {
    std::vector<K> result;
    forEachVisible([&result](const typename UserKeys::StoredKey& key, const V&) {
      result.push_back(UserKeys::fromStored(key));
    });
    return result;
  }

  std::vector<V> values() override {
    std::vector<V> result;
    forEachVisible([&result](const typename UserKeys::StoredKey&, const V& value) {
      result.push_back(value);
    });
    return result;
  }

  bool isEmpty() override {
    bool empty = true;
    forEachVisible([&empty](const typename UserKeys::StoredKey&, const V&) { empty = false; });
    return empty;
  }

  void clear() override { this->eraseEntry(); }

 protected:
  bool writeEntry(const UserMap& userMap, int64_t now, std::string& out) const override {
    size_t live = 0;
    for (const auto& [key, value] : userMap) {
      if (!this->ttl_.isExpired(value.lastAccessTimestamp, now)) ++live;
    }
    if (live == 0) return false;
    serialization::writeVarint(live, out);
    for (const auto& [key, value] : userMap) {
      if (this->ttl_.isExpired(value.lastAccessTimestamp, now)) continue;
      UserKeys::write(key, out);
      this->writeValueTimestamp(value.lastAccessTimestamp, out);
      writeSerializedValue<V, ValueSerializer>(value.userValue, out);
    }
    return true;
  }

  UserMap readEntry(std::string_view& in, bool hasTimestamps, int64_t now) const override {
    uint64_t count = serialization::readVarint(in);
    UserMap userMap;
    userMap.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      typename UserKeys::StoredKey key = UserKeys::read(in);
      int64_t timestamp = this->readValueTimestamp(in, hasTimestamps, now);
      userMap.insert_or_assign(
          std::move(key),
          TtlValue<V>{readSerializedValue<V, ValueSerializer>(readLengthPrefixed(in)), timestamp});
    }
    return userMap;
  }

 private:
  /// Removes one user entry, and the key's map once it is empty.
  void eraseUserEntry(UserMap& userMap, typename UserMap::iterator it) {
    userMap.erase(it);
    if (userMap.empty()) this->eraseEntry();
  }

  /// Calls visit(storedKey, value) for every entry a read may see, applying TTL: expired
  /// entries are removed (after being visited when visibility returns them) and live ones are
  /// refreshed when reads refresh them.
  template <typename Visitor>
  void forEachVisible(Visitor&& visit) {
    UserMap* userMap = this->findEntry();
    if (userMap == nullptr) return;
    if (!this->ttl_.enabled()) {
      for (const auto& [key, value] : *userMap) visit(key, value.userValue);
      return;
    }
    int64_t now = this->now();
    bool anyExpired = false;
    for (auto& [key, value] : *userMap) {
      if (this->ttl_.isExpired(value.lastAccessTimestamp, now)) {
        anyExpired = true;
        if (this->ttl_.returnExpired()) visit(key, value.userValue);
        continue;
      }
      if (this->ttl_.updateOnRead()) value.lastAccessTimestamp = now;
      visit(key, value.userValue);
    }
    if (!anyExpired) return;
    std::erase_if(*userMap, [this, now](const auto& entry) {
      return this->ttl_.isExpired(entry.second.lastAccessTimestamp, now);
    });
    if (userMap->empty()) this->eraseEntry();
  }
};

/// The heap backend (src/state/heap_keyed_state_backend.h) owning the key groups in `range`
/// of an operator with `maxParallelism` key groups; TTL reads processing time from `clock`,
/// which must outlive it. The DataStream keyed operators keep their state in one.
std::unique_ptr<KeyedStateBackend> createHeapKeyedStateBackend(KeyGroupRange range,
                                                               int maxParallelism,
                                                               const Clock& clock);

// The heap state for each descriptor; called through StateType::createHeapState.

template <typename V, typename Serializer>
std::unique_ptr<HeapRegisteredState> createHeapState(
    const HeapKeyContext& context, const ValueStateDescriptor<V, Serializer>& descriptor) {
  return std::make_unique<HeapValueState<V, Serializer>>(context, descriptor.getTtlConfig());
}

template <typename V, typename Serializer>
std::unique_ptr<HeapRegisteredState> createHeapState(
    const HeapKeyContext& context, const ListStateDescriptor<V, Serializer>& descriptor) {
  return std::make_unique<HeapListState<V, Serializer>>(context, descriptor.getTtlConfig());
}

template <typename K, typename V, typename KeySerializer, typename ValueSerializer>
std::unique_ptr<HeapRegisteredState> createHeapState(
    const HeapKeyContext& context,
    const MapStateDescriptor<K, V, KeySerializer, ValueSerializer>& descriptor) {
  return std::make_unique<HeapMapState<K, V, KeySerializer, ValueSerializer>>(
      context, descriptor.getTtlConfig());
}

template <typename V, typename Serializer>
std::unique_ptr<HeapRegisteredState> createHeapState(
    const HeapKeyContext& context, const ReducingStateDescriptor<V, Serializer>& descriptor) {
  return std::make_unique<HeapReducingState<V, Serializer>>(context, descriptor.getTtlConfig(),
                                                            descriptor.getReduceFunction());
}

template <typename IN, typename ACC, typename OUT, typename AccumulatorSerializer>
std::unique_ptr<HeapRegisteredState> createHeapState(
    const HeapKeyContext& context,
    const AggregatingStateDescriptor<IN, ACC, OUT, AccumulatorSerializer>& descriptor) {
  return std::make_unique<HeapAggregatingState<IN, ACC, OUT, AccumulatorSerializer>>(
      context, descriptor.getTtlConfig(), descriptor.getAggregateFunction());
}

}  // namespace eddy::state

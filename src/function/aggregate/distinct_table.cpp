// The DISTINCT tables of aggregate calls: per call, and shared by the calls over one integer
// argument (see the header).
#include "function/aggregate/distinct_table.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "eddy/exceptions.h"

namespace eddy::function {

namespace {

/// `h` spread over all bits (for a table indexed by its low bits).
size_t mixBits(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

/// Value::hash spread over all bits (an integer's hash is the integer itself).
size_t slotHash(const Value& value) { return mixBits(static_cast<uint64_t>(value.hash())); }

void rehashDistinct(Value* accumulator) {
  ValueMap& slots = accumulator[0].getMutable<ValueMap>();
  size_t live = 0;
  for (const auto& slot : slots) {
    if (!slot.first.isNull() && slot.second.get<int64_t>() > 0) ++live;
  }
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  ValueMap rebuilt(capacity, {Value(), Value(int64_t{0})});
  for (auto& slot : slots) {
    if (slot.first.isNull() || slot.second.get<int64_t>() <= 0) continue;
    size_t index = slotHash(slot.first) & (capacity - 1);
    while (!rebuilt[index].first.isNull()) index = (index + 1) & (capacity - 1);
    rebuilt[index] = std::move(slot);
  }
  slots = std::move(rebuilt);
  accumulator[1] = Value(static_cast<int64_t>(live));
}

/// Integer values (TINYINT..BIGINT, the usual DISTINCT keys) use a table of plain 16-byte
/// slots kept in a BYTES value instead, chosen by the first value: (key, count), count -1 an
/// empty slot, 0 a deleted one; accumulator[1] counts the occupied slots (see the header).
struct IntegerSlot {
  int64_t key;
  int64_t count;
};
constexpr int64_t kEmptySlot = -1;

std::optional<int64_t> integerKey(const Value& value) {
  if (value.is<int64_t>()) return value.get<int64_t>();
  if (value.is<int32_t>()) return value.get<int32_t>();
  if (value.is<int16_t>()) return value.get<int16_t>();
  if (value.is<int8_t>()) return value.get<int8_t>();
  return std::nullopt;
}

Bytes emptyIntegerTable(size_t capacity) {
  Bytes bytes(capacity * sizeof(IntegerSlot));
  auto* slots = reinterpret_cast<IntegerSlot*>(bytes.data());
  for (size_t i = 0; i < capacity; ++i) slots[i] = IntegerSlot{0, kEmptySlot};
  return bytes;
}

void rehashIntegers(Value* accumulator) {
  const Bytes& old = accumulator[0].get<Bytes>();
  const auto* oldSlots = reinterpret_cast<const IntegerSlot*>(old.data());
  const size_t oldCapacity = old.size() / sizeof(IntegerSlot);
  size_t live = 0;
  for (size_t i = 0; i < oldCapacity; ++i) live += oldSlots[i].count > 0 ? 1 : 0;
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  Bytes rebuilt = emptyIntegerTable(capacity);
  auto* slots = reinterpret_cast<IntegerSlot*>(rebuilt.data());
  for (size_t i = 0; i < oldCapacity; ++i) {
    if (oldSlots[i].count <= 0) continue;
    size_t index = mixBits(static_cast<uint64_t>(oldSlots[i].key)) & (capacity - 1);
    while (slots[index].count != kEmptySlot) index = (index + 1) & (capacity - 1);
    slots[index] = oldSlots[i];
  }
  accumulator[0] = Value::ofBytes(std::move(rebuilt));
  accumulator[1] = Value(static_cast<int64_t>(live));
}

int64_t addDistinctInteger(Value* accumulator, int64_t key, int64_t step) {
  Bytes& bytes = accumulator[0].getMutable<Bytes>();
  auto* slots = reinterpret_cast<IntegerSlot*>(bytes.data());
  const size_t mask = bytes.size() / sizeof(IntegerSlot) - 1;
  size_t index = mixBits(static_cast<uint64_t>(key)) & mask;
  std::optional<size_t> reusable;
  for (;; index = (index + 1) & mask) {
    IntegerSlot& slot = slots[index];
    if (slot.count == kEmptySlot) break;  // not in the table
    if (slot.count == 0) {
      if (!reusable) reusable = index;
    } else if (slot.key == key) {
      slot.count = std::max<int64_t>(0, slot.count + step);
      return slot.count;
    }
  }
  if (step <= 0) return -1;  // retracting a value never accumulated
  if (reusable) {
    slots[*reusable] = IntegerSlot{key, step};
    return step;
  }
  slots[index] = IntegerSlot{key, step};
  const int64_t occupied = accumulator[1].get<int64_t>() + 1;
  accumulator[1] = Value(occupied);
  if (static_cast<size_t>(occupied) * 10 > (mask + 1) * 7) rehashIntegers(accumulator);
  return step;
}

}  // namespace

/// Adds `step` to the multiplicity of `value`; returns the new multiplicity (0: gone), or -1
/// when retracting a value that is not there (nothing changes).
int64_t addDistinct(Value* accumulator, const Value& value, int64_t step) {
  if (accumulator[0].is<Bytes>()) return addDistinctInteger(accumulator, *integerKey(value), step);
  if (accumulator[0].get<ValueMap>().empty()) {
    if (std::optional<int64_t> key = integerKey(value)) {
      accumulator[0] = Value::ofBytes(emptyIntegerTable(8));
      return addDistinctInteger(accumulator, *key, step);
    }
  }
  ValueMap& slots = accumulator[0].getMutable<ValueMap>();
  if (slots.empty()) slots.assign(8, {Value(), Value(int64_t{0})});
  const size_t mask = slots.size() - 1;
  size_t index = slotHash(value) & mask;
  std::optional<size_t> reusable;
  for (;; index = (index + 1) & mask) {
    auto& slot = slots[index];
    if (slot.first.isNull()) break;  // not in the table
    const int64_t count = slot.second.get<int64_t>();
    if (count == 0) {
      if (!reusable) reusable = index;
    } else if (slot.first == value) {
      const int64_t updated = std::max<int64_t>(0, count + step);
      slot.second = Value(updated);
      return updated;
    }
  }
  if (step <= 0) return -1;  // retracting a value never accumulated
  if (reusable) {
    slots[*reusable] = {value, Value(step)};
    return step;
  }
  slots[index] = {value, Value(step)};
  const int64_t occupied = accumulator[1].get<int64_t>() + 1;
  accumulator[1] = Value(occupied);
  if (static_cast<size_t>(occupied) * 10 > slots.size() * 7) rehashDistinct(accumulator);
  return step;
}

namespace {

/// A shared distinct table's slot: [value, used, counts...] as int64s.
size_t sharedSlotWords(int callCount) { return 2 + static_cast<size_t>(callCount); }

Bytes emptySharedTable(size_t capacity, int callCount) {
  return Bytes(capacity * sharedSlotWords(callCount) * sizeof(int64_t));  // zeroed: unused
}

/// Rebuilds the table with room for its values that still count for some call (values whose
/// multiplicities all dropped to 0 are dropped here).
void rehashShared(Value* table, int callCount) {
  const size_t words = sharedSlotWords(callCount);
  const Bytes& old = table[0].get<Bytes>();
  const auto* oldSlots = reinterpret_cast<const int64_t*>(old.data());
  const size_t oldCapacity = old.size() / (words * sizeof(int64_t));
  auto counts = [&](const int64_t* slot) {
    for (int k = 0; k < callCount; ++k) {
      if (slot[2 + k] > 0) return true;
    }
    return false;
  };
  size_t live = 0;
  for (size_t i = 0; i < oldCapacity; ++i) {
    const int64_t* slot = oldSlots + i * words;
    if (slot[1] != 0 && counts(slot)) ++live;
  }
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  Bytes rebuilt = emptySharedTable(capacity, callCount);
  auto* slots = reinterpret_cast<int64_t*>(rebuilt.data());
  for (size_t i = 0; i < oldCapacity; ++i) {
    const int64_t* slot = oldSlots + i * words;
    if (slot[1] == 0 || !counts(slot)) continue;
    size_t index = mixBits(static_cast<uint64_t>(slot[0])) & (capacity - 1);
    while (slots[index * words + 1] != 0) index = (index + 1) & (capacity - 1);
    std::copy(slot, slot + words, slots + index * words);
  }
  table[0] = Value::ofBytes(std::move(rebuilt));
  table[1] = Value(static_cast<int64_t>(live));
}

}  // namespace

std::vector<Value> createSharedDistinctTable() {
  return {Value::ofBytes(Bytes()), Value(int64_t{0})};
}

int64_t* sharedDistinctCounts(Value* table, int64_t value, int callCount, bool add) {
  const size_t words = sharedSlotWords(callCount);
  if (table[0].get<Bytes>().empty()) {
    if (!add) return nullptr;
    table[0] = Value::ofBytes(emptySharedTable(8, callCount));
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    Bytes& bytes = table[0].getMutable<Bytes>();
    auto* slots = reinterpret_cast<int64_t*>(bytes.data());
    const size_t mask = bytes.size() / (words * sizeof(int64_t)) - 1;
    size_t index = mixBits(static_cast<uint64_t>(value)) & mask;
    while (slots[index * words + 1] != 0) {
      if (slots[index * words] == value) return slots + index * words + 2;
      index = (index + 1) & mask;
    }
    if (!add) return nullptr;
    const int64_t occupied = table[1].get<int64_t>() + 1;
    if (static_cast<size_t>(occupied) * 10 > (mask + 1) * 7 && attempt == 0) {
      rehashShared(table, callCount);  // then probe the rebuilt table again
      continue;
    }
    table[1] = Value(occupied);
    slots[index * words] = value;
    slots[index * words + 1] = 1;
    return slots + index * words + 2;  // counts zeroed
  }
  throw InternalError("a shared DISTINCT table did not grow");
}

}  // namespace eddy::function

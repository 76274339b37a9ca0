// KeySlotIndex (eddy/detail/state/heap_keyed_state.h): the keys of one key group of one heap
// state, in slot order, and a Swiss table of slot numbers hashed and compared through the keys
// they name, so each key is stored once. Abseil stays here, out of the installed headers. The
// tables are made on the first insert: a backend has one index per key group and state, most
// of them empty in a parallel job.
#include <absl/container/flat_hash_set.h>
#include <absl/hash/hash.h>

#include "common/check.h"
#include "eddy/detail/state/heap_keyed_state.h"

namespace eddy::state {

struct KeySlotIndex::Keys {
  /// Hashes a slot as its key, and a key as itself (heterogeneous lookup by string_view).
  struct SlotHash {
    using is_transparent = void;
    const std::vector<std::string>* keys;
    size_t operator()(uint32_t slot) const { return (*this)(std::string_view((*keys)[slot])); }
    size_t operator()(std::string_view key) const { return absl::Hash<std::string_view>{}(key); }
  };
  struct SlotEqual {
    using is_transparent = void;
    const std::vector<std::string>* keys;
    std::string_view keyOf(uint32_t slot) const { return (*keys)[slot]; }
    std::string_view keyOf(std::string_view key) const { return key; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      return keyOf(a) == keyOf(b);
    }
  };

  Keys() : slots(0, SlotHash{&keys}, SlotEqual{&keys}) {}
  Keys(const Keys&) = delete;
  Keys& operator=(const Keys&) = delete;

  std::vector<std::string> keys;
  absl::flat_hash_set<uint32_t, SlotHash, SlotEqual> slots;
};

KeySlotIndex::KeySlotIndex() = default;
KeySlotIndex::~KeySlotIndex() = default;
KeySlotIndex::KeySlotIndex(KeySlotIndex&& other) noexcept = default;
KeySlotIndex& KeySlotIndex::operator=(KeySlotIndex&& other) noexcept = default;

size_t KeySlotIndex::size() const { return keys_ ? keys_->keys.size() : 0; }

size_t KeySlotIndex::find(std::string_view key) const {
  if (!keys_) return kNotFound;
  auto it = keys_->slots.find(key);
  return it == keys_->slots.end() ? kNotFound : *it;
}

std::pair<size_t, bool> KeySlotIndex::insert(std::string_view key) {
  if (!keys_) keys_ = std::make_unique<Keys>();
  auto it = keys_->slots.find(key);
  if (it != keys_->slots.end()) return {*it, false};
  EDDY_CHECK_LT(keys_->keys.size(), static_cast<size_t>(UINT32_MAX));
  const auto slot = static_cast<uint32_t>(keys_->keys.size());
  keys_->keys.emplace_back(key);
  keys_->slots.insert(slot);
  return {slot, true};
}

void KeySlotIndex::eraseSlot(size_t slot) {
  EDDY_CHECK(keys_ != nullptr);
  std::vector<std::string>& keys = keys_->keys;
  EDDY_CHECK_LT(slot, keys.size());
  keys_->slots.erase(std::string_view(keys[slot]));
  const size_t last = keys.size() - 1;
  if (slot != last) {
    // The last key moves into the freed slot: re-register it under its new number.
    keys_->slots.erase(std::string_view(keys[last]));
    keys[slot] = std::move(keys[last]);
    keys_->slots.insert(static_cast<uint32_t>(slot));
  }
  keys.pop_back();
  // Memory follows the keys down when they are removed in bulk (TTL cleanup): a large index a
  // quarter full is made to fit (an empty one frees its tables). Small ones keep their room,
  // so a key group whose few keys come and go allocates nothing.
  if (keys.capacity() >= kTableShrinkMinimumCapacity && keys.size() * 4 <= keys.capacity()) {
    keys.shrink_to_fit();
  }
  if (keys_->slots.capacity() >= kTableShrinkMinimumCapacity &&
      keys_->slots.size() * 4 <= keys_->slots.capacity()) {
    keys_->slots.rehash(0);
  }
}

std::string_view KeySlotIndex::keyAt(size_t slot) const { return keys_->keys[slot]; }

}  // namespace eddy::state

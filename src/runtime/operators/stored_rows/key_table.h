// KeyTable: maps the binary bytes of a key (vector::appendKeyBytes) to a dense slot of per-key
// state, reusing the slots of removed keys — the per-key index of the operators that keep rows
// in a RowStore (the joins, the STREAMING Top-N, the sink's upsert materializer).
//
// Its owner writes the keys into checkpoints (stored_row_codec.h: snapshotKeysOf).
//
// Threading: owned and used by one operator subtask's task thread; not synchronized.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::runtime::operators {

/// Key bytes → dense slot of a `State` (which has a `std::string bytes` member); see the file
/// comment.
template <typename State>
class KeyTable {
 public:
  /// The slot of `bytes`, or -1.
  int32_t find(std::string_view bytes) const {
    auto found = index_.find(absl::string_view(bytes.data(), bytes.size()));
    return found == index_.end() ? -1 : found->second;
  }
  /// The slot of `bytes`, added (with a default State holding the bytes) when missing. Adding
  /// may move the states: references to them are invalidated.
  int32_t findOrAdd(std::string_view bytes) {
    auto [found, added] = index_.try_emplace(absl::string_view(bytes.data(), bytes.size()), 0);
    if (!added) return found->second;
    int32_t slot = 0;
    if (!freeSlots_.empty()) {
      slot = freeSlots_.back();
      freeSlots_.pop_back();
      states_[static_cast<size_t>(slot)] = State{};
    } else {
      slot = static_cast<int32_t>(states_.size());
      states_.emplace_back();
    }
    states_[static_cast<size_t>(slot)].bytes.assign(bytes);
    found->second = slot;
    return slot;
  }
  /// Removes the key of `slot`; its slot is reused.
  void remove(int32_t slot) {
    State& state = states_[static_cast<size_t>(slot)];
    index_.erase(absl::string_view(state.bytes));
    state = State{};
    freeSlots_.push_back(slot);
  }
  State& operator[](int32_t slot) { return states_[static_cast<size_t>(slot)]; }
  const State& operator[](int32_t slot) const { return states_[static_cast<size_t>(slot)]; }
  size_t size() const { return index_.size(); }
  /// Slots [0, slotCount()) have been handed out (some may be free again): what a cursor
  /// walking the slots (a TTL cleanup) goes over.
  int32_t slotCount() const { return static_cast<int32_t>(states_.size()); }
  /// Calls `visit(slot, state)` for every key present.
  template <typename Visit>
  void forEach(Visit&& visit) {
    for (const auto& [bytes, slot] : index_) visit(slot, states_[static_cast<size_t>(slot)]);
  }
  template <typename Visit>
  void forEach(Visit&& visit) const {
    for (const auto& [bytes, slot] : index_) visit(slot, states_[static_cast<size_t>(slot)]);
  }
  void clear() {
    index_.clear();
    states_.clear();
    freeSlots_.clear();
  }

 private:
  absl::flat_hash_map<std::string, int32_t> index_;
  std::vector<State> states_;
  std::vector<int32_t> freeSlots_;
};

}  // namespace eddy::runtime::operators

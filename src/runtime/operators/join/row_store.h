// RowStore and KeyTable: the in-memory state of the joins that keep input rows (the regular,
// the interval and the temporal join).
//
// A RowStore keeps the input chunks of one join side as they arrived ("segments") and names a
// stored row by a RowRef (segment slot, position): storing a row copies nothing, and no row
// ever becomes a Value. The operator says which rows it keeps (retain) and lets go of them
// (release); a chunk none of whose rows is kept is freed at the next freeEmpty(), which the
// operator calls once no queued output points into it any more. When fewer than a quarter of
// the rows held are kept, compact() copies the kept rows into fresh chunks (so a long-lived row
// does not pin a whole chunk) and repoints the operator's references. Output rows are gathered
// from the segments a column at a time (KernelVector::interleave).
//
// A KeyTable maps the binary key bytes (vector::appendKeyBytes) to a dense slot of per-key
// state, reusing the slots of removed keys.
//
// Not yet part of a checkpoint (checkpoints are not taken yet; see docs/architecture.md).
//
// Threading: owned and used by one operator subtask's task thread; not synchronized.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/strings/string_view.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/types/logical_type.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// A row of a RowStore: its chunk's slot and its position there. Slot -1: no row (a NULL half
/// of a padded output row).
struct RowRef {
  int32_t segment = -1;
  int32_t position = 0;
};

/// The stored rows of one join input; see the file comment.
class RowStore {
 public:
  /// Stores are compacted only once they hold this many rows.
  static constexpr int64_t kCompactionMinimumRows = 4096;

  RowStore() = default;
  explicit RowStore(LogicalTypePtr rowType) : rowType_(std::move(rowType)) {}

  /// Keeps `chunk` (of the store's row type) and returns its slot; none of its rows is kept
  /// until retained.
  int32_t add(vector::Chunk chunk);
  const vector::Chunk& chunk(int32_t segment) const {
    return *segments_[static_cast<size_t>(segment)].chunk;
  }
  /// Marks `row` kept / no longer kept (once per retain).
  void retain(RowRef row);
  void release(RowRef row);
  /// Frees the chunks none of whose rows is kept. No RowRef into them may be used afterwards.
  void freeEmpty();
  /// Drops every chunk.
  void clear();

  int64_t keptRows() const { return keptRows_; }
  int64_t heldRows() const { return heldRows_; }
  /// Whether compact() would pay: many rows held, fewer than a quarter of them kept.
  bool sparse() const {
    return heldRows_ >= kCompactionMinimumRows && keptRows_ * 4 <= heldRows_;
  }
  /// Copies the rows `references` point at (every kept row, each once) into fresh chunks in
  /// that order and repoints the references. Frees every old chunk.
  void compact(const std::vector<RowRef*>& references);

  /// Writes the rows segmentOf[i]/positionOf[i] (segment -1: NULLs) as the columns
  /// firstColumn.. of `out`, typed by out's row type. With `onlyColumns`, only the store
  /// columns c with (*onlyColumns)[firstColumn + c] set are written.
  void gather(const std::vector<int32_t>& segmentOf, const std::vector<int32_t>& positionOf,
              vector::Chunk& out, int firstColumn,
              const std::vector<bool>* onlyColumns = nullptr) const;

 private:
  struct Segment {
    std::unique_ptr<vector::Chunk> chunk;  // null while the slot is free
    int64_t keptRows = 0;
  };

  LogicalTypePtr rowType_;
  std::vector<Segment> segments_;
  std::vector<int32_t> freeSlots_;
  std::vector<int32_t> maybeEmpty_;  // slots to check at the next freeEmpty()
  int64_t heldRows_ = 0;             // rows of all chunks held
  int64_t keptRows_ = 0;
};

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
  /// Calls `visit(slot, state)` for every key present.
  template <typename Visit>
  void forEach(Visit&& visit) {
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

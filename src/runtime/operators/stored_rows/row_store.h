// RowStore: the rows an operator keeps, in the columnar chunks they arrived in — the state of
// the joins that keep input rows (regular, interval, temporal), the STREAMING Top-N and the
// sink's upsert materializer, and the buffered input of the BATCH sort, rank and joins.
//
// A RowStore keeps the input chunks of one input as they arrived ("segments") and names a
// stored row by a RowRef (segment slot, position): storing a row copies nothing, and no row
// ever becomes a Value. The operator says which rows it keeps (retain) and lets go of them
// (release); a chunk none of whose rows is kept is freed at the next freeEmpty(), which the
// operator calls once no queued output points into it any more. When fewer than a quarter of
// the rows held are kept, compact() copies the kept rows into fresh chunks (so a long-lived row
// does not pin a whole chunk) and repoints the operator's references. Output rows are gathered
// from the segments a column at a time (KernelVector::interleave).
//
// The rest of the stored-rows toolkit beside it: KeyTable (key bytes → per-key state),
// RowSorter (stored rows in the order of some of their columns), RowRefOutputQueue (output rows
// that are stored rows) and JoinedRowEmitter (output rows joined from two stores).
//
// A stored chunk never changes once added, so an asynchronous snapshot may share it
// (shareChunk) and read it on another thread while the operator goes on; a chunk the store
// lets go of lives on until the snapshot that shares it is written.
//
// Threading: owned and used by one operator subtask's task thread; not synchronized. Shared
// chunks are read-only and may be read by any thread.
#pragma once

#include <cstdint>
#include <memory>
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

/// The stored rows of one operator input; see the file comment.
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
  /// The chunk of `segment`, shared (it never changes; see the file comment).
  std::shared_ptr<const vector::Chunk> shareChunk(int32_t segment) const {
    return segments_[static_cast<size_t>(segment)].chunk;
  }
  /// Marks `row` kept / no longer kept (once per retain).
  void retain(RowRef row);
  void release(RowRef row);
  /// Frees the chunks none of whose rows is kept. No RowRef into them may be used afterwards.
  void freeEmpty();
  /// Drops every chunk.
  void clear();

  /// The row type of the chunks stored.
  const LogicalTypePtr& rowType() const { return rowType_; }
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
    std::shared_ptr<const vector::Chunk> chunk;  // null while the slot is free
    int64_t keptRows = 0;
  };

  LogicalTypePtr rowType_;
  std::vector<Segment> segments_;
  std::vector<int32_t> freeSlots_;
  std::vector<int32_t> maybeEmpty_;  // slots to check at the next freeEmpty()
  int64_t heldRows_ = 0;             // rows of all chunks held
  int64_t keptRows_ = 0;
};

}  // namespace eddy::runtime::operators

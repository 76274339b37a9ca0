// JoinedRowRefs and JoinedRowEmitter: joined rows of two RowStores — the candidate pairs and the
// output of the joins that keep both inputs (the regular and the interval join).
//
// A joined row is the left row's columns followed by the right row's; either half may be NULLs
// (an outer row padded, RowRef segment -1). JoinedRowRefs names such rows by their two stored
// rows and a kind, and gathers them into a chunk a column at a time (RowStore::gather), all
// columns or only those a condition reads. JoinedRowEmitter queues output rows so and emits
// them in order, a chunk whenever kDefaultBatchSize rows are queued and the rest at flush(),
// which the operator calls before the stores' chunks the queued rows point into may change
// (freeEmpty(), compact(), clear()).
//
// Threading: owned and used by one operator subtask's task thread; not synchronized. The stores
// belong to the same operator and must stay where they are while an emitter points at them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "eddy/runtime/record_batch.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/logical_type.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// Joined rows by where their halves are stored: row i is the left store's row left(i)
/// followed by the right store's row right(i), of kind kind(i).
class JoinedRowRefs {
 public:
  void add(RowKind kind, RowRef left, RowRef right) {
    leftSegmentOf_.push_back(left.segment);
    leftPositionOf_.push_back(left.position);
    rightSegmentOf_.push_back(right.segment);
    rightPositionOf_.push_back(right.position);
    kinds_.push_back(kind);
  }
  void clear();
  int64_t size() const { return static_cast<int64_t>(kinds_.size()); }
  RowRef left(size_t i) const { return RowRef{leftSegmentOf_[i], leftPositionOf_[i]}; }
  RowRef right(size_t i) const { return RowRef{rightSegmentOf_[i], rightPositionOf_[i]}; }

  /// The rows as a chunk of `rowType`: the left store's columns, then, with `rightColumns`, the
  /// right store's; with `onlyColumns`, only the columns c with (*onlyColumns)[c] set are
  /// filled (the others stay empty). Each row has its kind.
  vector::Chunk gather(const RowStore& left, const RowStore& right, const LogicalTypePtr& rowType,
                       bool rightColumns, const std::vector<bool>* onlyColumns = nullptr) const;

 private:
  std::vector<int32_t> leftSegmentOf_;
  std::vector<int32_t> leftPositionOf_;
  std::vector<int32_t> rightSegmentOf_;
  std::vector<int32_t> rightPositionOf_;
  std::vector<RowKind> kinds_;
};

/// The output of a join, queued as JoinedRowRefs; see the file comment.
class JoinedRowEmitter {
 public:
  JoinedRowEmitter() = default;
  /// The halves of the rows are in `left` and `right`; output chunks are of `rowType`: the
  /// left columns, then, with `rightColumns`, the right ones (SEMI and ANTI output the left
  /// rows only).
  JoinedRowEmitter(const RowStore* left, const RowStore* right, LogicalTypePtr rowType,
                   bool rightColumns)
      : left_(left), right_(right), rowType_(std::move(rowType)), rightColumns_(rightColumns) {}

  /// Queues one output row; emits a chunk to `output` once kDefaultBatchSize rows are queued.
  void append(RowKind kind, RowRef left, RowRef right, Output& output) {
    queued_.add(kind, left, right);
    if (queued_.size() >= static_cast<int64_t>(kDefaultBatchSize)) flush(output);
  }
  /// Emits the queued rows, if any, as one chunk.
  void flush(Output& output);
  int64_t queuedRows() const { return queued_.size(); }

 private:
  const RowStore* left_ = nullptr;
  const RowStore* right_ = nullptr;
  LogicalTypePtr rowType_;
  bool rightColumns_ = true;
  JoinedRowRefs queued_;
};

}  // namespace eddy::runtime::operators

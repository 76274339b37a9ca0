// RowStore: chunks kept as they arrived, rows named by (slot, position) (see the header).
#include "runtime/operators/stored_rows/row_store.h"

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "eddy/runtime/record_batch.h"
#include "function/kernel_vector.h"

namespace eddy::runtime::operators {

int32_t RowStore::add(vector::Chunk chunk) {
  int32_t slot = 0;
  if (!freeSlots_.empty()) {
    slot = freeSlots_.back();
    freeSlots_.pop_back();
  } else {
    slot = static_cast<int32_t>(segments_.size());
    segments_.emplace_back();
  }
  Segment& segment = segments_[static_cast<size_t>(slot)];
  heldRows_ += chunk.size();
  segment.chunk = std::make_shared<const vector::Chunk>(std::move(chunk));
  segment.keptRows = 0;
  maybeEmpty_.push_back(slot);
  return slot;
}

void RowStore::retain(RowRef row) {
  EDDY_CHECK_GE(row.segment, 0);
  ++segments_[static_cast<size_t>(row.segment)].keptRows;
  ++keptRows_;
}

void RowStore::release(RowRef row) {
  if (row.segment < 0) return;
  Segment& segment = segments_[static_cast<size_t>(row.segment)];
  EDDY_CHECK_GT(segment.keptRows, 0);
  --keptRows_;
  if (--segment.keptRows == 0) maybeEmpty_.push_back(row.segment);
}

void RowStore::freeEmpty() {
  for (int32_t slot : maybeEmpty_) {
    Segment& segment = segments_[static_cast<size_t>(slot)];
    if (segment.chunk == nullptr || segment.keptRows > 0) continue;
    heldRows_ -= segment.chunk->size();
    segment.chunk.reset();
    freeSlots_.push_back(slot);
  }
  maybeEmpty_.clear();
}

void RowStore::clear() {
  segments_.clear();
  freeSlots_.clear();
  maybeEmpty_.clear();
  heldRows_ = keptRows_ = 0;
}

void RowStore::compact(const std::vector<RowRef*>& references) {
  EDDY_CHECK_EQ(static_cast<int64_t>(references.size()), keptRows_);
  std::vector<Segment> compacted;
  std::vector<int32_t> segmentOf, positionOf;
  const auto batch = static_cast<size_t>(kDefaultBatchSize);
  for (size_t begin = 0; begin < references.size(); begin += batch) {
    const size_t end = std::min(references.size(), begin + batch);
    segmentOf.clear();
    positionOf.clear();
    for (size_t i = begin; i < end; ++i) {
      segmentOf.push_back(references[i]->segment);
      positionOf.push_back(references[i]->position);
    }
    auto chunk = std::make_unique<vector::Chunk>(rowType_);
    gather(segmentOf, positionOf, *chunk, 0);
    chunk->mutableRowKinds().assign(end - begin, RowKind::INSERT);
    compacted.push_back(Segment{std::move(chunk), static_cast<int64_t>(end - begin)});
  }
  for (size_t i = 0; i < references.size(); ++i) {
    *references[i] = RowRef{static_cast<int32_t>(i / batch), static_cast<int32_t>(i % batch)};
  }
  segments_ = std::move(compacted);
  freeSlots_.clear();
  maybeEmpty_.clear();
  heldRows_ = keptRows_;
}

void RowStore::gather(const std::vector<int32_t>& segmentOf,
                      const std::vector<int32_t>& positionOf, vector::Chunk& out,
                      int firstColumn, const std::vector<bool>* onlyColumns) const {
  EDDY_CHECK_EQ(segmentOf.size(), positionOf.size());
  // The segments the rows come from, numbered in order of first use.
  std::vector<int32_t> sourceOf(segmentOf.size(), -1);
  std::vector<int32_t> localOf(segments_.size(), -1);
  std::vector<int32_t> used;
  for (size_t i = 0; i < segmentOf.size(); ++i) {
    const int32_t segment = segmentOf[i];
    if (segment < 0) continue;
    int32_t& local = localOf[static_cast<size_t>(segment)];
    if (local < 0) {
      local = static_cast<int32_t>(used.size());
      used.push_back(segment);
    }
    sourceOf[i] = local;
  }
  const std::vector<RowField>& outFields = out.rowType()->getFields();
  const int columnCount = rowType_->getFieldCount();
  std::vector<function::KernelVector> views;
  std::vector<const function::KernelVector*> sources;
  for (int column = 0; column < columnCount; ++column) {
    const int outColumn = firstColumn + column;
    if (onlyColumns != nullptr && !(*onlyColumns)[static_cast<size_t>(outColumn)]) continue;
    views.clear();
    sources.clear();
    views.reserve(used.size());
    for (int32_t slot : used) {
      views.push_back(function::KernelVector::borrow(
          segments_[static_cast<size_t>(slot)].chunk->column(column)));
    }
    for (const function::KernelVector& view : views) sources.push_back(&view);
    out.mutableColumn(outColumn) =
        function::KernelVector::interleave(outFields[static_cast<size_t>(outColumn)].type,
                                           sources, sourceOf, positionOf)
            .toVector();
  }
}

}  // namespace eddy::runtime::operators

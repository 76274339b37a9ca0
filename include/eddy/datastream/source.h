// Source: the DataStream API's source interface, after Flink's FLIP-27 Source. A Source is a
// definition (shared, immutable) that declares whether it ends by itself (BOUNDED) and
// creates one SourceReader per parallel subtask; the reader is polled by its task thread.
// This header has the types every source uses (Boundedness, ReaderOutput, SourceOutput) and the
// legacy shape, Source<T> with createReader(subtaskIndex, parallelism), which keeps no
// position; replayable sources, with splits, a split enumerator and checkpointed positions, are
// connector::Source (eddy/connector/source.h, included at the end).
//
// pollNext emits what is available now through the ReaderOutput — ideally up to about
// runtime::kDefaultBatchSize records per call — and says whether more is available at once,
// nothing is available for now, or the input ended.
//
// A reader that reads several splits at once (partitions, files read side by side) emits each
// split's records through its own SourceOutput (ReaderOutput::createOutputForSplit, as
// Flink's): the source's WatermarkStrategy then runs one watermark generator per split, and
// the source's watermark is the lowest of the live splits' (Flink's per-split watermarks), so a
// split that is behind does not see its records made late by one that is ahead. A released
// split (releaseOutputForSplit, when it is finished) no longer holds the watermark back, nor
// does a split without records for the strategy's withIdleness timeout.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/record_batch.h"
#include "eddy/runtime/stream_operator.h"

namespace eddy {

enum class Boundedness { BOUNDED, CONTINUOUS_UNBOUNDED };

using InputStatus = runtime::SourceStatus;

template <typename T>
class ReaderOutput;

/// The output of one split (Flink's SourceOutput): its records, with their own watermark
/// generator. Valid until the split is released.
template <typename T>
class SourceOutput {
 public:
  void collect(T record) { owner_->collectFromSplit(split_, std::move(record), runtime::kNoTimestamp); }
  void collect(T record, int64_t timestamp) {
    owner_->collectFromSplit(split_, std::move(record), timestamp);
  }

 private:
  friend class ReaderOutput<T>;
  SourceOutput(ReaderOutput<T>* owner, int32_t split) : owner_(owner), split_(split) {}
  ReaderOutput<T>* owner_;
  int32_t split_;
};

/// Where a reader emits records (non-virtual: it appends to the batch being built).
template <typename T>
class ReaderOutput {
 public:
  void collect(const T& record) { pushRecord(record, runtime::kNoTimestamp, kMainOutput); }
  void collect(T&& record) { pushRecord(std::move(record), runtime::kNoTimestamp, kMainOutput); }
  /// A record with its own event timestamp (a timestamp assigner may override it).
  void collect(T record, int64_t timestamp) { pushRecord(std::move(record), timestamp, kMainOutput); }
  /// Records emitted since the last batch left.
  size_t pendingRecords() const { return batch_->size(); }

  /// The output of split `splitId` (created on first use; the same one after, until it is
  /// released; created anew, with a fresh watermark generator, after that).
  SourceOutput<T>& createOutputForSplit(const std::string& splitId) {
    for (Split& split : splits_) {
      if (split.live && split.id == splitId) return *split.output;
    }
    const auto index = static_cast<int32_t>(splits_.size());
    splits_.push_back(Split{splitId, true, std::unique_ptr<SourceOutput<T>>(
                                                 new SourceOutput<T>(this, index))});
    if (recordSplits_.size() < batch_->size()) {
      recordSplits_.resize(batch_->size(), kMainOutput);  // the records before it: main output
    }
    return *splits_.back().output;
  }
  /// Split `splitId` is finished: its watermark no longer counts (its output must not be used).
  void releaseOutputForSplit(const std::string& splitId) {
    for (Split& split : splits_) {
      if (split.id == splitId) split.live = false;
    }
  }

  /// The split of each pending record (index into splits()), or kMainOutput; empty while no
  /// split output was created.
  const std::vector<int32_t>& recordSplits() const { return recordSplits_; }
  /// Whether split `index` is live (created and not released).
  bool splitLive(int32_t index) const { return splits_[static_cast<size_t>(index)].live; }
  size_t splitCount() const { return splits_.size(); }
  static constexpr int32_t kMainOutput = -1;

 protected:
  std::vector<int32_t>& mutableRecordSplits() { return recordSplits_; }
  runtime::TypedBatch<T>* batch_ = nullptr;

 private:
  friend class SourceOutput<T>;
  struct Split {
    std::string id;
    bool live;
    std::unique_ptr<SourceOutput<T>> output;
  };
  template <typename Record>
  void pushRecord(Record&& record, int64_t timestamp, int32_t split) {
    batch_->push(std::forward<Record>(record), timestamp);
    if (!splits_.empty()) recordSplits_.push_back(split);
  }
  void collectFromSplit(int32_t split, T record, int64_t timestamp) {
    pushRecord(std::move(record), timestamp, split);
  }

  std::vector<Split> splits_;
  std::vector<int32_t> recordSplits_;
};

/// The reader of a source of the legacy shape: polled by its task thread, keeps no position.
template <typename T>
class SourceReader {
 public:
  virtual ~SourceReader() = default;
  virtual InputStatus pollNext(ReaderOutput<T>& output) = 0;
};

/// The base of every DataStream source (what fromSource takes). Implemented directly, it is the
/// legacy shape: a source that keeps no position, so a job restored from a checkpoint starts
/// it from the beginning (its records since then are read again). A replayable source is a
/// connector::Source (eddy/connector/source.h), which implements createReader for itself.
template <typename T>
class Source {
 public:
  using OutputType = T;
  virtual ~Source() = default;
  virtual Boundedness getBoundedness() const = 0;
  /// One reader per subtask; subtask `subtaskIndex` of `parallelism` reads its share.
  virtual std::unique_ptr<SourceReader<T>> createReader(int subtaskIndex,
                                                        int parallelism) const = 0;
};

}  // namespace eddy

// The replayable shape (FLIP-27 splits and enumerators, built on the types above) and the
// built-in sources on it, CollectionSource (fromElements / fromCollection) and
// NumberSequenceSource (fromSequence), which this header has always offered.
#include "eddy/connector/source.h"  // IWYU pragma: export

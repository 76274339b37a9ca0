// Source: the DataStream API's source interface, after Flink's FLIP-27 Source. A Source is a
// definition (shared, immutable) that declares whether it ends by itself (BOUNDED) and
// creates one SourceReader per parallel subtask; the reader is polled by its task thread.
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

template <typename T>
class SourceReader {
 public:
  virtual ~SourceReader() = default;
  virtual InputStatus pollNext(ReaderOutput<T>& output) = 0;
};

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

/// The elements of a vector, in order (fromElements / fromCollection). Subtask i of n reads
/// elements i, i+n, i+2n, ... (fromElements runs it at parallelism 1).
template <typename T>
class CollectionSource final : public Source<T> {
 public:
  explicit CollectionSource(std::vector<T> elements)
      : elements_(std::make_shared<const std::vector<T>>(std::move(elements))) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<T>> createReader(int subtaskIndex, int parallelism) const override {
    return std::make_unique<Reader>(elements_, subtaskIndex, parallelism);
  }

 private:
  class Reader final : public SourceReader<T> {
   public:
    Reader(std::shared_ptr<const std::vector<T>> elements, int start, int step)
        : elements_(std::move(elements)), next_(start), step_(step) {}
    InputStatus pollNext(ReaderOutput<T>& output) override {
      for (size_t emitted = 0; emitted < runtime::kDefaultBatchSize; ++emitted) {
        if (next_ >= elements_->size()) return InputStatus::END_OF_INPUT;
        output.collect((*elements_)[next_]);
        next_ += step_;
      }
      return next_ >= elements_->size() ? InputStatus::END_OF_INPUT
                                        : InputStatus::MORE_AVAILABLE;
    }

   private:
    std::shared_ptr<const std::vector<T>> elements_;
    size_t next_;
    size_t step_;
  };

  std::shared_ptr<const std::vector<T>> elements_;
};

/// The numbers from..to inclusive (fromSequence), split into one contiguous range per
/// subtask.
class NumberSequenceSource final : public Source<int64_t> {
 public:
  NumberSequenceSource(int64_t from, int64_t to) : from_(from), to_(to) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int subtaskIndex,
                                                      int parallelism) const override {
    // Split [from, to] into `parallelism` nearly equal contiguous ranges.
    __int128 count = static_cast<__int128>(to_) - from_ + 1;
    if (count < 0) count = 0;
    int64_t begin = static_cast<int64_t>(from_ + count * subtaskIndex / parallelism);
    int64_t end = static_cast<int64_t>(from_ + count * (subtaskIndex + 1) / parallelism);
    return std::make_unique<Reader>(begin, end);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    Reader(int64_t begin, int64_t end) : next_(begin), end_(end) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      int64_t stop = std::min<int64_t>(end_, next_ + runtime::kDefaultBatchSize);
      for (; next_ < stop; ++next_) output.collect(next_);
      return next_ >= end_ ? InputStatus::END_OF_INPUT : InputStatus::MORE_AVAILABLE;
    }

   private:
    int64_t next_;
    int64_t end_;  // exclusive
  };

  int64_t from_;
  int64_t to_;
};

}  // namespace eddy

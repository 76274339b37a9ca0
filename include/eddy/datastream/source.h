// Source: the DataStream API's source interface, after Flink's FLIP-27 Source. A Source is a
// definition (shared, immutable) that declares whether it ends by itself (BOUNDED) and
// creates one SourceReader per parallel subtask; the reader is polled by its task thread.
//
// pollNext emits what is available now through the ReaderOutput — ideally up to about
// runtime::kDefaultBatchSize records per call — and says whether more is available at once,
// nothing is available for now, or the input ended.
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

/// Where a reader emits records (non-virtual: it appends to the batch being built).
template <typename T>
class ReaderOutput {
 public:
  void collect(const T& record) { batch_->push(record, runtime::kNoTimestamp); }
  void collect(T&& record) { batch_->push(std::move(record), runtime::kNoTimestamp); }
  /// A record with its own event timestamp (a timestamp assigner may override it).
  void collect(T record, int64_t timestamp) { batch_->push(std::move(record), timestamp); }
  /// Records emitted since the last batch left.
  size_t pendingRecords() const { return batch_->size(); }

 protected:
  runtime::TypedBatch<T>* batch_ = nullptr;
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

// The built-in DataStream sinks: print() (PrintSinkOperator) and the collect sink behind
// executeAndCollect() (CollectSinkOperator feeding a CollectQueue that the client's iterator
// drains).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "eddy/detail/runtime/task_cancelled.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/record_format.h"

namespace eddy {

/// Writes `text` to the process's standard output in one piece (lines of concurrent sinks
/// never interleave) and flushes it.
void writeToStdout(std::string_view text);

/// Prints records as Java's toString would, one per line.
template <typename T>
class PrintSinkOperator final : public runtime::StreamOperator {
 public:
  explicit PrintSinkOperator(std::string sinkIdentifier)
      : sinkIdentifier_(std::move(sinkIdentifier)) {}

  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    // Flink's PrintSinkOutputWriter: "id:N> ", "id> ", "N> " or nothing.
    std::string subtask =
        context.parallelism > 1 ? std::to_string(context.subtaskIndex + 1) : std::string();
    if (!sinkIdentifier_.empty()) {
      prefix_ = sinkIdentifier_ + (subtask.empty() ? "" : ":" + subtask) + "> ";
    } else if (!subtask.empty()) {
      prefix_ = subtask + "> ";
    }
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    text_.clear();
    for (const T& record : runtime::typedBatch<T>(*batch).records) {
      text_ += prefix_;
      RecordFormatter<T>::append(record, text_);
      text_ += '\n';
    }
    writeToStdout(text_);
  }

 private:
  std::string sinkIdentifier_;
  std::string prefix_;
  std::string text_;
};

/// A bounded hand-off between the collect sink (one task thread) and the client's iterator.
template <typename T>
class CollectQueue {
 public:
  static constexpr size_t kCapacity = 64 * 1024;

  /// Blocks while full; throws runtime::TaskCancelled when the reader has gone away.
  void push(T record) {
    std::unique_lock lock(mutex_);
    notFull_.wait(lock, [this] { return abandoned_ || records_.size() < kCapacity; });
    if (abandoned_) throw runtime::TaskCancelled{};
    records_.push_back(std::move(record));
    notEmpty_.notify_one();
  }
  void finish() {
    std::lock_guard lock(mutex_);
    finished_ = true;
    notEmpty_.notify_all();
  }
  /// The reader has stopped reading: producers stop waiting.
  void abandon() {
    std::lock_guard lock(mutex_);
    abandoned_ = true;
    notFull_.notify_all();
  }
  std::optional<T> poll(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mutex_);
    notEmpty_.wait_for(lock, timeout, [this] { return finished_ || !records_.empty(); });
    if (records_.empty()) return std::nullopt;
    T record = std::move(records_.front());
    records_.pop_front();
    notFull_.notify_one();
    return record;
  }
  /// True once the sink finished and every record was taken.
  bool finished() {
    std::lock_guard lock(mutex_);
    return finished_ && records_.empty();
  }

 private:
  std::mutex mutex_;
  std::condition_variable notEmpty_;
  std::condition_variable notFull_;
  std::deque<T> records_;
  bool finished_ = false;
  bool abandoned_ = false;
};

template <typename T>
class CollectSinkOperator final : public runtime::StreamOperator {
 public:
  explicit CollectSinkOperator(std::shared_ptr<CollectQueue<T>> queue) : queue_(std::move(queue)) {}
  void processBatch(int, runtime::BatchPtr batch) override {
    for (T& record : runtime::typedBatch<T>(*batch).records) queue_->push(std::move(record));
  }
  void finish() override { queue_->finish(); }

 private:
  std::shared_ptr<CollectQueue<T>> queue_;
};

}  // namespace eddy

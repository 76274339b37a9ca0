// The built-in DataStream sinks: print() and printToErr() (PrintSink, on the Sink V2 SPI) and
// the collect sink behind executeAndCollect() (CollectSinkOperator feeding a CollectQueue that
// the client's iterator drains).
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "eddy/connector/sink.h"
#include "eddy/detail/runtime/task_cancelled.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/record_format.h"

namespace eddy {

/// Writes `text` to the process's standard output in one piece (lines of concurrent sinks
/// never interleave) and flushes it.
void writeToStdout(std::string_view text);
/// The same on standard error.
void writeToStderr(std::string_view text);
/// A print sink's lines: nothing when `text` is empty, else writeToStderr or writeToStdout.
inline void writePrintedLines(std::string_view text, bool standardError) {
  if (text.empty()) return;
  if (standardError) {
    writeToStderr(text);
  } else {
    writeToStdout(text);
  }
}

/// The prefix of a print sink's lines in subtask `subtaskIndex` (0-based) of `parallelism`, as
/// Flink's PrintSinkOutputWriter: "identifier:N> " (an identifier, parallelism > 1),
/// "identifier> ", "N> " (no identifier, parallelism > 1) or nothing; N is 1-based.
std::string printSinkPrefix(std::string_view sinkIdentifier, int subtaskIndex, int parallelism);

/// Prints records as Java's toString would, one per line with printSinkPrefix, to stdout or
/// stderr (Flink's PrintSink, a Sink V2 sink: DataStream::print and printToErr). The lines of a
/// batch are written in one piece. It keeps no state and commits nothing, so after a restore
/// the records since the last checkpoint are printed again (at-least-once). Immutable.
template <typename T>
class PrintSink final : public connector::Sink<T> {
 public:
  explicit PrintSink(std::string sinkIdentifier = {}, bool standardError = false)
      : sinkIdentifier_(std::move(sinkIdentifier)), standardError_(standardError) {}

  std::unique_ptr<connector::SinkWriter<T>> createWriter(
      connector::WriterInitContext& context) const override {
    return std::make_unique<Writer>(
        printSinkPrefix(sinkIdentifier_, context.getSubtaskId(),
                        context.getNumberOfParallelSubtasks()),
        standardError_);
  }

 private:
  class Writer final : public connector::SinkWriter<T> {
   public:
    Writer(std::string prefix, bool standardError)
        : prefix_(std::move(prefix)), standardError_(standardError) {}
    void write(const T& record, const connector::SinkWriterContext&) override {
      writeBatch(std::span<const T>(&record, 1), {}, context_);
    }
    void writeBatch(std::span<const T> records, std::span<const int64_t>,
                    connector::SinkWriterContext&) override {
      text_.clear();
      for (const T& record : records) {
        text_ += prefix_;
        RecordFormatter<T>::append(record, text_);
        text_ += '\n';
      }
      writePrintedLines(text_, standardError_);
    }
    void flush(bool) override {}  // every batch is written when it comes

   private:
    std::string prefix_;
    bool standardError_;
    std::string text_;  // the lines of one batch, reused
    connector::SinkWriterContext context_;
  };

  std::string sinkIdentifier_;
  bool standardError_;
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

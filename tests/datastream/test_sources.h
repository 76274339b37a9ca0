// Sources used by the DataStream program tests.
#pragma once

#include <eddy/eddy.h>

#include <atomic>
#include <memory>

namespace eddy::testing_sources {

/// Counts up from 0 forever (an unbounded source); each subtask emits its own sequence.
/// `emitted` counts every record emitted by all subtasks.
class CountingSource final : public Source<int64_t> {
 public:
  explicit CountingSource(std::shared_ptr<std::atomic<int64_t>> emitted = nullptr)
      : emitted_(emitted ? std::move(emitted) : std::make_shared<std::atomic<int64_t>>(0)) {}
  Boundedness getBoundedness() const override { return Boundedness::CONTINUOUS_UNBOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int, int) const override {
    return std::make_unique<Reader>(emitted_);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(std::shared_ptr<std::atomic<int64_t>> emitted) : emitted_(std::move(emitted)) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      for (int i = 0; i < 256; ++i) output.collect(next_++);
      *emitted_ += 256;
      return InputStatus::MORE_AVAILABLE;
    }

   private:
    std::shared_ptr<std::atomic<int64_t>> emitted_;
    int64_t next_ = 0;
  };
  std::shared_ptr<std::atomic<int64_t>> emitted_;
};

/// Subtask 0 emits `count` timestamped records (timestamp = value) and then waits forever
/// (unbounded); every other subtask never emits anything.
class OneBusySubtaskSource final : public Source<int64_t> {
 public:
  explicit OneBusySubtaskSource(int64_t count) : count_(count) {}
  Boundedness getBoundedness() const override { return Boundedness::CONTINUOUS_UNBOUNDED; }
  std::unique_ptr<SourceReader<int64_t>> createReader(int subtaskIndex, int) const override {
    return std::make_unique<Reader>(subtaskIndex == 0 ? count_ : 0);
  }

 private:
  class Reader final : public SourceReader<int64_t> {
   public:
    explicit Reader(int64_t count) : count_(count) {}
    InputStatus pollNext(ReaderOutput<int64_t>& output) override {
      if (next_ >= count_) return InputStatus::NOTHING_AVAILABLE;
      output.collect(next_, next_);
      ++next_;
      return InputStatus::MORE_AVAILABLE;
    }

   private:
    int64_t count_;
    int64_t next_ = 0;
  };
  int64_t count_;
};

}  // namespace eddy::testing_sources

// InputGate: the bounded queue through which one subtask receives the elements of all its
// input channels (one channel per upstream subtask of each input edge).
//
// Many producer threads push, the one consumer thread (the owning task) pops. The queue is
// bounded by a number of elements; a producer pushing into a full gate blocks until the
// consumer makes room (backpressure: nothing is dropped, memory stays bounded). cancel()
// wakes every waiter and makes every later call throw TaskCancelled, which is how a failed
// or cancelled job stops all its threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>

#include "eddy/runtime/stream_element.h"
#include "eddy/detail/runtime/task_cancelled.h"

namespace eddy::runtime {

struct InputMessage {
  int channel;
  StreamElement element;
};

class InputGate {
 public:
  explicit InputGate(size_t capacity) : capacity_(capacity) {}

  /// Blocks while the gate is full.
  void push(int channel, StreamElement element);
  /// Returns at once: the next message, or nothing when the gate is empty.
  std::optional<InputMessage> tryPop();
  /// Waits until a message arrives or `deadline` passes (then returns nothing).
  std::optional<InputMessage> pop(std::chrono::steady_clock::time_point deadline);
  void cancel();

 private:
  std::optional<InputMessage> takeFrontLocked();

  const size_t capacity_;
  std::mutex mutex_;
  std::condition_variable notEmpty_;
  std::condition_variable notFull_;
  std::deque<InputMessage> queue_;
  bool cancelled_ = false;
};

}  // namespace eddy::runtime

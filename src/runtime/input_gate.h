// InputGate: how one subtask receives the elements of all its input channels (one channel per
// upstream subtask of each input edge), with one bounded queue per channel.
//
// Producer threads push into the channels (one per channel in a job; the gate does not rely on
// it), the one consumer thread (the owning task) pops from all of them, oldest element first.
// Each channel holds at most `channelCapacity` elements; a producer pushing into its full
// channel blocks until the consumer takes from it (backpressure: nothing is dropped, memory
// stays bounded, and one fast channel cannot fill the gate for the others). A blocked channel (blockChannel) is not read until it is unblocked
// while the others are: checkpoint barrier alignment stops a channel whose barrier arrived
// until the barriers of the other channels are in, and only that channel's producer waits.
// wakeUp() makes a waiting (or the next) pop return early without a message: the task's
// mailbox calls it so that mail does not wait for input. cancel() wakes every waiter and makes
// every later call throw TaskCancelled, which is how a failed or cancelled job stops all its
// threads.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "eddy/runtime/stream_element.h"
#include "eddy/detail/runtime/task_cancelled.h"

namespace eddy::runtime {

struct InputMessage {
  int channel;
  StreamElement element;
};

class InputGate {
 public:
  /// `channels` input channels of at most `channelCapacity` (> 0) queued elements each.
  InputGate(int channels, size_t channelCapacity);

  /// Blocks while `channel` is full.
  void push(int channel, StreamElement element);
  /// Returns at once: the oldest message of an unblocked channel, or nothing when there is none.
  std::optional<InputMessage> tryPop();
  /// Waits until an unblocked channel has a message, `deadline` passes or wakeUp() is called
  /// (then returns nothing).
  std::optional<InputMessage> pop(std::chrono::steady_clock::time_point deadline);
  /// Any thread: the pop that waits now, or the next one if none does, returns at once. Wake-ups
  /// do not accumulate: several before a pop end one wait.
  void wakeUp();
  /// Stops handing out `channel`'s messages until unblockChannel; its producer goes on pushing
  /// until the channel is full.
  void blockChannel(int channel);
  void unblockChannel(int channel);
  void cancel();

 private:
  struct Queued {
    uint64_t sequence;  // arrival order over all channels
    StreamElement element;
  };
  struct Channel {
    std::deque<Queued> queue;
    bool blocked = false;
    std::condition_variable notFull;  // its producer waits here
  };

  /// The oldest message of an unblocked channel (nothing when none); sets `channel` to its
  /// channel, whose producer the caller wakes once the lock is released.
  std::optional<InputMessage> takeOldestLocked(Channel*& channel);
  bool hasReadableLocked() const;

  const size_t channelCapacity_;
  std::mutex mutex_;
  std::condition_variable notEmpty_;
  std::vector<Channel> channels_;
  uint64_t nextSequence_ = 0;
  bool wakeUpRequested_ = false;
  bool cancelled_ = false;
};

}  // namespace eddy::runtime

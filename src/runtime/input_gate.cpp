#include "runtime/input_gate.h"

#include "common/check.h"

namespace eddy::runtime {

InputGate::InputGate(int channels, size_t channelCapacity)
    : channelCapacity_(channelCapacity), channels_(static_cast<size_t>(channels)) {
  EDDY_CHECK_GT(channelCapacity, size_t{0});
}

void InputGate::push(int channel, StreamElement element) {
  std::unique_lock lock(mutex_);
  Channel& target = channels_.at(static_cast<size_t>(channel));
  target.notFull.wait(lock, [&] { return cancelled_ || target.queue.size() < channelCapacity_; });
  if (cancelled_) throw TaskCancelled{};
  target.queue.push_back(Queued{nextSequence_++, std::move(element)});
  const bool readable = !target.blocked;
  lock.unlock();
  if (readable) notEmpty_.notify_one();
}

bool InputGate::hasReadableLocked() const {
  for (const Channel& channel : channels_) {
    if (!channel.blocked && !channel.queue.empty()) return true;
  }
  return false;
}

std::optional<InputMessage> InputGate::takeOldestLocked(Channel*& channel) {
  if (cancelled_) throw TaskCancelled{};
  // The channels are few (upstream subtasks of the inputs): a scan per element is cheaper
  // than keeping an order across them.
  int oldest = -1;
  for (size_t c = 0; c < channels_.size(); ++c) {
    const Channel& candidate = channels_[c];
    if (candidate.blocked || candidate.queue.empty()) continue;
    if (oldest < 0 ||
        candidate.queue.front().sequence <
            channels_[static_cast<size_t>(oldest)].queue.front().sequence) {
      oldest = static_cast<int>(c);
    }
  }
  if (oldest < 0) return std::nullopt;
  channel = &channels_[static_cast<size_t>(oldest)];
  InputMessage message{oldest, std::move(channel->queue.front().element)};
  channel->queue.pop_front();
  return message;
}

std::optional<InputMessage> InputGate::tryPop() {
  std::optional<InputMessage> message;
  Channel* taken = nullptr;
  {
    std::lock_guard lock(mutex_);
    message = takeOldestLocked(taken);
  }
  if (taken) taken->notFull.notify_one();
  return message;
}

std::optional<InputMessage> InputGate::pop(std::chrono::steady_clock::time_point deadline) {
  std::optional<InputMessage> message;
  Channel* taken = nullptr;
  {
    std::unique_lock lock(mutex_);
    notEmpty_.wait_until(lock, deadline, [this] {
      return cancelled_ || wakeUpRequested_ || hasReadableLocked();
    });
    wakeUpRequested_ = false;
    message = takeOldestLocked(taken);
  }
  if (taken) taken->notFull.notify_one();
  return message;
}

void InputGate::blockChannel(int channel) {
  std::lock_guard lock(mutex_);
  channels_.at(static_cast<size_t>(channel)).blocked = true;
}

void InputGate::unblockChannel(int channel) {
  {
    std::lock_guard lock(mutex_);
    channels_.at(static_cast<size_t>(channel)).blocked = false;
  }
  notEmpty_.notify_one();
}

void InputGate::wakeUp() {
  {
    std::lock_guard lock(mutex_);
    wakeUpRequested_ = true;
  }
  notEmpty_.notify_all();
}

void InputGate::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  notEmpty_.notify_all();
  for (Channel& channel : channels_) channel.notFull.notify_all();
}

}  // namespace eddy::runtime

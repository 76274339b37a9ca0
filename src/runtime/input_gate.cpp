#include "runtime/input_gate.h"

namespace eddy::runtime {

void InputGate::push(int channel, StreamElement element) {
  std::unique_lock lock(mutex_);
  notFull_.wait(lock, [this] { return cancelled_ || queue_.size() < capacity_; });
  if (cancelled_) throw TaskCancelled{};
  queue_.push_back(InputMessage{channel, std::move(element)});
  lock.unlock();
  notEmpty_.notify_one();
}

std::optional<InputMessage> InputGate::takeFrontLocked() {
  if (cancelled_) throw TaskCancelled{};
  if (queue_.empty()) return std::nullopt;
  InputMessage message = std::move(queue_.front());
  queue_.pop_front();
  return message;
}

std::optional<InputMessage> InputGate::tryPop() {
  std::optional<InputMessage> message;
  {
    std::lock_guard lock(mutex_);
    message = takeFrontLocked();
  }
  if (message) notFull_.notify_one();
  return message;
}

std::optional<InputMessage> InputGate::pop(std::chrono::steady_clock::time_point deadline) {
  std::optional<InputMessage> message;
  {
    std::unique_lock lock(mutex_);
    notEmpty_.wait_until(lock, deadline, [this] { return cancelled_ || !queue_.empty(); });
    message = takeFrontLocked();
  }
  if (message) notFull_.notify_one();
  return message;
}

void InputGate::cancel() {
  {
    std::lock_guard lock(mutex_);
    cancelled_ = true;
  }
  notEmpty_.notify_all();
  notFull_.notify_all();
}

}  // namespace eddy::runtime

#include "runtime/mailbox.h"

#include "runtime/input_gate.h"

namespace eddy::runtime {

void Mailbox::put(Mail mail) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    queue_.push_back(std::move(mail));
    hasMail_.store(true, std::memory_order_release);
  }
  mailArrived_.notify_one();
  // After the mail is visible: a task that checked hasMail() and then went to wait in its
  // gate sees the gate's wake-up flag, so it cannot sleep past this mail.
  if (gate_) gate_->wakeUp();
}

std::optional<Mail> Mailbox::tryTake() {
  std::lock_guard lock(mutex_);
  if (queue_.empty()) return std::nullopt;
  Mail mail = std::move(queue_.front());
  queue_.pop_front();
  hasMail_.store(!queue_.empty(), std::memory_order_release);
  return mail;
}

void Mailbox::waitForMail(std::chrono::steady_clock::time_point deadline) {
  std::unique_lock lock(mutex_);
  mailArrived_.wait_until(lock, deadline, [this] { return closed_ || !queue_.empty(); });
}

void Mailbox::close() {
  {
    std::lock_guard lock(mutex_);
    closed_ = true;
    queue_.clear();
    hasMail_.store(false, std::memory_order_release);
  }
  mailArrived_.notify_all();
}

}  // namespace eddy::runtime

// Mailbox: the actions other threads ask one task to run on its own thread, as Flink's
// TaskMailbox. The job puts checkpoint triggers and checkpoint completion / abort
// notifications here, and a source's split enumerator its split assignments; the task drains
// it between records (the source loop between two emitNext calls, the input loop between two
// input elements) and while it waits, so that every call on an operator still comes from the
// task thread and needs no lock.
//
// Any thread may put; only the owning task thread takes and waits. hasMail() is one atomic
// load, cheap enough to check between every two batches. A task blocked on its empty input
// gate is woken through the gate (InputGate::wakeUp), so mail never waits for input to arrive.
// Processing-time timers are not mail: only the task thread registers them, so they stay in
// the task's own queue, and the task bounds every wait by the next timer's due time.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "eddy/runtime/checkpoint_barrier.h"

namespace eddy::runtime {

class InputGate;

/// A source task takes checkpoint `barrier.id`: snapshot the chain, emit the barrier.
struct TriggerCheckpointMail {
  CheckpointBarrier barrier;
};
/// Every task acknowledged the checkpoint: tell the operators (notifyCheckpointComplete).
struct CheckpointCompleteMail {
  int64_t checkpointId;
};
/// The checkpoint will not complete: stop aligning it, tell the operators.
struct CheckpointAbortedMail {
  int64_t checkpointId;
};
/// The source's split enumerator assigned splits to this source task's reader (Flink's
/// AddSplitEvent): each in its source's versioned split bytes (connector::
/// writeVersionAndSerialize). As mail, an assignment is ordered with the checkpoint triggers
/// (see eddy/connector/source.h).
struct AddSplitsMail {
  std::vector<std::string> splits;
};
/// The enumerator will assign this task's reader no more splits (Flink's NoMoreSplitsEvent).
struct NoMoreSplitsMail {};
/// Any other action to run on the task thread.
using MailAction = std::function<void()>;

using Mail = std::variant<TriggerCheckpointMail, CheckpointCompleteMail, CheckpointAbortedMail,
                          AddSplitsMail, NoMoreSplitsMail, MailAction>;

class Mailbox {
 public:
  /// `gate` (may be null: source tasks have none) is woken on every put, so that a task
  /// waiting in InputGate::pop returns to drain its mail. The gate must outlive the mailbox.
  explicit Mailbox(InputGate* gate = nullptr) : gate_(gate) {}

  /// Any thread. Mail put after close() is dropped (its task has ended).
  void put(Mail mail);
  /// Task thread: whether mail is waiting.
  bool hasMail() const { return hasMail_.load(std::memory_order_acquire); }
  /// Task thread: the oldest mail, or nothing.
  std::optional<Mail> tryTake();
  /// Task thread: waits until mail arrives, close() is called, or `deadline` passes.
  void waitForMail(std::chrono::steady_clock::time_point deadline);
  /// Drops queued mail, makes later puts no-ops and wakes a waiting task. Called when the
  /// task has ended and when the job is cancelled.
  void close();

 private:
  InputGate* const gate_;
  mutable std::mutex mutex_;
  std::condition_variable mailArrived_;
  std::deque<Mail> queue_;
  std::atomic<bool> hasMail_{false};
  bool closed_ = false;
};

}  // namespace eddy::runtime

// CheckpointBarrierHandler: decides, for a task with input channels, when a checkpoint is
// taken, from the barriers and ends of its channels (Flink's SingleCheckpointBarrierHandler
// for aligned checkpoints and CheckpointBarrierTracker for AT_LEAST_ONCE, in one class).
//
// A checkpoint is taken once every channel has delivered its barrier or ended (an ended
// channel sends nothing more, so it is aligned; a channel that ends during an alignment
// completes it). ALIGNED barriers block their channel in the gate until then, so nothing
// behind a barrier is processed before the snapshot; AT_LEAST_ONCE barriers block nothing,
// several such checkpoints may be pending at once, and the one that completes aborts the
// older ones still pending (as Flink's tracker). A barrier newer than an ALIGNED checkpoint
// in progress aborts that one: its barrier on a slower channel was lost (an upstream task
// aborted it), so waiting would block the channels for ever. Barriers of checkpoints that
// this task completed, aborted or skipped are ignored.
//
// Used by the task thread only; it calls back into the task (Actions) on that thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "eddy/runtime/checkpoint_barrier.h"

namespace eddy::runtime {

class InputGate;

class CheckpointBarrierHandler {
 public:
  /// Implemented by the task.
  class Actions {
   public:
    virtual ~Actions() = default;
    /// Every channel delivered `barrier` or ended: snapshot the chain, forward the barrier,
    /// acknowledge. The handler unblocks the checkpoint's channels after it returns.
    virtual void triggerCheckpointOnBarrier(const CheckpointBarrier& barrier) = 0;
    /// This task gave up checkpoint `checkpointId` (a newer barrier overtook it): decline it
    /// to the job, which aborts it everywhere.
    virtual void abortCheckpointOnBarrier(int64_t checkpointId) = 0;
  };

  CheckpointBarrierHandler(int channelCount, InputGate& gate, Actions& actions);

  void processBarrier(int channel, const CheckpointBarrier& barrier);
  void processEndOfInput(int channel);
  /// The job aborted `checkpointId` (another task declined it): stop waiting for its
  /// barriers and unblock its channels, without declining again.
  void abortCheckpoint(int64_t checkpointId);

  /// How long the checkpoint being triggered waited from its first barrier to its last, in
  /// microseconds: valid during Actions::triggerCheckpointOnBarrier (0 for one channel).
  int64_t alignmentDurationMicros() const { return alignmentDurationMicros_; }

  /// The ids of the checkpoints whose barriers are arriving, oldest first (tests).
  std::vector<int64_t> pendingCheckpointIds() const;

 private:
  struct Pending {
    CheckpointBarrier barrier;
    std::vector<bool> received;  // per channel
    std::chrono::steady_clock::time_point firstBarrier;
  };

  bool isAlignedOn(const Pending& pending) const;
  /// Completes the newest pending checkpoint every open channel has delivered, aborting the
  /// older ones; at most one per call, as one event completes at most one.
  void completeAlignedCheckpoints();
  /// Removes pending_[index], unblocking its channels; declines it when `decline`.
  void removePending(size_t index, bool decline);

  InputGate& gate_;
  Actions& actions_;
  std::vector<bool> ended_;  // per channel
  std::vector<Pending> pending_;  // oldest first
  /// The highest checkpoint id this task has seen a barrier of: a barrier of a lower id that
  /// is not pending belongs to a checkpoint completed, aborted or overtaken here.
  int64_t latestSeenId_ = -1;
  /// Checkpoints the job aborted before their first barrier reached this task.
  std::vector<int64_t> abortedAhead_;
  int64_t alignmentDurationMicros_ = 0;
};

}  // namespace eddy::runtime

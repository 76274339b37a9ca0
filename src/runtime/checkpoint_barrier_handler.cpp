#include "runtime/checkpoint_barrier_handler.h"

#include <algorithm>

#include "runtime/input_gate.h"

namespace eddy::runtime {

CheckpointBarrierHandler::CheckpointBarrierHandler(int channelCount, InputGate& gate,
                                                   Actions& actions)
    : gate_(gate), actions_(actions), ended_(static_cast<size_t>(channelCount), false) {}

void CheckpointBarrierHandler::processBarrier(int channel, const CheckpointBarrier& barrier) {
  const auto c = static_cast<size_t>(channel);
  auto found = std::find_if(pending_.begin(), pending_.end(), [&](const Pending& pending) {
    return pending.barrier.id == barrier.id;
  });
  if (found == pending_.end()) {
    if (barrier.id <= latestSeenId_) return;  // completed, aborted or overtaken here
    latestSeenId_ = barrier.id;
    const bool abortedByJob = std::find(abortedAhead_.begin(), abortedAhead_.end(),
                                        barrier.id) != abortedAhead_.end();
    std::erase_if(abortedAhead_, [&](int64_t id) { return id <= barrier.id; });
    if (abortedByJob) return;
    // An aligned checkpoint blocks channels, so it cannot wait behind or beside another: the
    // newer barrier means the older one's barriers will not all come (Flink's
    // SingleCheckpointBarrierHandler aborts it the same way).
    const bool aligned = barrier.options.isExactlyOnceMode() ||
                         std::any_of(pending_.begin(), pending_.end(), [](const Pending& p) {
                           return p.barrier.options.isExactlyOnceMode();
                         });
    if (aligned) {
      while (!pending_.empty()) removePending(0, /*decline=*/true);
    }
    pending_.push_back(Pending{barrier, std::vector<bool>(ended_.size(), false),
                               std::chrono::steady_clock::now()});
    found = pending_.end() - 1;
  }
  if (found->received[c]) return;
  found->received[c] = true;
  if (isAlignedOn(*found)) {
    completeAlignedCheckpoints();
  } else if (found->barrier.options.isExactlyOnceMode()) {
    gate_.blockChannel(channel);
  }
}

void CheckpointBarrierHandler::processEndOfInput(int channel) {
  ended_[static_cast<size_t>(channel)] = true;
  if (!pending_.empty()) completeAlignedCheckpoints();
}

void CheckpointBarrierHandler::abortCheckpoint(int64_t checkpointId) {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].barrier.id == checkpointId) {
      removePending(i, /*decline=*/false);
      return;
    }
  }
  if (checkpointId > latestSeenId_) abortedAhead_.push_back(checkpointId);
}

std::vector<int64_t> CheckpointBarrierHandler::pendingCheckpointIds() const {
  std::vector<int64_t> ids;
  for (const Pending& pending : pending_) ids.push_back(pending.barrier.id);
  return ids;
}

bool CheckpointBarrierHandler::isAlignedOn(const Pending& pending) const {
  for (size_t c = 0; c < ended_.size(); ++c) {
    if (!ended_[c] && !pending.received[c]) return false;
  }
  return true;
}

void CheckpointBarrierHandler::completeAlignedCheckpoints() {
  // The newest checkpoint every open channel has delivered; older ones that are not complete
  // can no longer be (Flink's tracker aborts them), older complete ones are taken in order.
  size_t newest = pending_.size();
  for (size_t i = pending_.size(); i-- > 0;) {
    if (isAlignedOn(pending_[i])) {
      newest = i;
      break;
    }
  }
  if (newest == pending_.size()) return;
  for (size_t taken = 0; taken <= newest; ++taken) {
    if (!isAlignedOn(pending_.front())) {
      removePending(0, /*decline=*/true);
      continue;
    }
    const CheckpointBarrier barrier = pending_.front().barrier;
    alignmentDurationMicros_ = std::chrono::duration_cast<std::chrono::microseconds>(
                                   std::chrono::steady_clock::now() - pending_.front().firstBarrier)
                                   .count();
    actions_.triggerCheckpointOnBarrier(barrier);
    alignmentDurationMicros_ = 0;
    removePending(0, /*decline=*/false);
  }
}

void CheckpointBarrierHandler::removePending(size_t index, bool decline) {
  const Pending& pending = pending_[index];
  const int64_t id = pending.barrier.id;
  if (pending.barrier.options.isExactlyOnceMode()) {
    for (size_t c = 0; c < pending.received.size(); ++c) {
      if (pending.received[c]) gate_.unblockChannel(static_cast<int>(c));
    }
  }
  pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(index));
  if (decline) actions_.abortCheckpointOnBarrier(id);
}

}  // namespace eddy::runtime

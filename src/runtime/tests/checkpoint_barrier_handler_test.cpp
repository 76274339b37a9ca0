// Barrier alignment on its own, over a real input gate: an aligned barrier blocks its channel
// until every open channel delivered it, AT_LEAST_ONCE blocks nothing and lets several
// checkpoints overlap, ended channels count as aligned, a newer barrier aborts an unfinished
// alignment, and a checkpoint the job aborted is no longer waited for.
#include "runtime/checkpoint_barrier_handler.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/input_gate.h"

namespace eddy::runtime {
namespace {

using Alignment = CheckpointOptions::AlignmentType;

class RecordingActions final : public CheckpointBarrierHandler::Actions {
 public:
  void triggerCheckpointOnBarrier(const CheckpointBarrier& barrier) override {
    triggered.push_back(barrier.id);
  }
  void abortCheckpointOnBarrier(int64_t checkpointId) override { declined.push_back(checkpointId); }

  std::vector<int64_t> triggered;
  std::vector<int64_t> declined;
};

CheckpointBarrier barrier(int64_t id, Alignment alignment = Alignment::ALIGNED) {
  return CheckpointBarrier{id, 1000 + id, CheckpointOptions{SnapshotType::CHECKPOINT, alignment}};
}

class CheckpointBarrierHandlerTest : public ::testing::Test {
 protected:
  /// Puts one watermark (timestamp = channel) into every channel and returns the channels
  /// the gate hands out now, in order: the blocked ones are missing.
  std::vector<int> readableChannels() {
    for (int channel = 0; channel < kChannels; ++channel) gate_.push(channel, Watermark{channel});
    std::vector<int> channels;
    while (std::optional<InputMessage> message = gate_.tryPop()) channels.push_back(message->channel);
    return channels;
  }
  /// Takes what readableChannels() left in the blocked channels, once they are unblocked.
  std::vector<int> drain() {
    std::vector<int> channels;
    while (std::optional<InputMessage> message = gate_.tryPop()) channels.push_back(message->channel);
    return channels;
  }

  static constexpr int kChannels = 3;
  InputGate gate_{kChannels, 8};
  RecordingActions actions_;
  CheckpointBarrierHandler handler_{kChannels, gate_, actions_};
};

TEST_F(CheckpointBarrierHandlerTest, AlignedBarrierBlocksItsChannelUntilAllDeliveredIt) {
  handler_.processBarrier(1, barrier(1));
  EXPECT_TRUE(actions_.triggered.empty());
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 2}));
  handler_.processBarrier(0, barrier(1));
  EXPECT_EQ(readableChannels(), (std::vector<int>{2}));
  EXPECT_TRUE(actions_.triggered.empty());
  handler_.processBarrier(2, barrier(1));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1}));
  EXPECT_TRUE(actions_.declined.empty());
  // Unblocked after the checkpoint: what waited behind the barriers comes out, in order.
  EXPECT_EQ(drain(), (std::vector<int>{1, 0, 1}));
  EXPECT_TRUE(handler_.pendingCheckpointIds().empty());
}

TEST_F(CheckpointBarrierHandlerTest, AtLeastOnceBlocksNothingAndTriggersOnTheLastBarrier) {
  handler_.processBarrier(0, barrier(1, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1, 2}));
  handler_.processBarrier(2, barrier(1, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1, 2}));
  EXPECT_TRUE(actions_.triggered.empty());
  handler_.processBarrier(1, barrier(1, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1}));
}

TEST_F(CheckpointBarrierHandlerTest, AtLeastOnceCheckpointsOverlapAndCompleteInOrder) {
  // A fast channel may deliver the barriers of two checkpoints before a slow one delivers the
  // first: both stay pending.
  handler_.processBarrier(0, barrier(1, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(0, barrier(2, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(1, barrier(1, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(1, barrier(2, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(handler_.pendingCheckpointIds(), (std::vector<int64_t>{1, 2}));
  handler_.processBarrier(2, barrier(1, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1}));
  handler_.processBarrier(2, barrier(2, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1, 2}));
  EXPECT_TRUE(actions_.declined.empty());
}

TEST_F(CheckpointBarrierHandlerTest, AtLeastOnceCompletionAbortsOlderIncompleteCheckpoints) {
  handler_.processBarrier(0, barrier(1, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(0, barrier(2, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(1, barrier(2, Alignment::AT_LEAST_ONCE));
  handler_.processBarrier(2, barrier(2, Alignment::AT_LEAST_ONCE));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{2}));
  EXPECT_EQ(actions_.declined, (std::vector<int64_t>{1}));
  // A late barrier of the aborted checkpoint is ignored.
  handler_.processBarrier(1, barrier(1, Alignment::AT_LEAST_ONCE));
  EXPECT_TRUE(handler_.pendingCheckpointIds().empty());
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{2}));
}

TEST_F(CheckpointBarrierHandlerTest, EndedChannelsCountAsAligned) {
  handler_.processEndOfInput(2);
  handler_.processBarrier(0, barrier(1));
  EXPECT_TRUE(actions_.triggered.empty());
  handler_.processBarrier(1, barrier(1));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1}));
}

TEST_F(CheckpointBarrierHandlerTest, AChannelEndingDuringAlignmentCompletesIt) {
  handler_.processBarrier(0, barrier(1));
  handler_.processBarrier(1, barrier(1));
  EXPECT_EQ(readableChannels(), (std::vector<int>{2}));
  handler_.processEndOfInput(2);
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{1}));
  EXPECT_EQ(drain(), (std::vector<int>{0, 1}));
}

TEST_F(CheckpointBarrierHandlerTest, ANewerBarrierAbortsAnUnfinishedAlignment) {
  handler_.processBarrier(0, barrier(1));
  handler_.processBarrier(1, barrier(1));
  // Channel 2's barrier 1 was lost upstream (an upstream task aborted checkpoint 1): its
  // barrier 2 arrives first. Checkpoint 1 is declined, its channels are unblocked, and the
  // alignment of checkpoint 2 starts with channel 2 blocked.
  handler_.processBarrier(2, barrier(2));
  EXPECT_EQ(actions_.declined, (std::vector<int64_t>{1}));
  EXPECT_TRUE(actions_.triggered.empty());
  EXPECT_EQ(handler_.pendingCheckpointIds(), (std::vector<int64_t>{2}));
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1}));
  handler_.processBarrier(0, barrier(2));
  handler_.processBarrier(1, barrier(2));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{2}));
  EXPECT_EQ(drain(), (std::vector<int>{2}));
  // Barrier 1 arriving now belongs to an aborted checkpoint: ignored, nothing blocked.
  handler_.processBarrier(2, barrier(1));
  EXPECT_TRUE(handler_.pendingCheckpointIds().empty());
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(actions_.declined, (std::vector<int64_t>{1}));
}

TEST_F(CheckpointBarrierHandlerTest, ACheckpointTheJobAbortedIsNoLongerAligned) {
  handler_.processBarrier(0, barrier(1));
  handler_.abortCheckpoint(1);
  EXPECT_TRUE(handler_.pendingCheckpointIds().empty());
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1, 2}));
  handler_.processBarrier(1, barrier(1));
  handler_.processBarrier(2, barrier(1));
  EXPECT_TRUE(actions_.triggered.empty());
  // Aborted before its first barrier came: its barriers are ignored too.
  handler_.abortCheckpoint(2);
  handler_.processBarrier(0, barrier(2));
  EXPECT_TRUE(handler_.pendingCheckpointIds().empty());
  EXPECT_EQ(readableChannels(), (std::vector<int>{0, 1, 2}));
  // The job declines nothing it aborted itself.
  EXPECT_TRUE(actions_.declined.empty());
  handler_.processBarrier(0, barrier(3));
  handler_.processBarrier(1, barrier(3));
  handler_.processBarrier(2, barrier(3));
  EXPECT_EQ(actions_.triggered, (std::vector<int64_t>{3}));
}

}  // namespace
}  // namespace eddy::runtime

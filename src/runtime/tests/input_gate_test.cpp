// The input gate: arrival order over its channels, backpressure per channel (a full channel
// blocks its producer only), blocked channels (barrier alignment) and cancellation (every
// waiter wakes and throws TaskCancelled).
#include "runtime/input_gate.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace eddy::runtime {
namespace {

using namespace std::chrono_literals;

BatchPtr batchOf(std::vector<int> values) {
  auto batch = std::make_unique<TypedBatch<int>>();
  for (int value : values) batch->push(value, kNoTimestamp);
  return batch;
}

TEST(InputGateTest, DeliversInOrderWithChannels) {
  InputGate gate(2, 4);
  gate.push(1, batchOf({1, 2}));
  gate.push(0, Watermark{5});
  gate.push(1, EndOfInput{});
  auto first = gate.tryPop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->channel, 1);
  EXPECT_EQ(typedBatch<int>(*std::get<BatchPtr>(first->element)).records,
            (std::vector<int>{1, 2}));
  auto second = gate.tryPop();
  EXPECT_EQ(std::get<Watermark>(second->element).timestamp, 5);
  auto third = gate.tryPop();
  EXPECT_TRUE(std::holds_alternative<EndOfInput>(third->element));
  EXPECT_FALSE(gate.tryPop().has_value());
}

TEST(InputGateTest, FullChannelBlocksTheProducerUntilTheConsumerTakes) {
  InputGate gate(1, 2);
  std::atomic<int> pushed{0};
  std::thread producer([&] {
    for (int i = 0; i < 5; ++i) {
      gate.push(0, batchOf({i}));
      ++pushed;
    }
  });
  std::this_thread::sleep_for(50ms);
  EXPECT_EQ(pushed.load(), 2);  // capacity reached: the third push waits
  for (int i = 0; i < 5; ++i) {
    auto message = gate.pop(std::chrono::steady_clock::now() + 5s);
    ASSERT_TRUE(message.has_value());
    EXPECT_EQ(typedBatch<int>(*std::get<BatchPtr>(message->element)).records[0], i);
  }
  producer.join();
  EXPECT_EQ(pushed.load(), 5);
}

TEST(InputGateTest, CancelWakesBlockedProducersAndConsumers) {
  InputGate gate(1, 1);
  gate.push(0, batchOf({1}));
  std::atomic<bool> producerCancelled{false};
  std::atomic<bool> consumerCancelled{false};
  std::thread producer([&] {
    try {
      gate.push(0, batchOf({2}));
    } catch (const TaskCancelled&) {
      producerCancelled = true;
    }
  });
  InputGate emptyGate(1, 1);
  std::thread consumer([&] {
    try {
      emptyGate.pop(std::chrono::steady_clock::now() + 60s);
    } catch (const TaskCancelled&) {
      consumerCancelled = true;
    }
  });
  std::this_thread::sleep_for(20ms);
  gate.cancel();
  emptyGate.cancel();
  producer.join();
  consumer.join();
  EXPECT_TRUE(producerCancelled);
  EXPECT_TRUE(consumerCancelled);
}

TEST(InputGateTest, PopTimesOutWhenNothingArrives) {
  InputGate gate(1, 1);
  auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(gate.pop(start + 20ms).has_value());
}

int valueOf(const InputMessage& message) {
  return typedBatch<int>(*std::get<BatchPtr>(message.element)).records[0];
}

TEST(InputGateTest, AFullChannelDoesNotBlockTheOthers) {
  InputGate gate(2, 1);
  gate.push(0, batchOf({1}));
  std::atomic<bool> secondPushed{false};
  std::thread producer([&] {
    try {
      gate.push(1, batchOf({2}));  // channel 0 is full; channel 1 is not
      secondPushed = true;
    } catch (const TaskCancelled&) {
    }
  });
  for (int i = 0; i < 500 && !secondPushed; ++i) std::this_thread::sleep_for(10ms);
  const bool pushedWithoutWaiting = secondPushed;
  if (!pushedWithoutWaiting) gate.cancel();  // a regression: fail instead of hanging
  producer.join();
  ASSERT_TRUE(pushedWithoutWaiting);
  EXPECT_EQ(valueOf(*gate.tryPop()), 1);
  EXPECT_EQ(valueOf(*gate.tryPop()), 2);
}

TEST(InputGateTest, ABlockedChannelIsNotReadUntilUnblocked) {
  InputGate gate(2, 4);
  gate.push(0, batchOf({1}));
  gate.push(1, batchOf({2}));
  gate.push(0, batchOf({3}));
  gate.push(1, batchOf({4}));
  gate.blockChannel(0);
  EXPECT_EQ(valueOf(*gate.tryPop()), 2);
  EXPECT_EQ(valueOf(*gate.tryPop()), 4);
  EXPECT_FALSE(gate.tryPop().has_value());
  EXPECT_FALSE(gate.pop(std::chrono::steady_clock::now() + 10ms).has_value());
  // A consumer waiting on the blocked gate wakes when the channel is unblocked.
  std::thread unblocker([&] {
    std::this_thread::sleep_for(20ms);
    gate.unblockChannel(0);
  });
  const auto waitStart = std::chrono::steady_clock::now();
  auto message = gate.pop(waitStart + 5s);
  unblocker.join();
  ASSERT_TRUE(message.has_value());
  EXPECT_LT(std::chrono::steady_clock::now() - waitStart, 2s);  // woken, not timed out
  EXPECT_EQ(message->channel, 0);
  EXPECT_EQ(valueOf(*message), 1);
  EXPECT_EQ(valueOf(*gate.tryPop()), 3);
}

}  // namespace
}  // namespace eddy::runtime

// The task mailbox: mail put from another thread is taken in order, wakes a task waiting for
// mail and a task waiting on its empty input gate, and is dropped once the mailbox is closed.
#include "runtime/mailbox.h"

#include <gtest/gtest.h>

#include <thread>

#include "runtime/input_gate.h"

namespace eddy::runtime {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

int64_t completedIdOf(const std::optional<Mail>& mail) {
  return std::get<CheckpointCompleteMail>(*mail).checkpointId;
}

TEST(MailboxTest, TakesMailInTheOrderItWasPut) {
  Mailbox mailbox;
  EXPECT_FALSE(mailbox.hasMail());
  mailbox.put(CheckpointCompleteMail{1});
  mailbox.put(CheckpointCompleteMail{2});
  EXPECT_TRUE(mailbox.hasMail());
  EXPECT_EQ(completedIdOf(mailbox.tryTake()), 1);
  EXPECT_TRUE(mailbox.hasMail());
  EXPECT_EQ(completedIdOf(mailbox.tryTake()), 2);
  EXPECT_FALSE(mailbox.hasMail());
  EXPECT_FALSE(mailbox.tryTake().has_value());
}

TEST(MailboxTest, MailFromAnotherThreadEndsTheWait) {
  Mailbox mailbox;
  const auto start = Clock::now();
  std::thread sender([&] { mailbox.put(TriggerCheckpointMail{CheckpointBarrier{7, 0, {}}}); });
  // The deadline only turns a lost wake-up into a failure instead of a hang.
  mailbox.waitForMail(start + 60s);
  sender.join();
  EXPECT_LT(Clock::now() - start, 30s);
  std::optional<Mail> mail = mailbox.tryTake();
  ASSERT_TRUE(mail.has_value());
  EXPECT_EQ(std::get<TriggerCheckpointMail>(*mail).barrier.id, 7);
}

TEST(MailboxTest, MailWakesATaskWaitingOnItsEmptyGate) {
  InputGate gate(2, 4);
  Mailbox mailbox(&gate);
  const auto start = Clock::now();
  std::thread sender([&] { mailbox.put(CheckpointCompleteMail{3}); });
  std::optional<InputMessage> message = gate.pop(start + 60s);
  sender.join();
  EXPECT_FALSE(message.has_value());
  EXPECT_LT(Clock::now() - start, 30s);
  EXPECT_EQ(completedIdOf(mailbox.tryTake()), 3);
  gate.push(1, Watermark{5});
  message = gate.pop(Clock::now() + 60s);
  ASSERT_TRUE(message.has_value());
  EXPECT_EQ(message->channel, 1);
}

TEST(MailboxTest, ClosedMailboxDropsMailAndEndsWaits) {
  Mailbox mailbox;
  mailbox.put(CheckpointCompleteMail{1});
  mailbox.close();
  EXPECT_FALSE(mailbox.hasMail());
  EXPECT_FALSE(mailbox.tryTake().has_value());
  mailbox.put(CheckpointCompleteMail{2});
  EXPECT_FALSE(mailbox.tryTake().has_value());
  const auto start = Clock::now();
  mailbox.waitForMail(start + 60s);  // returns at once
  EXPECT_LT(Clock::now() - start, 30s);
}

TEST(MailboxTest, RunsActionsAsMail) {
  Mailbox mailbox;
  int ran = 0;
  mailbox.put(MailAction([&ran] { ++ran; }));
  std::optional<Mail> mail = mailbox.tryTake();
  ASSERT_TRUE(mail.has_value());
  std::get<MailAction>(*mail)();
  EXPECT_EQ(ran, 1);
}

}  // namespace
}  // namespace eddy::runtime

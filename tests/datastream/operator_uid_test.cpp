// Operator uids of DataStream jobs (src/graph/operator_uid.h), as the JSON execution plan shows
// them: every operator without a user uid gets one derived from the program, the same in every
// environment and in every job of one environment, and a user's uid is kept.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <set>

#include "datastream/execution_plan_uids.h"

namespace eddy {
namespace {

using UidList = std::vector<std::pair<std::string, std::string>>;


/// Numbers → Map → keyBy → Keyed Reduce → Sink, with the map's uid `mapUid` (none when empty).
void addWordLengths(StreamExecutionEnvironment& env, const std::string& mapUid = "") {
  auto lengths = env.fromElements(std::string("a"), std::string("bb"), std::string("a"))
                     .map([](const std::string& word) { return int64_t(word.size()); });
  if (!mapUid.empty()) lengths.uid(mapUid);
  lengths.keyBy([](int64_t length) { return length; })
      .reduce([](int64_t a, int64_t b) { return a + b; })
      .addSink([](int64_t) {});
}

TEST(DataStreamOperatorUidTest, ADataStreamProgramGetsTheSameUidsInEveryEnvironment) {
  auto first = StreamExecutionEnvironment::getExecutionEnvironment();
  first->setParallelism(2);
  addWordLengths(*first);
  auto uids = testing::operatorUidsOf(first->getExecutionPlan());
  ASSERT_EQ(uids.size(), 4u) << first->getExecutionPlan();
  std::set<std::string> distinct;
  for (const auto& [name, uid] : uids) {
    EXPECT_TRUE(testing::isDerivedUid(uid)) << name << ": " << uid;
    distinct.insert(uid);
  }
  EXPECT_EQ(distinct.size(), 4u);

  // Another environment, at another parallelism: the same uids.
  auto second = StreamExecutionEnvironment::getExecutionEnvironment();
  second->setParallelism(3);
  addWordLengths(*second);
  EXPECT_EQ(testing::operatorUidsOf(second->getExecutionPlan()), uids);

  // The environment's next job of the same program: new transformation ids, the same uids.
  first->execute();
  addWordLengths(*first);
  EXPECT_EQ(testing::operatorUidsOf(first->getExecutionPlan()), uids);
}

TEST(DataStreamOperatorUidTest, AUserUidIsKeptAndTheUidsDownstreamFollowIt) {
  auto derived = StreamExecutionEnvironment::getExecutionEnvironment();
  addWordLengths(*derived);
  auto withUid = StreamExecutionEnvironment::getExecutionEnvironment();
  addWordLengths(*withUid, "word-lengths");
  auto uids = testing::operatorUidsOf(derived->getExecutionPlan());
  auto userUids = testing::operatorUidsOf(withUid->getExecutionPlan());
  ASSERT_EQ(userUids.size(), 4u);
  EXPECT_EQ(userUids[0], uids[0]);  // the source, upstream of the map
  EXPECT_EQ(userUids[1], (std::pair<std::string, std::string>{"Map", "word-lengths"}));
  EXPECT_NE(userUids[2].second, uids[2].second);
  EXPECT_NE(userUids[3].second, uids[3].second);
}

TEST(DataStreamOperatorUidTest, TwoOperatorsWithOneUserUidCannotRun) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->fromElements(1, 2).uid("numbers").map([](int value) { return value; }).uid("numbers").print();
  EXPECT_THROW(env->execute(), ValidationException);
}

}  // namespace
}  // namespace eddy

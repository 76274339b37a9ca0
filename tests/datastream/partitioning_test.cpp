// Partitioning in running jobs: keyBy sends every key to exactly one subtask at any
// parallelism; rebalance spreads records evenly; broadcast copies them to every subtask;
// union merges streams.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <map>
#include <set>

namespace eddy {
namespace {

using KeyAndSubtask = std::pair<int64_t, int>;

/// Tags each record with the subtask that processed it.
class SubtaskTagger : public KeyedProcessFunction<int64_t, int64_t, KeyAndSubtask> {
 public:
  void processElement(const int64_t& value, Context&, Collector<KeyAndSubtask>& out) override {
    out.collect({value % 17, getRuntimeContext().getIndexOfThisSubtask()});
  }
};

TEST(PartitioningTest, OneKeyGoesToOneSubtaskAtAnyParallelism) {
  for (int parallelism : {1, 2, 3, 4}) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(parallelism);
    auto tagged = env->fromSequence(0, 999)
                      .keyBy([](int64_t value) { return value % 17; })
                      .process(SubtaskTagger())
                      .executeAndCollect(2000);
    ASSERT_EQ(tagged.size(), 1000u);
    std::map<int64_t, std::set<int>> subtasksOfKey;
    std::set<int> usedSubtasks;
    for (const auto& [key, subtask] : tagged) {
      subtasksOfKey[key].insert(subtask);
      usedSubtasks.insert(subtask);
    }
    EXPECT_EQ(subtasksOfKey.size(), 17u);
    for (const auto& [key, subtasks] : subtasksOfKey) {
      EXPECT_EQ(subtasks.size(), 1u) << "key " << key << " at parallelism " << parallelism;
      // The subtask is the one that owns the key's key group.
      std::string keyBytes = serializeToString(key);
      int expected = computeOperatorIndexForKeyGroup(128, parallelism,
                                                     assignToKeyGroup(keyBytes, 128));
      EXPECT_EQ(*subtasks.begin(), expected) << "key " << key;
    }
    if (parallelism > 1) {
      EXPECT_GT(usedSubtasks.size(), 1u);
    }
  }
}

class SubtaskOf : public ProcessFunction<int64_t, int> {
 public:
  void processElement(const int64_t&, Context&, Collector<int>& out) override {
    out.collect(getRuntimeContext().getIndexOfThisSubtask());
  }
};

TEST(PartitioningTest, RebalanceSpreadsEvenly) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(4);
  auto subtasks = env->fromCollection(std::vector<int64_t>(4000, 1))
                      .rebalance()
                      .process(SubtaskOf())
                      .executeAndCollect(10000);
  std::map<int, int> perSubtask;
  for (int subtask : subtasks) ++perSubtask[subtask];
  EXPECT_EQ(perSubtask, (std::map<int, int>{{0, 1000}, {1, 1000}, {2, 1000}, {3, 1000}}));
}

TEST(PartitioningTest, BroadcastCopiesToEverySubtask) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(3);
  auto subtasks = env->fromElements(int64_t{1}, int64_t{2})
                      .broadcast()
                      .process(SubtaskOf())
                      .executeAndCollect(100);
  std::map<int, int> perSubtask;
  for (int subtask : subtasks) ++perSubtask[subtask];
  EXPECT_EQ(perSubtask, (std::map<int, int>{{0, 2}, {1, 2}, {2, 2}}));
}

TEST(PartitioningTest, ShuffleDeliversEverything) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto values = env->fromSequence(1, 500).shuffle().map([](int64_t v) { return v; })
                    .executeAndCollect(1000);
  std::multiset<int64_t> result(values.begin(), values.end());
  EXPECT_EQ(result.size(), 500u);
  EXPECT_EQ(*result.begin(), 1);
  EXPECT_EQ(*result.rbegin(), 500);
  EXPECT_EQ(std::set<int64_t>(values.begin(), values.end()).size(), 500u);
}

TEST(PartitioningTest, UnionMergesStreams) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto words = env->fromElements("a", "b");
  auto more = env->fromElements("c");
  auto evenMore = env->fromCollection(std::vector<std::string>{"d", "e"});
  auto all = words.union_(more, evenMore).map([](const std::string& s) { return s + "!"; })
                 .executeAndCollect(100);
  std::multiset<std::string> result(all.begin(), all.end());
  EXPECT_EQ(result, (std::multiset<std::string>{"a!", "b!", "c!", "d!", "e!"}));
}

TEST(PartitioningTest, AStreamReadByTwoOperatorsFeedsBoth) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto numbers = env->fromSequence(1, 100);
  auto evens = std::make_shared<std::atomic<int64_t>>(0);
  auto odds = std::make_shared<std::atomic<int64_t>>(0);
  numbers.filter([](int64_t v) { return v % 2 == 0; }).addSink([evens](int64_t v) { *evens += v; });
  numbers.filter([](int64_t v) { return v % 2 == 1; }).addSink([odds](int64_t v) { *odds += v; });
  env->execute();
  EXPECT_EQ(evens->load(), 2550);
  EXPECT_EQ(odds->load(), 2500);
}

}  // namespace
}  // namespace eddy

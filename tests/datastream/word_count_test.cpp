// A word count gives the same final counts at parallelism 1, 2 and 4, in STREAMING (rolling
// updates; the last update per word is final) and in BATCH (exactly one final count per
// word).
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <map>

namespace eddy {
namespace {

using WordCount = std::pair<std::string, int64_t>;

const std::vector<std::string> kLines = {
    "the quick brown fox", "jumps over the lazy dog", "the dog barks", "a fox a dog a cat",
};

const std::map<std::string, int64_t> kExpected = {
    {"a", 3},    {"barks", 1}, {"brown", 1}, {"cat", 1},   {"dog", 3},  {"fox", 2},
    {"jumps", 1}, {"lazy", 1},  {"over", 1},  {"quick", 1}, {"the", 3},
};

std::vector<WordCount> runWordCount(int parallelism, RuntimeExecutionMode mode) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  env->setRuntimeMode(mode);
  return env->fromCollection(kLines)
      .flatMap([](const std::string& line, Collector<WordCount>& out) {
        std::string word;
        for (char c : line + " ") {
          if (c != ' ') {
            word += c;
          } else if (!word.empty()) {
            out.collect({word, 1});
            word.clear();
          }
        }
      })
      .keyBy([](const WordCount& count) { return count.first; })
      .sum(1)
      .executeAndCollect(1000);
}

class WordCountTest
    : public ::testing::TestWithParam<std::tuple<int, RuntimeExecutionMode>> {};

TEST_P(WordCountTest, FinalCountsAreTheSame) {
  auto [parallelism, mode] = GetParam();
  std::vector<WordCount> results = runWordCount(parallelism, mode);
  std::map<std::string, int64_t> finalCounts;
  std::map<std::string, int64_t> updates;
  for (const auto& [word, count] : results) {
    // Within a key, updates arrive in order: each is one more than the previous.
    EXPECT_EQ(count, mode == RuntimeExecutionMode::BATCH ? kExpected.at(word)
                                                         : finalCounts[word] + 1)
        << word;
    finalCounts[word] = count;
    ++updates[word];
  }
  EXPECT_EQ(finalCounts, kExpected);
  for (const auto& [word, count] : kExpected) {
    // STREAMING emits one update per occurrence, BATCH only the final count.
    EXPECT_EQ(updates[word], mode == RuntimeExecutionMode::BATCH ? 1 : count) << word;
  }
}

INSTANTIATE_TEST_SUITE_P(
    ParallelismAndMode, WordCountTest,
    ::testing::Combine(::testing::Values(1, 2, 4),
                       ::testing::Values(RuntimeExecutionMode::STREAMING,
                                         RuntimeExecutionMode::BATCH)),
    [](const auto& info) {
      return std::string(toString(std::get<1>(info.param))) + "_p" +
             std::to_string(std::get<0>(info.param));
    });

TEST(WordCountPrintTest, PrintsWithTheSubtaskPrefixWhenParallel) {
  for (int parallelism : {1, 2}) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(parallelism);
    env->setRuntimeMode(RuntimeExecutionMode::BATCH);
    env->fromElements("b a", "a")
        .flatMap([](const std::string& line, Collector<WordCount>& out) {
          for (char c : line) {
            if (c != ' ') out.collect({std::string(1, c), 1});
          }
        })
        .keyBy([](const WordCount& count) { return count.first; })
        .sum(1)
        .print();
    testing::internal::CaptureStdout();
    env->execute();
    std::string printed = testing::internal::GetCapturedStdout();
    if (parallelism == 1) {
      EXPECT_EQ(printed, "(a,2)\n(b,1)\n");  // BATCH, one subtask: keys in key order
    } else {
      // Each line carries the printing subtask: "1> " or "2> ".
      std::vector<std::string> lines;
      for (size_t start = 0, end; (end = printed.find('\n', start)) != std::string::npos;
           start = end + 1) {
        lines.push_back(printed.substr(start, end - start));
      }
      std::sort(lines.begin(), lines.end(), [](const std::string& x, const std::string& y) {
        return x.substr(3) < y.substr(3);
      });
      ASSERT_EQ(lines.size(), 2u) << printed;
      EXPECT_TRUE(lines[0] == "1> (a,2)" || lines[0] == "2> (a,2)") << lines[0];
      EXPECT_TRUE(lines[1] == "1> (b,1)" || lines[1] == "2> (b,1)") << lines[1];
    }
  }
}

}  // namespace
}  // namespace eddy

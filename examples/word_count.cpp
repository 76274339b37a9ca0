// The streaming word count, eddy's first main job: lines → words → (word, 1) → keyBy(word)
// → rolling sum → print. In STREAMING mode every count update is printed as it happens
// (prefixed by the printing subtask, as Flink does); with --batch each word's final count
// is printed once.
//
// Usage: word_count [--batch] [--parallelism N] [--input FILE]
#include <eddy/eddy.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

namespace {

const std::vector<std::string> kDefaultText = {
    "To be, or not to be,--that is the question:--",
    "Whether 'tis nobler in the mind to suffer",
    "The slings and arrows of outrageous fortune",
    "Or to take arms against a sea of troubles,",
    "And by opposing end them?--To die,--to sleep,--",
    "No more; and by a sleep to say we end",
    "The heartache, and the thousand natural shocks",
    "That flesh is heir to,--'tis a consummation",
    "Devoutly to be wish'd. To die,--to sleep;--",
};

std::vector<std::string> readLines(const std::string& path) {
  std::ifstream input(path);
  if (!input) throw eddy::ValidationException("Cannot open input file '" + path + "'");
  std::vector<std::string> lines;
  for (std::string line; std::getline(input, line);) lines.push_back(line);
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  using WordCount = std::pair<std::string, int64_t>;
  try {
    bool batch = false;
    int parallelism = 2;
    std::vector<std::string> lines = kDefaultText;
    for (int i = 1; i < argc; ++i) {
      std::string argument = argv[i];
      if (argument == "--batch") {
        batch = true;
      } else if (argument == "--parallelism" && i + 1 < argc) {
        parallelism = std::atoi(argv[++i]);
      } else if (argument == "--input" && i + 1 < argc) {
        lines = readLines(argv[++i]);
      } else {
        std::cerr << "usage: word_count [--batch] [--parallelism N] [--input FILE]\n";
        return 2;
      }
    }

    auto env = eddy::StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(parallelism);
    env->setRuntimeMode(batch ? eddy::RuntimeExecutionMode::BATCH
                              : eddy::RuntimeExecutionMode::STREAMING);

    env->fromCollection(lines)
        .flatMap([](const std::string& line, eddy::Collector<WordCount>& out) {
          std::string word;
          for (char c : line + " ") {
            if (std::isalpha(static_cast<unsigned char>(c)) || c == '\'') {
              word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            } else if (!word.empty()) {
              out.collect({word, 1});
              word.clear();
            }
          }
        })
        .keyBy([](const WordCount& count) { return count.first; })
        .sum(1)
        .print();

    env->execute("Streaming WordCount");
  } catch (const std::exception& error) {
    std::cerr << "word_count failed: " << error.what() << "\n";
    return 1;
  }
  return 0;
}

// The sqllogictest suite: registers one gtest case per `.test` file under tests/sql (found at
// run time, so `ctest -R sql/aggregate/sum.test` or `--gtest_filter=*sql/aggregate/sum.test`
// runs one file), and runs each file twice from the start, once per runtime mode, each in a
// fresh TableEnvironment. A failure names the file, the line of the record and the mode, and
// shows expected versus actual. docs/testing.md describes the format.
//
// Environment variables:
//   EDDY_SQL_TEST_DIR      the directory to search instead of the source tree's tests/sql.
//   EDDY_SQL_TEST_REWRITE  when set to 1, each file run is rewritten in place with the actual
//                          outcome of every query, changelog and `statement error` (taken from
//                          the batch run, or the streaming run for streaming-only records).
//                          For writing new tests only: read the diff before keeping it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sql/sql_logic_test_file.h"
#include "sql/sql_logic_test_runner.h"

#ifndef EDDY_SQL_TEST_DIR
#error "EDDY_SQL_TEST_DIR must name the directory holding the .test files"
#endif

namespace eddy::sqllogictest {
namespace {

std::string testDirectory() {
  const char* override = std::getenv("EDDY_SQL_TEST_DIR");
  return override != nullptr && *override != '\0' ? override : EDDY_SQL_TEST_DIR;
}

bool rewriteRequested() {
  const char* value = std::getenv("EDDY_SQL_TEST_REWRITE");
  return value != nullptr && std::string(value) == "1";
}

// Replaces the expected block of each record that produced an outcome. Records are visited
// from the last to the first so earlier line indices stay valid.
void rewriteFile(const SqlLogicTestFile& file, const std::vector<RecordOutcome>& batch,
                 const std::vector<RecordOutcome>& streaming) {
  std::ifstream input(file.path, std::ios::binary);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(input, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  input.close();
  for (size_t i = file.records.size(); i-- > 0;) {
    const Record& record = file.records[i];
    if (record.expectedBegin < 0) continue;
    const RecordOutcome& outcome = batch[i].available ? batch[i] : streaming[i];
    if (!outcome.available) continue;
    // A blank line would end the block: such an outcome cannot be written as a record.
    if (std::find(outcome.lines.begin(), outcome.lines.end(), std::string()) !=
        outcome.lines.end()) {
      ADD_FAILURE() << file.path << ":" << record.line
                    << ": the outcome has a blank line and cannot be recorded; assert it in C++";
      continue;
    }
    auto begin = lines.begin() + record.expectedBegin;
    lines.erase(begin, begin + record.expectedCount);
    lines.insert(lines.begin() + record.expectedBegin, outcome.lines.begin(),
                 outcome.lines.end());
  }
  std::ofstream output(file.path, std::ios::binary | std::ios::trunc);
  for (const std::string& text : lines) output << text << '\n';
}

class SqlLogicTest : public testing::Test {
 public:
  explicit SqlLogicTest(std::string path) : path_(std::move(path)) {}

  void TestBody() override {
    SqlLogicTestFile file;
    try {
      file = readSqlLogicTestFile(path_);
    } catch (const std::exception& error) {
      FAIL() << error.what();
    }
    SqlLogicTestRunner batch(RuntimeMode::kBatch);
    for (const RecordFailure& failure : batch.run(file)) {
      ADD_FAILURE_AT(path_.c_str(), failure.line) << failure.message;
    }
    SqlLogicTestRunner streaming(RuntimeMode::kStreaming);
    for (const RecordFailure& failure : streaming.run(file)) {
      ADD_FAILURE_AT(path_.c_str(), failure.line) << failure.message;
    }
    if (rewriteRequested()) rewriteFile(file, batch.outcomes(), streaming.outcomes());
  }

 private:
  std::string path_;
};

// Registers the cases before main() runs (the suite links gtest_main).
const bool kRegistered = [] {
  namespace fs = std::filesystem;
  fs::path root(testDirectory());
  std::vector<fs::path> files;
  std::error_code error;
  for (fs::recursive_directory_iterator it(root, error), end; !error && it != end;
       it.increment(error)) {
    if (it->is_regular_file() && it->path().extension() == ".test") files.push_back(it->path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    // Named after the path below tests/: `sql/aggregate/sum.test`.
    std::string name = (fs::path("sql") / fs::relative(path, root)).generic_string();
    std::string file = path.string();
    testing::RegisterTest("SqlLogicTest", name.c_str(), nullptr, nullptr, file.c_str(), 1,
                          [file]() -> testing::Test* { return new SqlLogicTest(file); });
  }
  return true;
}();

}  // namespace
}  // namespace eddy::sqllogictest

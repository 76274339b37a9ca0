// What the kafka tests share: kcat as the independent client that produces their input and
// reads eddy's output, and the rows of a query. Header-only; for the tests' executables.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "connectors/kafka/kafka_factory.h"
#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/mock_kafka_cluster.h"
#include "eddy/table/table_environment.h"

namespace eddy::connectors::testing::kafka {

/// Runs `command` with the shell; its exit status (-1 when it could not run).
inline int run(const std::string& command) {
  const int status = std::system(command.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// kcat produces each line of `lines` as one record of `topic`'s `partition`.
inline void produce(const MockKafkaCluster& cluster, const std::string& topic, int partition,
                    const std::vector<std::string>& lines) {
  TemporaryDirectory directory("eddy-kafka-test-");
  std::string text;
  for (const std::string& line : lines) text += line + "\n";
  const std::filesystem::path file = directory.write("records", text);
  ASSERT_EQ(run("kcat -P -b " + cluster.bootstrap() + " -t " + topic + " -p " +
                std::to_string(partition) + " < " + file.string()),
            0)
      << "kcat could not produce (is Debian's kcat installed? scripts/setup.sh installs it)";
}

/// kcat reads `topic` from the beginning to its end: "partition:offset value" lines, sorted.
inline std::vector<std::string> consume(const MockKafkaCluster& cluster, const std::string& topic) {
  TemporaryDirectory directory("eddy-kafka-test-");
  const std::filesystem::path file = directory.path() / "out";
  EXPECT_EQ(run("kcat -C -b " + cluster.bootstrap() + " -t " + topic +
                " -o beginning -e -q -f '%p:%o %s\\n' > " + file.string()),
            0);
  std::vector<std::string> lines;
  std::istringstream in(testing::readFile(file));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

/// kcat produces `records` (key, value; no value: a tombstone) to `topic`'s `partition`, in
/// order.
inline void produceKeyed(
    const MockKafkaCluster& cluster, const std::string& topic, int partition,
    const std::vector<std::pair<std::string, std::optional<std::string>>>& records) {
  TemporaryDirectory directory("eddy-kafka-test-");
  std::string text;
  for (const auto& [key, value] : records) text += key + "\t" + value.value_or("") + "\n";
  const std::filesystem::path file = directory.write("records", text);
  // -Z: an empty value is sent as NULL (a tombstone).
  ASSERT_EQ(run("kcat -P -Z -K '\t' -b " + cluster.bootstrap() + " -t " + topic + " -p " +
                std::to_string(partition) + " < " + file.string()),
            0)
      << "kcat could not produce (is Debian's kcat installed? scripts/setup.sh installs it)";
}

/// kcat reads partition 0 of `topic` from the beginning to its end: "key=value" lines in offset
/// order, NULL for a missing key or value.
inline std::vector<std::string> consumeKeyed(const MockKafkaCluster& cluster,
                                             const std::string& topic) {
  TemporaryDirectory directory("eddy-kafka-test-");
  const std::filesystem::path file = directory.path() / "out";
  EXPECT_EQ(run("kcat -C -Z -b " + cluster.bootstrap() + " -t " + topic +
                " -p 0 -o beginning -e -q -f '%k=%s\\n' > " + file.string()),
            0);
  std::vector<std::string> lines;
  std::istringstream in(testing::readFile(file));
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The rows of a query, each as Row::toString, sorted.
inline std::vector<std::string> sortedRows(TableResult result) {
  std::vector<std::string> rows;
  for (const Row& row : result.collectAll()) rows.push_back(row.toString());
  std::sort(rows.begin(), rows.end());
  return rows;
}

/// kcat's lines of `topic` once it holds `count` records (at most 60 s), values only, sorted.
inline std::vector<std::string> awaitRecords(const MockKafkaCluster& cluster,
                                             const std::string& topic, size_t count) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<std::string> lines;
  while (std::chrono::steady_clock::now() < deadline) {
    lines = consume(cluster, topic);
    if (lines.size() >= count) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::vector<std::string> values;
  for (const std::string& line : lines) values.push_back(line.substr(line.find(' ') + 1));
  std::sort(values.begin(), values.end());
  return values;
}

/// The message of the ValidationException that validating `context`'s table with `factory`
/// and creating its source (or its sink) throws; "" when none.
inline std::string validationMessageOf(const KafkaTableFactory& factory,
                                       const ConnectorContext& context, bool source) {
  return testing::validationMessage([&] {
    factory.validateOptions(context);
    if (source) {
      factory.createDynamicTableSource(context);
    } else {
      factory.createDynamicTableSink(context);
    }
  });
}

/// `base` with `changes` applied: each changed option set, or removed where its value is "".
inline std::map<std::string, std::string> withChanges(
    std::map<std::string, std::string> base, const std::map<std::string, std::string>& changes) {
  for (const auto& [key, value] : changes) {
    if (value.empty()) {
      base.erase(key);
    } else {
      base[key] = value;
    }
  }
  return base;
}

}  // namespace eddy::connectors::testing::kafka

// MockKafkaCluster: an eddy_kafka_mock_cluster process (kafka_mock_cluster.cpp: librdkafka's
// mock cluster on loopback ports) for the kafka tests and the kafka benchmark, started by the
// constructor and stopped by the destructor (its standard input closes, then SIGTERM).
// Header-only; POSIX.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

extern char** environ;

namespace eddy::connectors::testing {

/// An eddy_kafka_mock_cluster process serving `topics` ("name:partitions"), stopped with the
/// object. bootstrap() is empty when it could not be started (the test then fails).
class MockKafkaCluster {
 public:
  /// `program`: the path of eddy_kafka_mock_cluster.
  MockKafkaCluster(const std::string& program, const std::vector<std::string>& topics) {
    int input[2];
    int output[2];
    if (pipe2(input, O_CLOEXEC) != 0) return;
    if (pipe2(output, O_CLOEXEC) != 0) {
      close(input[0]);
      close(input[1]);
      return;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, output[1], STDOUT_FILENO);
    std::vector<std::string> arguments = {program};
    arguments.insert(arguments.end(), topics.begin(), topics.end());
    std::vector<char*> argv;
    for (std::string& argument : arguments) argv.push_back(argument.data());
    argv.push_back(nullptr);
    const int spawned = posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    close(output[1]);
    input_ = input[1];
    if (spawned != 0) {
      pid_ = -1;
      close(output[0]);
      return;
    }
    // The bootstrap line, within 30 s (a cluster that never answers fails the test, no hang).
    pollfd ready{output[0], POLLIN, 0};
    FILE* lines = poll(&ready, 1, 30'000) == 1 ? fdopen(output[0], "r") : nullptr;
    if (lines == nullptr) close(output[0]);
    char line[1024];
    if (lines != nullptr && std::fgets(line, sizeof line, lines) != nullptr) {
      bootstrap_ = line;
      while (!bootstrap_.empty() && (bootstrap_.back() == '\n' || bootstrap_.back() == '\r')) {
        bootstrap_.pop_back();
      }
    }
    if (lines != nullptr) std::fclose(lines);
  }
  ~MockKafkaCluster() {
    if (input_ >= 0) close(input_);
    if (pid_ > 0) {
      kill(pid_, SIGTERM);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
  }
  MockKafkaCluster(const MockKafkaCluster&) = delete;
  MockKafkaCluster& operator=(const MockKafkaCluster&) = delete;

  const std::string& bootstrap() const { return bootstrap_; }
  /// Asks the cluster to create topic `name` with `partitions` partitions (it exists a moment
  /// later).
  void createTopic(const std::string& name, int partitions) const {
    command("create " + name + ":" + std::to_string(partitions));
  }
  /// Makes every broker go away (close its connections, refuse new ones) or come back.
  void setBrokersDown(bool down) const { command(down ? "down -1" : "up -1"); }

 private:
  void command(const std::string& text) const {
    const std::string line = text + "\n";
    if (write(input_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
      std::fprintf(stderr, "cannot ask the mock Kafka cluster to '%s'\n", text.c_str());
    }
  }

  pid_t pid_ = -1;
  int input_ = -1;
  std::string bootstrap_;
};

}  // namespace eddy::connectors::testing

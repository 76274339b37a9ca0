// eddy_kafka_mock_cluster: a Kafka protocol peer for the tests. librdkafka's mock cluster
// (rdkafka_mock.h) serves produce, fetch, metadata, offsets, consumer groups and transactions on
// loopback TCP ports, like a broker; eddy and kcat connect to it as to any Kafka cluster.
//
// Usage: eddy_kafka_mock_cluster [--brokers N] TOPIC:PARTITIONS...
// Prints the bootstrap servers ("127.0.0.1:port,...") on one line, then serves until its
// standard input closes (the test that started it ended or died) or it gets SIGTERM/SIGINT.
// Lines on its standard input change the cluster while it runs: "create TOPIC:PARTITIONS"
// creates another topic, "down BROKER" makes broker BROKER (1..N, -1: all) close its
// connections and refuse new ones, as a broker that went away, "up BROKER" brings it back.
// Exit status 0, or 1 with a message when the cluster cannot be created.
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

volatile sig_atomic_t stopped = 0;

void onSignal(int) { stopped = 1; }

/// Creates the topic of `spec` ("NAME:PARTITIONS"); false, with a message, when it cannot.
bool createTopic(rd_kafka_mock_cluster_t* cluster, const std::string& spec) {
  std::string topic = spec;
  const size_t colon = topic.rfind(':');
  const int partitions = colon == std::string::npos ? 1 : std::atoi(topic.c_str() + colon + 1);
  if (colon != std::string::npos) topic.resize(colon);
  if (partitions < 1 || topic.empty()) {
    std::fprintf(stderr, "eddy_kafka_mock_cluster: bad topic '%s' (expected NAME:PARTITIONS)\n",
                 spec.c_str());
    return false;
  }
  const rd_kafka_resp_err_t result =
      rd_kafka_mock_topic_create(cluster, topic.c_str(), partitions, 1);
  if (result != RD_KAFKA_RESP_ERR_NO_ERROR) {
    std::fprintf(stderr, "eddy_kafka_mock_cluster: cannot create topic '%s': %s\n", topic.c_str(),
                 rd_kafka_err2str(result));
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int brokers = 1;
  int first = 1;
  if (argc > 2 && std::strcmp(argv[1], "--brokers") == 0) {
    brokers = std::atoi(argv[2]);
    first = 3;
  }
  if (brokers < 1) {
    std::fprintf(stderr, "eddy_kafka_mock_cluster: --brokers must be at least 1\n");
    return 1;
  }
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof error);
  rd_kafka_t* handle = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (handle == nullptr) {
    std::fprintf(stderr, "eddy_kafka_mock_cluster: %s\n", error);
    return 1;
  }
  rd_kafka_mock_cluster_t* cluster = rd_kafka_mock_cluster_new(handle, brokers);
  if (cluster == nullptr) {
    std::fprintf(stderr, "eddy_kafka_mock_cluster: cannot create the mock cluster\n");
    return 1;
  }
  for (int i = first; i < argc; ++i) {
    if (!createTopic(cluster, argv[i])) return 1;
  }
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigaction(SIGTERM, &action, nullptr);
  sigaction(SIGINT, &action, nullptr);
  std::printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  std::fflush(stdout);
  char buffer[256];
  std::string pending;  // input not ended by a newline yet
  while (!stopped) {
    pollfd input{STDIN_FILENO, POLLIN, 0};
    if (poll(&input, 1, 200) > 0) {
      const ssize_t n = read(STDIN_FILENO, buffer, sizeof buffer);
      if (n <= 0) break;  // the test closed our input or died
      pending.append(buffer, static_cast<size_t>(n));
      for (size_t end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
        const std::string line = pending.substr(0, end);
        pending.erase(0, end + 1);
        if (line.rfind("create ", 0) == 0) {
          createTopic(cluster, line.substr(7));
        } else if (line.rfind("down ", 0) == 0) {
          rd_kafka_mock_broker_set_down(cluster, std::atoi(line.c_str() + 5));
        } else if (line.rfind("up ", 0) == 0) {
          rd_kafka_mock_broker_set_up(cluster, std::atoi(line.c_str() + 3));
        } else {
          std::fprintf(stderr, "eddy_kafka_mock_cluster: unknown command '%s'\n", line.c_str());
        }
      }
    }
  }
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(handle);
  return 0;
}

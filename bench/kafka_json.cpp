// Kafka throughput (issue 25 §4): records/s and records per CPU-second of eddy reading JSON
// records from Kafka into a blackhole sink, and writing them to Kafka, beside the same pipeline
// over the same JSON lines in a file, in the same run (the machine is shared and noisy, so the
// ratio is what to compare). The broker is librdkafka's mock cluster (eddy_kafka_mock_cluster,
// its own process, so its CPU is not counted) on loopback; the records are produced with
// librdkafka before the measurements.
//
//   read:  INSERT INTO sink SELECT * FROM kafka_events   (BATCH: earliest to latest offset)
//          INSERT INTO sink SELECT * FROM file_events    (the same lines in one file)
//   write: INSERT INTO `kafka_out-<run>` SELECT * FROM file_events
//          INSERT INTO file_out SELECT * FROM file_events
//
// A record: {"id":17,"user_id":"u17","product_id":"p7","amount":12.34,"ts":"2026-01-01 00:00:17"}
//
// Usage: kafka_json [--records N] [--partitions P] [--parallelism P] [--repeat R]
//   --records N      records (default 1,000,000)
//   --partitions P   partitions of the topics (default 32; the mock cluster keeps about 4.7 MB
//                    per partition and drops older records, so keep records / P x 90 bytes
//                    well below that)
//   --parallelism P  the jobs' parallelism (default 1)
//   --repeat R       runs of each measurement; the fastest is kept (default 3)
// Exit status 1 when a job fails or reads a wrong number of records.
#include <librdkafka/rdkafka.h>

#include <eddy/eddy.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "connectors/tests/mock_kafka_cluster.h"
#include "timing.h"

namespace {

struct Options {
  int64_t records = 1'000'000;
  int partitions = 32;
  int parallelism = 1;
  int repeat = 3;
};

std::string record(int64_t id) {
  char text[160];
  std::snprintf(text, sizeof text,
                R"({"id":%lld,"user_id":"u%lld","product_id":"p%lld","amount":%lld.%02lld,"ts":"2026-01-01 00:%02lld:%02lld"})",
                static_cast<long long>(id), static_cast<long long>(id % 1000),
                static_cast<long long>(id % 97), static_cast<long long>(id % 500),
                static_cast<long long>(id % 100), static_cast<long long>((id / 60) % 60),
                static_cast<long long>(id % 60));
  return text;
}

/// Produces `records` records to `topic`, record i to partition i mod `partitions`; false on a
/// failure.
bool produce(const std::string& bootstrap, const std::string& topic, int64_t records,
             int partitions) {
  char error[512];
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.c_str(), error, sizeof error);
  rd_kafka_conf_set(conf, "linger.ms", "20", error, sizeof error);
  rd_kafka_t* producer = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (producer == nullptr) {
    std::fprintf(stderr, "kafka_json: %s\n", error);
    return false;
  }
  rd_kafka_topic_t* handle = rd_kafka_topic_new(producer, topic.c_str(), nullptr);
  for (int64_t id = 0; id < records; ++id) {
    const std::string value = record(id);
    while (rd_kafka_produce(handle, static_cast<int32_t>(id % partitions), RD_KAFKA_MSG_F_COPY,
                            const_cast<char*>(value.data()), value.size(), nullptr, 0,
                            nullptr) != 0) {
      rd_kafka_poll(producer, 10);  // the queue is full: let deliveries drain it
    }
    rd_kafka_poll(producer, 0);
  }
  const bool flushed = rd_kafka_flush(producer, 120'000) == RD_KAFKA_RESP_ERR_NO_ERROR;
  rd_kafka_topic_destroy(handle);
  rd_kafka_destroy(producer);
  return flushed;
}

const char* const kColumns =
    "(id BIGINT, user_id STRING, product_id STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3))";

struct Run {
  eddy::bench::Measurement measurement;
  bool ok;
};

/// Runs `insert` in a fresh BATCH environment after `ddl`; ok when it succeeded.
Run runInsert(const std::vector<std::string>& ddl, const std::string& insert, int parallelism) {
  auto tableEnv = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inBatchMode());
  tableEnv->getConfig().set("parallelism.default", std::to_string(parallelism));
  for (const std::string& statement : ddl) tableEnv->executeSql(statement);
  bool ok = true;
  eddy::bench::Measurement measurement = eddy::bench::measure([&] {
    try {
      tableEnv->executeSql(insert).await();
    } catch (const std::exception& failure) {
      std::fprintf(stderr, "kafka_json: %s failed: %s\n", insert.c_str(), failure.what());
      ok = false;
    }
  });
  return Run{measurement, ok};
}

/// Counts the rows of `table` after `ddl` (BATCH).
int64_t countRows(const std::vector<std::string>& ddl, const std::string& table) {
  auto tableEnv = eddy::TableEnvironment::create(eddy::EnvironmentSettings::inBatchMode());
  for (const std::string& statement : ddl) tableEnv->executeSql(statement);
  return tableEnv->executeSql("SELECT COUNT(*) FROM " + table).collectAll().at(0).getFieldAs<int64_t>(0);
}

void report(const char* what, int64_t records, const Run& kafka, const Run& file) {
  auto line = [records](const char* name, const eddy::bench::Measurement& m) {
    std::printf("  %-6s %9.0f K records/s  %9.0f K records/CPU-s  (%.2f s, %.2f CPU-s)\n", name,
                static_cast<double>(records) / m.seconds / 1e3,
                static_cast<double>(records) / m.cpuSeconds / 1e3, m.seconds, m.cpuSeconds);
  };
  std::printf("%s\n", what);
  line("kafka", kafka.measurement);
  line("file", file.measurement);
  std::printf("  kafka / file: %.2f of the records/s, %.2f of the records/CPU-s\n",
              file.measurement.seconds / kafka.measurement.seconds,
              file.measurement.cpuSeconds / kafka.measurement.cpuSeconds);
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const long long value = std::atoll(argv[i + 1]);
    if (flag == "--records") {
      options.records = value;
    } else if (flag == "--partitions") {
      options.partitions = static_cast<int>(value);
    } else if (flag == "--parallelism") {
      options.parallelism = static_cast<int>(value);
    } else if (flag == "--repeat") {
      options.repeat = static_cast<int>(value);
    } else {
      std::fprintf(stderr, "kafka_json: unknown option %s\n", flag.c_str());
      return 2;
    }
  }
  if (options.records < 1 || options.partitions < 1 || options.parallelism < 1 || options.repeat < 1) {
    std::fprintf(stderr, "kafka_json: every option must be at least 1\n");
    return 2;
  }
  const std::string partitions = std::to_string(options.partitions);
  // Each write run gets a topic of its own (out-<run>): the mock cluster's partitions are small.
  std::vector<std::string> topics = {"events:" + partitions};
  for (int r = 0; r < options.repeat; ++r) topics.push_back("out-" + std::to_string(r) + ":" + partitions);
  eddy::connectors::testing::MockKafkaCluster cluster(EDDY_KAFKA_MOCK_CLUSTER, topics);
  if (cluster.bootstrap().empty()) {
    std::fprintf(stderr, "kafka_json: the mock Kafka cluster did not start\n");
    return 1;
  }
  const std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("eddy-kafka-json-" + std::to_string(getpid()));
  std::filesystem::create_directories(directory / "in");
  {
    std::ofstream lines(directory / "in" / "events.json");
    for (int64_t id = 0; id < options.records; ++id) lines << record(id) << '\n';
  }
  if (!produce(cluster.bootstrap(), "events", options.records, options.partitions)) return 1;

  const std::string kafka = "'connector' = 'kafka', 'properties.bootstrap.servers' = '" +
                            cluster.bootstrap() + "', 'format' = 'json'";
  const std::vector<std::string> ddl = {
      std::string("CREATE TABLE kafka_events ") + kColumns + " WITH (" + kafka +
          ", 'topic' = 'events', 'scan.startup.mode' = 'earliest-offset', "
          "'scan.bounded.mode' = 'latest-offset')",
      std::string("CREATE TABLE file_events ") + kColumns +
          " WITH ('connector' = 'filesystem', 'path' = '" + (directory / "in").string() +
          "', 'format' = 'json')",
      std::string("CREATE TABLE sink ") + kColumns + " WITH ('connector' = 'blackhole')",
      std::string("CREATE TABLE file_out ") + kColumns +
          " WITH ('connector' = 'filesystem', 'path' = '" + (directory / "out").string() +
          "', 'format' = 'json')"};
  std::vector<std::string> writeDdl = ddl;
  for (int r = 0; r < options.repeat; ++r) {
    const std::string topic = "out-" + std::to_string(r);
    // Without stickiness the default partitioner spreads the records evenly.
    writeDdl.push_back("CREATE TABLE `kafka_" + topic + "` " + kColumns + " WITH (" + kafka +
                       ", 'topic' = '" + topic + "', 'properties.sticky.partitioning.linger.ms' = '0')");
    writeDdl.push_back("CREATE TABLE `written_" + topic + "` " + kColumns + " WITH (" + kafka +
                       ", 'topic' = '" + topic + "', 'scan.startup.mode' = 'earliest-offset', "
                       "'scan.bounded.mode' = 'latest-offset')");
  }
  const int64_t read = countRows(ddl, "kafka_events");
  bool ok = read == options.records;
  if (!ok) {
    std::fprintf(stderr, "kafka_json: the source read %lld records of the topic's %lld\n",
                 static_cast<long long>(read), static_cast<long long>(options.records));
  }

  // `insert` may name the run's own table with {run}.
  auto fastest = [&](const std::string& insert, bool cleanOut) {
    Run best{{1e300, 0}, true};
    for (int r = 0; r < options.repeat; ++r) {
      if (cleanOut) std::filesystem::remove_all(directory / "out");
      std::string statement = insert;
      if (size_t at = statement.find("{run}"); at != std::string::npos) {
        statement.replace(at, 5, std::to_string(r));
      }
      Run run = runInsert(writeDdl, statement, options.parallelism);
      ok = ok && run.ok;
      if (run.measurement.seconds < best.measurement.seconds) best = run;
    }
    return best;
  };
  std::printf("kafka_json: %lld records, %d partitions, parallelism %d, fastest of %d\n",
              static_cast<long long>(options.records), options.partitions, options.parallelism,
              options.repeat);
  Run readKafka = fastest("INSERT INTO sink SELECT * FROM kafka_events", false);
  Run readFile = fastest("INSERT INTO sink SELECT * FROM file_events", false);
  report("read JSON into blackhole", options.records, readKafka, readFile);
  Run writeKafka = fastest("INSERT INTO `kafka_out-{run}` SELECT * FROM file_events", false);
  Run writeFile = fastest("INSERT INTO file_out SELECT * FROM file_events", true);
  report("write JSON from a file", options.records, writeKafka, writeFile);
  for (int r = 0; r < options.repeat; ++r) {
    const int64_t written = countRows(writeDdl, "`written_out-" + std::to_string(r) + "`");
    if (written != options.records) {
      std::fprintf(stderr, "kafka_json: the source read %lld records of written topic out-%d's %lld\n",
                   static_cast<long long>(written), r, static_cast<long long>(options.records));
      ok = false;
    }
  }
  std::filesystem::remove_all(directory);
  return ok ? 0 : 1;
}

// DataStream jobs into a FileSink (stream.sinkTo(FileSink...), eddy/connector/file_sink.h), run
// end to end: in STREAMING with checkpoints (the final checkpoint after the end of input commits
// what came after the last one), in STREAMING without them and in BATCH (the end of input
// commits), every record is in exactly one visible part file and no hidden file is left; a
// keyed, timer-driven job writes the same lines in both runtime modes.
#include <eddy/eddy.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace eddy {
namespace {

namespace fs = std::filesystem;

struct Run {
  RuntimeExecutionMode mode;
  bool checkpointing;
};

std::string nameOf(const Run& run) {
  return std::string(toString(run.mode)) + (run.checkpointing ? "_checkpointed" : "");
}

class FileSinkJobTest : public ::testing::TestWithParam<Run> {
 protected:
  void SetUp() override {
    std::random_device device;
    out_ = fs::temp_directory_path() /
           ("eddy-file-sink-job-test-" + std::to_string(device()) + std::to_string(device()));
  }
  void TearDown() override { fs::remove_all(out_); }

  std::unique_ptr<StreamExecutionEnvironment> environment() const {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(3);
    env->setRuntimeMode(GetParam().mode);
    if (GetParam().checkpointing) env->enableCheckpointing(10);
    return env;
  }

  /// The lines of the visible files, sorted; counts the hidden files into `hidden`.
  std::vector<std::string> committedLines(size_t* hidden) const {
    std::vector<std::string> lines;
    *hidden = 0;
    for (const auto& entry : fs::directory_iterator(out_)) {
      if (entry.path().filename().string().starts_with('.')) {
        ++*hidden;
        continue;
      }
      std::ifstream in(entry.path());
      for (std::string line; std::getline(in, line);) lines.push_back(line);
    }
    std::sort(lines.begin(), lines.end());
    return lines;
  }

  fs::path out_;
};

TEST_P(FileSinkJobTest, EveryRecordIsCommittedOnce) {
  auto env = environment();
  env->fromSequence(1, 20000)
      .map([](int64_t value) { return std::to_string(value); })
      .sinkTo(FileSink<std::string>::forRowFormat(out_, SimpleStringEncoder<std::string>()).build())
      .name("files");
  env->execute("numbers into files");

  std::vector<std::string> expected;
  for (int64_t value = 1; value <= 20000; ++value) expected.push_back(std::to_string(value));
  std::sort(expected.begin(), expected.end());
  size_t hidden = 0;
  EXPECT_EQ(committedLines(&hidden), expected);
  EXPECT_EQ(hidden, 0u);
}

using Reading = std::pair<std::string, int64_t>;  // (sensor, event time)

/// Counts a sensor's readings per 10 ms of event time; emits "sensor@end=count" when the
/// watermark passes the end (in BATCH: at the end of the key).
class CountPerBucket : public KeyedProcessFunction<std::string, Reading, std::string> {
 public:
  void open(const OpenContext&) override {
    counts_ = getRuntimeContext().getMapState(MapStateDescriptor<int64_t, int64_t>("counts"));
  }
  void processElement(const Reading& reading, Context& context, Collector<std::string>&) override {
    const int64_t end = reading.second / 10 * 10 + 10;
    std::optional<int64_t> count = counts_->get(end);
    if (!count) context.timerService().registerEventTimeTimer(end - 1);
    counts_->put(end, count.value_or(0) + 1);
  }
  void onTimer(int64_t timestamp, OnTimerContext& context, Collector<std::string>& out) override {
    const int64_t end = timestamp + 1;
    out.collect(context.getCurrentKey() + "@" + std::to_string(end) + "=" +
                std::to_string(counts_->get(end).value_or(-1)));
    counts_->remove(end);
  }

 private:
  MapState<int64_t, int64_t>* counts_ = nullptr;
};

TEST_P(FileSinkJobTest, AKeyedTimerJobWritesTheSameLinesInEveryMode) {
  std::vector<Reading> readings;
  for (int64_t i = 0; i < 3000; ++i) readings.push_back(Reading{"s" + std::to_string(i % 5), i});
  auto env = environment();
  env->fromCollection(readings)
      .assignTimestampsAndWatermarks(
          WatermarkStrategy<Reading>::forMonotonousTimestamps().withTimestampAssigner(
              [](const Reading& reading, int64_t) { return reading.second; }))
      .keyBy([](const Reading& reading) { return reading.first; })
      .process(CountPerBucket())
      .sinkTo(
          FileSink<std::string>::forRowFormat(out_, SimpleStringEncoder<std::string>()).build());
  env->execute("counts into files");

  std::vector<std::string> expected;
  for (int64_t end = 10; end <= 3000; end += 10) {
    for (int sensor = 0; sensor < 5; ++sensor) {
      expected.push_back("s" + std::to_string(sensor) + "@" + std::to_string(end) + "=2");
    }
  }
  std::sort(expected.begin(), expected.end());
  size_t hidden = 0;
  EXPECT_EQ(committedLines(&hidden), expected);
  EXPECT_EQ(hidden, 0u);
}

INSTANTIATE_TEST_SUITE_P(Modes, FileSinkJobTest,
                         ::testing::Values(Run{RuntimeExecutionMode::STREAMING, true},
                                           Run{RuntimeExecutionMode::STREAMING, false},
                                           Run{RuntimeExecutionMode::BATCH, false}),
                         [](const auto& info) { return nameOf(info.param); });

}  // namespace
}  // namespace eddy

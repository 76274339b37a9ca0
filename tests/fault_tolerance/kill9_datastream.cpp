// The DataStream job of the kill -9 test (tests/fault_tolerance/kill9.sh --job datastream,
// docs/testing.md "Exactly-once under kill -9"): a program the harness runs as a process, kills
// with SIGKILL, and starts again from the newest complete checkpoint; its committed output must
// equal that of the same program run in BATCH mode.
//
//   paced sequence 0 .. rows-1 (a replayable source on the connector SPI, event time seq * 10 ms)
//     -> keyBy((seq % 7, bucket of 1 s of event time))
//     -> BucketSums: a KeyedProcessFunction with ValueState<int64_t> (the running sum, count,
//        lowest and highest seq of the key's bucket) and an event-time timer at the bucket's
//        end that emits "k=..,bucket=..,n=..,sum=..,lo=..,hi=.." when the watermark passes it
//     -> FileSink (exactly-once: part files committed when their checkpoint completes)
//
// Every line depends only on the sequence, so every run has the same lines: nothing is late
// (each source subtask emits increasing timestamps, and the watermark at the keyed operator is
// the lowest of theirs minus 1 s); a record that is late anyway is reported on stderr as
// "dropped as late" and dropped, and the comparison then fails.
//
// The source paces itself: each reader emits rows-per-second / parallelism rows per second
// from when it starts (also after a restore: no catch-up burst), at most 100 ms worth at once
// after a stall. Its splits are NumberSequenceSource's (their positions are in every
// checkpoint), so a restore continues where the checkpoint was, also at another parallelism.
//
// Usage (each option also read from the environment as KILL9_<NAME>, e.g. KILL9_ROWS):
//   kill9_datastream --out DIR [--mode streaming|batch] [--parallelism N] [--rows N]
//                    [--rows-per-second N] [--checkpoint-dir DIR] [--checkpoint-interval D]
//                    [--restore PATH]
// STREAMING checkpoints every D (default 200ms) into --checkpoint-dir, retained on
// cancellation, exactly-once, without restarts (a failure ends the process). The last line of
// a run that ends is "kill9_datastream: FINISHED ..." (exit 0); a failure prints
// "kill9_datastream: FAILED: <message>" (exit 1); a bad command line exits 2.
#include <eddy/eddy.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace eddy;

constexpr int64_t kEventMillisPerRow = 10;
constexpr int64_t kBucketMillis = 1000;
constexpr int kKeys = 7;

// ---- The paced, replayable source -----------------------------------------------------------

using SequenceEnumeratorState = std::vector<NumberSequenceSplit>;

/// Reads NumberSequenceSplits at a fixed rate from when it starts.
class PacedSequenceReader final : public connector::SourceReader<int64_t, NumberSequenceSplit> {
 public:
  PacedSequenceReader(connector::SourceReaderContext& context, double rowsPerSecond)
      : context_(context),
        rowsPerSecond_(std::max(rowsPerSecond, 1.0)),
        maxBurst_(std::max<int64_t>(1, static_cast<int64_t>(rowsPerSecond_ / 10))) {}

  void start() override { started_ = std::chrono::steady_clock::now(); }

  InputStatus pollNext(ReaderOutput<int64_t>& output) override {
    if (splits_.empty()) {
      return noMoreSplits_ ? InputStatus::END_OF_INPUT : InputStatus::NOTHING_AVAILABLE;
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - started_;
    int64_t due = static_cast<int64_t>(elapsed.count() * rowsPerSecond_) - paced_;
    if (due > maxBurst_) {
      paced_ += due - maxBurst_;  // behind after a stall: go on at the rate, no burst
      due = maxBurst_;
    }
    if (due <= 0) {
      context_.requestWakeUpAt(
          started_ +
          std::chrono::duration_cast<std::chrono::nanoseconds>(
              std::chrono::duration<double>(static_cast<double>(paced_ + 1) / rowsPerSecond_)));
      return InputStatus::NOTHING_AVAILABLE;
    }
    due = std::min<int64_t>(due, static_cast<int64_t>(runtime::kDefaultBatchSize));
    paced_ += due;
    while (due > 0 && !splits_.empty()) {
      NumberSequenceSplit& split = splits_.front();
      const int64_t count = std::min(due, split.last - split.next + 1);
      for (int64_t i = 0; i < count; ++i) output.collect(split.next + i);
      due -= count;
      if (split.next + count > split.last) {
        splits_.pop_front();
      } else {
        split.next += count;
      }
    }
    if (splits_.empty() && noMoreSplits_) return InputStatus::END_OF_INPUT;
    return InputStatus::MORE_AVAILABLE;
  }

  // Kept in sequence order, so that the reader's timestamps only increase also when a restore
  // gives it splits of several old readers and the enumerator more (they all arrive before the
  // first poll): no record of this reader is ever behind its own watermark.
  void addSplits(std::vector<NumberSequenceSplit> splits) override {
    for (NumberSequenceSplit& split : splits) splits_.push_back(std::move(split));
    std::stable_sort(
        splits_.begin(), splits_.end(),
        [](const NumberSequenceSplit& a, const NumberSequenceSplit& b) { return a.next < b.next; });
  }
  void notifyNoMoreSplits() override { noMoreSplits_ = true; }
  std::vector<NumberSequenceSplit> snapshotState(int64_t /*checkpointId*/) override {
    return std::vector<NumberSequenceSplit>(splits_.begin(), splits_.end());
  }
  bool signalsAvailability() const override { return true; }

 private:
  connector::SourceReaderContext& context_;
  const double rowsPerSecond_;
  const int64_t maxBurst_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  int64_t paced_ = 0;  // rows the pacing has let through
  std::deque<NumberSequenceSplit> splits_;
  bool noMoreSplits_ = false;
};

/// The numbers 0 .. rows-1 at `rowsPerSecond` over all readers; planned, split and serialized
/// as NumberSequenceSource.
class PacedSequenceSource final
    : public connector::Source<int64_t, NumberSequenceSplit, SequenceEnumeratorState> {
 public:
  PacedSequenceSource(int64_t rows, double rowsPerSecond)
      : sequence_(0, rows - 1), rowsPerSecond_(rowsPerSecond) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }

  std::unique_ptr<connector::SourceReader<int64_t, NumberSequenceSplit>> createReader(
      connector::SourceReaderContext& context) const override {
    return std::make_unique<PacedSequenceReader>(
        context, rowsPerSecond_ / std::max(1, context.currentParallelism()));
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, SequenceEnumeratorState>>
  createEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context) const override {
    return std::make_unique<NumberSequenceSource::Enumerator>(
        context, sequence_.planSplits(context.currentParallelism()));
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, SequenceEnumeratorState>>
  restoreEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context,
                    SequenceEnumeratorState checkpoint) const override {
    return NumberSequenceSource::Enumerator::restore(context, std::move(checkpoint));
  }
  const connector::SimpleVersionedSerializer<NumberSequenceSplit>& getSplitSerializer()
      const override {
    return sequence_.getSplitSerializer();
  }
  const connector::SimpleVersionedSerializer<SequenceEnumeratorState>&
  getEnumeratorCheckpointSerializer() const override {
    return sequence_.getEnumeratorCheckpointSerializer();
  }

 private:
  NumberSequenceSource sequence_;
  double rowsPerSecond_;
};

// ---- The keyed function ---------------------------------------------------------------------

using BucketKey = std::pair<int32_t, int64_t>;  // (seq % 7, bucket)

class BucketSums : public KeyedProcessFunction<BucketKey, int64_t, std::string> {
 public:
  void open(const OpenContext&) override {
    sum_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("sum"));
    count_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("count"));
    low_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("low"));
    high_ = getRuntimeContext().getState(ValueStateDescriptor<int64_t>("high"));
  }

  void processElement(const int64_t& seq, Context& context, Collector<std::string>&) override {
    const int64_t timestamp = *context.timestamp();
    const int64_t watermark = context.timerService().currentWatermark();
    if (timestamp <= watermark) {
      std::fprintf(stderr, "kill9_datastream: record %lld dropped as late (watermark %lld)\n",
                   static_cast<long long>(seq), static_cast<long long>(watermark));
      return;
    }
    const std::optional<int64_t> count = count_->value();
    if (!count) {
      const BucketKey& key = context.getCurrentKey();
      context.timerService().registerEventTimeTimer((key.second + 1) * kBucketMillis - 1);
    }
    count_->update(count.value_or(0) + 1);
    sum_->update(sum_->value().value_or(0) + seq);
    low_->update(std::min(low_->value().value_or(seq), seq));
    high_->update(std::max(high_->value().value_or(seq), seq));
  }

  void onTimer(int64_t, OnTimerContext& context, Collector<std::string>& out) override {
    const BucketKey& key = context.getCurrentKey();
    out.collect("k=" + std::to_string(key.first) + ",bucket=" + std::to_string(key.second) +
                ",n=" + std::to_string(count_->value().value_or(0)) +
                ",sum=" + std::to_string(sum_->value().value_or(0)) +
                ",lo=" + std::to_string(low_->value().value_or(-1)) +
                ",hi=" + std::to_string(high_->value().value_or(-1)));
    sum_->clear();
    count_->clear();
    low_->clear();
    high_->clear();
  }

 private:
  ValueState<int64_t>* sum_ = nullptr;
  ValueState<int64_t>* count_ = nullptr;
  ValueState<int64_t>* low_ = nullptr;
  ValueState<int64_t>* high_ = nullptr;
};

// ---- The command line -----------------------------------------------------------------------

struct Options {
  std::string mode = "streaming";
  int parallelism = 2;
  int64_t rows = 24000;
  double rowsPerSecond = 1000;
  std::string out;
  std::string checkpointDir;
  std::string checkpointInterval = "200ms";
  std::string restore;
};

[[noreturn]] void badUsage(const std::string& message) {
  std::fprintf(stderr,
               "kill9_datastream: %s\nUsage: kill9_datastream --out DIR [--mode streaming|batch] "
               "[--parallelism N] [--rows N] [--rows-per-second N] [--checkpoint-dir DIR] "
               "[--checkpoint-interval D] [--restore PATH]\n",
               message.c_str());
  std::exit(2);
}

int64_t positiveNumber(const std::string& name, const std::string& text) {
  size_t end = 0;
  int64_t value = 0;
  try {
    value = std::stoll(text, &end);
  } catch (const std::exception&) {
    end = 0;
  }
  if (end == 0 || end != text.size() || value < 1) {
    badUsage("--" + name + " expects a positive integer, got '" + text + "'");
  }
  return value;
}

constexpr std::array<const char*, 8> kOptionNames = {
    "mode",           "parallelism",         "rows",   "rows-per-second", "out",
    "checkpoint-dir", "checkpoint-interval", "restore"};

Options parseOptions(int argc, char** argv) {
  // The environment first (KILL9_ROWS_PER_SECOND for --rows-per-second), the command line over it.
  std::map<std::string, std::string> given;
  for (const char* name : kOptionNames) {
    std::string variable = "KILL9_" + std::string(name);
    for (char& c : variable) {
      c = c == '-' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    if (const char* value = std::getenv(variable.c_str()); value != nullptr && *value != '\0') {
      given[name] = value;
    }
  }
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    const std::string name = option.starts_with("--") ? option.substr(2) : std::string();
    if (std::find(kOptionNames.begin(), kOptionNames.end(), name) == kOptionNames.end()) {
      badUsage("unknown option '" + option + "'");
    }
    if (i + 1 >= argc) badUsage(option + " needs a value");
    given[name] = argv[++i];
  }
  Options options;
  if (given.contains("mode")) options.mode = given["mode"];
  if (options.mode != "streaming" && options.mode != "batch") {
    badUsage("--mode expects streaming or batch, got '" + options.mode + "'");
  }
  if (given.contains("parallelism")) {
    options.parallelism = static_cast<int>(positiveNumber("parallelism", given["parallelism"]));
  }
  if (given.contains("rows")) options.rows = positiveNumber("rows", given["rows"]);
  if (given.contains("rows-per-second")) {
    options.rowsPerSecond =
        static_cast<double>(positiveNumber("rows-per-second", given["rows-per-second"]));
  }
  options.out = given["out"];
  if (options.out.empty()) badUsage("--out is required");
  options.checkpointDir = given["checkpoint-dir"];
  if (given.contains("checkpoint-interval"))
    options.checkpointInterval = given["checkpoint-interval"];
  options.restore = given["restore"];
  if (options.mode == "streaming" && options.checkpointDir.empty()) {
    badUsage("--checkpoint-dir is required in streaming mode");
  }
  return options;
}

int run(const Options& options) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(options.parallelism);
  env->setMaxParallelism(128);  // the same key groups at every parallelism
  const bool streaming = options.mode == "streaming";
  env->setRuntimeMode(streaming ? RuntimeExecutionMode::STREAMING : RuntimeExecutionMode::BATCH);
  std::map<std::string, std::string> configuration{{"restart-strategy.type", "none"}};
  if (streaming) {
    configuration["execution.checkpointing.interval"] = options.checkpointInterval;
    configuration["execution.checkpointing.mode"] = "EXACTLY_ONCE";
    configuration["state.checkpoints.dir"] = options.checkpointDir;
    configuration["execution.checkpointing.externalized-checkpoint-retention"] =
        "RETAIN_ON_CANCELLATION";
    if (!options.restore.empty()) configuration["execution.state-recovery.path"] = options.restore;
  }
  env->configure(configuration);

  auto strategy = WatermarkStrategy<int64_t>::forBoundedOutOfOrderness(std::chrono::seconds(1))
                      .withTimestampAssigner(
                          [](const int64_t& seq, int64_t) { return seq * kEventMillisPerRow; });
  env->fromSource(std::make_shared<PacedSequenceSource>(options.rows, options.rowsPerSecond),
                  strategy, "paced sequence")
      .uid("paced-sequence")
      .keyBy([](const int64_t& seq) {
        return BucketKey{static_cast<int32_t>(seq % kKeys),
                         seq * kEventMillisPerRow / kBucketMillis};
      })
      .process(BucketSums())
      .uid("bucket-sums")
      .sinkTo(FileSink<std::string>::forRowFormat(options.out, SimpleStringEncoder<std::string>())
                  .withRollingPolicy(OnCheckpointRollingPolicy::build())
                  .build())
      .name("Sink: files")
      .uid("files");

  const auto started = std::chrono::steady_clock::now();
  JobClient client = env->executeAsync("kill9 datastream");
  std::printf("kill9_datastream: job %s started (%s, parallelism %d%s%s)\n",
              client.getJobID().c_str(), options.mode.c_str(), options.parallelism,
              options.restore.empty() ? "" : ", restores ", options.restore.c_str());
  std::fflush(stdout);
  client.waitForCompletion();
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::steady_clock::now() - started)
                          .count();
  std::printf("kill9_datastream: FINISHED in %lld ms\n", static_cast<long long>(millis));
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parseOptions(argc, argv);
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "kill9_datastream: FAILED: %s\n", error.what());
    return 1;
  }
}

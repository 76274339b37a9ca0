// WatermarkStrategy: how a stream's records get their event timestamps and how watermarks
// follow them, as Flink's WatermarkStrategy. A strategy is a value (copied into every source
// or operator subtask); each subtask creates its own WatermarkGenerator from it.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>

#include "eddy/runtime/stream_element.h"

namespace eddy {

/// Tracks event time on one subtask. onEvent sees each record's timestamp; currentWatermark
/// is asked after every batch and whenever the runtime emits periodically.
class WatermarkGenerator {
 public:
  virtual ~WatermarkGenerator() = default;
  virtual void onEvent(int64_t eventTimestamp) = 0;
  /// The watermark to emit now (Watermark::kMin while there is none).
  virtual int64_t currentWatermark() const = 0;
};

/// Flink's BoundedOutOfOrdernessWatermarks: the watermark trails the largest timestamp seen
/// by the allowed out-of-orderness, minus one millisecond.
class BoundedOutOfOrdernessWatermarks final : public WatermarkGenerator {
 public:
  explicit BoundedOutOfOrdernessWatermarks(int64_t outOfOrdernessMillis)
      : outOfOrdernessMillis_(outOfOrdernessMillis),
        maxTimestamp_(runtime::Watermark::kMin + outOfOrdernessMillis + 1) {}
  void onEvent(int64_t eventTimestamp) override {
    if (eventTimestamp > maxTimestamp_) maxTimestamp_ = eventTimestamp;
  }
  int64_t currentWatermark() const override {
    return maxTimestamp_ - outOfOrdernessMillis_ - 1;
  }

 private:
  int64_t outOfOrdernessMillis_;
  int64_t maxTimestamp_;
};

class NoWatermarksGenerator final : public WatermarkGenerator {
 public:
  void onEvent(int64_t) override {}
  int64_t currentWatermark() const override { return runtime::Watermark::kMin; }
};

template <typename T>
class WatermarkStrategy {
 public:
  /// (record, the timestamp it already has or kNoTimestamp) → its event timestamp (ms).
  using TimestampAssigner = std::function<int64_t(const T&, int64_t)>;
  using GeneratorFactory = std::function<std::unique_ptr<WatermarkGenerator>()>;

  /// Timestamps only increase: the watermark is the largest timestamp seen minus 1 ms.
  static WatermarkStrategy forMonotonousTimestamps() {
    return WatermarkStrategy(
        [] { return std::make_unique<BoundedOutOfOrdernessWatermarks>(0); }, true);
  }
  /// Records may arrive up to `maxOutOfOrderness` late.
  static WatermarkStrategy forBoundedOutOfOrderness(std::chrono::milliseconds maxOutOfOrderness) {
    int64_t millis = maxOutOfOrderness.count();
    return WatermarkStrategy(
        [millis] { return std::make_unique<BoundedOutOfOrdernessWatermarks>(millis); }, true);
  }
  /// No watermarks at all (event time never advances until the end of input).
  static WatermarkStrategy noWatermarks() {
    return WatermarkStrategy([] { return std::make_unique<NoWatermarksGenerator>(); }, false);
  }
  /// A custom generator.
  static WatermarkStrategy forGenerator(GeneratorFactory factory) {
    return WatermarkStrategy(std::move(factory), true);
  }

  WatermarkStrategy withTimestampAssigner(TimestampAssigner assigner) const {
    WatermarkStrategy copy = *this;
    copy.timestampAssigner_ = std::move(assigner);
    return copy;
  }
  /// A subtask that receives no records for `idleTimeout` (processing time) is marked idle,
  /// so it does not hold back the watermark of downstream operators.
  WatermarkStrategy withIdleness(std::chrono::milliseconds idleTimeout) const {
    WatermarkStrategy copy = *this;
    copy.idleTimeoutMillis_ = idleTimeout.count();
    return copy;
  }

  std::unique_ptr<WatermarkGenerator> createWatermarkGenerator() const {
    return generatorFactory_();
  }
  const TimestampAssigner& timestampAssigner() const { return timestampAssigner_; }
  bool hasTimestampAssigner() const { return static_cast<bool>(timestampAssigner_); }
  bool generatesWatermarks() const { return generatesWatermarks_; }
  /// 0 when idleness detection is off.
  int64_t idleTimeoutMillis() const { return idleTimeoutMillis_; }

 private:
  WatermarkStrategy(GeneratorFactory factory, bool generatesWatermarks)
      : generatorFactory_(std::move(factory)), generatesWatermarks_(generatesWatermarks) {}

  GeneratorFactory generatorFactory_;
  TimestampAssigner timestampAssigner_;
  bool generatesWatermarks_;
  int64_t idleTimeoutMillis_ = 0;
};

}  // namespace eddy

#include "connectors/datagen/datagen_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <thread>

#include "common/check.h"

namespace eddy::connectors {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
// A reader sleeps at most this long per poll, so that a cancelled job stops promptly.
constexpr auto kMaxSleep = std::chrono::milliseconds(20);
// A chunk holds about this much time's worth of rows (at most kDataGenMaxChunkRows).
constexpr double kChunkSeconds = 0.05;

int64_t pow10(int exponent) {
  int64_t value = 1;
  for (int i = 0; i < exponent; ++i) value *= 10;
  return value;
}

int64_t nowMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Rounds epoch milliseconds or nanoseconds of day down to `precision` fractional digits
// (precision >= 3 keeps milliseconds).
int64_t truncateMillis(int64_t millis, int precision) {
  if (precision >= 3) return millis;
  int64_t unit = pow10(3 - precision);
  int64_t remainder = ((millis % unit) + unit) % unit;
  return millis - remainder;
}

// One subtask's generator of rows [nextRow, endRow) at a steady rate.
class DataGenReader final : public SourceReader<vector::Chunk> {
 public:
  DataGenReader(std::shared_ptr<const DataGenSpec> spec, int subtaskIndex, int parallelism)
      : spec_(std::move(spec)),
        random_(static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count()) ^
                (static_cast<uint64_t>(subtaskIndex) + 1) * 0x9E3779B97F4A7C15ULL) {
    if (spec_->totalRows) {
      __int128 total = *spec_->totalRows;
      nextRow_ = static_cast<int64_t>(total * subtaskIndex / parallelism);
      endRow_ = static_cast<int64_t>(total * (subtaskIndex + 1) / parallelism);
    } else {
      nextRow_ = 0;
      endRow_ = std::numeric_limits<int64_t>::max();
    }
    rowsPerSecond_ = static_cast<double>(spec_->rowsPerSecond) / parallelism;
    chunkRows_ = std::clamp<int64_t>(static_cast<int64_t>(rowsPerSecond_ * kChunkSeconds), 1,
                                     kDataGenMaxChunkRows);
  }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (nextRow_ >= endRow_) return InputStatus::END_OF_INPUT;
    SteadyClock::time_point now = SteadyClock::now();
    if (!started_) {
      started_ = true;
      startTime_ = now;
    }
    int64_t wanted = std::min(endRow_ - nextRow_, chunkRows_);
    if (allowedRowsAt(now) - emitted_ < wanted) {
      auto wait = std::min<SteadyClock::duration>(dueTime(emitted_ + wanted) - now, kMaxSleep);
      if (wait > SteadyClock::duration::zero()) std::this_thread::sleep_for(wait);
      now = SteadyClock::now();
      if (allowedRowsAt(now) - emitted_ < wanted) return InputStatus::NOTHING_AVAILABLE;
    }
    int64_t count =
        std::min({allowedRowsAt(now) - emitted_, endRow_ - nextRow_, kDataGenMaxChunkRows});
    output.collect(generate(count));
    nextRow_ += count;
    emitted_ += count;
    return nextRow_ >= endRow_ ? InputStatus::END_OF_INPUT : InputStatus::MORE_AVAILABLE;
  }

 private:
  // Rows this reader may have emitted by `time`: one chunk at once, then the steady rate.
  int64_t allowedRowsAt(SteadyClock::time_point time) const {
    double seconds = std::chrono::duration<double>(time - startTime_).count();
    double allowed = static_cast<double>(chunkRows_) + std::floor(rowsPerSecond_ * seconds);
    return allowed >= 4e18 ? static_cast<int64_t>(4e18) : static_cast<int64_t>(allowed);
  }
  // When `rows` rows will be allowed.
  SteadyClock::time_point dueTime(int64_t rows) const {
    double seconds = static_cast<double>(rows - chunkRows_) / rowsPerSecond_;
    return startTime_ + std::chrono::duration_cast<SteadyClock::duration>(
                            std::chrono::duration<double>(std::max(seconds, 0.0)));
  }

  vector::Chunk generate(int64_t count) {
    vector::Chunk chunk(spec_->rowType);
    chunk.reserve(count);
    int64_t currentMillis = nowMillis();
    for (int column = 0; column < chunk.columnCount(); ++column) {
      const FieldGeneratorSpec& field = spec_->fields[column];
      vector::Vector& values = chunk.mutableColumn(column);
      for (int64_t row = 0; row < count; ++row) {
        if (field.nullRate > 0 && unitInterval_(random_) < field.nullRate) {
          values.appendNull();
        } else if (field.kind == GeneratorKind::SEQUENCE) {
          appendSequenceValue(field, field.start + nextRow_ + row, values);
        } else {
          appendRandomValue(field, currentMillis, values);
        }
      }
    }
    chunk.mutableRowKinds().assign(count, RowKind::INSERT);
    return chunk;
  }

  static void appendSequenceValue(const FieldGeneratorSpec& field, int64_t value,
                                  vector::Vector& values) {
    switch (field.type->getTypeRoot()) {
      case LogicalTypeRoot::TINYINT:
        values.append(static_cast<int8_t>(value));
        break;
      case LogicalTypeRoot::SMALLINT:
        values.append(static_cast<int16_t>(value));
        break;
      case LogicalTypeRoot::INTEGER:
        values.append(static_cast<int32_t>(value));
        break;
      case LogicalTypeRoot::BIGINT:
        values.append(value);
        break;
      case LogicalTypeRoot::FLOAT:
        values.append(static_cast<float>(value));
        break;
      case LogicalTypeRoot::DOUBLE:
        values.append(static_cast<double>(value));
        break;
      case LogicalTypeRoot::DECIMAL:
        values.append(static_cast<__int128>(value) * pow10(field.type->getScale()));
        break;
      case LogicalTypeRoot::CHAR:
      case LogicalTypeRoot::VARCHAR:
        values.appendString(std::to_string(value));
        break;
      default:
        EDDY_CHECK(false);  // the factory accepts no other sequence type
    }
  }

  void appendRandomValue(const FieldGeneratorSpec& field, int64_t currentMillis,
                         vector::Vector& values) {
    switch (field.type->getTypeRoot()) {
      case LogicalTypeRoot::BOOLEAN:
        values.append(static_cast<bool>(random_() & 1));
        break;
      case LogicalTypeRoot::TINYINT:
        values.append(static_cast<int8_t>(randomInteger(field)));
        break;
      case LogicalTypeRoot::SMALLINT:
        values.append(static_cast<int16_t>(randomInteger(field)));
        break;
      case LogicalTypeRoot::INTEGER:
        values.append(static_cast<int32_t>(randomInteger(field)));
        break;
      case LogicalTypeRoot::BIGINT:
        values.append(static_cast<int64_t>(randomInteger(field)));
        break;
      case LogicalTypeRoot::DECIMAL:
        values.append(randomInteger(field));
        break;
      case LogicalTypeRoot::FLOAT:
        values.append(std::clamp(static_cast<float>(randomFloating(field)),
                                 static_cast<float>(field.minFloating),
                                 static_cast<float>(field.maxFloating)));
        break;
      case LogicalTypeRoot::DOUBLE:
        values.append(randomFloating(field));
        break;
      case LogicalTypeRoot::CHAR:
      case LogicalTypeRoot::VARCHAR: {
        static constexpr char kHexDigits[] = "0123456789abcdef";
        text_.resize(field.length);
        for (char& c : text_) c = kHexDigits[random_() & 15];
        values.appendString(text_);
        break;
      }
      case LogicalTypeRoot::BINARY:
      case LogicalTypeRoot::VARBINARY:
        text_.resize(field.length);
        for (char& c : text_) c = static_cast<char>(random_() & 255);
        values.appendString(text_);
        break;
      case LogicalTypeRoot::DATE:
        values.append(static_cast<int32_t>(currentMillis / kMillisPerDay));
        break;
      case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
        values.append(truncateMillis(currentMillis % kMillisPerDay, field.type->getPrecision()) *
                      kNanosPerMilli);
        break;
      case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
      case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
        int64_t past = field.maxPastMillis == 0 ? 0
                                                : std::uniform_int_distribution<int64_t>(
                                                      0, field.maxPastMillis)(random_);
        values.appendTimestamp(truncateMillis(currentMillis - past, field.type->getPrecision()), 0);
        break;
      }
      default:
        EDDY_CHECK(false);  // the factory accepts no other random type
    }
  }

  // Uniform in [minInteger, maxInteger].
  __int128 randomInteger(const FieldGeneratorSpec& field) {
    using Unsigned = unsigned __int128;
    Unsigned range = static_cast<Unsigned>(field.maxInteger - field.minInteger);
    if (range < std::numeric_limits<uint64_t>::max()) {
      uint64_t offset =
          std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(range))(random_);
      return field.minInteger + static_cast<__int128>(offset);
    }
    // DECIMAL ranges beyond 64 bits: 128 random bits reduced modulo the range (the bias is
    // negligible for generated test data).
    Unsigned bits = (static_cast<Unsigned>(random_()) << 64) | random_();
    Unsigned offset = range == std::numeric_limits<Unsigned>::max() ? bits : bits % (range + 1);
    return field.minInteger + static_cast<__int128>(offset);
  }

  // Uniform in [minFloating, maxFloating] (interpolated so that wide ranges do not overflow).
  double randomFloating(const FieldGeneratorSpec& field) {
    double fraction = unitInterval_(random_);
    return std::clamp(field.minFloating * (1 - fraction) + field.maxFloating * fraction,
                      field.minFloating, field.maxFloating);
  }

  std::shared_ptr<const DataGenSpec> spec_;
  std::mt19937_64 random_;
  std::uniform_real_distribution<double> unitInterval_{0.0, 1.0};
  std::string text_;  // reused buffer for random strings
  int64_t nextRow_;   // global index of the next row
  int64_t endRow_;    // exclusive
  double rowsPerSecond_;
  int64_t chunkRows_;
  bool started_ = false;
  SteadyClock::time_point startTime_;
  int64_t emitted_ = 0;
};

}  // namespace

std::unique_ptr<SourceReader<vector::Chunk>> DataGenSource::createReader(int subtaskIndex,
                                                                         int parallelism) const {
  return std::make_unique<DataGenReader>(spec_, subtaskIndex, parallelism);
}

}  // namespace eddy::connectors

#include "connectors/datagen/datagen_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <locale>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "common/check.h"

namespace eddy::connectors {

namespace {

using SteadyClock = std::chrono::steady_clock;

constexpr int64_t kMillisPerDay = 86'400'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
// A chunk holds about this much time's worth of rows (at most kDataGenMaxChunkRows).
constexpr double kChunkSeconds = 0.05;
// A split's rate divisor is a parallelism, which is at most the largest max parallelism.
constexpr uint64_t kMaxRateDivisor = 32768;

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

// The values of the rows of one split: sequence values from the row index, random ones from
// the split's generator.
class RowGenerator {
 public:
  explicit RowGenerator(std::shared_ptr<const DataGenSpec> spec) : spec_(std::move(spec)) {}

  // Rows [split.nextRow, split.nextRow + count) of `split`, drawing from its generator (the
  // caller advances nextRow).
  vector::Chunk generate(DataGenSplit& split, int64_t count) {
    std::mt19937_64& random = split.random;
    vector::Chunk chunk(spec_->rowType);
    chunk.reserve(count);
    int64_t currentMillis = nowMillis();
    for (int column = 0; column < chunk.columnCount(); ++column) {
      const FieldGeneratorSpec& field = spec_->fields[column];
      vector::Vector& values = chunk.mutableColumn(column);
      for (int64_t row = 0; row < count; ++row) {
        if (field.nullRate > 0 && unitInterval_(random) < field.nullRate) {
          values.appendNull();
        } else if (field.kind == GeneratorKind::SEQUENCE) {
          appendSequenceValue(field, field.start + split.nextRow + row, values);
        } else {
          appendRandomValue(field, currentMillis, random, values);
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
                         std::mt19937_64& random, vector::Vector& values) {
    switch (field.type->getTypeRoot()) {
      case LogicalTypeRoot::BOOLEAN:
        values.append(static_cast<bool>(random() & 1));
        break;
      case LogicalTypeRoot::TINYINT:
        values.append(static_cast<int8_t>(randomInteger(field, random)));
        break;
      case LogicalTypeRoot::SMALLINT:
        values.append(static_cast<int16_t>(randomInteger(field, random)));
        break;
      case LogicalTypeRoot::INTEGER:
        values.append(static_cast<int32_t>(randomInteger(field, random)));
        break;
      case LogicalTypeRoot::BIGINT:
        values.append(static_cast<int64_t>(randomInteger(field, random)));
        break;
      case LogicalTypeRoot::DECIMAL:
        values.append(randomInteger(field, random));
        break;
      case LogicalTypeRoot::FLOAT:
        values.append(std::clamp(static_cast<float>(randomFloating(field, random)),
                                 static_cast<float>(field.minFloating),
                                 static_cast<float>(field.maxFloating)));
        break;
      case LogicalTypeRoot::DOUBLE:
        values.append(randomFloating(field, random));
        break;
      case LogicalTypeRoot::CHAR:
      case LogicalTypeRoot::VARCHAR: {
        static constexpr char kHexDigits[] = "0123456789abcdef";
        text_.resize(field.length);
        for (char& c : text_) c = kHexDigits[random() & 15];
        values.appendString(text_);
        break;
      }
      case LogicalTypeRoot::BINARY:
      case LogicalTypeRoot::VARBINARY:
        text_.resize(field.length);
        for (char& c : text_) c = static_cast<char>(random() & 255);
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
                                                      0, field.maxPastMillis)(random);
        values.appendTimestamp(truncateMillis(currentMillis - past, field.type->getPrecision()), 0);
        break;
      }
      default:
        EDDY_CHECK(false);  // the factory accepts no other random type
    }
  }

  // Uniform in [minInteger, maxInteger].
  __int128 randomInteger(const FieldGeneratorSpec& field, std::mt19937_64& random) {
    using Unsigned = unsigned __int128;
    Unsigned range = static_cast<Unsigned>(field.maxInteger - field.minInteger);
    if (range < std::numeric_limits<uint64_t>::max()) {
      uint64_t offset =
          std::uniform_int_distribution<uint64_t>(0, static_cast<uint64_t>(range))(random);
      return field.minInteger + static_cast<__int128>(offset);
    }
    // DECIMAL ranges beyond 64 bits: 128 random bits reduced modulo the range (the bias is
    // negligible for generated test data).
    Unsigned bits = (static_cast<Unsigned>(random()) << 64) | random();
    Unsigned offset = range == std::numeric_limits<Unsigned>::max() ? bits : bits % (range + 1);
    return field.minInteger + static_cast<__int128>(offset);
  }

  // Uniform in [minFloating, maxFloating] (interpolated so that wide ranges do not overflow).
  double randomFloating(const FieldGeneratorSpec& field, std::mt19937_64& random) {
    double fraction = unitInterval_(random);
    return std::clamp(field.minFloating * (1 - fraction) + field.maxFloating * fraction,
                      field.minFloating, field.maxFloating);
  }

  std::shared_ptr<const DataGenSpec> spec_;
  std::uniform_real_distribution<double> unitInterval_{0.0, 1.0};  // keeps no state
  std::string text_;  // reused buffer for random strings
};

// One subtask's reader: its splits one after another, at the sum of their rates.
class DataGenReader final : public connector::SourceReader<vector::Chunk, DataGenSplit> {
 public:
  DataGenReader(std::shared_ptr<const DataGenSpec> spec, connector::SourceReaderContext& context)
      : spec_(spec), generator_(spec), context_(context) {}

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    bool dropped = false;
    while (!splits_.empty() && splits_.front().nextRow >= splits_.front().endRow) {
      splits_.pop_front();
      dropped = true;
    }
    if (dropped) updateRate();
    if (splits_.empty()) {
      return noMoreSplits_ ? InputStatus::END_OF_INPUT : InputStatus::NOTHING_AVAILABLE;
    }
    DataGenSplit& split = splits_.front();
    SteadyClock::time_point now = SteadyClock::now();
    if (!started_) {
      started_ = true;
      startTime_ = now;
    }
    int64_t wanted = std::min(split.endRow - split.nextRow, chunkRows_);
    if (allowedRowsAt(now) - emitted_ < wanted) {
      context_.requestWakeUpAt(dueTime(emitted_ + wanted));
      return InputStatus::NOTHING_AVAILABLE;
    }
    int64_t count = std::min(
        {allowedRowsAt(now) - emitted_, split.endRow - split.nextRow, kDataGenMaxChunkRows});
    output.collect(generator_.generate(split, count));
    split.nextRow += count;
    emitted_ += count;
    if (split.nextRow >= split.endRow) {
      splits_.pop_front();
      updateRate();
    }
    return splits_.empty() && noMoreSplits_ ? InputStatus::END_OF_INPUT
                                            : InputStatus::MORE_AVAILABLE;
  }

  void addSplits(std::vector<DataGenSplit> splits) override {
    for (DataGenSplit& split : splits) splits_.push_back(std::move(split));
    updateRate();
  }
  void notifyNoMoreSplits() override { noMoreSplits_ = true; }
  std::vector<DataGenSplit> snapshotState(int64_t /*checkpointId*/) override {
    return std::vector<DataGenSplit>(splits_.begin(), splits_.end());
  }
  // It waits only for assignments (mail) or for its next chunk (requestWakeUpAt).
  bool signalsAvailability() const override { return true; }

 private:
  // The rate of the splits the reader holds, each rowsPerSecond / its rateDivisor (on a fresh
  // start the reader's one split: rowsPerSecond / n exactly). When it changes, pacing starts
  // again: one chunk at once, then the new rate.
  void updateRate() {
    std::map<int64_t, int64_t> splitsByDivisor;
    for (const DataGenSplit& split : splits_) {
      ++splitsByDivisor[std::max<int64_t>(1, split.rateDivisor)];
    }
    double rate = 0;
    for (const auto& [divisor, count] : splitsByDivisor) {
      rate += static_cast<double>(spec_->rowsPerSecond) * static_cast<double>(count) /
              static_cast<double>(divisor);
    }
    if (rate <= 0 || rate == rowsPerSecond_) return;  // no split: nothing to pace
    rowsPerSecond_ = rate;
    chunkRows_ = std::clamp<int64_t>(static_cast<int64_t>(rowsPerSecond_ * kChunkSeconds), 1,
                                     kDataGenMaxChunkRows);
    started_ = false;
    emitted_ = 0;
  }

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

  std::shared_ptr<const DataGenSpec> spec_;
  RowGenerator generator_;
  connector::SourceReaderContext& context_;
  std::deque<DataGenSplit> splits_;  // the front one is being read
  bool noMoreSplits_ = false;
  double rowsPerSecond_ = 0;  // of the splits held; set whenever the reader holds one
  int64_t chunkRows_ = 1;
  bool started_ = false;
  SteadyClock::time_point startTime_;
  int64_t emitted_ = 0;  // since startTime_
};

}  // namespace

std::string DataGenSplitSerializer::serialize(const DataGenSplit& split) const {
  std::ostringstream random;
  random.imbue(std::locale::classic());
  random << split.random;
  connector::SerializedFieldWriter writer;
  writer.writeBytes(split.id);
  writer.writeInt64(split.nextRow);
  writer.writeInt64(split.endRow);
  writer.writeVarint(static_cast<uint64_t>(split.rateDivisor));
  writer.writeBytes(random.str());
  return writer.take();
}

DataGenSplit DataGenSplitSerializer::deserialize(int version, std::string_view serialized) const {
  const std::string what = "a DataGenSource split";
  connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  DataGenSplit split;
  split.id = std::string(reader.readBytes());
  split.nextRow = reader.readInt64();
  split.endRow = reader.readInt64();
  const uint64_t rateDivisor = reader.readVarint();
  std::istringstream random{std::string(reader.readBytes())};
  random.imbue(std::locale::classic());
  random >> split.random;
  reader.expectEnd();
  if (random.fail() || !(random >> std::ws).eof()) {
    reader.fail("its random generator state does not parse");
  }
  if (rateDivisor == 0 || rateDivisor > static_cast<uint64_t>(kMaxRateDivisor)) {
    reader.fail("its rate divisor " + std::to_string(rateDivisor) + " is out of range");
  }
  split.rateDivisor = static_cast<int64_t>(rateDivisor);
  if (split.nextRow < 0 || split.nextRow > split.endRow) {
    reader.fail("its rows [" + std::to_string(split.nextRow) + ", " +
                std::to_string(split.endRow) + ") are not a range");
  }
  return split;
}

std::vector<std::vector<DataGenSplit>> DataGenSource::planSplits(int parallelism,
                                                                 uint64_t seed) const {
  const int readers = std::max(1, parallelism);
  std::vector<std::vector<DataGenSplit>> plan(static_cast<size_t>(readers));
  for (int subtask = 0; subtask < readers; ++subtask) {
    DataGenSplit split;
    split.id = std::to_string(subtask);
    if (spec_->totalRows) {
      __int128 total = *spec_->totalRows;
      split.nextRow = static_cast<int64_t>(total * subtask / readers);
      split.endRow = static_cast<int64_t>(total * (subtask + 1) / readers);
    } else {
      split.nextRow = 0;
      split.endRow = std::numeric_limits<int64_t>::max();
    }
    if (split.nextRow >= split.endRow) continue;
    split.rateDivisor = readers;
    split.random.seed(seed ^ (static_cast<uint64_t>(subtask) + 1) * 0x9E3779B97F4A7C15ULL);
    plan[static_cast<size_t>(subtask)].push_back(std::move(split));
  }
  return plan;
}

std::unique_ptr<connector::SourceReader<vector::Chunk, DataGenSplit>> DataGenSource::createReader(
    connector::SourceReaderContext& context) const {
  return std::make_unique<DataGenReader>(spec_, context);
}

std::unique_ptr<connector::SplitEnumerator<DataGenSplit, std::vector<DataGenSplit>>>
DataGenSource::createEnumerator(connector::SplitEnumeratorContext<DataGenSplit>& context) const {
  const auto seed = static_cast<uint64_t>(SteadyClock::now().time_since_epoch().count());
  return std::make_unique<connector::StaticSplitEnumerator<DataGenSplit>>(
      context, planSplits(context.currentParallelism(), seed));
}

std::unique_ptr<connector::SplitEnumerator<DataGenSplit, std::vector<DataGenSplit>>>
DataGenSource::restoreEnumerator(connector::SplitEnumeratorContext<DataGenSplit>& context,
                                 std::vector<DataGenSplit> checkpoint) const {
  return connector::StaticSplitEnumerator<DataGenSplit>::restore(context, std::move(checkpoint));
}

}  // namespace eddy::connectors

// DataGenSource: the DataStream source behind the datagen connector (Flink's DataGen table
// source). It generates chunks of a ROW type, one generator per field: RANDOM values within
// the field's bounds, or a SEQUENCE start..end that bounds the source. Rows are all +I.
//
// It is a replayable connector::Source (eddy/connector/source.h). Its splits are row ranges:
// a bounded source of `totalRows` rows gives subtask i of n, on a fresh start, the split of
// global row indices [totalRows*i/n, totalRows*(i+1)/n), and a sequence field's value in row r
// is start + r, so sequences are split across subtasks without overlap or gap. An unbounded
// source (no sequence, no number-of-rows) gives every subtask a split of random rows without
// end. Each split carries its next row index and its own random generator (std::mt19937_64,
// seeded from the clock and the split's index when the job first starts, so values differ from
// run to run), and both are in the checkpoint: a restored split goes on with the next row and
// its generator where it was (a chunk draws column by column, so the values equal an
// uninterrupted run's when the chunks are cut alike, as at rates that allow full chunks of 1024
// rows). The enumerator hands every subtask its split at once (connector::StaticSplitEnumerator);
// restored at another parallelism, the splits are dealt out whole, so some readers may get none
// and a reader may read several, one after another.
//
// Rate: each split is generated at rowsPerSecond/n (n: the parallelism of the fresh start that
// made the splits), so on a fresh start each reader emits its share rowsPerSecond/n, steadily,
// in chunks of up to 1024 rows (about 50 ms worth of rows each): one chunk at once, then the
// steady rate, from its first poll on. A reader with several splits (after a restore at a lower
// parallelism) reads them one after another at the sum of their rates, so the rate over all
// readers stays rowsPerSecond; when that sum changes (a split ends or comes) the reader's pacing
// starts again from there. When the next chunk is not due yet the reader returns
// NOTHING_AVAILABLE and asks its task to poll it again when it is due (requestWakeUpAt), so it
// never busy-spins and its task stays responsive to checkpoint triggers. A restored reader
// paces from the restored position as a fresh one does: no burst to catch up the time the job
// was down.
//
// The DataGenSource and its DataGenSpec are immutable and shared by the subtasks; each
// subtask's reader is used only by its task thread.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "eddy/connector/source.h"
#include "eddy/types/logical_type.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// How a field's values are generated (Flink's 'fields.#.kind').
enum class GeneratorKind { RANDOM, SEQUENCE };

/// The generator of one field, with its parsed options.
struct FieldGeneratorSpec {
  std::string name;
  LogicalTypePtr type;
  GeneratorKind kind = GeneratorKind::RANDOM;
  /// Probability of a null value, 0..1.
  double nullRate = 0;
  /// RANDOM TINYINT..BIGINT bounds, and DECIMAL bounds as unscaled values (inclusive).
  __int128 minInteger = 0;
  __int128 maxInteger = 0;
  /// RANDOM FLOAT / DOUBLE bounds.
  double minFloating = 0;
  double maxFloating = 0;
  /// RANDOM CHAR/VARCHAR/BINARY/VARBINARY length.
  int64_t length = 0;
  /// RANDOM TIMESTAMP / TIMESTAMP_LTZ: now minus up to this many milliseconds.
  int64_t maxPastMillis = 0;
  /// SEQUENCE bounds (inclusive).
  int64_t start = 0;
  int64_t end = 0;
};

/// Everything a datagen source needs, parsed and validated from the table's options.
struct DataGenSpec {
  /// ROW<...> of the generated chunks.
  LogicalTypePtr rowType;
  /// Rows per second over all subtasks (> 0).
  int64_t rowsPerSecond = 10000;
  /// Rows over all subtasks: min(number-of-rows, each sequence's length); unset: unbounded.
  std::optional<int64_t> totalRows;
  /// One per field of rowType, in order.
  std::vector<FieldGeneratorSpec> fields;
};

/// The largest chunk a datagen reader emits.
inline constexpr int64_t kDataGenMaxChunkRows = 1024;

/// A split of a DataGenSource: the global row indices [nextRow, endRow) still to generate, the
/// generator of their random values as it stands before row nextRow, and its share of the rate.
struct DataGenSplit {
  std::string id;
  int64_t nextRow = 0;
  int64_t endRow = 0;  // exclusive; INT64_MAX for an unbounded source
  /// The split is generated at rows-per-second / rateDivisor: the parallelism of the fresh start
  /// that made it (its number of splits), so the rate over all splits stays rows-per-second
  /// when a restore deals them out to another number of readers.
  int64_t rateDivisor = 1;
  std::mt19937_64 random;
  std::string splitId() const { return id; }
  friend bool operator==(const DataGenSplit&, const DataGenSplit&) = default;
};

/// Version 1: `id:bytes nextRow:i64 endRow:i64 rateDivisor:varint random:bytes`, `random` the
/// textual representation of the std::mt19937_64 state the C++ standard defines (its 312 state
/// words in decimal, separated by spaces: the same in every standard library).
class DataGenSplitSerializer final : public connector::SimpleVersionedSerializer<DataGenSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const DataGenSplit& split) const override;
  DataGenSplit deserialize(int version, std::string_view serialized) const override;
};

/// A Source of chunks generated by `spec`. See the file comment.
class DataGenSource final
    : public connector::Source<vector::Chunk, DataGenSplit, std::vector<DataGenSplit>> {
 public:
  explicit DataGenSource(std::shared_ptr<const DataGenSpec> spec) : spec_(std::move(spec)) {}

  Boundedness getBoundedness() const override {
    return spec_->totalRows ? Boundedness::BOUNDED : Boundedness::CONTINUOUS_UNBOUNDED;
  }
  std::unique_ptr<connector::SourceReader<vector::Chunk, DataGenSplit>> createReader(
      connector::SourceReaderContext& context) const override;
  std::unique_ptr<connector::SplitEnumerator<DataGenSplit, std::vector<DataGenSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<DataGenSplit>& context) const override;
  std::unique_ptr<connector::SplitEnumerator<DataGenSplit, std::vector<DataGenSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<DataGenSplit>& context,
                    std::vector<DataGenSplit> checkpoint) const override;
  const connector::SimpleVersionedSerializer<DataGenSplit>& getSplitSerializer() const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<std::vector<DataGenSplit>>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  /// The splits of a fresh start at `parallelism`, one per subtask (none for a subtask without
  /// rows), their generators seeded with `seed` and the split's index.
  std::vector<std::vector<DataGenSplit>> planSplits(int parallelism, uint64_t seed) const;

  const DataGenSpec& spec() const { return *spec_; }

 private:
  std::shared_ptr<const DataGenSpec> spec_;
  std::shared_ptr<const DataGenSplitSerializer> splitSerializer_ =
      std::make_shared<DataGenSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<DataGenSplit> stateSerializer_{
      splitSerializer_, "DataGenSource"};
};

}  // namespace eddy::connectors

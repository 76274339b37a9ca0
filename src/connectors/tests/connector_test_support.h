// Helpers shared by the connector tests: building table contexts, running a DynamicTableSource
// as a job, attaching a DynamicTableSink's operator as a job's sink, and a harness that drives
// one sink operator instance directly.
#pragma once

#include <eddy/eddy.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "connectors/dynamic_table_factory.h"
#include "vector/chunk.h"

namespace eddy::connectors::testing {

/// A fresh directory under the system's temporary directory, removed with everything in it.
class TemporaryDirectory {
 public:
  explicit TemporaryDirectory(const std::string& prefix = "eddy-connector-test-") {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() /
            (prefix + std::to_string(random()) + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const std::filesystem::path& path() const { return path_; }
  /// Writes `content` to the file `name` (relative; parent directories are created).
  std::filesystem::path write(const std::string& name, const std::string& content) const {
    std::filesystem::path file = path_ / name;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream(file, std::ios::binary) << content;
    return file;
  }

 private:
  std::filesystem::path path_;
};

/// The whole content of `file` ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

inline LogicalTypePtr rowType(std::vector<std::pair<std::string, LogicalTypePtr>> fields) {
  std::vector<RowField> rowFields;
  for (auto& [name, type] : fields) rowFields.push_back(RowField{name, type, std::nullopt});
  return LogicalType::row(std::move(rowFields));
}

inline LogicalTypePtr intType() { return LogicalType::simple(LogicalTypeRoot::INTEGER); }
inline LogicalTypePtr bigintType() { return LogicalType::simple(LogicalTypeRoot::BIGINT); }
inline LogicalTypePtr stringType() { return LogicalType::varchar(LogicalType::kMaxLength); }

inline ConnectorContext tableContext(LogicalTypePtr physicalRowType,
                                     std::map<std::string, std::string> options) {
  return ConnectorContext{"t", std::move(physicalRowType), std::move(options), true, {}, {}};
}

/// The message of the ValidationException `action` throws ("" when it throws none).
template <typename Action>
std::string validationMessage(Action action) {
  try {
    action();
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "";
}

/// A DataStream of chunks that can end in a sink operator (DataStream keeps that protected;
/// the planner has its own way to add sinks).
class ChunkStream : public DataStream<vector::Chunk> {
 public:
  explicit ChunkStream(const DataStream<vector::Chunk>& stream) : DataStream(stream) {}
  /// Adds `factory`'s operator as a sink; parallelism 0 keeps the job's.
  void sinkTo(std::shared_ptr<const runtime::OperatorFactory> factory, int parallelism = 0) {
    runtime::Transformation* sink = addSinkTransformation("Sink: table", std::move(factory));
    if (parallelism > 0) sink->parallelism = parallelism;
  }
};

/// Every chunk a bounded `source` emits when run at `parallelism`.
inline std::vector<vector::Chunk> collectChunks(std::shared_ptr<Source<vector::Chunk>> source,
                                                int parallelism) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(parallelism);
  auto iterator =
      env->fromSource(source, WatermarkStrategy<vector::Chunk>::noWatermarks(), "datagen")
          .executeAndCollect();
  std::vector<vector::Chunk> chunks;
  while (iterator.hasNext()) chunks.push_back(iterator.next());
  return chunks;
}

inline std::vector<Row> rowsOf(const std::vector<vector::Chunk>& chunks) {
  std::vector<Row> rows;
  for (const vector::Chunk& chunk : chunks) {
    for (Row& row : vector::chunkToRows(chunk)) rows.push_back(std::move(row));
  }
  return rows;
}

/// Records what an operator emits.
class RecordingOutput final : public runtime::Output {
 public:
  void emitBatch(runtime::BatchPtr batch) override { batches += batch->size() > 0 ? 1 : 0; }
  void emitWatermark(runtime::Watermark) override {}
  void emitWatermarkStatus(runtime::WatermarkStatus) override {}
  int batches = 0;
};

/// Runs one instance of a sink operator as subtask `subtaskIndex` of `parallelism` over
/// `chunks`, through open, processBatch, finish and close.
inline RecordingOutput runSinkOperator(const runtime::OperatorFactory& factory, int subtaskIndex,
                                       int parallelism, std::vector<vector::Chunk> chunks) {
  RecordingOutput output;
  runtime::OperatorContext context;
  context.operatorName = "Sink: table";
  context.subtaskIndex = subtaskIndex;
  context.parallelism = parallelism;
  context.output = &output;
  std::unique_ptr<runtime::StreamOperator> sink = factory.createOperator();
  sink->open(context);
  auto batch = std::make_unique<runtime::TypedBatch<vector::Chunk>>();
  for (vector::Chunk& chunk : chunks) batch->push(std::move(chunk), runtime::kNoTimestamp);
  sink->processBatch(0, std::move(batch));
  sink->finish();
  sink->close();
  return output;
}

}  // namespace eddy::connectors::testing

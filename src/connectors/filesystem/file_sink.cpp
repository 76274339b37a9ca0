#include "connectors/filesystem/file_sink.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>
#include <utility>

#include "connectors/filesystem/partition_path.h"
#include "eddy/exceptions.h"
#include "formats/text_value_codec.h"
#include "eddy/runtime/record_batch.h"
#include "vector/chunk.h"

namespace eddy::connectors {

namespace {

// Encoded bytes buffered per part file before they are written.
constexpr size_t kWriteBufferSize = 1 << 20;
// Encoded bytes buffered over all part files of a subtask before all are written.
constexpr size_t kTotalBufferSize = 16 << 20;
// Part files kept open between writes; with more partitions each is closed after a write.
constexpr size_t kMaxOpenPartFiles = 64;

}  // namespace

FileSinkOperator::~FileSinkOperator() { discardPartFiles(); }

void FileSinkOperator::open(runtime::OperatorContext& context) {
  StreamOperator::open(context);
  serializer_ = spec_->format->createSerializer();
  std::error_code error;
  std::filesystem::create_directories(spec_->directory, error);
  if (std::filesystem::exists(spec_->directory) &&
      !std::filesystem::is_directory(spec_->directory)) {
    throw ConnectorException(fmt::format(
        "The path '{}' of table '{}' is not a directory; the filesystem sink writes part files "
        "into a directory.",
        spec_->directory.string(), spec_->tableName));
  }
  if (error) {
    throw ConnectorException(fmt::format("Failed to create the directory '{}' of table '{}': {}",
                                         spec_->directory.string(), spec_->tableName,
                                         error.message()));
  }
  partName_ = fmt::format("part-{}-{}-{}", spec_->fileNameUuid, context.subtaskIndex, 0);
  for (const std::string& name : spec_->partitionKeyNames) {
    keyPrefixes_.push_back(escapePartitionValue(name) + "=");
  }
}

FileSinkOperator::PartFile& FileSinkOperator::partFile(const std::filesystem::path& relative) {
  auto [entry, added] = parts_.try_emplace(relative);
  PartFile& part = entry->second;
  if (added) {
    part.directory = spec_->directory / relative;
    part.finalPath = part.directory / partName_;
    part.inProgressPath = part.directory / ("." + partName_ + ".inprogress");
  }
  return part;
}

void FileSinkOperator::processBatch(int, runtime::BatchPtr batch) {
  for (const vector::Chunk& chunk : runtime::typedBatch<vector::Chunk>(*batch).records) {
    const std::vector<RowKind>& kinds = chunk.rowKinds();
    for (int64_t row = 0; row < chunk.size(); ++row) {
      if (kinds[row] != RowKind::INSERT) {
        throw TableException(
            fmt::format("The filesystem sink of table '{}' accepts only INSERT rows; got {}",
                        spec_->tableName, chunk.rowAt(row).toString()));
      }
    }
    if (spec_->partitionColumns.empty()) {
      writeRows(chunk);
    } else {
      writePartitionedRows(chunk);
    }
  }
}

void FileSinkOperator::writeRows(const vector::Chunk& chunk) {
  PartFile& part = previousPart_ ? *previousPart_ : *(previousPart_ = &partFile({}));
  const size_t before = part.buffer.size();
  for (int64_t row = 0; row < chunk.size(); ++row) {
    serializer_->serialize(chunk, row, part.buffer);
    part.buffer.push_back('\n');
  }
  bufferedBytes_ += part.buffer.size() - before;
  if (part.buffer.size() >= kWriteBufferSize) flush(part);
}

void FileSinkOperator::writePartitionedRows(const vector::Chunk& chunk) {
  vector::Chunk data(spec_->dataRowType);
  for (size_t c = 0; c < spec_->dataColumns.size(); ++c) {
    data.mutableColumn(static_cast<int>(c)) = chunk.column(spec_->dataColumns[c]);
  }
  data.mutableRowKinds() = chunk.rowKinds();
  const formats::TextWriteOptions text;
  for (int64_t row = 0; row < chunk.size(); ++row) {
    // The row's directory: `k1=v1/k2=v2`, NULL and blank values as the default partition name.
    directoryText_.clear();
    for (size_t k = 0; k < spec_->partitionColumns.size(); ++k) {
      const vector::Vector& key = chunk.column(spec_->partitionColumns[k]);
      if (k > 0) directoryText_.push_back('/');
      directoryText_ += keyPrefixes_[k];
      std::optional<std::string_view> value;
      if (!key.isNull(row)) {
        valueText_.clear();
        formats::appendValueText(key, row, text, valueText_);
        value = valueText_;
      }
      appendEscapedPartitionValue(partitionValueOrDefault(value, spec_->defaultPartitionName),
                                  directoryText_);
    }
    if (!previousPart_ || directoryText_ != previousDirectory_) {
      previousPart_ = &partFile(std::filesystem::path(directoryText_));
      previousDirectory_ = directoryText_;
    }
    const size_t before = previousPart_->buffer.size();
    serializer_->serialize(data, row, previousPart_->buffer);
    previousPart_->buffer.push_back('\n');
    bufferedBytes_ += previousPart_->buffer.size() - before;
    if (previousPart_->buffer.size() >= kWriteBufferSize) flush(*previousPart_);
  }
  // Many partitions: the buffers together stay within kTotalBufferSize.
  if (bufferedBytes_ >= kTotalBufferSize) {
    for (auto& [relative, part] : parts_) flush(part);
  }
}

void FileSinkOperator::flush(PartFile& part) {
  if (part.buffer.empty()) return;
  if (part.file == nullptr) {
    std::error_code error;
    if (!part.created) std::filesystem::create_directories(part.directory, error);
    // A file closed to keep few open is reopened to append.
    part.file = std::fopen(part.inProgressPath.c_str(), part.created ? "ab" : "wb");
    part.created = true;
    if (part.file == nullptr) {
      throw ConnectorException(fmt::format("Failed to create the file '{}' of table '{}': {}",
                                           part.inProgressPath.string(), spec_->tableName,
                                           std::strerror(errno)));
    }
  }
  if (std::fwrite(part.buffer.data(), 1, part.buffer.size(), part.file) != part.buffer.size()) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of table '{}': {}",
                                         part.inProgressPath.string(), spec_->tableName,
                                         std::strerror(errno)));
  }
  bufferedBytes_ -= std::min(bufferedBytes_, part.buffer.size());
  part.buffer.clear();
  // Many partitions: their files are closed between writes, so few are open at once.
  if (parts_.size() > kMaxOpenPartFiles) closeFile(part);
}

void FileSinkOperator::closeFile(PartFile& part) {
  std::FILE* file = std::exchange(part.file, nullptr);
  if (std::fclose(file) != 0) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of table '{}': {}",
                                         part.inProgressPath.string(), spec_->tableName,
                                         std::strerror(errno)));
  }
}

void FileSinkOperator::finish() {
  for (auto& [relative, part] : parts_) {
    flush(part);
    if (part.created) commit(part);  // no rows, no file
  }
  if (!spec_->overwrite) return;
  FileSinkSpec::Overwrite& overwrite = *spec_->overwrite;
  std::set<std::filesystem::path> directories;
  {
    std::lock_guard<std::mutex> lock(overwrite.mutex);
    for (const auto& [relative, part] : parts_) {
      if (part.committed) overwrite.writtenDirectories.insert(relative);
    }
    if (overwrite.finishedSubtasks.fetch_add(1) + 1 != context().parallelism) return;
    directories = overwrite.writtenDirectories;
  }
  // The last subtask: every new part file is complete.
  if (spec_->partitionColumns.empty()) {
    removePreviousFiles(spec_->directory);
    return;
  }
  if (spec_->staticPartition) directories.insert(*spec_->staticPartition);
  for (const auto& relative : directories) removePreviousFiles(spec_->directory / relative);
}

void FileSinkOperator::removePreviousFiles(const std::filesystem::path& directory) {
  const std::string ownPrefix = "part-" + spec_->fileNameUuid + "-";
  std::error_code error;
  std::vector<std::filesystem::path> previous;
  for (const auto& entry : std::filesystem::directory_iterator(directory, error)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || name.rfind('.', 0) == 0 || name.rfind(ownPrefix, 0) == 0) {
      continue;
    }
    previous.push_back(entry.path());
  }
  for (const auto& path : previous) {
    if (!std::filesystem::remove(path, error) || error) {
      throw ConnectorException(fmt::format(
          "Failed to remove the file '{}' of table '{}' for INSERT OVERWRITE: {}", path.string(),
          spec_->tableName, error ? error.message() : "not found"));
    }
  }
}

void FileSinkOperator::commit(PartFile& part) {
  if (part.file != nullptr) closeFile(part);
  std::error_code error;
  std::filesystem::rename(part.inProgressPath, part.finalPath, error);
  if (error) {
    throw ConnectorException(fmt::format("Failed to rename the file '{}' of table '{}' to '{}': {}",
                                         part.inProgressPath.string(), spec_->tableName,
                                         part.finalPath.string(), error.message()));
  }
  part.committed = true;
}

std::vector<std::filesystem::path> FileSinkOperator::partFilePaths() const {
  std::vector<std::filesystem::path> paths;
  for (const auto& [relative, part] : parts_) {
    if (part.committed) paths.push_back(part.finalPath);
  }
  return paths;
}

void FileSinkOperator::discardPartFiles() {
  for (auto& [relative, part] : parts_) {
    if (part.file != nullptr) std::fclose(std::exchange(part.file, nullptr));
    if (!part.created || part.committed) continue;
    std::error_code ignored;
    std::filesystem::remove(part.inProgressPath, ignored);
    part.created = false;
  }
}

void FileSinkOperator::close() {
  discardPartFiles();
  for (auto& [relative, part] : parts_) part.buffer.clear();
}

}  // namespace eddy::connectors

#include "connectors/filesystem/file_sink.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <random>
#include <system_error>
#include <utility>

#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "vector/chunk.h"

namespace eddy::connectors {

namespace {

// Encoded bytes buffered before they are written.
constexpr size_t kWriteBufferSize = 1 << 20;

}  // namespace

FileSinkOperator::~FileSinkOperator() { discardPartFile(); }

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
  std::string name = fmt::format("part-{}-{}-{}", spec_->fileNameUuid, context.subtaskIndex, 0);
  partFilePath_ = spec_->directory / name;
  inProgressPath_ = spec_->directory / ("." + name + ".inprogress");
}

void FileSinkOperator::openPartFile() {
  file_ = std::fopen(inProgressPath_.c_str(), "wb");
  if (file_ == nullptr) {
    throw ConnectorException(fmt::format("Failed to create the file '{}' of table '{}': {}",
                                         inProgressPath_.string(), spec_->tableName,
                                         std::strerror(errno)));
  }
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
      serializer_->serialize(chunk, row, buffer_);
      buffer_.push_back('\n');
    }
    if (buffer_.size() >= kWriteBufferSize) flush();
  }
}

void FileSinkOperator::flush() {
  if (buffer_.empty()) return;
  if (file_ == nullptr) openPartFile();
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of table '{}': {}",
                                         inProgressPath_.string(), spec_->tableName,
                                         std::strerror(errno)));
  }
  buffer_.clear();
}

void FileSinkOperator::finish() {
  flush();
  if (file_ != nullptr) commitPartFile();  // no rows, no file
  if (spec_->overwrite &&
      spec_->overwrite->finishedSubtasks.fetch_add(1) + 1 == context().parallelism) {
    removePreviousFiles();
  }
}

void FileSinkOperator::removePreviousFiles() {
  const std::string ownPrefix = "part-" + spec_->fileNameUuid + "-";
  std::error_code error;
  std::vector<std::filesystem::path> previous;
  for (const auto& entry : std::filesystem::directory_iterator(spec_->directory, error)) {
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

void FileSinkOperator::commitPartFile() {
  std::FILE* file = std::exchange(file_, nullptr);
  if (std::fclose(file) != 0) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of table '{}': {}",
                                         inProgressPath_.string(), spec_->tableName,
                                         std::strerror(errno)));
  }
  std::error_code error;
  std::filesystem::rename(inProgressPath_, partFilePath_, error);
  if (error) {
    throw ConnectorException(fmt::format("Failed to rename the file '{}' of table '{}' to '{}': {}",
                                         inProgressPath_.string(), spec_->tableName,
                                         partFilePath_.string(), error.message()));
  }
}

void FileSinkOperator::discardPartFile() {
  if (file_ == nullptr) return;
  std::fclose(std::exchange(file_, nullptr));
  std::error_code ignored;
  std::filesystem::remove(inProgressPath_, ignored);
}

void FileSinkOperator::close() {
  discardPartFile();
  buffer_.clear();
}

}  // namespace eddy::connectors

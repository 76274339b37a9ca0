#include "connectors/filesystem/file_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <system_error>
#include <utility>

#include "eddy/exceptions.h"

namespace eddy::connectors {

namespace {

// Bytes read from a file at a time.
constexpr size_t kReadBlockSize = 1 << 20;

// Names starting with '.' or '_' are hidden, except `_key=value` partition directories.
bool isHidden(const std::filesystem::path& path) {
  std::string name = path.filename().string();
  if (name.empty()) return false;
  return name.front() == '.' || (name.front() == '_' && name.find('=') == std::string::npos);
}

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};

// One subtask's reader: its files one after the other, records into chunks.
class FileReader final : public SourceReader<vector::Chunk> {
 public:
  FileReader(std::vector<SourceFile> files, const FileSourceSpec& spec,
             std::unique_ptr<formats::RowDeserializer> deserializer,
             std::shared_ptr<FileSource::Counters> counters)
      : files_(std::move(files)),
        rowType_(spec.decodedRowType),
        deserializer_(std::move(deserializer)),
        counters_(std::move(counters)),
        columns_(spec.columns),
        metadataKeys_(spec.metadataKeys) {
    if (columns_.empty() && metadataKeys_.empty()) return;
    std::vector<RowField> fields = spec.rowType->getFields();
    const auto types = fileMetadataTypes();
    for (const std::string& key : metadataKeys_) fields.push_back(RowField{key, types.at(key), {}});
    outputRowType_ = LogicalType::row(std::move(fields), false);
    if (columns_.empty()) {
      for (int c = 0; c < rowType_->getFieldCount(); ++c) columns_.push_back(c);
    }
    if (!spec.partitionKeys.empty()) {
      for (const SourceFile& file : files_) {
        partitionRows_.push_back(partitionRow(file.partition, spec.partitionKeys, spec.tableName));
      }
    }
  }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (pendingError_) std::rethrow_exception(std::exchange(pendingError_, nullptr));
    vector::Chunk chunk(rowType_);
    rowFiles_.clear();
    bool ended = false;
    try {
      ended = readInto(chunk);
    } catch (...) {
      // Rows decoded before the failure are not lost: emit them, fail on the next poll.
      if (chunk.size() == 0) {
        reportCounters();
        throw;
      }
      pendingError_ = std::current_exception();
    }
    reportCounters();
    if (chunk.size() > 0) output.collect(outputRowType_ ? assemble(chunk) : std::move(chunk));
    if (pendingError_) return InputStatus::MORE_AVAILABLE;
    return ended ? InputStatus::END_OF_INPUT : InputStatus::MORE_AVAILABLE;
  }

 private:
  // Decodes records into `chunk` until it is full (false) or all files are read (true). A
  // failing record leaves the rows before it in `chunk` and throws.
  bool readInto(vector::Chunk& chunk) {
    while (chunk.size() < static_cast<int64_t>(runtime::kDefaultBatchSize)) {
      if (!file_) {
        if (nextFile_ == files_.size()) return true;
        openFile(files_[nextFile_++]);
      }
      std::string_view available(buffer_.data() + position_, buffer_.size() - position_);
      size_t length = available.empty() ? 0 : deserializer_->recordLength(available, endOfFile_);
      if (length == 0) {
        if (endOfFile_) {
          file_.reset();
        } else {
          readBlock();
        }
        continue;
      }
      std::string_view record = available.substr(0, length);
      formats::RecordLocation location{description_, line_};
      line_ += std::count(record.begin(), record.end(), '\n');
      position_ += length;
      deserializer_->deserialize(record, location, chunk);
      if (outputRowType_) rowFiles_.resize(static_cast<size_t>(chunk.size()), nextFile_ - 1);
    }
    return false;
  }

  // The produced chunk of decoded rows `chunk`: its columns, each row's partition key values
  // and the metadata of each row's file.
  vector::Chunk assemble(vector::Chunk& chunk) {
    vector::Chunk result(outputRowType_);
    const int columns = static_cast<int>(columns_.size());
    for (int c = 0; c < columns; ++c) {
      const int source = columns_[static_cast<size_t>(c)];
      if (source >= 0) {
        result.mutableColumn(c) = std::move(chunk.mutableColumn(source));
        continue;
      }
      vector::Vector& column = result.mutableColumn(c);
      column.reserve(static_cast<int64_t>(rowFiles_.size()));
      for (size_t file : rowFiles_) column.appendValue(partitionRows_[file].getField(-1 - source));
    }
    result.mutableRowKinds() = std::move(chunk.mutableRowKinds());
    for (size_t k = 0; k < metadataKeys_.size(); ++k) {
      vector::Vector& column = result.mutableColumn(columns + static_cast<int>(k));
      column.reserve(static_cast<int64_t>(rowFiles_.size()));
      for (size_t file : rowFiles_) column.appendValue(metadataOf(file, metadataKeys_[k]));
    }
    return result;
  }

  Value metadataOf(size_t file, const std::string& key) {
    const SourceFile& source = files_[file];
    if (key == "file.path") return Value(source.path.string());
    if (key == "file.name") return Value(source.path.filename().string());
    if (key == "file.size") return Value(static_cast<int64_t>(source.size));
    if (modificationTimes_.size() != files_.size()) modificationTimes_.assign(files_.size(), -1);
    int64_t& millis = modificationTimes_[file];
    if (millis < 0) {
      std::error_code error;
      auto written = std::filesystem::last_write_time(source.path, error);
      auto system = std::chrono::file_clock::to_sys(written);
      millis = error ? 0
                     : std::chrono::duration_cast<std::chrono::milliseconds>(
                           system.time_since_epoch())
                           .count();
    }
    return Value(Instant::ofEpochMilli(millis));
  }

  void openFile(const SourceFile& file) {
    description_ = fmt::format("file '{}'", file.path.string());
    std::FILE* handle = std::fopen(file.path.c_str(), "rb");
    if (handle == nullptr) {
      throw ConnectorException(
          fmt::format("Failed to open {}: {}", description_, std::strerror(errno)));
    }
    file_.reset(handle);
    buffer_.clear();
    position_ = 0;
    endOfFile_ = false;
    line_ = 1;
    atFileStart_ = true;
  }

  void readBlock() {
    if (position_ > 0) {
      buffer_.erase(0, position_);
      position_ = 0;
    }
    size_t oldSize = buffer_.size();
    buffer_.resize(oldSize + kReadBlockSize);
    size_t read = std::fread(buffer_.data() + oldSize, 1, kReadBlockSize, file_.get());
    buffer_.resize(oldSize + read);
    if (read < kReadBlockSize) {
      if (std::ferror(file_.get())) {
        throw ConnectorException(
            fmt::format("Failed to read {}: {}", description_, std::strerror(errno)));
      }
      endOfFile_ = true;
    }
    if (atFileStart_ && (buffer_.size() >= 3 || endOfFile_)) {
      atFileStart_ = false;
      if (buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) position_ = 3;  // UTF-8 byte order mark
    }
  }

  void reportCounters() {
    int64_t malformed = deserializer_->malformedRecordCount();
    int64_t skipped = deserializer_->skippedRecordCount();
    counters_->malformedRecords += malformed - reportedMalformed_;
    counters_->skippedRecords += skipped - reportedSkipped_;
    reportedMalformed_ = malformed;
    reportedSkipped_ = skipped;
  }

  std::vector<SourceFile> files_;
  LogicalTypePtr rowType_;
  std::unique_ptr<formats::RowDeserializer> deserializer_;
  std::shared_ptr<FileSource::Counters> counters_;
  std::vector<int> columns_;  // the produced columns (FileSourceSpec::columns)
  std::vector<std::string> metadataKeys_;
  std::vector<Row> partitionRows_;  // per file, its partition key values
  LogicalTypePtr outputRowType_;    // null: the decoded chunks are produced as they are
  std::vector<size_t> rowFiles_;    // with outputRowType_: the file of each row of the chunk
  std::vector<int64_t> modificationTimes_;  // per file, read once (-1: not yet)
  size_t nextFile_ = 0;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string description_;  // "file '<path>'"
  std::string buffer_;       // bytes read and not yet decoded start at position_
  size_t position_ = 0;
  bool endOfFile_ = false;
  bool atFileStart_ = true;
  int64_t line_ = 1;  // the line on which the next record starts
  std::exception_ptr pendingError_;
  int64_t reportedMalformed_ = 0;
  int64_t reportedSkipped_ = 0;
};

}  // namespace

std::map<std::string, LogicalTypePtr> fileMetadataTypes() {
  return {{"file.path", LogicalType::varchar(LogicalType::kMaxLength, false)},
          {"file.name", LogicalType::varchar(LogicalType::kMaxLength, false)},
          {"file.size", LogicalType::simple(LogicalTypeRoot::BIGINT, false)},
          {"file.modification-time", LogicalType::localZonedTimestamp(3, TimestampKind::REGULAR, false)}};
}

FileSource::FileSource(FileSourceSpec spec)
    : spec_(std::move(spec)), counters_(std::make_shared<Counters>()) {
  if (!spec_.rowType) spec_.rowType = spec_.decodedRowType;
}

void FileSource::listFiles() const {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::file_status status = fs::status(spec_.path, error);
  if (error || !fs::exists(status)) {
    if (error && error != std::errc::no_such_file_or_directory) {
      throw ConnectorException(fmt::format("Failed to read the path '{}' of table '{}': {}",
                                           spec_.path.string(), spec_.tableName, error.message()));
    }
    throw ConnectorException(
        fmt::format("The path '{}' of table '{}' does not exist.", spec_.path.string(), spec_.tableName));
  }
  std::vector<std::string> keyNames;
  for (const RowField& key : spec_.partitionKeys) keyNames.push_back(key.name);
  std::vector<SourceFile> files;
  if (!fs::is_directory(status)) {
    if (!keyNames.empty()) {
      throw ConnectorException(fmt::format(
          "The path '{}' of the partitioned table '{}' is a file; a partitioned table is a "
          "directory of partition directories.",
          spec_.path.string(), spec_.tableName));
    }
    files.push_back(SourceFile{spec_.path, fs::file_size(spec_.path, error), {}});
  } else {
    // With partition push-down the files of the other partitions are left out, by their
    // directories as listed (whatever their spelling), without going into those directories.
    auto pruned = [&](const fs::path& directory) {
      std::optional<PartitionSpec> prefix = partitionPrefixOf(
          directory.lexically_relative(spec_.path), keyNames, spec_.defaultPartitionName);
      if (!prefix) return true;  // not a partition directory: nothing below is read
      return std::none_of(spec_.partitions->begin(), spec_.partitions->end(),
                          [&](const PartitionSpec& partition) {
                            return std::equal(prefix->begin(), prefix->end(), partition.begin());
                          });
    };
    fs::recursive_directory_iterator entries(spec_.path, error);
    for (; !error && entries != fs::recursive_directory_iterator(); entries.increment(error)) {
      const fs::directory_entry& entry = *entries;
      if (entry.is_directory(error)) {
        if (isHidden(entry.path()) || (spec_.partitions && pruned(entry.path()))) {
          entries.disable_recursion_pending();
        }
        continue;
      }
      if (isHidden(entry.path()) || !entry.is_regular_file(error)) continue;
      SourceFile file{entry.path(), entry.file_size(error), {}};
      if (!keyNames.empty()) {
        std::optional<PartitionSpec> partition = partitionOfFile(
            entry.path().lexically_relative(spec_.path), keyNames, spec_.defaultPartitionName);
        if (!partition) continue;  // not in a partition directory
        if (spec_.partitions && std::find(spec_.partitions->begin(), spec_.partitions->end(),
                                          *partition) == spec_.partitions->end()) {
          continue;  // pruned
        }
        file.partition = std::move(*partition);
      }
      files.push_back(std::move(file));
    }
    if (error) {
      throw ConnectorException(fmt::format("Failed to list the directory '{}' of table '{}': {}",
                                           spec_.path.string(), spec_.tableName, error.message()));
    }
  }
  std::sort(files.begin(), files.end(),
            [](const SourceFile& left, const SourceFile& right) { return left.path < right.path; });
  files_ = std::move(files);
}

const std::vector<SourceFile>& FileSource::files() const {
  std::call_once(listed_, [this] { listFiles(); });
  return files_;
}

std::vector<PartitionSpec> FileSource::partitions() const {
  std::vector<PartitionSpec> partitions;
  for (const SourceFile& file : files()) partitions.push_back(file.partition);
  std::sort(partitions.begin(), partitions.end());
  partitions.erase(std::unique(partitions.begin(), partitions.end()), partitions.end());
  return partitions;
}

std::vector<size_t> FileSource::filesOfSubtask(int subtaskIndex, int parallelism) const {
  const std::vector<SourceFile>& all = files();
  std::vector<size_t> bySize(all.size());
  for (size_t i = 0; i < all.size(); ++i) bySize[i] = i;
  std::stable_sort(bySize.begin(), bySize.end(),
                   [&](size_t left, size_t right) { return all[left].size > all[right].size; });
  std::vector<uintmax_t> assignedBytes(static_cast<size_t>(parallelism), 0);
  std::vector<size_t> mine;
  for (size_t file : bySize) {
    size_t target = static_cast<size_t>(
        std::min_element(assignedBytes.begin(), assignedBytes.end()) - assignedBytes.begin());
    // Count empty files as one byte so that they are dealt round, too.
    assignedBytes[target] += std::max<uintmax_t>(all[file].size, 1);
    if (target == static_cast<size_t>(subtaskIndex)) mine.push_back(file);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

std::unique_ptr<SourceReader<vector::Chunk>> FileSource::createReader(int subtaskIndex,
                                                                      int parallelism) const {
  std::vector<SourceFile> mine;
  for (size_t index : filesOfSubtask(subtaskIndex, parallelism)) mine.push_back(files()[index]);
  return std::make_unique<FileReader>(
      std::move(mine), spec_,
      spec_.projection ? spec_.format->createProjectedDeserializer(*spec_.projection)
                       : spec_.format->createDeserializer(),
      counters_);
}

}  // namespace eddy::connectors

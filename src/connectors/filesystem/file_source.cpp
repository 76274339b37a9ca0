#include "connectors/filesystem/file_source.h"

#include <fmt/format.h>

#include <sys/types.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <exception>
#include <map>
#include <optional>
#include <string>
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

// A file's modification time in nanoseconds since the Unix epoch.
int64_t epochNanosOf(std::filesystem::file_time_type time) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::file_clock::to_sys(time).time_since_epoch())
      .count();
}

// One subtask's reader: its splits (files) one after the other, records into chunks. The front
// split is the one being read once its file is open.
class FileReader final : public connector::SourceReader<vector::Chunk, FileSourceSplit> {
 public:
  FileReader(const FileSourceSpec& spec, std::unique_ptr<formats::RowDeserializer> deserializer,
             std::shared_ptr<FileSource::Counters> counters)
      : rowType_(spec.decodedRowType),
        deserializer_(std::move(deserializer)),
        counters_(std::move(counters)),
        tableName_(spec.tableName),
        partitionKeys_(spec.partitionKeys),
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
  }

  InputStatus pollNext(ReaderOutput<vector::Chunk>& output) override {
    if (pendingError_) std::rethrow_exception(std::exchange(pendingError_, nullptr));
    vector::Chunk chunk(rowType_);
    rowFiles_.clear();
    // Only the open file's entry stays: rows of the files before it have left.
    if (file_ && !chunkFiles_.empty()) {
      if (chunkFiles_.size() > 1) chunkFiles_.erase(chunkFiles_.begin(), chunkFiles_.end() - 1);
    } else {
      chunkFiles_.clear();
    }
    bool drained = false;
    try {
      drained = readInto(chunk);
    } catch (...) {
      // Rows decoded before the failure are not lost: emit them, fail on the next poll.
      if (chunk.size() == 0) {
        reportCounters();
        throw;
      }
      pendingError_ = std::current_exception();
    }
    reportCounters();
    const bool emitted = chunk.size() > 0;
    if (emitted) output.collect(outputRowType_ ? assemble(chunk) : std::move(chunk));
    if (pendingError_ || !drained) return InputStatus::MORE_AVAILABLE;
    if (noMoreSplits_) return InputStatus::END_OF_INPUT;
    return emitted ? InputStatus::MORE_AVAILABLE : InputStatus::NOTHING_AVAILABLE;
  }

  // Restored splits that were read partly must find their files as they were listed.
  void addSplits(std::vector<FileSourceSplit> splits) override {
    for (FileSourceSplit& split : splits) {
      if (split.partition.size() != partitionKeys_.size()) {
        throw ValidationException(fmt::format(
            "Cannot restore the source of table '{}': its split of file '{}' has {} partition "
            "values, but the table has {} partition keys (a restored job needs the same table)",
            tableName_, split.path, split.partition.size(), partitionKeys_.size()));
      }
      if (split.offset > 0) checkUnchanged(split);
      Row partition = partitionKeys_.empty()
                          ? Row(0)
                          : partitionRow(split.partition, partitionKeys_, tableName_);
      splits_.push_back(QueuedSplit{std::move(split), std::move(partition)});
    }
  }
  void notifyNoMoreSplits() override { noMoreSplits_ = true; }
  std::vector<FileSourceSplit> snapshotState(int64_t /*checkpointId*/) override {
    std::vector<FileSourceSplit> splits;
    splits.reserve(splits_.size());
    for (const QueuedSplit& queued : splits_) splits.push_back(queued.split);
    if (file_) {
      if (endOfFile_ && position_ == buffer_.size()) {
        splits.erase(splits.begin());  // read to its end
      } else {
        splits.front().offset = static_cast<int64_t>(bufferOffset_ + position_);
        splits.front().line = line_;
      }
    }
    return splits;
  }
  // It has nothing only while it waits for its splits, which arrive as mail.
  bool signalsAvailability() const override { return true; }

 private:
  struct QueuedSplit {
    FileSourceSplit split;
    Row partition;  // its partition key values (no fields when the table is not partitioned)
  };
  // A file whose rows are in the chunk being built.
  struct ChunkFile {
    std::string path;
    int64_t size = 0;
    int64_t modificationTimeNanos = 0;
    Row partition;
  };

  // Decodes records into `chunk` until it is full (false) or every split is read (true). A
  // failing record leaves the rows before it in `chunk`, the position at itself, and throws.
  bool readInto(vector::Chunk& chunk) {
    while (chunk.size() < static_cast<int64_t>(runtime::kDefaultBatchSize)) {
      if (!file_) {
        if (splits_.empty()) return true;
        openSplit(splits_.front());
      }
      std::string_view available(buffer_.data() + position_, buffer_.size() - position_);
      size_t length = available.empty() ? 0 : deserializer_->recordLength(available, endOfFile_);
      if (length == 0) {
        if (endOfFile_) {
          file_.reset();
          splits_.pop_front();
        } else {
          readBlock();
        }
        continue;
      }
      std::string_view record = available.substr(0, length);
      formats::RecordLocation location{description_, line_, /*wholeMessage=*/false};
      deserializer_->deserialize(record, location, chunk);
      line_ += std::count(record.begin(), record.end(), '\n');
      position_ += length;
      if (outputRowType_) {
        rowFiles_.resize(static_cast<size_t>(chunk.size()), chunkFiles_.size() - 1);
      }
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
      for (size_t file : rowFiles_) {
        column.appendValue(chunkFiles_[file].partition.getField(-1 - source));
      }
    }
    result.mutableRowKinds() = std::move(chunk.mutableRowKinds());
    for (size_t k = 0; k < metadataKeys_.size(); ++k) {
      vector::Vector& column = result.mutableColumn(columns + static_cast<int>(k));
      column.reserve(static_cast<int64_t>(rowFiles_.size()));
      for (size_t file : rowFiles_) column.appendValue(metadataOf(file, metadataKeys_[k]));
    }
    return result;
  }

  Value metadataOf(size_t file, const std::string& key) const {
    const ChunkFile& source = chunkFiles_[file];
    if (key == "file.path") return Value(source.path);
    if (key == "file.name") return Value(std::filesystem::path(source.path).filename().string());
    if (key == "file.size") return Value(source.size);
    return Value(Instant::ofEpochMilli(source.modificationTimeNanos / 1'000'000));
  }

  // A restored split read partly: its file must be the one that was listed.
  void checkUnchanged(const FileSourceSplit& split) const {
    const std::string where = fmt::format(
        "Cannot continue reading file '{}' at byte offset {} (line {}), where the "
        "checkpoint left it: ",
        split.path, split.offset, split.line);
    const std::filesystem::path path(split.path);
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) {
      throw ConnectorException(where + "the file no longer exists (FileNotFound)");
    }
    const auto size = static_cast<int64_t>(std::filesystem::file_size(path, error));
    if (error) {
      throw ConnectorException(where + "its size cannot be read: " + error.message());
    }
    const auto written = std::filesystem::last_write_time(path, error);
    const int64_t modified = error ? 0 : epochNanosOf(written);
    if (size != split.fileSize || modified != split.modificationTimeNanos || split.offset > size) {
      throw ConnectorException(
          where + fmt::format("the file changed since it was listed (it has {} bytes and "
                              "modification time {} ns since 1970, the checkpoint's split {} "
                              "bytes and {} ns)",
                              size, modified, split.fileSize, split.modificationTimeNanos));
    }
  }

  void openSplit(const QueuedSplit& queued) {
    const FileSourceSplit& split = queued.split;
    description_ = fmt::format("file '{}'", split.path);
    std::FILE* handle = std::fopen(split.path.c_str(), "rb");
    if (handle == nullptr) {
      throw ConnectorException(
          fmt::format("Failed to open {}: {}", description_, std::strerror(errno)));
    }
    std::unique_ptr<std::FILE, FileCloser> file(handle);
    if (split.offset > 0 && fseeko(handle, static_cast<off_t>(split.offset), SEEK_SET) != 0) {
      throw ConnectorException(fmt::format("Failed to seek to byte offset {} of {}: {}",
                                           split.offset, description_, std::strerror(errno)));
    }
    file_ = std::move(file);
    buffer_.clear();
    position_ = 0;
    bufferOffset_ = static_cast<uint64_t>(split.offset);
    endOfFile_ = false;
    line_ = split.line;
    atFileStart_ = split.offset == 0;
    if (outputRowType_) {
      chunkFiles_.push_back(
          ChunkFile{split.path, split.fileSize, split.modificationTimeNanos, queued.partition});
    }
  }

  void readBlock() {
    if (position_ > 0) {
      buffer_.erase(0, position_);
      bufferOffset_ += position_;
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

  LogicalTypePtr rowType_;
  std::unique_ptr<formats::RowDeserializer> deserializer_;
  std::shared_ptr<FileSource::Counters> counters_;
  std::string tableName_;
  std::vector<RowField> partitionKeys_;
  std::vector<int> columns_;  // the produced columns (FileSourceSpec::columns)
  std::vector<std::string> metadataKeys_;
  LogicalTypePtr outputRowType_;  // null: the decoded chunks are produced as they are
  std::deque<QueuedSplit> splits_;
  bool noMoreSplits_ = false;
  // With outputRowType_: the files of the chunk being built (the last one the open file's)
  // and, for each of its rows, the index of its file there.
  std::vector<ChunkFile> chunkFiles_;
  std::vector<size_t> rowFiles_;
  std::unique_ptr<std::FILE, FileCloser> file_;
  std::string description_;  // "file '<path>'"
  std::string buffer_;       // bytes read and not yet decoded start at position_
  size_t position_ = 0;
  uint64_t bufferOffset_ = 0;  // the file offset of buffer_[0]
  bool endOfFile_ = false;
  bool atFileStart_ = true;
  int64_t line_ = 1;  // the line on which the next record starts
  std::exception_ptr pendingError_;
  int64_t reportedMalformed_ = 0;
  int64_t reportedSkipped_ = 0;
};

// Lists the files when the first reader registers (so that a missing path fails that reader's
// task, naming the source) and assigns each reader its planned splits at once.
class FileSplitEnumerator final
    : public connector::SplitEnumerator<FileSourceSplit, FileSourceEnumeratorState> {
 public:
  // `plan`: the splits per subtask of a restored enumerator that had listed; nullopt: list and
  // plan when the first reader registers.
  FileSplitEnumerator(connector::SplitEnumeratorContext<FileSourceSplit>& context,
                      const FileSource& source,
                      std::optional<std::vector<std::vector<FileSourceSplit>>> plan)
      : context_(context), source_(source), plan_(std::move(plan)) {}

  void addReader(int subtask) override {
    std::vector<std::vector<FileSourceSplit>>& plan = planned();
    const auto index = static_cast<size_t>(subtask);
    if (index < plan.size() && !plan[index].empty()) {
      std::map<int, std::vector<FileSourceSplit>> assignment;
      assignment.emplace(subtask, std::exchange(plan[index], {}));
      context_.assignSplits(std::move(assignment));
    }
    context_.signalNoMoreSplits(subtask);
  }
  // Everything was assigned when the reader registered.
  void handleSplitRequest(int /*subtask*/) override {}
  void addSplitsBack(std::vector<FileSourceSplit> splits, int subtask) override {
    std::vector<std::vector<FileSourceSplit>>& plan = planned();
    const auto index = static_cast<size_t>(subtask);
    if (plan.size() <= index) plan.resize(index + 1);
    for (FileSourceSplit& split : splits) plan[index].push_back(std::move(split));
  }
  FileSourceEnumeratorState snapshotState(int64_t /*checkpointId*/) override {
    FileSourceEnumeratorState state;
    state.listed = plan_.has_value();
    if (plan_) {
      for (const std::vector<FileSourceSplit>& splits : *plan_) {
        state.unassigned.insert(state.unassigned.end(), splits.begin(), splits.end());
      }
    }
    return state;
  }

 private:
  std::vector<std::vector<FileSourceSplit>>& planned() {
    if (!plan_) plan_ = source_.planSplits(context_.currentParallelism());
    return *plan_;
  }

  connector::SplitEnumeratorContext<FileSourceSplit>& context_;
  const FileSource& source_;  // outlives its enumerator
  std::optional<std::vector<std::vector<FileSourceSplit>>> plan_;
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
    files.push_back(SourceFile{spec_.path, fs::file_size(spec_.path, error), {}, 0});
    std::error_code timeError;
    const auto written = fs::last_write_time(spec_.path, timeError);
    if (!timeError) files.back().modificationTimeNanos = epochNanosOf(written);
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
      SourceFile file{entry.path(), entry.file_size(error), {}, 0};
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
      std::error_code timeError;  // not `error`, which ends the listing
      const auto written = entry.last_write_time(timeError);
      if (!timeError) file.modificationTimeNanos = epochNanosOf(written);
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

std::vector<std::vector<size_t>> FileSource::assignFiles(int parallelism) const {
  const std::vector<SourceFile>& all = files();
  std::vector<size_t> bySize(all.size());
  for (size_t i = 0; i < all.size(); ++i) bySize[i] = i;
  std::stable_sort(bySize.begin(), bySize.end(),
                   [&](size_t left, size_t right) { return all[left].size > all[right].size; });
  const auto readers = static_cast<size_t>(std::max(1, parallelism));
  std::vector<uintmax_t> assignedBytes(readers, 0);
  std::vector<std::vector<size_t>> assignment(readers);
  for (size_t file : bySize) {
    size_t target = static_cast<size_t>(
        std::min_element(assignedBytes.begin(), assignedBytes.end()) - assignedBytes.begin());
    // Count empty files as one byte so that they are dealt round, too.
    assignedBytes[target] += std::max<uintmax_t>(all[file].size, 1);
    assignment[target].push_back(file);
  }
  for (std::vector<size_t>& mine : assignment) std::sort(mine.begin(), mine.end());
  return assignment;
}

std::vector<size_t> FileSource::filesOfSubtask(int subtaskIndex, int parallelism) const {
  std::vector<std::vector<size_t>> assignment = assignFiles(parallelism);
  const auto index = static_cast<size_t>(subtaskIndex);
  return index < assignment.size() ? std::move(assignment[index]) : std::vector<size_t>{};
}

std::vector<std::vector<FileSourceSplit>> FileSource::planSplits(int parallelism) const {
  const std::vector<SourceFile>& all = files();
  std::vector<std::vector<FileSourceSplit>> plan;
  for (const std::vector<size_t>& mine : assignFiles(parallelism)) {
    std::vector<FileSourceSplit>& splits = plan.emplace_back();
    for (size_t index : mine) {
      const SourceFile& file = all[index];
      FileSourceSplit split;
      split.id = std::to_string(index);
      split.path = file.path.string();
      split.fileSize = static_cast<int64_t>(file.size);
      split.modificationTimeNanos = file.modificationTimeNanos;
      split.partition = file.partition;
      splits.push_back(std::move(split));
    }
  }
  return plan;
}

std::unique_ptr<connector::SourceReader<vector::Chunk, FileSourceSplit>> FileSource::createReader(
    connector::SourceReaderContext& /*context*/) const {
  return std::make_unique<FileReader>(
      spec_,
      spec_.projection ? spec_.format->createProjectedDeserializer(*spec_.projection)
                       : spec_.format->createDeserializer(),
      counters_);
}

std::unique_ptr<connector::SplitEnumerator<FileSourceSplit, FileSourceEnumeratorState>>
FileSource::createEnumerator(connector::SplitEnumeratorContext<FileSourceSplit>& context) const {
  return std::make_unique<FileSplitEnumerator>(context, *this, std::nullopt);
}

std::unique_ptr<connector::SplitEnumerator<FileSourceSplit, FileSourceEnumeratorState>>
FileSource::restoreEnumerator(connector::SplitEnumeratorContext<FileSourceSplit>& context,
                              FileSourceEnumeratorState checkpoint) const {
  if (!checkpoint.listed) return createEnumerator(context);  // nothing was assigned
  // Round robin over the readers of this run, as connector::StaticSplitEnumerator.
  std::vector<std::vector<FileSourceSplit>> plan(
      static_cast<size_t>(std::max(1, context.currentParallelism())));
  for (size_t i = 0; i < checkpoint.unassigned.size(); ++i) {
    plan[i % plan.size()].push_back(std::move(checkpoint.unassigned[i]));
  }
  return std::make_unique<FileSplitEnumerator>(context, *this, std::move(plan));
}

std::string FileSourceSplitSerializer::serialize(const FileSourceSplit& split) const {
  connector::SerializedFieldWriter writer;
  writer.writeBytes(split.id);
  writer.writeBytes(split.path);
  writer.writeInt64(split.offset);
  writer.writeInt64(split.line);
  writer.writeInt64(split.fileSize);
  writer.writeInt64(split.modificationTimeNanos);
  writer.writeVarint(split.partition.size());
  for (const std::optional<std::string>& value : split.partition) {
    writer.writeVarint(value ? 1 : 0);
    if (value) writer.writeBytes(*value);
  }
  return writer.take();
}

FileSourceSplit FileSourceSplitSerializer::deserialize(int version,
                                                       std::string_view serialized) const {
  const std::string what = "a FileSource split";
  connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  FileSourceSplit split;
  split.id = std::string(reader.readBytes());
  split.path = std::string(reader.readBytes());
  split.offset = reader.readInt64();
  split.line = reader.readInt64();
  split.fileSize = reader.readInt64();
  split.modificationTimeNanos = reader.readInt64();
  const uint64_t values = reader.readVarint();
  if (values > reader.remaining()) {
    reader.fail("it claims " + std::to_string(values) + " partition values");
  }
  for (uint64_t i = 0; i < values; ++i) {
    const uint64_t present = reader.readVarint();
    if (present > 1) reader.fail("a partition value has the flag " + std::to_string(present));
    split.partition.push_back(present == 1 ? std::optional<std::string>(reader.readBytes())
                                           : std::nullopt);
  }
  reader.expectEnd();
  if (split.path.empty()) reader.fail("its path is empty");
  if (split.offset < 0 || split.line < 1) {
    reader.fail("its position (byte offset " + std::to_string(split.offset) + ", line " +
                std::to_string(split.line) + ") is not one");
  }
  return split;
}

std::string FileSourceEnumeratorStateSerializer::serialize(
    const FileSourceEnumeratorState& state) const {
  connector::SerializedFieldWriter writer;
  writer.writeVarint(state.listed ? 1 : 0);
  writer.writeVarint(state.unassigned.size());
  for (const FileSourceSplit& split : state.unassigned) {
    writer.writeBytes(connector::writeVersionAndSerialize(*splitSerializer_, split));
  }
  return writer.take();
}

FileSourceEnumeratorState FileSourceEnumeratorStateSerializer::deserialize(
    int version, std::string_view serialized) const {
  const std::string what = "the split enumerator state of a FileSource";
  connector::checkSerializedVersion(version, kVersion, what);
  connector::SerializedFieldReader reader(serialized, what);
  FileSourceEnumeratorState state;
  const uint64_t listed = reader.readVarint();
  if (listed > 1) reader.fail("its listed flag is " + std::to_string(listed));
  state.listed = listed == 1;
  const uint64_t count = reader.readVarint();
  if (count > reader.remaining()) reader.fail("it claims " + std::to_string(count) + " splits");
  if (!state.listed && count > 0) reader.fail("it has splits but no listing");
  state.unassigned.reserve(static_cast<size_t>(count));
  for (uint64_t i = 0; i < count; ++i) {
    state.unassigned.push_back(connector::readVersionAndDeserialize(
        *splitSerializer_, reader.readBytes(), "a FileSource split"));
  }
  reader.expectEnd();
  return state;
}

}  // namespace eddy::connectors

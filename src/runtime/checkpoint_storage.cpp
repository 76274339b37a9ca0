// Checkpoint directories on a local file system: the writer and the reader of the formats in
// docs/state_format.md, and the storage that names `<dir>/<job-id>/chk-<n>/`.
#include "runtime/checkpoint_storage.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <string_view>
#include <system_error>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "runtime/durable_file.h"

#include "eddy/state/keyed_state_backend.h"

#include "eddy/exceptions.h"

namespace eddy::runtime {

namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMetadataMagic = "EDDYCKPT";
constexpr std::string_view kStateFileMagic = "EDDYSTAT";
constexpr const char* kMetadataTemporaryName = "_metadata.inprogress";
constexpr size_t kChecksumSize = 8;
constexpr uint8_t kSubtaskFinished = 1;
constexpr uint8_t kSubtaskHasStateFile = 2;

uint64_t checksumOf(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

// Little-endian fixed-width integers, u32-length strings and u64-length blobs.
class ByteWriter {
 public:
  void putU8(uint8_t value) { bytes_.push_back(static_cast<char>(value)); }
  void putU32(uint32_t value) { putLittleEndian(value, 4); }
  void putU64(uint64_t value) { putLittleEndian(value, 8); }
  void putI32(int32_t value) { putU32(static_cast<uint32_t>(value)); }
  void putI64(int64_t value) { putU64(static_cast<uint64_t>(value)); }
  void putRaw(std::string_view raw) { bytes_.append(raw); }
  void putString(std::string_view text) {
    putU32(static_cast<uint32_t>(text.size()));
    bytes_.append(text);
  }
  void putBlob(std::string_view blob) {
    putU64(blob.size());
    bytes_.append(blob);
  }
  std::string_view bytes() const { return bytes_; }
  /// Appends the checksum of everything written so far and returns the bytes.
  std::string finishWithChecksum() {
    putU64(checksumOf(bytes_));
    return std::move(bytes_);
  }

 private:
  void putLittleEndian(uint64_t value, int width) {
    for (int i = 0; i < width; ++i) bytes_.push_back(static_cast<char>((value >> (8 * i)) & 0xff));
  }
  std::string bytes_;
};

// Reads what ByteWriter wrote; every read past the end is a truncated file, named.
class ByteReader {
 public:
  ByteReader(std::string_view bytes, std::string file) : bytes_(bytes), file_(std::move(file)) {}

  uint8_t getU8() { return static_cast<uint8_t>(take(1)[0]); }
  uint32_t getU32() { return static_cast<uint32_t>(getLittleEndian(4)); }
  uint64_t getU64() { return getLittleEndian(8); }
  int32_t getI32() { return static_cast<int32_t>(getU32()); }
  int64_t getI64() { return static_cast<int64_t>(getU64()); }
  std::string_view getRaw(size_t size) { return take(size); }
  std::string getString() { return std::string(take(getU32())); }
  std::string getBlob() { return std::string(take(getU64())); }
  bool atEnd() const { return position_ == bytes_.size(); }

 private:
  std::string_view take(uint64_t size) {
    if (size > bytes_.size() - position_) {
      throw ValidationException("The checkpoint file '" + file_ +
                                "' is truncated or corrupted: it ends inside a record.");
    }
    std::string_view taken = bytes_.substr(position_, size);
    position_ += size;
    return taken;
  }
  uint64_t getLittleEndian(int width) {
    std::string_view raw = take(static_cast<uint64_t>(width));
    uint64_t value = 0;
    for (int i = 0; i < width; ++i) value |= uint64_t{static_cast<uint8_t>(raw[i])} << (8 * i);
    return value;
  }

  std::string_view bytes_;
  size_t position_ = 0;
  std::string file_;
};

constexpr std::string_view kFileKind = "checkpoint file";

[[noreturn]] void throwWriteError(const fs::path& path, const std::string& what) {
  runtime::throwWriteError(path, what, kFileKind);
}
void fsyncDirectory(const fs::path& directory) { runtime::fsyncDirectory(directory, kFileKind); }
void writeDurably(const fs::path& path, std::string_view bytes) {
  runtime::writeDurably(path, bytes, kFileKind);
}

// A state file written piece by piece as ByteWriter would lay it out, its checksum computed
// as it goes: the snapshot's blocks go to the file as they are (no copy of the whole state).
class StateFileWriter {
 public:
  explicit StateFileWriter(const fs::path& path) : file_(path, kFileKind) {
    XXH3_64bits_reset(&hash_);
  }

  /// Appends what `fill(ByteWriter&)` writes (headers: a few bytes).
  template <typename Fill>
  void put(Fill&& fill) {
    ByteWriter header;
    fill(header);
    append(header.bytes());
  }
  void append(std::string_view bytes) {
    XXH3_64bits_update(&hash_, bytes.data(), bytes.size());
    file_.append(bytes);
  }
  /// Appends the checksum, makes the file durable; returns its size and checksum.
  std::pair<uint64_t, uint64_t> finish() {
    const uint64_t checksum = XXH3_64bits_digest(&hash_);
    ByteWriter trailer;
    trailer.putU64(checksum);
    file_.append(trailer.bytes());
    file_.finish();
    return {file_.size(), checksum};
  }

 private:
  DurableFileWriter file_;
  XXH3_state_t hash_;
};

/// Writes the header of a state file and its operator state entries.
void writeStateFileHead(StateFileWriter& file,
                        const std::map<std::string, std::string>& operatorState) {
  file.put([&](ByteWriter& header) {
    header.putRaw(kStateFileMagic);
    header.putU32(kCheckpointFormatVersion);
    header.putU32(static_cast<uint32_t>(operatorState.size()));
  });
  for (const auto& [name, blob] : operatorState) {
    file.put([&](ByteWriter& header) {
      header.putString(name);
      header.putU64(blob.size());
    });
    file.append(blob);
  }
}

/// Writes the state file of `snapshot` at `path`; returns its size and checksum.
std::pair<uint64_t, uint64_t> writeStateFile(const fs::path& path,
                                             const OperatorSnapshot& snapshot) {
  StateFileWriter file(path);
  writeStateFileHead(file, snapshot.operatorState);
  file.put([&](ByteWriter& header) {
    header.putU32(static_cast<uint32_t>(snapshot.keyedState.size()));
  });
  for (const auto& [keyGroup, blob] : snapshot.keyedState) {
    file.put([&](ByteWriter& header) {
      header.putI32(keyGroup);
      header.putU64(blob.size());
    });
    file.append(blob);
  }
  return file.finish();
}

// The sections of a frozen keyed state, appended to a state file as they are written.
class StateFileSections final : public state::KeyGroupSectionSink {
 public:
  explicit StateFileSections(StateFileWriter& file) : file_(file) {}
  void addSection(int keyGroup, std::string_view bytes) override {
    file_.put([&](ByteWriter& header) {
      header.putI32(keyGroup);
      header.putU64(bytes.size());
    });
    file_.append(bytes);
    stateBytes_ += std::ssize(bytes);
  }
  int64_t stateBytes() const { return stateBytes_; }

 private:
  StateFileWriter& file_;
  int64_t stateBytes_ = 0;
};

uint64_t trailingChecksum(std::string_view bytes) {
  ByteReader reader(bytes.substr(bytes.size() - kChecksumSize), "");
  return reader.getU64();
}

/// Checks the magic, the trailing checksum and the version of a metadata or state file and
/// returns a reader positioned after the version, over the bytes before the checksum.
ByteReader openChecked(std::string_view bytes, std::string_view magic, const std::string& file) {
  if (bytes.size() < magic.size() + 4 + kChecksumSize) {
    throw ValidationException("The checkpoint file '" + file + "' is truncated: it has " +
                              std::to_string(bytes.size()) + " bytes.");
  }
  if (bytes.substr(0, magic.size()) != magic) {
    throw ValidationException("The file '" + file + "' is not an eddy checkpoint file (it does not start with '" +
                              std::string(magic) + "').");
  }
  std::string_view body = bytes.substr(0, bytes.size() - kChecksumSize);
  if (checksumOf(body) != trailingChecksum(bytes)) {
    throw ValidationException("The checkpoint file '" + file +
                              "' is corrupted or truncated: its checksum does not match.");
  }
  ByteReader reader(body, file);
  reader.getRaw(magic.size());
  uint32_t version = reader.getU32();
  if (version != kCheckpointFormatVersion) {
    throw ValidationException("The checkpoint file '" + file + "' has format version " +
                              std::to_string(version) + ", which this eddy cannot read (it reads version " +
                              std::to_string(kCheckpointFormatVersion) + ").");
  }
  return reader;
}

std::string readWholeFile(const fs::path& path) {
  std::ifstream input(path, std::ios::binary);
  if (!input) {
    throw ValidationException("Cannot read the checkpoint file '" + path.string() + "'.");
  }
  return std::string(std::istreambuf_iterator<char>(input), std::istreambuf_iterator<char>());
}

OperatorSnapshot decodeStateFile(std::string_view bytes, const std::string& file) {
  ByteReader reader = openChecked(bytes, kStateFileMagic, file);
  OperatorSnapshot snapshot;
  uint32_t operatorStateCount = reader.getU32();
  for (uint32_t i = 0; i < operatorStateCount; ++i) {
    std::string name = reader.getString();
    snapshot.operatorState[std::move(name)] = reader.getBlob();
  }
  uint32_t keyGroupCount = reader.getU32();
  for (uint32_t i = 0; i < keyGroupCount; ++i) {
    int32_t keyGroup = reader.getI32();
    snapshot.keyedState[keyGroup] = reader.getBlob();
  }
  if (!reader.atEnd()) {
    throw ValidationException("The checkpoint file '" + file +
                              "' is corrupted: it has bytes after its last record.");
  }
  return snapshot;
}

/// Reads the state file at `file`, which `metadataName` recorded with `size` and `checksum`.
OperatorSnapshot readStateFile(const fs::path& file, uint64_t size, uint64_t checksum,
                               const std::string& metadataName) {
  std::error_code error;
  if (!fs::exists(file, error)) {
    throw ValidationException("The state file '" + file.string() + "' listed in '" +
                              metadataName + "' does not exist.");
  }
  std::string state = readWholeFile(file);
  if (state.size() != size) {
    throw ValidationException("The checkpoint file '" + file.string() +
                              "' is truncated or corrupted: it has " +
                              std::to_string(state.size()) + " bytes, '" + metadataName +
                              "' recorded " + std::to_string(size) + ".");
  }
  OperatorSnapshot snapshot = decodeStateFile(state, file.string());
  if (trailingChecksum(state) != checksum) {
    throw ValidationException("The checkpoint file '" + file.string() + "' is not the one '" +
                              metadataName + "' recorded (its checksum differs).");
  }
  return snapshot;
}

/// Whether a task wrote a state file of `checkpoint` itself (OperatorSnapshot::stateFile).
bool hasTaskStateFiles(const CompletedCheckpoint& checkpoint) {
  for (const auto& [uid, subtasks] : checkpoint.operators) {
    for (const OperatorSnapshot& snapshot : subtasks) {
      if (snapshot.stateFile) return true;
    }
  }
  return false;
}

std::string stateFileName(size_t operatorOrdinal, size_t subtask) {
  return "op-" + std::to_string(operatorOrdinal) + "-subtask-" + std::to_string(subtask);
}

}  // namespace

// ---- writing -------------------------------------------------------------------------

OperatorSnapshot::StateFile writeTaskStateFile(
    const fs::path& path, const std::map<std::string, std::string>& operatorState,
    state::FrozenKeyedState& keyedState) {
  StateFileWriter file(path);
  writeStateFileHead(file, operatorState);
  const KeyGroupRange range = keyedState.keyGroupRange();
  file.put([&](ByteWriter& header) { header.putU32(static_cast<uint32_t>(range.size())); });
  StateFileSections sections(file);
  keyedState.writeSections(sections);
  int64_t stateBytes = sections.stateBytes();
  for (const auto& [name, blob] : operatorState) stateBytes += std::ssize(blob);
  const auto [size, checksum] = file.finish();
  return OperatorSnapshot::StateFile{path.string(), size, checksum, stateBytes};
}

std::shared_ptr<const CompletedCheckpoint> withStateInMemory(
    std::shared_ptr<const CompletedCheckpoint> checkpoint) {
  if (checkpoint == nullptr || !hasTaskStateFiles(*checkpoint)) return checkpoint;
  auto loaded = std::make_shared<CompletedCheckpoint>(*checkpoint);
  const std::string metadata =
      "the metadata of checkpoint " + std::to_string(checkpoint->id) + " (in memory)";
  for (auto& [uid, subtasks] : loaded->operators) {
    for (OperatorSnapshot& snapshot : subtasks) {
      if (!snapshot.stateFile) continue;
      const OperatorSnapshot::StateFile file = *snapshot.stateFile;
      const bool finished = snapshot.finished;
      snapshot = readStateFile(file.path, file.size, file.checksum, metadata);
      snapshot.finished = finished;
    }
  }
  return loaded;
}

void writeCheckpointDirectory(const CompletedCheckpoint& checkpoint, const fs::path& directory) {
  std::error_code error;
  // An incomplete attempt with the same id goes; where the tasks wrote their state files into
  // the directory, the storage emptied it when the checkpoint was triggered.
  if (!hasTaskStateFiles(checkpoint)) fs::remove_all(directory, error);
  fs::remove(directory / kCheckpointMetadataFileName, error);
  fs::create_directories(directory, error);
  if (error) throwWriteError(directory, error.message());
  fsyncDirectory(directory.parent_path());

  ByteWriter metadata;
  metadata.putRaw(kMetadataMagic);
  metadata.putU32(kCheckpointFormatVersion);
  metadata.putI64(checkpoint.id);
  metadata.putI64(checkpoint.timestamp);
  metadata.putU8(checkpoint.options.isSavepoint() ? 1 : 0);
  metadata.putU8(checkpoint.options.isExactlyOnceMode() ? 0 : 1);
  metadata.putU32(static_cast<uint32_t>(checkpoint.operators.size()));
  size_t ordinal = 0;
  for (const auto& [uid, subtasks] : checkpoint.operators) {
    metadata.putString(uid);
    metadata.putU32(static_cast<uint32_t>(subtasks.size()));
    for (size_t subtask = 0; subtask < subtasks.size(); ++subtask) {
      const OperatorSnapshot& snapshot = subtasks[subtask];
      uint8_t flags = snapshot.finished ? kSubtaskFinished : 0;
      if (snapshot.empty()) {
        metadata.putU8(flags);
        continue;
      }
      metadata.putU8(flags | kSubtaskHasStateFile);
      if (snapshot.stateFile) {
        // Written by the task (writeTaskStateFile), fsynced; into this directory unless the
        // checkpoint is written elsewhere too (a copy then).
        const fs::path written = snapshot.stateFile->path;
        std::string name = written.filename().string();
        if (written.parent_path() != directory) writeDurably(directory / name, readWholeFile(written));
        metadata.putString(name);
        metadata.putU64(snapshot.stateFile->size);
        metadata.putU64(snapshot.stateFile->checksum);
        continue;
      }
      std::string name = stateFileName(ordinal, subtask);
      const auto [size, checksum] = writeStateFile(directory / name, snapshot);
      metadata.putString(name);
      metadata.putU64(size);
      metadata.putU64(checksum);
    }
    ++ordinal;
  }
  // The sources' split enumerators (CompletedCheckpoint::sourceCoordinators), small: inline.
  metadata.putU32(static_cast<uint32_t>(checkpoint.sourceCoordinators.size()));
  for (const auto& [uid, state] : checkpoint.sourceCoordinators) {
    metadata.putString(uid);
    metadata.putBlob(state);
  }
  // Last and atomically: a reader sees either no _metadata or all of it.
  fs::path temporary = directory / kMetadataTemporaryName;
  writeDurably(temporary, metadata.finishWithChecksum());
  fs::rename(temporary, directory / kCheckpointMetadataFileName, error);
  if (error) throwWriteError(directory / kCheckpointMetadataFileName, error.message());
  fsyncDirectory(directory);
}

// ---- reading -------------------------------------------------------------------------

std::shared_ptr<const CompletedCheckpoint> readCheckpoint(const fs::path& path) {
  std::error_code error;
  if (!fs::exists(path, error)) {
    throw ValidationException("Cannot find checkpoint or savepoint file/directory '" +
                              path.string() + "'.");
  }
  fs::path directory = path;
  fs::path metadataPath = path / kCheckpointMetadataFileName;
  if (!fs::is_directory(path, error)) {
    directory = path.parent_path();
    metadataPath = path;
  } else if (!fs::exists(metadataPath, error)) {
    throw ValidationException("Cannot find meta data file '_metadata' in directory '" +
                              path.string() +
                              "': the checkpoint is incomplete, or the path is not a checkpoint "
                              "or savepoint directory.");
  }

  const std::string metadataName = metadataPath.string();
  const std::string bytes = readWholeFile(metadataPath);
  ByteReader metadata = openChecked(bytes, kMetadataMagic, metadataName);
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = metadata.getI64();
  checkpoint->timestamp = metadata.getI64();
  checkpoint->options.snapshotType =
      metadata.getU8() == 1 ? SnapshotType::SAVEPOINT : SnapshotType::CHECKPOINT;
  checkpoint->options.alignment = metadata.getU8() == 0
                                      ? CheckpointOptions::AlignmentType::ALIGNED
                                      : CheckpointOptions::AlignmentType::AT_LEAST_ONCE;
  uint32_t operatorCount = metadata.getU32();
  for (uint32_t o = 0; o < operatorCount; ++o) {
    std::string uid = metadata.getString();
    std::vector<OperatorSnapshot>& subtasks = checkpoint->operators[uid];
    subtasks.resize(metadata.getU32());
    for (OperatorSnapshot& snapshot : subtasks) {
      uint8_t flags = metadata.getU8();
      if (flags & kSubtaskHasStateFile) {
        std::string name = metadata.getString();
        uint64_t size = metadata.getU64();
        uint64_t checksum = metadata.getU64();
        if (name.empty() || name.find('/') != std::string::npos || name == "." || name == "..") {
          throw ValidationException("The checkpoint file '" + metadataName +
                                    "' is corrupted: it names the state file '" + name + "'.");
        }
        snapshot = readStateFile(directory / name, size, checksum, metadataName);
      }
      snapshot.finished = (flags & kSubtaskFinished) != 0;
    }
  }
  uint32_t coordinatorCount = metadata.getU32();
  for (uint32_t c = 0; c < coordinatorCount; ++c) {
    std::string uid = metadata.getString();
    checkpoint->sourceCoordinators[uid] = metadata.getBlob();
  }
  if (!metadata.atEnd()) {
    throw ValidationException("The checkpoint file '" + metadataName +
                              "' is corrupted: it has bytes after its last record.");
  }
  return checkpoint;
}

void checkRestoredStateIsClaimed(const CompletedCheckpoint& checkpoint,
                                 const graph::JobGraph& graph, const std::string& path,
                                 bool allowNonRestoredState) {
  if (allowNonRestoredState) return;
  std::set<std::string, std::less<>> uids;
  for (const graph::JobVertex& vertex : graph.vertices) {
    for (const graph::ChainedOperator& chained : vertex.operators) uids.insert(chained.uid);
  }
  for (const auto& [uid, subtasks] : checkpoint.operators) {
    if (uids.contains(uid)) continue;
    bool hasState = checkpoint.sourceCoordinators.contains(uid);
    for (const OperatorSnapshot& snapshot : subtasks) hasState = hasState || !snapshot.empty();
    if (!hasState) continue;
    // Flink's StateAssignmentOperation#checkStateMappingCompleteness.
    throw ValidationException(
        "Failed to rollback to checkpoint/savepoint " + path +
        ". Cannot map checkpoint/savepoint state for operator " + uid +
        " to the new program, because the operator is not available in the new program. If "
        "you want to allow to skip this, you can set "
        "'execution.state-recovery.ignore-unclaimed-state' to true.");
  }
}

// ---- FileSystemCheckpointStorage -------------------------------------------------------

FileSystemCheckpointStorage::FileSystemCheckpointStorage(fs::path checkpointsDirectory,
                                                         std::string jobId)
    : jobDirectory_(std::move(checkpointsDirectory) / std::move(jobId)) {}

fs::path FileSystemCheckpointStorage::checkpointDirectory(int64_t id) const {
  return jobDirectory_ / ("chk-" + std::to_string(id));
}

std::string FileSystemCheckpointStorage::store(const CompletedCheckpoint& checkpoint) {
  fs::path directory = checkpointDirectory(checkpoint.id);
  std::error_code error;
  fs::create_directories(jobDirectory_, error);
  if (error) throwWriteError(jobDirectory_, error.message());
  try {
    writeCheckpointDirectory(checkpoint, directory);
  } catch (...) {
    fs::remove_all(directory, error);  // leave nothing of a failed checkpoint
    throw;
  }
  return directory.string();
}

fs::path FileSystemCheckpointStorage::stateDirectory(int64_t id) const {
  return checkpointDirectory(id);
}

void FileSystemCheckpointStorage::initializeLocation(int64_t id) noexcept {
  const fs::path directory = checkpointDirectory(id);
  std::error_code error;
  fs::remove_all(directory, error);  // an incomplete attempt with the same id
  fs::create_directories(directory, error);
  // The directory's entry is made durable with the _metadata (store() fsyncs the job's
  // directory before it writes it).
}

void FileSystemCheckpointStorage::discard(int64_t id) {
  std::error_code error;
  fs::remove_all(checkpointDirectory(id), error);
}

void FileSystemCheckpointStorage::close() {
  std::error_code error;
  // Directories of checkpoints that never completed (aborted while a task still wrote into
  // them): no _metadata, never read.
  for (fs::directory_iterator entry(jobDirectory_, error), end; !error && entry != end;
       entry.increment(error)) {
    const std::string name = entry->path().filename().string();
    if (name.starts_with("chk-") && entry->is_directory(error) &&
        !fs::exists(entry->path() / kCheckpointMetadataFileName, error)) {
      fs::remove_all(entry->path(), error);
    }
  }
  error.clear();
  if (fs::is_directory(jobDirectory_, error) && fs::is_empty(jobDirectory_, error)) {
    fs::remove(jobDirectory_, error);
  }
}

}  // namespace eddy::runtime

// FileSink: the DataStream file sink, Flink's FileSink of row formats
// (`FileSink.forRowFormat(path, encoder).build()`), exactly-once with checkpointing, on the sink
// SPI of eddy/connector/sink.h. Each subtask encodes its records (SimpleStringEncoder: one
// record per line, in its printed form, as print() prints it) into part files of the sink's
// directory, named as Flink names them:
//
//   <partPrefix>-<uuid>-<subtask>-<counter><partSuffix>      (OutputFileConfig; "part", "")
//
// A part file becomes visible under that name only once it is committed, by one rename; until
// then it is the hidden in-progress file `.<name>.inprogress` next to it (readers, eddy's
// FileSource and Flink's, skip names starting with '.').
// - Rolling: on every checkpoint (Flink's OnCheckpointRollingPolicy, the only policy of bulk
//   formats and a valid one for row formats; the size- and time-based DefaultRollingPolicy is
//   not supported). At checkpoint n the writer closes its in-progress file (written, fsynced):
//   the file's committable (bucket, in-progress name, final name) is pending for n, in the
//   checkpoint's state, and the next record starts a new file with the next counter.
// - Commit: when checkpoint n completes, the committer renames the files pending for n (and
//   earlier) to their final names and fsyncs the directory. A restore commits the restored
//   checkpoint's committables again (a file committed already is fine). Without checkpointing
//   (and in BATCH) everything is committed at the end of input. With checkpointing, what came
//   after the last checkpoint is committed by the final checkpoint after the end of input.
// - Buckets: one, the base directory (Flink's BasePathBucketAssigner; Flink's default
//   DateTimeBucketAssigner, `yyyy-MM-dd--HH` directories, is not supported).
// - Writer state (FileWriterBucketState): the UUID and subtask of the names the writer writes
//   and its next counter. A restored writer removes the in-progress files of every state it got
//   from that counter on (written after the checkpoint; a committable never names one of them),
//   and continues the UUID and counter of the state of its own subtask index; a writer without
//   one (a fresh start, a new subtask at a higher parallelism) writes under a new random UUID.
//   Counters whose final file exists (committed by a run that was not restored) are skipped.
//   Files a killed attempt wrote with a UUID no checkpoint knows stay behind, hidden.
//
// The writer keeps at most 1 MiB of encoded records before it writes them to its file; the
// records of a batch are encoded without a virtual call per record. I/O errors fail the job with
// ConnectorException naming the file and "FileSink '<path>'". The byte formats of the
// committable and the writer state are in docs/state_format.md "Sinks (Sink V2)".
#pragma once

#include <concepts>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eddy/connector/sink.h"
#include "eddy/exceptions.h"
#include "eddy/types/record_format.h"

namespace eddy {

// ---- Configuration ------------------------------------------------------------------------

/// The prefix and suffix of part file names (Flink's OutputFileConfig): `<prefix>-<uuid>-...`.
class OutputFileConfig {
 public:
  class Builder {
   public:
    Builder& withPartPrefix(std::string prefix) {
      prefix_ = std::move(prefix);
      return *this;
    }
    Builder& withPartSuffix(std::string suffix) {
      suffix_ = std::move(suffix);
      return *this;
    }
    OutputFileConfig build() const { return OutputFileConfig(prefix_, suffix_); }

   private:
    std::string prefix_ = "part";
    std::string suffix_;
  };
  static Builder builder() { return Builder(); }

  OutputFileConfig() = default;
  /// Throws ValidationException for a prefix or suffix with '/' or an empty prefix.
  OutputFileConfig(std::string partPrefix, std::string partSuffix)
      : partPrefix_(std::move(partPrefix)), partSuffix_(std::move(partSuffix)) {
    if (partPrefix_.empty() || partPrefix_.find('/') != std::string::npos ||
        partSuffix_.find('/') != std::string::npos) {
      throw ValidationException(
          "The part prefix of a FileSink must be a non-empty file name "
          "part and its suffix must not contain '/'.");
    }
  }
  const std::string& getPartPrefix() const { return partPrefix_; }
  const std::string& getPartSuffix() const { return partSuffix_; }

 private:
  std::string partPrefix_ = "part";
  std::string partSuffix_;
};

/// Rolls the part file on every checkpoint (Flink's OnCheckpointRollingPolicy): eddy's
/// FileSink has no other policy; withRollingPolicy takes it so that Flink's code reads the same.
class OnCheckpointRollingPolicy {
 public:
  static OnCheckpointRollingPolicy build() { return OnCheckpointRollingPolicy(); }
};

/// Encodes a record of a row-format FileSink (Flink's Encoder), appending its bytes to `out`.
/// FileSink takes any type with such an encode member; this interface is for encoders chosen
/// at run time.
template <typename IN>
class Encoder {
 public:
  virtual ~Encoder() = default;
  virtual void encode(const IN& element, std::string& out) const = 0;
};

/// One record per line: its printed form (eddy/types/record_format.h, what print() prints:
/// Java's toString), then '\n' (Flink's SimpleStringEncoder). UTF-8 only.
template <typename IN>
class SimpleStringEncoder final : public Encoder<IN> {
 public:
  SimpleStringEncoder() = default;
  /// Flink's charset argument; only "UTF-8" is supported (ValidationException otherwise).
  explicit SimpleStringEncoder(std::string_view charsetName) {
    if (charsetName != "UTF-8" && charsetName != "utf-8" && charsetName != "UTF8") {
      throw ValidationException("SimpleStringEncoder supports only UTF-8, not '" +
                                std::string(charsetName) + "'.");
    }
  }
  void encode(const IN& element, std::string& out) const override {
    RecordFormatter<IN>::append(element, out);
    out.push_back('\n');
  }
};

/// A type that encodes records of type IN for a row-format FileSink.
template <typename E, typename IN>
concept RowEncoder = std::copy_constructible<E> &&
    requires(const E& encoder, const IN& element, std::string& out) {
  encoder.encode(element, out);
};

// ---- Committables and writer state --------------------------------------------------------

/// A closed part file to commit (Flink's FileSinkCommittable with a pending file): in the
/// bucket's directory (relative to the base path; "" is the base path itself), rename
/// `inProgressFile` to `partFile`.
struct FileSinkCommittable {
  std::string bucketId;
  std::string inProgressFile;
  std::string partFile;
  friend bool operator==(const FileSinkCommittable&, const FileSinkCommittable&) = default;
};

/// What a FileSink writer keeps (Flink's FileWriterBucketState): the names it writes under
/// (`<partPrefix>-<uuid>-<subtask>-<counter><partSuffix>` in bucket `bucketId`) and the counter
/// of its next part file.
struct FileWriterBucketState {
  std::string bucketId;
  std::string uuid;
  int subtask = 0;
  int64_t nextCounter = 0;
  std::string partPrefix;
  std::string partSuffix;
  friend bool operator==(const FileWriterBucketState&, const FileWriterBucketState&) = default;
};

namespace file_sink_detail {
/// Throws (through `reader`) unless `name` is one file name (not empty, no '/', not . or ..).
inline void checkFileName(const connector::SerializedFieldReader& reader, std::string_view name,
                          std::string_view field) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string_view::npos) {
    reader.fail("its " + std::string(field) + " '" + std::string(name) + "' is not a file name");
  }
}
/// A bucket id: "" or a relative path without '..' components.
inline void checkBucketId(const connector::SerializedFieldReader& reader, std::string_view id) {
  const std::filesystem::path path{std::string(id)};
  bool escapes = path.is_absolute();
  for (const std::filesystem::path& part : path) escapes = escapes || part == "..";
  if (escapes) reader.fail("its bucket '" + std::string(id) + "' is not inside the base path");
}
}  // namespace file_sink_detail

/// Version 1: `bucketId:bytes inProgressFile:bytes partFile:bytes`.
class FileSinkCommittableSerializer final
    : public connector::SimpleVersionedSerializer<FileSinkCommittable> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const FileSinkCommittable& committable) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(committable.bucketId);
    writer.writeBytes(committable.inProgressFile);
    writer.writeBytes(committable.partFile);
    return writer.take();
  }
  FileSinkCommittable deserialize(int version, std::string_view serialized) const override {
    const std::string what = "a FileSink committable";
    connector::checkSerializedVersion(version, kVersion, what);
    connector::SerializedFieldReader reader(serialized, what);
    FileSinkCommittable committable;
    committable.bucketId = std::string(reader.readBytes());
    committable.inProgressFile = std::string(reader.readBytes());
    committable.partFile = std::string(reader.readBytes());
    reader.expectEnd();
    file_sink_detail::checkBucketId(reader, committable.bucketId);
    file_sink_detail::checkFileName(reader, committable.inProgressFile, "in-progress file");
    file_sink_detail::checkFileName(reader, committable.partFile, "part file");
    return committable;
  }
};

/// Version 1: `bucketId:bytes uuid:bytes subtask:varint nextCounter:varint partPrefix:bytes
/// partSuffix:bytes`.
class FileWriterBucketStateSerializer final
    : public connector::SimpleVersionedSerializer<FileWriterBucketState> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const FileWriterBucketState& state) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(state.bucketId);
    writer.writeBytes(state.uuid);
    writer.writeVarint(static_cast<uint64_t>(state.subtask));
    writer.writeVarint(static_cast<uint64_t>(state.nextCounter));
    writer.writeBytes(state.partPrefix);
    writer.writeBytes(state.partSuffix);
    return writer.take();
  }
  FileWriterBucketState deserialize(int version, std::string_view serialized) const override {
    const std::string what = "a FileSink writer state";
    connector::checkSerializedVersion(version, kVersion, what);
    connector::SerializedFieldReader reader(serialized, what);
    FileWriterBucketState state;
    state.bucketId = std::string(reader.readBytes());
    state.uuid = std::string(reader.readBytes());
    const uint64_t subtask = reader.readVarint();
    const uint64_t nextCounter = reader.readVarint();
    state.partPrefix = std::string(reader.readBytes());
    state.partSuffix = std::string(reader.readBytes());
    reader.expectEnd();
    if (subtask > static_cast<uint64_t>(std::numeric_limits<int>::max()) ||
        nextCounter > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      reader.fail("its subtask or counter is out of range");
    }
    state.subtask = static_cast<int>(subtask);
    state.nextCounter = static_cast<int64_t>(nextCounter);
    file_sink_detail::checkBucketId(reader, state.bucketId);
    file_sink_detail::checkFileName(reader, state.uuid, "UUID");
    file_sink_detail::checkFileName(reader, state.partPrefix, "part prefix");
    return state;
  }
};

// ---- The library's part -------------------------------------------------------------------

/// The part files one FileSink writer writes into its bucket (Flink's FileWriterBucket), as
/// bytes: the writer appends encoded records to buffer(), the bucket writes them to the
/// in-progress file, closes it into a committable, and restores. Implemented in the library
/// (src/connectors/filesystem/data_stream_file_sink.cpp). One task thread.
class FileWriterBucket {
 public:
  /// Bytes buffered before they are written to the file.
  static constexpr size_t kWriteBufferSize = 1 << 20;

  /// Creates the base path (and its parents) when missing; a new random UUID names its files
  /// until restore() continues an older one. `owner` names the sink in errors.
  FileWriterBucket(std::filesystem::path basePath, OutputFileConfig config, int subtaskIndex,
                   std::string owner);
  /// Closes an open file; removes nothing (a crash runs no destructor either).
  ~FileWriterBucket();
  FileWriterBucket(const FileWriterBucket&) = delete;
  FileWriterBucket& operator=(const FileWriterBucket&) = delete;

  /// A restore, before the first write: removes the in-progress files of every state from its
  /// nextCounter on, and continues the UUID and counter of the state of this subtask's index.
  void restore(const std::vector<FileWriterBucketState>& states);

  /// Where the writer appends encoded records; call writeIfFull() after appending.
  std::string& buffer() { return buffer_; }
  void writeIfFull() {
    if (buffer_.size() >= kWriteBufferSize) writeBuffer();
  }
  /// Writes the buffer to the in-progress file (created on first use) and hands it to the
  /// operating system.
  void flush();
  /// Writes, closes and fsyncs the in-progress file: its committable; nullopt when nothing was
  /// written since the last one.
  std::optional<FileSinkCommittable> closePartFile();
  FileWriterBucketState snapshotState() const;
  /// Closes and removes the in-progress file not closed into a committable (the writer's
  /// close(): a failed or cancelled subtask; a restore would remove it anyway).
  void discardInProgressFile();

 private:
  void writeBuffer();
  /// The next counter whose part file does not exist yet.
  int64_t nextFreeCounter();

  const std::filesystem::path directory_;  // the bucket's: the base path
  const OutputFileConfig config_;
  const int subtaskIndex_;
  const std::string owner_;
  std::string uuid_;
  int64_t nextCounter_ = 0;
  std::string buffer_;
  // The in-progress file, when one is open.
  std::FILE* file_ = nullptr;
  std::string partFileName_;
  std::string inProgressFileName_;
  std::filesystem::path inProgressPath_;
};

/// Commits FileSink committables: renames each in-progress file to its part file name
/// (signalAlreadyCommitted when that happened before), then fsyncs the directories. Implemented
/// in the library.
class FileCommitter final : public connector::Committer<FileSinkCommittable> {
 public:
  FileCommitter(std::filesystem::path basePath, std::string owner)
      : basePath_(std::move(basePath)), owner_(std::move(owner)) {}
  void commit(std::vector<connector::CommitRequest<FileSinkCommittable>>& requests) override;

 private:
  std::filesystem::path basePath_;
  std::string owner_;
};

// ---- The sink -----------------------------------------------------------------------------

/// A FileSink subtask's writer: encodes into its bucket.
template <typename IN, RowEncoder<IN> EncoderT>
class FileWriter final : public connector::CommittingSinkWriter<IN, FileSinkCommittable>,
                         public connector::StatefulSinkWriter<IN, FileWriterBucketState> {
 public:
  FileWriter(EncoderT encoder, std::filesystem::path basePath, OutputFileConfig config,
             int subtaskIndex, std::string owner)
      : encoder_(std::move(encoder)),
        bucket_(std::move(basePath), std::move(config), subtaskIndex, std::move(owner)) {}

  void restore(const std::vector<FileWriterBucketState>& states) { bucket_.restore(states); }

  void write(const IN& element, const connector::SinkWriterContext& /*context*/) override {
    encoder_.encode(element, bucket_.buffer());
    bucket_.writeIfFull();
  }
  void writeBatch(std::span<const IN> elements, std::span<const int64_t> /*timestamps*/,
                  connector::SinkWriterContext& /*context*/) override {
    std::string& buffer = bucket_.buffer();
    for (const IN& element : elements) encoder_.encode(element, buffer);
    bucket_.writeIfFull();
  }
  void flush(bool /*endOfInput*/) override { bucket_.flush(); }
  std::vector<FileSinkCommittable> prepareCommit() override {
    std::vector<FileSinkCommittable> committables;
    if (std::optional<FileSinkCommittable> closed = bucket_.closePartFile()) {
      committables.push_back(std::move(*closed));
    }
    return committables;
  }
  std::vector<FileWriterBucketState> snapshotState(int64_t /*checkpointId*/) override {
    return {bucket_.snapshotState()};
  }
  void close() override { bucket_.discardInProgressFile(); }

 private:
  EncoderT encoder_;
  FileWriterBucket bucket_;
};

template <typename IN, RowEncoder<IN> EncoderT = SimpleStringEncoder<IN>>
class FileSink;

/// What FileSink::forRowFormat returns (Flink's DefaultRowFormatBuilder).
template <typename IN, RowEncoder<IN> EncoderT>
class FileSinkRowFormatBuilder {
 public:
  FileSinkRowFormatBuilder(std::filesystem::path basePath, EncoderT encoder)
      : basePath_(std::move(basePath)), encoder_(std::move(encoder)) {}
  FileSinkRowFormatBuilder& withOutputFileConfig(OutputFileConfig config) {
    config_ = std::move(config);
    return *this;
  }
  FileSinkRowFormatBuilder& withRollingPolicy(OnCheckpointRollingPolicy /*policy*/) {
    return *this;
  }
  /// Throws ValidationException for an empty path.
  std::shared_ptr<FileSink<IN, EncoderT>> build() const {
    return std::make_shared<FileSink<IN, EncoderT>>(basePath_, encoder_, config_);
  }

 private:
  std::filesystem::path basePath_;
  EncoderT encoder_;
  OutputFileConfig config_;
};

/// The row-format file sink (see the file comment): records of IN, encoded by EncoderT, into
/// part files of one directory. Immutable; shared by the job's threads.
template <typename IN, RowEncoder<IN> EncoderT>
class FileSink final : public connector::Sink<IN>,
                       public connector::SupportsCommitter<FileSinkCommittable>,
                       public connector::SupportsWriterState<IN, FileWriterBucketState> {
 public:
  /// `FileSink<std::string>::forRowFormat("/out", SimpleStringEncoder<std::string>()).build()`.
  template <RowEncoder<IN> E>
  static FileSinkRowFormatBuilder<IN, E> forRowFormat(std::filesystem::path basePath, E encoder) {
    return FileSinkRowFormatBuilder<IN, E>(std::move(basePath), std::move(encoder));
  }

  FileSink(std::filesystem::path basePath, EncoderT encoder, OutputFileConfig config)
      : basePath_(std::move(basePath)),
        encoder_(std::move(encoder)),
        config_(std::move(config)),
        owner_("FileSink '" + basePath_.string() + "'") {
    if (basePath_.empty()) throw ValidationException("The path of a FileSink must not be empty.");
  }

  std::unique_ptr<connector::SinkWriter<IN>> createWriter(
      connector::WriterInitContext& context) const override {
    return newWriter(context);
  }
  std::unique_ptr<connector::StatefulSinkWriter<IN, FileWriterBucketState>> restoreWriter(
      connector::WriterInitContext& context,
      std::vector<FileWriterBucketState> recoveredState) const override {
    auto writer = newWriter(context);
    writer->restore(recoveredState);
    return writer;
  }
  std::unique_ptr<connector::Committer<FileSinkCommittable>> createCommitter(
      connector::CommitterInitContext& /*context*/) const override {
    return std::make_unique<FileCommitter>(basePath_, owner_);
  }
  const connector::SimpleVersionedSerializer<FileSinkCommittable>& getCommittableSerializer()
      const override {
    return committableSerializer_;
  }
  const connector::SimpleVersionedSerializer<FileWriterBucketState>& getWriterStateSerializer()
      const override {
    return stateSerializer_;
  }

  const std::filesystem::path& getBasePath() const { return basePath_; }
  const OutputFileConfig& getOutputFileConfig() const { return config_; }

 private:
  std::unique_ptr<FileWriter<IN, EncoderT>> newWriter(connector::WriterInitContext& context) const {
    return std::make_unique<FileWriter<IN, EncoderT>>(encoder_, basePath_, config_,
                                                      context.getSubtaskId(), owner_);
  }

  std::filesystem::path basePath_;
  EncoderT encoder_;
  OutputFileConfig config_;
  std::string owner_;
  FileSinkCommittableSerializer committableSerializer_;
  FileWriterBucketStateSerializer stateSerializer_;
};

}  // namespace eddy

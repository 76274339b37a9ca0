// Durable local files: the write-then-fsync steps that checkpoint storage and the
// high-availability records share (a file written and fsynced before it is renamed into place,
// its directory fsynced after). Errors are ConnectorException (retriable), worded
// "Could not write <kind> '<path>': <reason>", so each caller names its own kind of file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace eddy::runtime {

[[noreturn]] void throwWriteError(const std::filesystem::path& path, const std::string& what,
                                  std::string_view kind);
/// A file written in pieces, then fsynced (finish): checkpoint state files are written from the
/// snapshots' blocks as they are, without first being copied into one string. Small pieces
/// are gathered into a buffer, large ones written directly. A writer destroyed before finish()
/// closes the file as it is (its caller discards the directory it is in).
class DurableFileWriter {
 public:
  /// Creates or truncates `path`; errors as writeDurably's.
  DurableFileWriter(std::filesystem::path path, std::string_view kind);
  ~DurableFileWriter();
  DurableFileWriter(const DurableFileWriter&) = delete;
  DurableFileWriter& operator=(const DurableFileWriter&) = delete;

  void append(std::string_view bytes);
  /// Bytes appended so far.
  uint64_t size() const { return size_; }
  /// Writes what is buffered, fsyncs and closes the file.
  void finish();

 private:
  void writeFully(std::string_view bytes);
  [[noreturn]] void fail(int error);

  std::filesystem::path path_;
  std::string kind_;
  int descriptor_ = -1;
  std::string buffer_;
  uint64_t size_ = 0;
};

/// Writes `bytes` to `path` (created or truncated) and fsyncs it.
void writeDurably(const std::filesystem::path& path, std::string_view bytes, std::string_view kind);
/// fsyncs `directory`, so that a rename or create in it survives a crash.
void fsyncDirectory(const std::filesystem::path& directory, std::string_view kind);

}  // namespace eddy::runtime

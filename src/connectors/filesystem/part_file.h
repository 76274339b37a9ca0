// Part files: the files eddy's file sinks write, named as Flink's FileSink names them, and the
// steps of their exactly-once commit. Shared by the SQL filesystem sink (file_sink.h) and the
// DataStream FileSink (include/eddy/connector/file_sink.h):
//
//   <prefix>-<uuid>-<subtask>-<counter><suffix>     a committed part file (prefix "part")
//   .<prefix>-<uuid>-<subtask>-<counter><suffix>.inprogress
//                                                   the same file while it is written, and
//                                                   until the checkpoint that closed it completes
//
// A sink writes the hidden in-progress file (openPartFile, writeToPartFile), makes it durable
// when it closes it for a checkpoint (closePartFile, fsyncPath), and commits it with one rename
// to its final name once that checkpoint has completed (commitPartFile), then makes the
// directory entry durable (fsyncPath on the directory). A restore commits again what its
// checkpoint holds (a file committed already is fine: commits are idempotent) and removes the
// in-progress files a subtask wrote after the checkpoint (removeInProgressPartFiles), so that
// what is visible is exactly what the restored checkpoint covers.
//
// `owner` names the sink in error messages, as "table 't'" or "FileSink '/out'". Every I/O
// error is a ConnectorException naming the file. Free functions without state; any thread.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::connectors {

/// What ends the name of an in-progress part file.
inline constexpr std::string_view kInProgressSuffix = ".inprogress";

/// `<prefix>-<uuid>-<subtask>-<counter><suffix>` (Flink's part file name).
std::string partFileName(std::string_view prefix, std::string_view uuid, int subtask,
                         int64_t counter, std::string_view suffix = {});
/// `.<partFileName>.inprogress`: hidden from readers (eddy's FileSource and Flink's skip names
/// starting with '.').
std::string inProgressFileName(std::string_view partFileName);

/// Creates `path` for writing ("wb"), or opens it to append ("ab") with `append`; creates its
/// parent directories first when it creates the file.
std::FILE* openPartFile(const std::filesystem::path& path, bool append, std::string_view owner);
/// Writes all of `bytes` to `file` (opened on `path`).
void writeToPartFile(std::FILE* file, std::string_view bytes, const std::filesystem::path& path,
                     std::string_view owner);
/// Hands what `file` buffers to the operating system (fflush; not yet durable).
void flushPartFile(std::FILE* file, const std::filesystem::path& path, std::string_view owner);
/// Closes `file`; it is gone also when this throws.
void closePartFile(std::FILE* file, const std::filesystem::path& path, std::string_view owner);

/// Makes `path` (a written file, or a directory after entries changed) durable (fsync).
void fsyncPath(const std::filesystem::path& path, std::string_view owner);
/// Renames `from` to `to` (replacing `to`).
void renameFile(const std::filesystem::path& from, const std::filesystem::path& to,
                std::string_view owner);

/// What commitPartFile did.
enum class PartFileCommit { kRenamed, kAlreadyCommitted };

/// Commits a closed part file: renames `inProgress` to `final`. When `inProgress` is gone and
/// `final` exists, the file was committed before (the notification of a later checkpoint ran
/// before a failure, and a restore commits it again): kAlreadyCommitted. When neither exists,
/// throws ConnectorException (the checkpoint's file was removed by someone else). The caller
/// fsyncs the directory after its commits.
PartFileCommit commitPartFile(const std::filesystem::path& inProgress,
                              const std::filesystem::path& final, std::string_view owner);

/// The in-progress files of one subtask's part files of one UUID from a counter on:
/// `.<namePrefix><counter><nameSuffix>.inprogress` with counter >= firstCounter, where
/// namePrefix is `<prefix>-<uuid>-<subtask>-` and nameSuffix the part suffix.
struct InProgressPartFiles {
  std::string namePrefix;
  std::string nameSuffix;
  int64_t firstCounter = 0;
};

/// Restore: removes the in-progress files of `series` in `directory` (with `recursive`, also
/// in its sub-directories whose names do not start with '.'): the files their subtasks wrote
/// after the restored checkpoint. A directory that does not exist has none.
void removeInProgressPartFiles(const std::filesystem::path& directory,
                               const std::vector<InProgressPartFiles>& series, bool recursive,
                               std::string_view owner);

}  // namespace eddy::connectors

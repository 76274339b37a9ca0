// Durable local files: the write-then-fsync steps that checkpoint storage and the
// high-availability records share (a file written and fsynced before it is renamed into place,
// its directory fsynced after). Errors are ConnectorException (retriable), worded
// "Could not write <kind> '<path>': <reason>", so each caller names its own kind of file.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace eddy::runtime {

[[noreturn]] void throwWriteError(const std::filesystem::path& path, const std::string& what,
                                  std::string_view kind);
/// Writes `bytes` to `path` (created or truncated) and fsyncs it.
void writeDurably(const std::filesystem::path& path, std::string_view bytes, std::string_view kind);
/// fsyncs `directory`, so that a rename or create in it survives a crash.
void fsyncDirectory(const std::filesystem::path& directory, std::string_view kind);

}  // namespace eddy::runtime

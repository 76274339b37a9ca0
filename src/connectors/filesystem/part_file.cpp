#include "connectors/filesystem/part_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <system_error>
#include <utility>

#include "eddy/exceptions.h"

namespace eddy::connectors {

namespace fs = std::filesystem;

std::string partFileName(std::string_view prefix, std::string_view uuid, int subtask,
                         int64_t counter, std::string_view suffix) {
  return fmt::format("{}-{}-{}-{}{}", prefix, uuid, subtask, counter, suffix);
}

std::string inProgressFileName(std::string_view partFileName) {
  std::string name;
  name.reserve(1 + partFileName.size() + kInProgressSuffix.size());
  name.push_back('.');
  name.append(partFileName);
  name.append(kInProgressSuffix);
  return name;
}

std::FILE* openPartFile(const fs::path& path, bool append, std::string_view owner) {
  if (!append) {
    std::error_code ignored;  // a failure shows as the fopen's
    fs::create_directories(path.parent_path(), ignored);
  }
  std::FILE* file = std::fopen(path.c_str(), append ? "ab" : "wb");
  if (file == nullptr) {
    throw ConnectorException(fmt::format("Failed to create the file '{}' of {}: {}", path.string(),
                                         owner, std::strerror(errno)));
  }
  return file;
}

void writeToPartFile(std::FILE* file, std::string_view bytes, const fs::path& path,
                     std::string_view owner) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file) != bytes.size()) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of {}: {}", path.string(),
                                         owner, std::strerror(errno)));
  }
}

void flushPartFile(std::FILE* file, const fs::path& path, std::string_view owner) {
  if (std::fflush(file) != 0) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of {}: {}", path.string(),
                                         owner, std::strerror(errno)));
  }
}

void closePartFile(std::FILE* file, const fs::path& path, std::string_view owner) {
  if (std::fclose(file) != 0) {
    throw ConnectorException(fmt::format("Failed to write the file '{}' of {}: {}", path.string(),
                                         owner, std::strerror(errno)));
  }
}

void fsyncPath(const fs::path& path, std::string_view owner) {
  int descriptor = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0 || ::fsync(descriptor) != 0) {
    std::string message = std::strerror(errno);
    if (descriptor >= 0) ::close(descriptor);
    throw ConnectorException(
        fmt::format("Failed to sync the file '{}' of {}: {}", path.string(), owner, message));
  }
  ::close(descriptor);
}

void renameFile(const fs::path& from, const fs::path& to, std::string_view owner) {
  std::error_code error;
  fs::rename(from, to, error);
  if (error) {
    throw ConnectorException(fmt::format("Failed to rename the file '{}' of {} to '{}': {}",
                                         from.string(), owner, to.string(), error.message()));
  }
}

PartFileCommit commitPartFile(const fs::path& inProgress, const fs::path& final,
                              std::string_view owner) {
  std::error_code ignored;
  if (!fs::exists(inProgress, ignored)) {
    if (fs::exists(final, ignored)) return PartFileCommit::kAlreadyCommitted;
    throw ConnectorException(fmt::format(
        "The file '{}' of {} that the restored checkpoint holds is gone: neither it nor its "
        "committed name '{}' exists.",
        inProgress.string(), owner, final.string()));
  }
  renameFile(inProgress, final, owner);
  return PartFileCommit::kRenamed;
}

namespace {

// Whether `name` is an in-progress file of `series`.
bool isInProgressFileOf(std::string_view name, const InProgressPartFiles& series) {
  if (!name.starts_with('.')) return false;
  name.remove_prefix(1);
  if (!name.starts_with(series.namePrefix) || !name.ends_with(kInProgressSuffix)) return false;
  name.remove_prefix(series.namePrefix.size());
  name.remove_suffix(kInProgressSuffix.size());
  if (!name.ends_with(series.nameSuffix)) return false;
  name.remove_suffix(series.nameSuffix.size());
  int64_t counter = 0;
  const auto [end, error] = std::from_chars(name.data(), name.data() + name.size(), counter);
  if (error != std::errc() || end != name.data() + name.size() || name.empty()) return false;
  return counter >= series.firstCounter;
}

}  // namespace

void removeInProgressPartFiles(const fs::path& directory,
                               const std::vector<InProgressPartFiles>& series, bool recursive,
                               std::string_view owner) {
  if (series.empty()) return;
  std::vector<fs::path> later;
  auto consider = [&](const fs::directory_entry& entry) {
    const std::string name = entry.path().filename().string();
    for (const InProgressPartFiles& files : series) {
      if (isInProgressFileOf(name, files)) {
        later.push_back(entry.path());
        return;
      }
    }
  };
  std::error_code error;
  if (recursive) {
    fs::recursive_directory_iterator entries(directory, error);
    for (; !error && entries != fs::recursive_directory_iterator(); entries.increment(error)) {
      std::error_code ignored;
      if (entries->is_directory(ignored)) {
        // Hidden directories (staging) are not the sink's subtasks'.
        if (entries->path().filename().string().starts_with('.')) {
          entries.disable_recursion_pending();
        }
        continue;
      }
      consider(*entries);
    }
  } else {
    fs::directory_iterator entries(directory, error);
    for (; !error && entries != fs::directory_iterator(); entries.increment(error)) {
      std::error_code ignored;
      if (entries->is_regular_file(ignored)) consider(*entries);
    }
  }
  for (const fs::path& path : later) {
    std::error_code removeError;
    if (!fs::remove(path, removeError) && removeError) {
      throw ConnectorException(fmt::format(
          "Failed to remove the file '{}' of {} written after the restored checkpoint: {}",
          path.string(), owner, removeError.message()));
    }
  }
}

}  // namespace eddy::connectors

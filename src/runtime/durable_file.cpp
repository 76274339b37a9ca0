#include "runtime/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "eddy/exceptions.h"

namespace eddy::runtime {

namespace fs = std::filesystem;

void throwWriteError(const fs::path& path, const std::string& what, std::string_view kind) {
  throw ConnectorException(
      "Could not write " + std::string(kind) + " '" + path.string() + "': " + what,
      /*retriable=*/true);
}

void writeDurably(const fs::path& path, std::string_view bytes, std::string_view kind) {
  int descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor < 0) throwWriteError(path, std::strerror(errno), kind);
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t result = ::write(descriptor, bytes.data() + written, bytes.size() - written);
    if (result < 0) {
      if (errno == EINTR) continue;
      int error = errno;
      ::close(descriptor);
      throwWriteError(path, std::strerror(error), kind);
    }
    written += static_cast<size_t>(result);
  }
  if (::fsync(descriptor) != 0) {
    int error = errno;
    ::close(descriptor);
    throwWriteError(path, std::strerror(error), kind);
  }
  if (::close(descriptor) != 0) throwWriteError(path, std::strerror(errno), kind);
}

void fsyncDirectory(const fs::path& directory, std::string_view kind) {
  int descriptor = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (descriptor < 0) throwWriteError(directory, std::strerror(errno), kind);
  int result = ::fsync(descriptor);
  int error = errno;
  ::close(descriptor);
  if (result != 0) throwWriteError(directory, std::strerror(error), kind);
}

}  // namespace eddy::runtime

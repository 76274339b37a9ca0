#include "runtime/durable_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "eddy/exceptions.h"

namespace eddy::runtime {

namespace fs = std::filesystem;

void throwWriteError(const fs::path& path, const std::string& what, std::string_view kind) {
  throw ConnectorException(
      "Could not write " + std::string(kind) + " '" + path.string() + "': " + what,
      /*retriable=*/true);
}

namespace {
// Pieces at least this large skip the buffer; the buffer is written when it would outgrow it.
constexpr size_t kWriteBufferSize = size_t{1} << 20;
}  // namespace

DurableFileWriter::DurableFileWriter(fs::path path, std::string_view kind)
    : path_(std::move(path)), kind_(kind) {
  descriptor_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor_ < 0) throwWriteError(path_, std::strerror(errno), kind_);
}

DurableFileWriter::~DurableFileWriter() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

void DurableFileWriter::append(std::string_view bytes) {
  size_ += bytes.size();
  if (buffer_.size() + bytes.size() > kWriteBufferSize) {
    writeFully(buffer_);
    buffer_.clear();
  }
  if (bytes.size() >= kWriteBufferSize) {
    writeFully(bytes);
  } else {
    buffer_.append(bytes);
  }
}

void DurableFileWriter::finish() {
  writeFully(buffer_);
  std::string().swap(buffer_);
  if (::fsync(descriptor_) != 0) fail(errno);
  const int descriptor = std::exchange(descriptor_, -1);
  if (::close(descriptor) != 0) throwWriteError(path_, std::strerror(errno), kind_);
}

void DurableFileWriter::writeFully(std::string_view bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t result = ::write(descriptor_, bytes.data() + written, bytes.size() - written);
    if (result < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    written += static_cast<size_t>(result);
  }
}

void DurableFileWriter::fail(int error) {
  ::close(std::exchange(descriptor_, -1));
  throwWriteError(path_, std::strerror(error), kind_);
}

void writeDurably(const fs::path& path, std::string_view bytes, std::string_view kind) {
  DurableFileWriter file(path, kind);
  file.append(bytes);
  file.finish();
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

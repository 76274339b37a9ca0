#include "client/progress_line.h"

#include <unistd.h>

#include <string>

#include "eddy/types/temporal.h"

namespace eddy::client {

namespace {

constexpr std::chrono::milliseconds kFirstShownAfter{1000};
constexpr std::chrono::milliseconds kRefreshInterval{250};
constexpr const char* kEraseLine = "\r\x1b[K";

void writeAll(int descriptor, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t written = write(descriptor, text.data() + done, text.size() - done);
    if (written <= 0) return;  // a closed stderr loses the line, nothing else
    done += static_cast<size_t>(written);
  }
}

}  // namespace

ProgressLine::ProgressLine(int descriptor, const TableResult& result, bool countsRows)
    : descriptor_(descriptor), result_(result), countsRows_(countsRows), ticker_([this] { tick(); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    eraseLocked();
  }
  stop_.notify_all();
  ticker_.join();
}

bool ProgressLine::wanted() { return isatty(STDERR_FILENO) == 1; }

std::unique_lock<std::mutex> ProgressLine::pause() {
  std::unique_lock lock(mutex_);
  eraseLocked();
  return lock;
}

std::string ProgressLine::format(std::chrono::milliseconds elapsed, int64_t rowsRead,
                                 int64_t rowsWritten, int64_t watermark, int64_t numRestarts) {
  auto count = [](int64_t rows) { return rows < 0 ? std::string("-") : std::to_string(rows); };
  std::string shownWatermark = "-";
  if (watermark == INT64_MAX) {
    shownWatermark = "end of input";
  } else if (watermark != INT64_MIN) {
    shownWatermark = LocalDateTime::ofEpochMillis(watermark).toString();
  }
  return "[RUNNING] " + std::to_string(elapsed.count() / 1000) + " s elapsed, rows read " +
         count(rowsRead) + ", rows written " + count(rowsWritten) + ", watermark " +
         shownWatermark + (numRestarts > 0 ? ", restarts " + std::to_string(numRestarts) : "");
}

void ProgressLine::eraseLocked() {
  if (!shown_) return;
  writeAll(descriptor_, kEraseLine);
  shown_ = false;
}

void ProgressLine::tick() {
  std::unique_lock lock(mutex_);
  if (stop_.wait_until(lock, start_ + kFirstShownAfter, [this] { return stopping_; })) return;
  while (!stopping_) {
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - start_);
    const JobProgress job = result_.getJobProgress();
    writeAll(descriptor_, kEraseLine + format(elapsed, job.rowsRead,
                                              countsRows_ ? rowsWritten_.load() : job.rowsWritten,
                                              job.watermark, job.numRestarts));
    shown_ = true;
    stop_.wait_for(lock, kRefreshInterval, [this] { return stopping_; });
  }
}

}  // namespace eddy::client

// AsyncSnapshotWriter: one worker thread and a queue (see the header).
#include "runtime/async_snapshot_writer.h"

namespace eddy::runtime {

AsyncSnapshotWriter::~AsyncSnapshotWriter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  if (worker_.joinable()) worker_.join();
}

void AsyncSnapshotWriter::submit(std::function<void()> work) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(work));
    if (!worker_.joinable()) worker_ = std::thread([this] { runWorker(); });
  }
  changed_.notify_all();
}

void AsyncSnapshotWriter::drain() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return queue_.empty() && !running_; });
}

void AsyncSnapshotWriter::runWorker() {
  std::unique_lock lock(mutex_);
  while (true) {
    // Work queued before the destructor ran is still done: its checkpoint may complete.
    changed_.wait(lock, [&] { return !queue_.empty() || stopping_; });
    if (queue_.empty()) return;
    std::function<void()> work = std::move(queue_.front());
    queue_.pop_front();
    running_ = true;
    lock.unlock();
    work();
    work = nullptr;  // what the work held is released off the lock
    lock.lock();
    running_ = false;
    changed_.notify_all();
  }
}

}  // namespace eddy::runtime

// AsyncSnapshotWriter: the thread on which one task writes its frozen snapshots (Flink's
// asynchronous part of a checkpoint, the AsyncCheckpointRunnable on the task's async
// operations pool). The task freezes its operators' state on its own thread, hands the rest —
// writing the frozen state into bytes and acknowledging the checkpoint — to this writer, and
// goes on with its records.
//
// Work runs in submission order on one thread, started at the first submit. drain() waits
// until everything submitted has run (a task calls it before it tells the job it finished, so
// its acknowledgements are in first); the destructor drains and joins.
//
// Threading: submit and drain are called by the owning task thread; the work runs on the
// writer's thread and must not touch the task's operators or their state.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace eddy::runtime {

class AsyncSnapshotWriter {
 public:
  AsyncSnapshotWriter() = default;
  ~AsyncSnapshotWriter();
  AsyncSnapshotWriter(const AsyncSnapshotWriter&) = delete;
  AsyncSnapshotWriter& operator=(const AsyncSnapshotWriter&) = delete;

  /// Runs `work` on the writer's thread after the work submitted before. `work` must not throw.
  void submit(std::function<void()> work);
  /// Returns once every work submitted so far has run.
  void drain();

 private:
  void runWorker();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool running_ = false;  // a work is running now
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace eddy::runtime

#include "client/query_interruption.h"

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <mutex>

namespace eddy::client {

namespace {

constexpr int kPollMillis = 50;

// The self-pipe, created once: [0] is read by the watcher, [1] written by the handler.
int interruptPipe[2] = {-1, -1};

void onInterrupt(int) {
  int savedErrno = errno;
  char byte = 'i';
  // Nothing to do on failure: a full pipe already holds an unread interrupt.
  [[maybe_unused]] ssize_t written = write(interruptPipe[1], &byte, 1);
  errno = savedErrno;
}

void drain(int descriptor) {
  char buffer[64];
  while (read(descriptor, buffer, sizeof(buffer)) > 0) {
  }
}

}  // namespace

QueryInterruption::QueryInterruption(TableResult& result, int quitKeyInput)
    : result_(result), quitKeyInput_(quitKeyInput) {
  static std::once_flag created;
  std::call_once(created, [] {
    if (pipe2(interruptPipe, O_CLOEXEC | O_NONBLOCK) != 0) interruptPipe[0] = -1;
  });
  if (interruptPipe[0] >= 0) {
    drain(interruptPipe[0]);  // an interrupt from an earlier query is not this one's
    struct sigaction action = {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &previousAction_);
  }
  if (quitKeyInput_ >= 0 && tcgetattr(quitKeyInput_, &previousTerminalMode_) == 0) {
    // Keys arrive one at a time and are not echoed; ISIG stays, so Ctrl-C still signals.
    termios mode = previousTerminalMode_;
    mode.c_lflag &= ~static_cast<tcflag_t>(ICANON | ECHO);
    mode.c_cc[VMIN] = 0;
    mode.c_cc[VTIME] = 0;
    terminalModeChanged_ = tcsetattr(quitKeyInput_, TCSANOW, &mode) == 0;
  }
  watcher_ = std::thread([this] { watch(); });
}

QueryInterruption::~QueryInterruption() {
  stopping_.store(true);
  watcher_.join();
  if (interruptPipe[0] >= 0) sigaction(SIGINT, &previousAction_, nullptr);
  if (terminalModeChanged_) tcsetattr(quitKeyInput_, TCSANOW, &previousTerminalMode_);
}

void QueryInterruption::watch() {
  while (!stopping_.load()) {
    pollfd descriptors[2] = {{interruptPipe[0], POLLIN, 0},
                             {terminalModeChanged_ ? quitKeyInput_ : -1, POLLIN, 0}};
    if (poll(descriptors, 2, kPollMillis) <= 0) continue;
    bool interrupt = false;
    if (descriptors[0].revents & POLLIN) {
      drain(interruptPipe[0]);
      interrupt = true;
    }
    if (descriptors[1].revents & POLLIN) {
      char key = 0;
      while (read(quitKeyInput_, &key, 1) == 1) {
        if (std::toupper(static_cast<unsigned char>(key)) == 'Q') interrupt = true;
      }
    }
    if (interrupt && !interrupted_.exchange(true)) result_.cancel();
  }
}

}  // namespace eddy::client

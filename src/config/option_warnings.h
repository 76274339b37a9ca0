// Where warnings about options go: an unknown key, or a key eddy does not honour yet, set
// with SET. By default they are printed to stderr as "[WARNING] <message>"; a front end (the
// SQL client) installs its own handler for the statements it runs. The handler is per
// thread: it applies to the statements the installing thread executes.
#pragma once

#include <functional>
#include <string>

namespace eddy::config {

using OptionWarningHandler = std::function<void(const std::string& message)>;

/// Passes `message` to this thread's handler.
void reportOptionWarning(const std::string& message);

/// Installs a handler for this thread while it lives; restores the previous one after.
class ScopedOptionWarningHandler {
 public:
  explicit ScopedOptionWarningHandler(OptionWarningHandler handler);
  ~ScopedOptionWarningHandler();
  ScopedOptionWarningHandler(const ScopedOptionWarningHandler&) = delete;
  ScopedOptionWarningHandler& operator=(const ScopedOptionWarningHandler&) = delete;

 private:
  OptionWarningHandler previous_;
};

}  // namespace eddy::config

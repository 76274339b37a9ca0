#include "config/option_warnings.h"

#include <iostream>

namespace eddy::config {
namespace {

thread_local OptionWarningHandler currentHandler;

}  // namespace

void reportOptionWarning(const std::string& message) {
  if (currentHandler) {
    currentHandler(message);
  } else {
    std::cerr << "[WARNING] " << message << "\n";
  }
}

ScopedOptionWarningHandler::ScopedOptionWarningHandler(OptionWarningHandler handler)
    : previous_(std::move(currentHandler)) {
  currentHandler = std::move(handler);
}

ScopedOptionWarningHandler::~ScopedOptionWarningHandler() { currentHandler = std::move(previous_); }

}  // namespace eddy::config

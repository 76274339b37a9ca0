// Invariant checks. They guard eddy's own assumptions (never user input, which gets a
// ValidationException) and throw InternalError with both operands printed, so a broken
// invariant fails the job with a readable message instead of crashing the process.
#pragma once

#include <sstream>
#include <string>

#include "eddy/exceptions.h"

namespace eddy::common {

[[noreturn]] void throwCheckFailure(const char* file, int line, const std::string& message);

template <typename A, typename B>
[[noreturn]] void throwComparisonFailure(const char* file, int line, const char* expression,
                                         const A& left, const B& right) {
  std::ostringstream message;
  message << "Check failed: " << expression << " (" << left << " vs. " << right << ")";
  throwCheckFailure(file, line, message.str());
}

}  // namespace eddy::common

#define EDDY_CHECK(condition)                                                         \
  do {                                                                                \
    if (!(condition)) [[unlikely]]                                                    \
      ::eddy::common::throwCheckFailure(__FILE__, __LINE__, "Check failed: " #condition); \
  } while (0)

#define EDDY_CHECK_OP(left, op, right)                                                  \
  do {                                                                                  \
    const auto& eddyCheckLeft = (left);                                                 \
    const auto& eddyCheckRight = (right);                                               \
    if (!(eddyCheckLeft op eddyCheckRight)) [[unlikely]]                                \
      ::eddy::common::throwComparisonFailure(__FILE__, __LINE__, #left " " #op " " #right, \
                                             eddyCheckLeft, eddyCheckRight);            \
  } while (0)

#define EDDY_CHECK_EQ(left, right) EDDY_CHECK_OP(left, ==, right)
#define EDDY_CHECK_NE(left, right) EDDY_CHECK_OP(left, !=, right)
#define EDDY_CHECK_LT(left, right) EDDY_CHECK_OP(left, <, right)
#define EDDY_CHECK_LE(left, right) EDDY_CHECK_OP(left, <=, right)
#define EDDY_CHECK_GT(left, right) EDDY_CHECK_OP(left, >, right)
#define EDDY_CHECK_GE(left, right) EDDY_CHECK_OP(left, >=, right)

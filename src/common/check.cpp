#include "common/check.h"

namespace eddy::common {

void throwCheckFailure(const char* file, int line, const std::string& message) {
  throw InternalError(message + " at " + file + ":" + std::to_string(line));
}

}  // namespace eddy::common

#include "function/evaluation_context.h"

namespace eddy::function {

std::mt19937_64& EvaluationContext::random() {
  if (!random_) {
    std::random_device device;
    random_.emplace((static_cast<uint64_t>(device()) << 32) ^ device());
  }
  return *random_;
}

}  // namespace eddy::function

// StateTtlConfig::Builder::build: the one place a TTL config is validated.
#include "eddy/state/state_ttl_config.h"

#include <string>

#include "eddy/exceptions.h"

namespace eddy {

StateTtlConfig StateTtlConfig::Builder::build() const {
  if (ttl_.count() <= 0) {
    throw ValidationException("State TTL must be positive, got " + std::to_string(ttl_.count()) +
                              " ms");
  }
  return StateTtlConfig(ttl_, updateType_, stateVisibility_, cleanupFullSnapshot_);
}

}  // namespace eddy

// StateTtlConfig::Builder::build: the one place a TTL config is validated.
#include "eddy/state/state_ttl_config.h"

#include <optional>
#include <string>

#include "eddy/exceptions.h"

namespace eddy {

StateTtlConfig StateTtlConfig::Builder::build() const {
  if (ttl_.count() <= 0) {
    throw ValidationException("State TTL must be positive, got " + std::to_string(ttl_.count()) +
                              " ms");
  }
  if (std::optional<IncrementalCleanupStrategy> incremental =
          cleanupStrategies_.getIncrementalCleanupStrategy();
      incremental && incremental->getCleanupSize() <= 0) {
    throw ValidationException(
        "Number of incrementally cleaned up state entries should be positive, got " +
        std::to_string(incremental->getCleanupSize()));
  }
  return StateTtlConfig(ttl_, updateType_, stateVisibility_, cleanupStrategies_);
}

}  // namespace eddy

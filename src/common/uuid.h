// Random (version 4) UUIDs in their 8-4-4-4-12 lower-case hex form, as Java's
// UUID.randomUUID().toString() writes them: part file names of the filesystem sink and the
// UUID() SQL function.
#pragma once

#include <random>
#include <string>

namespace eddy::common {

/// A version 4 UUID drawn from `random`.
std::string randomUuid(std::mt19937_64& random);
/// A version 4 UUID from a generator seeded by std::random_device.
std::string randomUuid();

}  // namespace eddy::common

#include "common/uuid.h"

#include <fmt/format.h>

namespace eddy::common {

std::string randomUuid(std::mt19937_64& random) {
  uint64_t high = random();
  uint64_t low = random();
  high = (high & ~uint64_t{0xF000}) | 0x4000;                    // version 4
  low = (low & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);  // IETF variant
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", high >> 32, (high >> 16) & 0xFFFF,
                     high & 0xFFFF, low >> 48, low & 0xFFFFFFFFFFFFULL);
}

std::string randomUuid() {
  std::random_device device;
  std::mt19937_64 random((static_cast<uint64_t>(device()) << 32) ^ device());
  return randomUuid(random);
}

}  // namespace eddy::common

#include "common/session_time_zone.h"

#include <date/tz.h>
#include <fmt/format.h>

#include <chrono>
#include <stdexcept>

#include "eddy/exceptions.h"

namespace eddy::common {
namespace {

constexpr int64_t kMillisPerSecond = 1000;

int64_t floorDivide(int64_t value, int64_t divisor) {
  int64_t quotient = value / divisor;
  return (value % divisor != 0 && ((value < 0) != (divisor < 0))) ? quotient - 1 : quotient;
}

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// java.time.ZoneOffset.of: `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (or `-`),
// at most 18 hours. The offset in seconds, or nullopt.
std::optional<int64_t> parseOffsetSeconds(std::string_view text) {
  if (text.size() < 2 || (text[0] != '+' && text[0] != '-')) return std::nullopt;
  std::string_view digits = text.substr(1);
  auto twoDigits = [&](size_t at) -> std::optional<int> {
    if (at + 2 > digits.size() || !isDigit(digits[at]) || !isDigit(digits[at + 1])) {
      return std::nullopt;
    }
    return (digits[at] - '0') * 10 + (digits[at + 1] - '0');
  };
  std::optional<int> hours, minutes = 0, seconds = 0;
  switch (digits.size()) {
    case 1:
      if (!isDigit(digits[0])) return std::nullopt;
      hours = digits[0] - '0';
      break;
    case 2:
      hours = twoDigits(0);
      break;
    case 4:
      hours = twoDigits(0);
      minutes = twoDigits(2);
      break;
    case 5:
      if (digits[2] != ':') return std::nullopt;
      hours = twoDigits(0);
      minutes = twoDigits(3);
      break;
    case 6:
      hours = twoDigits(0);
      minutes = twoDigits(2);
      seconds = twoDigits(4);
      break;
    case 8:
      if (digits[2] != ':' || digits[5] != ':') return std::nullopt;
      hours = twoDigits(0);
      minutes = twoDigits(3);
      seconds = twoDigits(6);
      break;
    default:
      return std::nullopt;
  }
  if (!hours || !minutes || !seconds || *hours > 18 || *minutes > 59 || *seconds > 59) {
    return std::nullopt;
  }
  int64_t total = *hours * 3600 + *minutes * 60 + *seconds;
  if (total > 18 * 3600) return std::nullopt;
  return text[0] == '-' ? -total : total;
}

// ZoneOffset's id: `Z` for zero, else `+hh:mm[:ss]`.
std::string offsetId(int64_t seconds) {
  if (seconds == 0) return "Z";
  int64_t magnitude = seconds < 0 ? -seconds : seconds;
  std::string id = fmt::format("{}{:02d}:{:02d}", seconds < 0 ? '-' : '+', magnitude / 3600,
                               magnitude / 60 % 60);
  if (magnitude % 60 != 0) id += fmt::format(":{:02d}", magnitude % 60);
  return id;
}

}  // namespace

std::optional<SessionTimeZone> SessionTimeZone::parse(std::string_view id) {
  SessionTimeZone zone;
  if (id == "default" || id == "UTC") return zone;  // eddy's default is UTC
  if (id == "Z" || id == "GMT" || id == "UT") {
    zone.id_ = std::string(id);
    return zone;
  }
  if (!id.empty() && (id[0] == '+' || id[0] == '-')) {
    std::optional<int64_t> seconds = parseOffsetSeconds(id);
    if (!seconds) return std::nullopt;
    zone.fixedOffsetMillis_ = *seconds * kMillisPerSecond;
    zone.id_ = offsetId(*seconds);
    return zone;
  }
  for (std::string_view prefix : {"UTC", "GMT", "UT"}) {
    if (id.size() > prefix.size() && id.starts_with(prefix) &&
        (id[prefix.size()] == '+' || id[prefix.size()] == '-')) {
      std::optional<int64_t> seconds = parseOffsetSeconds(id.substr(prefix.size()));
      if (!seconds) return std::nullopt;
      zone.fixedOffsetMillis_ = *seconds * kMillisPerSecond;
      zone.id_ = std::string(prefix) + (*seconds == 0 ? "" : offsetId(*seconds));
      return zone;
    }
  }
  // A region of the tz database (java.time's region ids start with a letter).
  if (id.empty() || !((id[0] >= 'A' && id[0] <= 'Z') || (id[0] >= 'a' && id[0] <= 'z'))) {
    return std::nullopt;
  }
  try {
    zone.zone_ = date::locate_zone(id);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
  zone.id_ = std::string(id);
  return zone;
}

std::string SessionTimeZone::invalidMessage(std::string_view id) {
  return fmt::format(
      "Invalid time zone '{}' for key 'table.local-time-zone'. The value should be a Time Zone "
      "Database (TZDB) ID such as 'America/Los_Angeles' to include daylight saving time. Fixed "
      "offsets are supported using 'GMT-03:00' or 'GMT+03:00'. Or use 'UTC' without time zone "
      "and daylight saving time.",
      id);
}

SessionTimeZone SessionTimeZone::of(std::string_view id) {
  std::optional<SessionTimeZone> zone = parse(id);
  if (!zone) throw ValidationException(invalidMessage(id));
  return *zone;
}

int64_t SessionTimeZone::offsetMillisAt(int64_t epochMillis) const {
  if (zone_ == nullptr) return fixedOffsetMillis_;
  date::sys_seconds instant{std::chrono::seconds(floorDivide(epochMillis, kMillisPerSecond))};
  return zone_->get_info(instant).offset.count() * kMillisPerSecond;
}

int64_t SessionTimeZone::toEpochMillis(int64_t localMillis) const {
  if (zone_ == nullptr) return localMillis - fixedOffsetMillis_;
  date::local_seconds local{std::chrono::seconds(floorDivide(localMillis, kMillisPerSecond))};
  // Unique, in a gap or in an overlap: the offset before the transition is the one java.time
  // applies (a gap time moves forward by the gap, an overlap time takes the earlier offset).
  return localMillis - zone_->get_info(local).first.offset.count() * kMillisPerSecond;
}

}  // namespace eddy::common

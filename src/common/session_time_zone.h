// SessionTimeZone: the time zone of a session, Flink's `table.local-time-zone`, in which
// TIMESTAMP_LTZ values (instants) are read as wall-clock times: casts to and from TIMESTAMP,
// DATE, TIME and strings, the fields and FLOOR/CEIL of an LTZ value, CURRENT_DATE and the
// other local current-time functions, UNIX_TIMESTAMP/FROM_UNIXTIME, and the tableau printer.
//
// A zone is a region of the tz database (`Europe/Berlin`, with its daylight saving rules, read
// from /usr/share/zoneinfo by Howard Hinnant's date library) or a fixed offset, spelled as
// java.time.ZoneId.of accepts it: `UTC`, `GMT`, `UT`, `Z`, `+08:00`, `-5`, `UTC+8`,
// `GMT+08:00`, `UT-03:30` (hours up to 18). eddy's default, the value `default`, is UTC
// (Flink's is the JVM's zone).
//
// The id is resolved once (`of`, when a plan is bound or a result printed); the conversions
// are per-value offset lookups (a binary search over the zone's transitions), cheap enough for
// the vectorized kernels. A SessionTimeZone is a small immutable value (the region data is
// owned by the date library for the life of the process); any thread.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace date {
class time_zone;
}

namespace eddy::common {

class SessionTimeZone {
 public:
  /// UTC.
  SessionTimeZone() = default;

  /// The zone `id` names, or nullopt when it names none. `default` is UTC.
  static std::optional<SessionTimeZone> parse(std::string_view id);
  /// The zone `id` names; throws ValidationException naming `table.local-time-zone` and the
  /// value when it names none.
  static SessionTimeZone of(std::string_view id);
  /// The message `of` throws for an invalid id.
  static std::string invalidMessage(std::string_view id);

  /// The normalized id: `Europe/Berlin`, `UTC`, `UTC+08:00`, `+05:30`.
  const std::string& id() const { return id_; }
  bool isUtc() const { return zone_ == nullptr && fixedOffsetMillis_ == 0; }

  /// Milliseconds the wall clock is ahead of UTC at the instant `epochMillis`.
  int64_t offsetMillisAt(int64_t epochMillis) const;
  /// The wall-clock time (as epoch milliseconds of a TIMESTAMP) at the instant `epochMillis`.
  int64_t toLocalMillis(int64_t epochMillis) const {
    return epochMillis + offsetMillisAt(epochMillis);
  }
  /// The instant of the wall-clock time `localMillis`, as java.time's
  /// LocalDateTime.atZone(zone).toInstant(): a time in a gap (spring forward) is moved forward
  /// by the gap's length, a time in an overlap (fall back) takes the earlier offset.
  int64_t toEpochMillis(int64_t localMillis) const;

  bool operator==(const SessionTimeZone& other) const { return id_ == other.id_; }

 private:
  std::string id_ = "UTC";
  const date::time_zone* zone_ = nullptr;  // null: the fixed offset below
  int64_t fixedOffsetMillis_ = 0;
};

}  // namespace eddy::common

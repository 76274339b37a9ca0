// SessionTimeZone: the zone ids Flink's `table.local-time-zone` accepts (java.time.ZoneId.of),
// and the conversions between instants and wall-clock times around daylight saving changes.
#include "common/session_time_zone.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy::common {
namespace {

constexpr int64_t kHour = 3'600'000;
// 2021-08-21T13:00:00Z and 2021-01-01T00:00:00Z.
constexpr int64_t kSummer = 1'629'550'800'000;
constexpr int64_t kWinter = 1'609'459'200'000;

TEST(SessionTimeZoneTest, DefaultAndUtcAreUtc) {
  EXPECT_TRUE(SessionTimeZone().isUtc());
  EXPECT_TRUE(SessionTimeZone::of("default").isUtc());
  EXPECT_EQ(SessionTimeZone::of("default").id(), "UTC");
  EXPECT_EQ(SessionTimeZone::of("UTC").toLocalMillis(kSummer), kSummer);
}

TEST(SessionTimeZoneTest, FixedOffsetsAreSpelledAsJavaTimeNormalizesThem) {
  EXPECT_EQ(SessionTimeZone::of("GMT+08:00").id(), "GMT+08:00");
  EXPECT_EQ(SessionTimeZone::of("UTC+8").id(), "UTC+08:00");
  EXPECT_EQ(SessionTimeZone::of("+0530").id(), "+05:30");
  EXPECT_EQ(SessionTimeZone::of("-08:00:30").id(), "-08:00:30");
  EXPECT_EQ(SessionTimeZone::of("UT-3").id(), "UT-03:00");
  EXPECT_EQ(SessionTimeZone::of("UTC+0").id(), "UTC");
  EXPECT_EQ(SessionTimeZone::of("+00:00").id(), "Z");
  EXPECT_EQ(SessionTimeZone::of("UTC+8").offsetMillisAt(kSummer), 8 * kHour);
  EXPECT_EQ(SessionTimeZone::of("GMT-05:30").offsetMillisAt(kWinter), -11 * kHour / 2);
  EXPECT_EQ(SessionTimeZone::of("+18:00").offsetMillisAt(0), 18 * kHour);
}

TEST(SessionTimeZoneTest, InvalidIdsAreRejected) {
  for (const char* id : {"Mars/Olympus", "", "+19", "+18:01", "GMT+8:00", "UTC+08:60", "+8:00",
                         "utc+8", "GMT+", "/etc/passwd", "1Europe"}) {
    EXPECT_FALSE(SessionTimeZone::parse(id).has_value()) << id;
  }
  try {
    SessionTimeZone::of("Mars/Olympus");
    FAIL() << "no exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Invalid time zone 'Mars/Olympus' for key 'table.local-time-zone'. The value "
                 "should be a Time Zone Database (TZDB) ID such as 'America/Los_Angeles' to "
                 "include daylight saving time. Fixed offsets are supported using 'GMT-03:00' or "
                 "'GMT+03:00'. Or use 'UTC' without time zone and daylight saving time.");
  }
}

TEST(SessionTimeZoneTest, RegionsFollowDaylightSavingTime) {
  SessionTimeZone berlin = SessionTimeZone::of("Europe/Berlin");
  EXPECT_EQ(berlin.id(), "Europe/Berlin");
  EXPECT_EQ(berlin.offsetMillisAt(kSummer), 2 * kHour);
  EXPECT_EQ(berlin.offsetMillisAt(kWinter), kHour);
  EXPECT_EQ(berlin.toEpochMillis(kSummer + 2 * kHour), kSummer);
  EXPECT_EQ(SessionTimeZone::of("Asia/Shanghai").toLocalMillis(kSummer), kSummer + 8 * kHour);
}

TEST(SessionTimeZoneTest, GapAndOverlapResolveAsJavaTimeDoes) {
  SessionTimeZone berlin = SessionTimeZone::of("Europe/Berlin");
  // 2021-03-28 02:30 does not exist in Berlin: it moves forward to 03:30 CEST (01:30Z).
  constexpr int64_t kGapLocal = 1'616'898'600'000;  // 2021-03-28T02:30 as a local timestamp
  EXPECT_EQ(berlin.toEpochMillis(kGapLocal), kGapLocal - kHour);
  EXPECT_EQ(berlin.toLocalMillis(berlin.toEpochMillis(kGapLocal)), kGapLocal + kHour);
  // 2021-10-31 02:30 happens twice: the earlier offset, CEST (+02:00), wins.
  constexpr int64_t kOverlapLocal = 1'635'647'400'000;  // 2021-10-31T02:30
  EXPECT_EQ(berlin.toEpochMillis(kOverlapLocal), kOverlapLocal - 2 * kHour);
  EXPECT_EQ(berlin.toLocalMillis(kOverlapLocal - 2 * kHour), kOverlapLocal);
  EXPECT_EQ(berlin.toLocalMillis(kOverlapLocal - kHour), kOverlapLocal);
  // Before 1970 and with milliseconds.
  EXPECT_EQ(berlin.toLocalMillis(-1), -1 + kHour);
  EXPECT_EQ(berlin.toEpochMillis(-1 + kHour), -1);
}

}  // namespace
}  // namespace eddy::common

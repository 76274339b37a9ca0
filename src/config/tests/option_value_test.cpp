// Option values in Flink's forms: durations, memory sizes, booleans, numbers.
#include "config/option_value.h"

#include <gtest/gtest.h>

namespace eddy::config {
namespace {

using std::chrono::milliseconds;

TEST(OptionValueTest, DurationsInFlinksForms) {
  EXPECT_EQ(parseDuration("60s"), milliseconds(60'000));
  EXPECT_EQ(parseDuration("5 s"), milliseconds(5'000));
  EXPECT_EQ(parseDuration("10 min"), milliseconds(600'000));
  EXPECT_EQ(parseDuration("24 h"), milliseconds(86'400'000));
  EXPECT_EQ(parseDuration("500 ms"), milliseconds(500));
  EXPECT_EQ(parseDuration("1d"), milliseconds(86'400'000));
  EXPECT_EQ(parseDuration("2 MIN"), milliseconds(120'000));
  EXPECT_EQ(parseDuration("3 seconds"), milliseconds(3'000));
  EXPECT_EQ(parseDuration("1500"), milliseconds(1'500));  // no unit: milliseconds
  EXPECT_EQ(parseDuration(" 7m "), milliseconds(420'000));
  EXPECT_EQ(parseDuration("2000000 ns"), milliseconds(2));
}

TEST(OptionValueTest, RejectsMalformedDurations) {
  EXPECT_EQ(parseDuration("10 parsecs"), std::nullopt);
  EXPECT_EQ(parseDuration(""), std::nullopt);
  EXPECT_EQ(parseDuration("s"), std::nullopt);
  EXPECT_EQ(parseDuration("-5 s"), std::nullopt);
  EXPECT_EQ(parseDuration("1.5 s"), std::nullopt);
  EXPECT_EQ(parseDuration("99999999999999999999 d"), std::nullopt);
}

TEST(OptionValueTest, MemorySizesArePowersOf1024) {
  EXPECT_EQ(parseMemorySize("512mb"), 512ull << 20);
  EXPECT_EQ(parseMemorySize("1 gb"), 1ull << 30);
  EXPECT_EQ(parseMemorySize("64kb"), 64ull << 10);
  EXPECT_EQ(parseMemorySize("64 KB"), 64ull << 10);
  EXPECT_EQ(parseMemorySize("100"), 100u);
  EXPECT_EQ(parseMemorySize("2 t"), 2ull << 40);
  EXPECT_EQ(parseMemorySize("12 furlongs"), std::nullopt);
  EXPECT_EQ(parseMemorySize("mb"), std::nullopt);
}

TEST(OptionValueTest, BooleansIntegersAndNumbers) {
  EXPECT_EQ(parseBoolean("TRUE"), true);
  EXPECT_EQ(parseBoolean("false"), false);
  EXPECT_EQ(parseBoolean("yes"), std::nullopt);
  EXPECT_EQ(parseInteger("42"), 42);
  EXPECT_EQ(parseInteger("-1"), -1);
  EXPECT_EQ(parseInteger("4 2"), std::nullopt);
  EXPECT_EQ(parseInteger("four"), std::nullopt);
  EXPECT_EQ(parseDouble("0.5"), 0.5);
  EXPECT_EQ(parseDouble("half"), std::nullopt);
}

}  // namespace
}  // namespace eddy::config

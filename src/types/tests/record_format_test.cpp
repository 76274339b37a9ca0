// Record formatting: what DataStream print() shows for each C++ record type, and the Java
// Double.toString / Float.toString rules.
#include "eddy/types/record_format.h"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>

namespace eddy {
namespace {

struct Point {
  int x;
  int y;
};
std::ostream& operator<<(std::ostream& stream, const Point& point) {
  return stream << "Point{x=" << point.x << ", y=" << point.y << "}";
}

TEST(RecordFormatTest, OtherTypesUseTheirStreamOperator) {
  EXPECT_EQ(formatRecord(Point{1, 2}), "Point{x=1, y=2}");
  EXPECT_EQ(formatRecord(std::vector<Point>{{1, 2}}), "[Point{x=1, y=2}]");
}

TEST(RecordFormatTest, AtomicRecordsPrintAsJavaToString) {
  EXPECT_EQ(formatRecord(std::string("Alice")), "Alice");
  EXPECT_EQ(formatRecord(std::string_view("Bob")), "Bob");
  EXPECT_EQ(formatRecord("John"), "John");
  EXPECT_EQ(formatRecord(42), "42");
  EXPECT_EQ(formatRecord(int8_t{-3}), "-3");
  EXPECT_EQ(formatRecord(int64_t{-9'000'000'000}), "-9000000000");
  EXPECT_EQ(formatRecord(true), "true");
  EXPECT_EQ(formatRecord(10.5), "10.5");
  EXPECT_EQ(formatRecord(1e10), "1.0E10");
  EXPECT_EQ(formatRecord(0.1f), "0.1");
  EXPECT_EQ(formatRecord(Decimal::fromString("10.00")), "10.00");
  EXPECT_EQ(formatRecord(LocalDateTime::of(2021, 8, 21, 13, 0)), "2021-08-21T13:00");
  EXPECT_EQ(formatRecord(Instant::ofEpochMilli(0)), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatRecord(Row::of("Alice", 12)), "+I[Alice, 12]");
  EXPECT_EQ(formatRecord(Value(nullptr)), "null");
}

TEST(RecordFormatTest, CompositeRecordsPrintAsFlinkTuplesAndJavaCollections) {
  EXPECT_EQ(formatRecord(std::pair<std::string, int>{"a", 1}), "(a,1)");
  EXPECT_EQ(formatRecord(std::make_tuple(std::string("a"), 1, 2.5)), "(a,1,2.5)");
  EXPECT_EQ(formatRecord(std::pair<bool, Row>{false, Row::of("Alice", 12)}),
            "(false,+I[Alice, 12])");
  EXPECT_EQ(formatRecord(std::vector<int>{1, 2}), "[1, 2]");
  EXPECT_EQ(formatRecord(std::vector<std::string>{}), "[]");
  EXPECT_EQ(formatRecord(std::optional<int>{}), "null");
  EXPECT_EQ(formatRecord(std::optional<int>{3}), "3");
  EXPECT_EQ(formatRecord(std::vector<std::pair<std::string, double>>{{"x", 1.0}}), "[(x,1.0)]");
}

TEST(RecordFormatTest, FormatDoubleFollowsJava) {
  EXPECT_EQ(formatDouble(0.001), "0.001");
  EXPECT_EQ(formatDouble(0.0009), "9.0E-4");
  EXPECT_EQ(formatDouble(1.0 / 3), "0.3333333333333333");
  EXPECT_EQ(formatDouble(2e-3), "0.002");
  EXPECT_EQ(formatDouble(-1.5), "-1.5");
  EXPECT_EQ(formatDouble(1e21), "1.0E21");
  EXPECT_EQ(formatDouble(1234567.0), "1234567.0");
  EXPECT_EQ(formatDouble(12345678.9), "1.23456789E7");
  EXPECT_EQ(formatDouble(DBL_MAX), "1.7976931348623157E308");
  EXPECT_EQ(formatDouble(4.9e-324), "4.9E-324");
  EXPECT_EQ(formatDouble(-std::nan("")), "NaN");
  EXPECT_EQ(formatDouble(112.0), "112.0");
}

TEST(RecordFormatTest, FormatFloatFollowsJava) {
  EXPECT_EQ(formatFloat(0.1f), "0.1");
  EXPECT_EQ(formatFloat(1.0f / 3), "0.33333334");
  EXPECT_EQ(formatFloat(1e10f), "1.0E10");
  EXPECT_EQ(formatFloat(FLT_MAX), "3.4028235E38");
  EXPECT_EQ(formatFloat(1.4e-45f), "1.4E-45");
  EXPECT_EQ(formatFloat(100.0f), "100.0");
  EXPECT_EQ(formatFloat(-0.0f), "-0.0");
}

}  // namespace
}  // namespace eddy

// Vector: physical layouts, typed buffers, validity, and Value conversion per logical type.
#include "vector/vector.h"

#include <gtest/gtest.h>

#include <limits>

#include "eddy/exceptions.h"
#include "eddy/row.h"

namespace eddy::vector {
namespace {

TEST(VectorTest, LayoutFollowsTheLogicalType) {
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("BOOLEAN")), PhysicalLayout::kBoolean);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("INT")), PhysicalLayout::kInt32);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("DATE")), PhysicalLayout::kInt32);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("TIME(3)")), PhysicalLayout::kInt64);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("DECIMAL(12, 2)")), PhysicalLayout::kInt128);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("TIMESTAMP(9)")), PhysicalLayout::kTimestamp);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("TIMESTAMP_LTZ(3)")), PhysicalLayout::kTimestamp);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("STRING")), PhysicalLayout::kVariableWidth);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("BYTES")), PhysicalLayout::kVariableWidth);
  EXPECT_EQ(physicalLayoutOf(*parseLogicalType("ARRAY<INT>")), PhysicalLayout::kBoxed);
}

TEST(VectorTest, FixedWidthValuesAreContiguousWithAValidityBitmap) {
  Vector column(parseLogicalType("BIGINT"));
  for (int64_t i = 0; i < 70; ++i) {
    if (i % 3 == 0) {
      column.appendNull();
    } else {
      column.append<int64_t>(i * 10);
    }
  }
  EXPECT_EQ(column.size(), 70);
  EXPECT_EQ(column.nullCount(), 24);
  EXPECT_TRUE(column.mayHaveNulls());
  const int64_t* values = column.data<int64_t>();
  EXPECT_EQ(values[1], 10);
  EXPECT_EQ(values[0], 0);  // a null slot holds zero
  EXPECT_EQ(values[68], 680);
  EXPECT_TRUE(column.isNull(66));
  EXPECT_FALSE(column.isNull(68));
  column.mutableData<int64_t>()[3] = 7;
  column.setNull(3, false);
  EXPECT_EQ(column.valueAt(3), Value(int64_t{7}));
  EXPECT_EQ(column.nullCount(), 23);
  column.resize(2);
  EXPECT_EQ(column.size(), 2);
  EXPECT_EQ(column.nullCount(), 1);
  EXPECT_THROW(column.data<int32_t>(), InternalError);
}

TEST(VectorTest, StringsUseOffsetsIntoOneBuffer) {
  Vector column(parseLogicalType("STRING"));
  column.appendString("Alice");
  column.appendNull();
  column.appendString("");
  column.appendString("Bob");
  EXPECT_EQ(column.stringAt(0), "Alice");
  EXPECT_EQ(column.stringAt(1), "");
  EXPECT_TRUE(column.isNull(1));
  EXPECT_FALSE(column.isNull(2));
  EXPECT_EQ(column.stringAt(3), "Bob");
  const int32_t* offsets = column.offsets();
  EXPECT_EQ(std::vector<int32_t>(offsets, offsets + 5), (std::vector<int32_t>{0, 5, 5, 5, 8}));
  EXPECT_EQ(std::string_view(column.bytes(), 8), "AliceBob");
  column.resize(1);
  column.appendString("Carol");
  EXPECT_EQ(column.stringAt(1), "Carol");
}

TEST(VectorTest, TimestampsKeepNanosecondsBesideMilliseconds) {
  Vector column(parseLogicalType("TIMESTAMP(9)"));
  LocalDateTime value = LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123'456'789);
  column.appendValue(value);
  EXPECT_EQ(column.data<int64_t>()[0], value.getMillisecond());
  EXPECT_EQ(column.nanosOfMillisecond()[0], 456'789);
  EXPECT_EQ(column.valueAt(0), Value(value));
  EXPECT_EQ(column.valueAt(0).toString(), "2021-08-21T13:00:00.123456789");
}

TEST(VectorTest, SerializedValuesAreTheBytesOfTheirValue) {
  const std::vector<std::pair<std::string, Value>> cases = {
      {"BOOLEAN", true},
      {"TINYINT", int8_t{-5}},
      {"SMALLINT", int16_t{-300}},
      {"INT", -12},
      {"BIGINT", int64_t{1} << 40},
      {"FLOAT", std::numeric_limits<float>::quiet_NaN()},
      {"DOUBLE", -0.25},
      {"DOUBLE", -std::numeric_limits<double>::quiet_NaN()},
      {"DECIMAL(12, 2)", Decimal::fromString("10.5")},
      {"STRING", "text with \xc3\xa9"},
      {"CHAR(3)", "abc"},
      {"VARBINARY(4)", Value::ofBytes({1, 255})},
      {"DATE", LocalDate::of(2021, 8, 21)},
      {"TIME(9)", LocalTime::of(13, 0, 1, 5)},
      {"TIMESTAMP(9)", LocalDateTime::ofEpochMillis(-1500, 123456)},
      {"TIMESTAMP_LTZ(3)", Instant::ofEpochMilli(1700000000123)},
      {"INTERVAL DAY TO SECOND(9)", Duration::ofSeconds(-5, 7)},
      {"ARRAY<INT>", Value::ofArray({1, 2})},
      {"ROW<a INT>", Row::of(1)},
  };
  for (const auto& [type, value] : cases) {
    Vector column(parseLogicalType(type));
    column.appendValue(value);
    column.appendNull();
    for (int64_t index = 0; index < 2; ++index) {
      std::string expected;
      TypeSerializer<Value>::serialize(column.valueAt(index), expected);
      std::string written = "prefix";
      column.serializeValueAt(index, written);
      EXPECT_EQ(written, "prefix" + expected) << type << " row " << index;
    }
  }
}

TEST(VectorTest, ValuesConvertPerLogicalType) {
  struct Case {
    std::string type;
    Value in;
    Value out;
  };
  const std::vector<Case> cases = {
      {"BOOLEAN", true, true},
      {"TINYINT", int8_t{-5}, int8_t{-5}},
      {"SMALLINT", int8_t{5}, int16_t{5}},
      {"INT", 12, 12},
      {"BIGINT", 12, int64_t{12}},
      {"FLOAT", 1.5f, 1.5f},
      {"DOUBLE", 1.5f, 1.5},
      {"DECIMAL(12, 2)", Decimal::fromString("10.5"), Decimal::fromString("10.50")},
      {"STRING", "text", "text"},
      {"VARBINARY(4)", Value::ofBytes({1, 255}), Value::ofBytes({1, 255})},
      {"DATE", LocalDate::of(2021, 8, 21), LocalDate::of(2021, 8, 21)},
      {"TIME(9)", LocalTime::of(13, 0, 1, 5), LocalTime::of(13, 0, 1, 5)},
      {"TIMESTAMP_LTZ(3)", Instant::ofEpochMilli(-1500), Instant::ofEpochMilli(-1500)},
      {"INTERVAL YEAR TO MONTH", Period::of(1, 2, 0), Period::of(1, 2, 0)},
      {"INTERVAL DAY TO SECOND(9)", Duration::ofSeconds(-5, 7), Duration::ofSeconds(-5, 7)},
      {"ARRAY<INT>", Value::ofArray({1, 2}), Value::ofArray({1, 2})},
      {"MAP<STRING, INT>", Value::ofMap({{"k", 1}}), Value::ofMap({{"k", 1}})},
      {"ROW<a INT>", Row::of(1), Row::of(1)},
  };
  for (const Case& testCase : cases) {
    Vector column(parseLogicalType(testCase.type));
    column.appendValue(testCase.in);
    column.appendValue(nullptr);
    EXPECT_EQ(column.valueAt(0), testCase.out) << testCase.type;
    EXPECT_TRUE(column.valueAt(1).isNull()) << testCase.type;
  }
}

TEST(VectorTest, AppendFromCopiesAValueOfAnotherVector) {
  // Every type of ValuesConvertPerLogicalType: the copy reads back as the original (NULL too).
  const std::vector<std::pair<std::string, Value>> cases = {
      {"BOOLEAN", true},
      {"TINYINT", int8_t{-5}},
      {"BIGINT", int64_t{12}},
      {"DOUBLE", 1.5},
      {"DECIMAL(12, 2)", Decimal::fromString("10.50")},
      {"STRING", "text"},
      {"DATE", LocalDate::of(2021, 8, 21)},
      {"TIMESTAMP(9)", LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123'456'789)},
      {"INTERVAL DAY TO SECOND(9)", Duration::ofSeconds(-5, 7)},
      {"ARRAY<INT>", Value::ofArray({1, 2})},
  };
  for (const auto& [type, value] : cases) {
    Vector source(parseLogicalType(type));
    source.appendNull();
    source.appendValue(value);
    Vector copy(parseLogicalType(type));
    copy.appendFrom(source, 1);
    copy.appendFrom(source, 0);
    EXPECT_EQ(copy.valueAt(0), value) << type;
    EXPECT_TRUE(copy.isNull(1)) << type;
  }
  // Another representation converts as appendValue does: INT into BIGINT, a rescaled DECIMAL.
  Vector ints(parseLogicalType("INT"));
  ints.appendValue(7);
  Vector bigints(parseLogicalType("BIGINT"));
  bigints.appendFrom(ints, 0);
  EXPECT_EQ(bigints.valueAt(0), Value(int64_t{7}));
  Vector narrow(parseLogicalType("DECIMAL(5, 1)"));
  narrow.appendValue(Decimal::fromString("1.5"));
  Vector wide(parseLogicalType("DECIMAL(12, 2)"));
  wide.appendFrom(narrow, 0);
  EXPECT_EQ(wide.valueAt(0), Value(Decimal::fromString("1.50")));
  // A NULL into a NOT NULL vector fails as appendValue does.
  Vector notNull(parseLogicalType("BIGINT NOT NULL"));
  Vector nullable(parseLogicalType("BIGINT"));
  nullable.appendNull();
  EXPECT_THROW(notNull.appendFrom(nullable, 0), ValidationException);
  EXPECT_EQ(notNull.size(), 0);
}

TEST(VectorTest, MismatchedValuesAreRejectedAndLeaveTheVectorUnchanged) {
  auto errorOf = [](const std::string& type, const Value& value) {
    Vector column(parseLogicalType(type));
    try {
      column.appendValue(value);
    } catch (const ValidationException& error) {
      EXPECT_EQ(column.size(), 0);
      return std::string(error.what());
    }
    return std::string("<no error>");
  };
  EXPECT_EQ(errorOf("INT", "abc"), "expects INT but got STRING value 'abc'");
  EXPECT_EQ(errorOf("INT", int64_t{1}), "expects INT but got BIGINT value '1'");
  EXPECT_EQ(errorOf("INT NOT NULL", nullptr), "expects INT NOT NULL but got null");
  EXPECT_EQ(errorOf("DECIMAL(4, 2)", Decimal::fromString("123.4")),
            "expects DECIMAL(4, 2) but got DECIMAL value '123.4' (out of range)");
  EXPECT_EQ(errorOf("TIMESTAMP(3)", Instant::ofEpochMilli(0)),
            "expects TIMESTAMP(3) but got TIMESTAMP_LTZ value '1970-01-01T00:00:00Z'");
  EXPECT_EQ(errorOf("INTERVAL MONTH", Period::of(0, 1, 2)),
            "expects INTERVAL MONTH but got INTERVAL YEAR TO MONTH value 'P1M2D' (a year-month "
            "interval has no days)");
  EXPECT_EQ(errorOf("ARRAY<INT>", 5), "expects ARRAY<INT> but got INT value '5'");
  EXPECT_EQ(errorOf("INT", std::string(50, 'x')),
            "expects INT but got STRING value '" + std::string(37, 'x') + "...'");
}

}  // namespace
}  // namespace eddy::vector

namespace eddy::vector {
namespace {

// appendGathered sets validity bits a word at a time: rows across word boundaries, appended to
// a vector that already holds a partial word, keep their values and nulls.
TEST(VectorTest, AppendGatheredKeepsValuesAndNullsAcrossWords) {
  const LogicalTypePtr bigint = LogicalType::simple(LogicalTypeRoot::BIGINT);
  Vector source(bigint);
  for (int64_t i = 0; i < 200; ++i) {
    if (i % 3 == 0) {
      source.appendNull();
    } else {
      source.append<int64_t>(i * 10);
    }
  }
  Vector target(bigint);
  for (int64_t i = 0; i < 70; ++i) target.append<int64_t>(-i);
  target.appendNull();
  std::vector<int32_t> rows;
  for (int32_t row = 199; row >= 0; row -= 2) rows.push_back(row);
  target.appendGathered(source, rows.data(), static_cast<int64_t>(rows.size()));
  ASSERT_EQ(target.size(), 71 + static_cast<int64_t>(rows.size()));
  int64_t nulls = 1;
  for (size_t i = 0; i < rows.size(); ++i) {
    const int64_t at = 71 + static_cast<int64_t>(i);
    EXPECT_EQ(target.isNull(at), rows[i] % 3 == 0) << at;
    if (rows[i] % 3 == 0) {
      ++nulls;
    } else {
      EXPECT_EQ(target.data<int64_t>()[at], rows[i] * 10) << at;
    }
  }
  EXPECT_EQ(target.nullCount(), nulls);
  EXPECT_TRUE(target.isNull(70));
  EXPECT_EQ(target.data<int64_t>()[69], -69);
  // Timestamps carry their nanos along.
  Vector times(LogicalType::timestamp(9));
  times.appendTimestamp(1000, 5);
  times.appendNull();
  times.appendTimestamp(2000, 7);
  Vector gathered(LogicalType::timestamp(9));
  std::vector<int32_t> order{2, 1, 0};
  gathered.appendGathered(times, order.data(), 3);
  EXPECT_EQ(gathered.data<int64_t>()[0], 2000);
  EXPECT_EQ(gathered.nanosOfMillisecond()[0], 7);
  EXPECT_TRUE(gathered.isNull(1));
  EXPECT_EQ(gathered.nanosOfMillisecond()[2], 5);
}

}  // namespace
}  // namespace eddy::vector

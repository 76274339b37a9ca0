// Row and Value: printing as Flink's Row.toString for every value kind, the three field
// modes, API errors, and Flink's equality.
#include "eddy/row.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <sstream>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "<no error>";
}

TEST(RowPrintingTest, PositionalRowsPrintWithTheirKind) {
  EXPECT_EQ(Row::of("Alice", 12).toString(), "+I[Alice, 12]");
  EXPECT_EQ(Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12).toString(), "-U[Alice, 12]");
  EXPECT_EQ(Row::ofKind(RowKind::UPDATE_AFTER, "Alice", 112).toString(), "+U[Alice, 112]");
  EXPECT_EQ(Row::ofKind(RowKind::DELETE, "Bob").toString(), "-D[Bob]");
  EXPECT_EQ(Row::of("a", nullptr).toString(), "+I[a, null]");
  EXPECT_EQ(Row(2).toString(), "+I[null, null]");
  EXPECT_EQ(Row::of().toString(), "+I[]");
  EXPECT_EQ(Row::of("a", Row::of("b", "c")).toString(), "+I[a, +I[b, c]]");
  EXPECT_EQ(Row::of(Row::ofKind(RowKind::DELETE, 1)).toString(), "+I[-D[1]]");
  std::ostringstream stream;
  stream << Row::of("Alice", 12);
  EXPECT_EQ(stream.str(), "+I[Alice, 12]");
}

TEST(RowPrintingTest, NamedRowsPrintNameEqualsValue) {
  Row row = Row::withNames();
  row.setField("name", "Alice");
  row.setField("score", 12);
  EXPECT_EQ(row.toString(), "+I{name=Alice, score=12}");
  row.setField("name", "Bob");  // replaces, keeps the order
  row.setKind(RowKind::UPDATE_AFTER);
  EXPECT_EQ(row.toString(), "+U{name=Bob, score=12}");
  Row hybrid = Row::withNamedPositions(std::vector<std::string>{"name", "score"});
  hybrid.setField("score", 7);
  EXPECT_EQ(hybrid.toString(), "+I[null, 7]");
}

TEST(RowPrintingTest, EveryValueKindPrintsAsJava) {
  Row row = Row::of(true, int8_t{-3}, int16_t{300}, 12, int64_t{1} << 40, 1.5f, 10.5,
                    Decimal::fromString("10.00"), "text", Value::ofBytes({1, 2, 255}),
                    LocalDate::of(2021, 8, 21), LocalTime::of(13, 0),
                    LocalDateTime::of(2021, 8, 21, 13, 0), Instant::ofEpochMilli(0),
                    Period::of(1, 2, 0), Duration::ofMinutes(90), Value::ofArray({1, 2}),
                    Value::ofMap({{"k", "v"}, {"k2", "v2"}}), nullptr);
  EXPECT_EQ(row.toString(),
            "+I[true, -3, 300, 12, 1099511627776, 1.5, 10.5, 10.00, text, [1, 2, -1], "
            "2021-08-21, 13:00, 2021-08-21T13:00, 1970-01-01T00:00:00Z, P1Y2M, PT1H30M, [1, 2], "
            "{k=v, k2=v2}, null]");
  EXPECT_EQ(Row::of(Value::ofArray({Value::ofArray({1}), nullptr, Row::of("x")})).toString(),
            "+I[[[1], null, +I[x]]]");
}

TEST(RowPrintingTest, DoublesPrintAsJavaDoubleToString) {
  const std::vector<std::pair<double, std::string>> cases = {
      {10.5, "10.5"},
      {1e10, "1.0E10"},
      {1e-5, "1.0E-5"},
      {0.001, "0.001"},
      {100.0, "100.0"},
      {std::nan(""), "NaN"},
      {std::numeric_limits<double>::infinity(), "Infinity"},
      {-std::numeric_limits<double>::infinity(), "-Infinity"},
      {-0.0, "-0.0"},
      {0.0, "0.0"},
      {1e7, "1.0E7"},
      {9999999.0, "9999999.0"},
      {0.1 + 0.2, "0.30000000000000004"},
      {123456789.0, "1.23456789E8"},
      {-1.25e-7, "-1.25E-7"},
  };
  for (const auto& [value, expected] : cases) {
    EXPECT_EQ(Row::of(value).toString(), "+I[" + expected + "]") << expected;
  }
}

TEST(RowApiTest, AccessorsAndKinds) {
  Row row = Row::of("Alice", 12);
  EXPECT_EQ(row.getArity(), 2);
  EXPECT_EQ(row.getKind(), RowKind::INSERT);
  row.setKind(RowKind::DELETE);
  EXPECT_EQ(row.getKind(), RowKind::DELETE);
  EXPECT_EQ(row.getFieldAs<std::string>(0), "Alice");
  EXPECT_EQ(row.getFieldAs<int32_t>(1), 12);
  row.setField(1, int64_t{13});
  EXPECT_EQ(row.getField(1).kind(), ValueKind::BIGINT);
  EXPECT_FALSE(row.getFieldNames(true).has_value());

  Row hybrid = Row::withNamedPositions(std::vector<std::string>{"name", "score"});
  hybrid.setField(0, "Bob");
  hybrid.setField("score", 10);
  EXPECT_EQ(hybrid.getFieldAs<int32_t>("score"), 10);
  EXPECT_EQ(hybrid.getField(0).get<std::string>(), "Bob");
  EXPECT_EQ(*hybrid.getFieldNames(true), (std::vector<std::string>{"name", "score"}));
  EXPECT_FALSE(hybrid.getFieldNames(false).has_value());

  Row named = Row::withNames(RowKind::UPDATE_BEFORE);
  named.setField("score", 5);
  EXPECT_EQ(named.getArity(), 1);
  EXPECT_EQ(named.getFieldAs<int32_t>("score"), 5);
  EXPECT_TRUE(named.getField("absent").isNull());
  EXPECT_EQ(*named.getFieldNames(false), std::vector<std::string>{"score"});
}

TEST(RowApiTest, MisuseThrowsClearMessages) {
  Row row = Row::of("Alice", nullptr);
  EXPECT_EQ(errorOf([&] { row.getField(2); }),
            "Field position 2 is out of range for a row of arity 2.");
  EXPECT_EQ(errorOf([&] { row.setField(-1, 1); }),
            "Field position -1 is out of range for a row of arity 2.");
  EXPECT_EQ(errorOf([&] { row.getField("name"); }),
            "Accessing a field by name is not supported in position-based field mode.");
  EXPECT_EQ(errorOf([&] { row.getFieldAs<int32_t>(0); }),
            "Field at position 0 has type STRING and cannot be read as INT.");
  EXPECT_EQ(errorOf([&] { row.getFieldAs<int32_t>(1); }),
            "Field at position 1 is null and cannot be read as INT.");
  Row named = Row::withNames();
  EXPECT_EQ(errorOf([&] { named.getField(0); }),
            "Accessing a field by position is not supported in name-based field mode.");
  Row hybrid = Row::withNamedPositions(std::vector<std::string>{"name", "score"});
  hybrid.setField("name", "Alice");
  EXPECT_EQ(errorOf([&] { hybrid.getField("nmae"); }),
            "Unknown field name 'nmae' for mapping to a position. Known names are: [name, "
            "score].");
  EXPECT_EQ(errorOf([&] { hybrid.getFieldAs<double>(0); }),
            "Field 'name' (position 0) has type STRING and cannot be read as DOUBLE.");
  EXPECT_EQ(errorOf([&] { hybrid.getFieldAs<int64_t>("name"); }),
            "Field 'name' has type STRING and cannot be read as BIGINT.");
  EXPECT_EQ(errorOf([] { Value("x").get<int32_t>(); }),
            "Cannot read a value of type STRING as INT.");
  EXPECT_EQ(errorOf([] { Value().get<Row>(); }), "Cannot read a null value as ROW.");
  EXPECT_EQ(errorOf([] { rowKindFromShortString("+X"); }),
            "Unsupported short string '+X' for row kind, expected one of +I, -U, +U, -D.");
}

TEST(ValueTest, ConstructorsPickTheKind) {
  EXPECT_EQ(Value(12).kind(), ValueKind::INT);
  EXPECT_EQ(Value(int64_t{12}).kind(), ValueKind::BIGINT);
  EXPECT_EQ(Value(12LL).kind(), ValueKind::BIGINT);
  EXPECT_EQ(Value(int8_t{1}).kind(), ValueKind::TINYINT);
  EXPECT_EQ(Value(int16_t{1}).kind(), ValueKind::SMALLINT);
  EXPECT_EQ(Value(uint32_t{1}).kind(), ValueKind::BIGINT);
  EXPECT_EQ(Value("Alice").kind(), ValueKind::STRING);
  EXPECT_EQ(Value(std::string("Alice")).kind(), ValueKind::STRING);
  EXPECT_EQ(Value(std::string_view("Alice")).kind(), ValueKind::STRING);
  EXPECT_EQ(Value(10.5).kind(), ValueKind::DOUBLE);
  EXPECT_EQ(Value(10.5f).kind(), ValueKind::FLOAT);
  EXPECT_EQ(Value(true).kind(), ValueKind::BOOLEAN);
  EXPECT_TRUE(Value(nullptr).isNull());
  EXPECT_TRUE(Value().isNull());
  EXPECT_EQ(Value(Row::of(1)).kind(), ValueKind::ROW);
  EXPECT_EQ(Value(Row::of(1)).get<Row>().getArity(), 1);
  EXPECT_TRUE(Value(3).is<int32_t>());
  EXPECT_FALSE(Value(3).is<int64_t>());
  EXPECT_EQ(Value::kindOf<Decimal>(), ValueKind::DECIMAL);
}

TEST(RowEqualityTest, FollowsFlinkRowEquals) {
  EXPECT_EQ(Row::of("a", 1), Row::of("a", 1));
  EXPECT_NE(Row::of("a", 1), Row::ofKind(RowKind::DELETE, "a", 1));
  EXPECT_NE(Row::of("a", 1), Row::of("a", int64_t{1}));
  EXPECT_NE(Row::of("a", 1), Row::of("a", 1, nullptr));
  EXPECT_EQ(Row::of(std::nan("")), Row::of(std::nan("")));
  EXPECT_NE(Row::of(0.0), Row::of(-0.0));
  EXPECT_NE(Row::of(Decimal::fromString("1.0")), Row::of(Decimal::fromString("1.00")));
  EXPECT_EQ(Row::of(Row::of("x")), Row::of(Row::of("x")));

  Row hybrid = Row::withNamedPositions(std::vector<std::string>{"name", "score"});
  hybrid.setField(0, "a");
  hybrid.setField(1, 1);
  EXPECT_EQ(hybrid, Row::of("a", 1));  // names are not compared for positioned rows

  Row named = Row::withNames();
  named.setField("score", 1);
  named.setField("name", "a");
  Row namedOtherOrder = Row::withNames();
  namedOtherOrder.setField("name", "a");
  namedOtherOrder.setField("score", 1);
  EXPECT_EQ(named, namedOtherOrder);
  EXPECT_EQ(named.hash(), namedOtherOrder.hash());
  EXPECT_EQ(named, hybrid);
  EXPECT_EQ(hybrid, named);
  EXPECT_NE(named, Row::of("a", 1));
  EXPECT_EQ(Row::of("a", 1, 2.5).hash(), Row::of("a", 1, 2.5).hash());
  EXPECT_EQ(std::hash<Value>{}(Value(std::nan(""))), std::hash<Value>{}(Value(-std::nan(""))));
}

}  // namespace
}  // namespace eddy

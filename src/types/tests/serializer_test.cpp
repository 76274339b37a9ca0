// TypeSerializer<Value> and TypeSerializer<Row>: round trips for every value kind, equal bytes
// for equal rows, and the written byte layout.
#include <gtest/gtest.h>

#include <cmath>

#include "eddy/row.h"
#include "eddy/types/type_serializer.h"

namespace eddy {
namespace {

std::vector<Value> everyKind() {
  return {nullptr,
          true,
          int8_t{-7},
          int16_t{-300},
          12,
          int64_t{-1} << 50,
          1.5f,
          -10.5,
          Decimal::fromString("-12345678901234567890.123456789"),
          "Alice",
          std::string("with\0zero", 9),
          Value::ofBytes({0, 1, 255}),
          LocalDate::of(1900, 1, 1),
          LocalTime::of(23, 59, 59, 999'999'999),
          LocalDateTime::of(2021, 8, 21, 13, 0, 0, 123'456'789),
          Instant::ofEpochSecond(-1, 5),
          Period::of(1, 2, 3),
          Duration::ofSeconds(-5, 7),
          Value::ofArray({1, nullptr, "x"}),
          Value::ofMap({{"k", 1}, {2, Value::ofArray({})}}),
          Row::ofKind(RowKind::UPDATE_AFTER, "nested", Row::of(1))};
}

TEST(ValueSerializerTest, EveryKindRoundTrips) {
  for (const Value& value : everyKind()) {
    std::string bytes = serializeToString(value);
    EXPECT_EQ(static_cast<ValueKind>(bytes[0]), value.kind()) << value.toString();
    Value back = deserializeFromString<Value>(bytes);
    EXPECT_EQ(back, value) << value.toString();
    EXPECT_EQ(back.toString(), value.toString());
    EXPECT_EQ(serializeToString(back), bytes);
  }
}

TEST(ValueSerializerTest, WritesTheDocumentedLayout) {
  EXPECT_EQ(serializeToString(Value(nullptr)), std::string(1, '\0'));
  EXPECT_EQ(serializeToString(Value(1)), std::string("\x04\x80\x00\x00\x01", 5));
  EXPECT_EQ(serializeToString(Value("ab")), std::string("\x09\x02"
                                                        "ab",
                                                        4));
  // NaN payloads are canonicalized, so equal values give equal bytes.
  EXPECT_EQ(serializeToString(Value(std::nan("1"))), serializeToString(Value(-std::nan("2"))));
  // The precision of a decimal is not part of its bytes.
  EXPECT_EQ(serializeToString(Value(Decimal::fromString("1.5"))),
            serializeToString(Value(Decimal::fromString("1.5", 20, 1))));
  EXPECT_NE(serializeToString(Value(Decimal::fromString("1.5"))),
            serializeToString(Value(Decimal::fromString("1.50"))));
}

TEST(RowSerializerTest, RowsRoundTripWithKindAndNames) {
  Row positional = Row::ofKind(RowKind::UPDATE_BEFORE, "Alice", 12, nullptr);
  Row back = deserializeFromString<Row>(serializeToString(positional));
  EXPECT_EQ(back, positional);
  EXPECT_EQ(back.getKind(), RowKind::UPDATE_BEFORE);
  EXPECT_EQ(back.toString(), "-U[Alice, 12, null]");

  Row named = Row::withNames(RowKind::DELETE);
  named.setField("score", 12);
  named.setField("name", "Alice");
  Row namedBack = deserializeFromString<Row>(serializeToString(named));
  EXPECT_EQ(namedBack, named);
  EXPECT_TRUE(namedBack.isNameBased());

  Row all = Row::of(Value::ofArray(everyKind()));
  EXPECT_EQ(deserializeFromString<Row>(serializeToString(all)), all);
}

TEST(RowSerializerTest, EqualRowsGiveEqualBytes) {
  EXPECT_EQ(serializeToString(Row::of("a", 1)), serializeToString(Row::of("a", 1)));
  EXPECT_NE(serializeToString(Row::of("a", 1)),
            serializeToString(Row::ofKind(RowKind::DELETE, "a", 1)));
  EXPECT_NE(serializeToString(Row::of("a", 1)), serializeToString(Row::of("a", int64_t{1})));

  Row named = Row::withNames();
  named.setField("b", 2);
  named.setField("a", 1);
  Row namedOtherOrder = Row::withNames();
  namedOtherOrder.setField("a", 1);
  namedOtherOrder.setField("b", 2);
  ASSERT_EQ(named, namedOtherOrder);
  EXPECT_EQ(serializeToString(named), serializeToString(namedOtherOrder));

  // A hybrid row is written as the equal positional row.
  Row hybrid = Row::withNamedPositions(std::vector<std::string>{"x", "y"});
  hybrid.setField(0, "a");
  hybrid.setField(1, 1);
  EXPECT_EQ(serializeToString(hybrid), serializeToString(Row::of("a", 1)));
  // Row header: kind, mode, field count.
  EXPECT_EQ(serializeToString(Row::ofKind(RowKind::UPDATE_AFTER)), std::string("\x02\x00\x00", 3));
}

TEST(RowSerializerTest, TruncatedBytesThrow) {
  std::string bytes = serializeToString(Row::of("Alice", 12));
  bytes.pop_back();
  EXPECT_THROW(deserializeFromString<Row>(bytes), InternalError);
  EXPECT_THROW(deserializeFromString<Value>(std::string(1, '\x63')), InternalError);
}

}  // namespace
}  // namespace eddy

// TypeInformation: Flink's toString forms, the mapping to DataTypes, and TypeInfoOf defaults.
#include "eddy/types/type_information.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

struct User {
  std::string name;
};

namespace eddy_test_types {
struct Order {};
}  // namespace eddy_test_types

namespace eddy {
namespace {

TEST(TypeInformationTest, PrintsAsFlink) {
  EXPECT_EQ(Types::STRING.toString(), "String");
  EXPECT_EQ(Types::INT.toString(), "Integer");
  EXPECT_EQ(Types::LONG.toString(), "Long");
  EXPECT_EQ(Types::BIG_DEC.toString(), "BigDecimal");
  EXPECT_EQ(Types::LOCAL_DATE_TIME.toString(), "LocalDateTime");
  EXPECT_EQ(Types::ROW_NAMED({"name", "score"}, {Types::STRING, Types::INT}).toString(),
            "Row(name: String, score: Integer)");
  EXPECT_EQ(Types::ROW({Types::STRING, Types::DOUBLE}).toString(), "Row(f0: String, f1: Double)");
  EXPECT_EQ(Types::TUPLE({Types::STRING, Types::INT}).toString(), "Java Tuple2<String, Integer>");
  EXPECT_EQ(Types::GENERIC("User").toString(), "GenericType<User>");
  EXPECT_EQ(Types::LIST(Types::LONG).toString(), "List<Long>");
  EXPECT_EQ(Types::MAP(Types::STRING, Types::LONG).toString(), "Map<String, Long>");
}

TEST(TypeInformationTest, MapsToDataTypesAsFlink) {
  EXPECT_EQ(Types::STRING.toDataType().toString(), "STRING");
  EXPECT_EQ(Types::INT.toDataType().toString(), "INT");
  EXPECT_EQ(Types::LONG.toDataType().toString(), "BIGINT");
  EXPECT_EQ(Types::DOUBLE.toDataType().toString(), "DOUBLE");
  EXPECT_EQ(Types::FLOAT.toDataType().toString(), "FLOAT");
  EXPECT_EQ(Types::BOOLEAN.toDataType().toString(), "BOOLEAN");
  EXPECT_EQ(Types::BYTE.toDataType().toString(), "TINYINT");
  EXPECT_EQ(Types::SHORT.toDataType().toString(), "SMALLINT");
  EXPECT_EQ(Types::BIG_DEC.toDataType().toString(), "DECIMAL(38, 18)");
  EXPECT_EQ(Types::LOCAL_DATE.toDataType().toString(), "DATE");
  EXPECT_EQ(Types::LOCAL_TIME.toDataType().toString(), "TIME(9)");
  EXPECT_EQ(Types::LOCAL_DATE_TIME.toDataType().toString(), "TIMESTAMP(9)");
  EXPECT_EQ(Types::INSTANT.toDataType().toString(), "TIMESTAMP_LTZ(9)");
  EXPECT_EQ(
      Types::ROW_NAMED({"name", "score"}, {Types::STRING, Types::INT}).toDataType().toString(),
      "ROW<`name` STRING, `score` INT>");
  EXPECT_EQ(Types::TUPLE({Types::STRING, Types::INT}).toDataType().toString(),
            "ROW<`f0` STRING, `f1` INT>");
  EXPECT_EQ(Types::GENERIC("User").toDataType().toString(), "RAW('User', '...')");
  EXPECT_EQ(Types::LIST(Types::LONG).toDataType().toString(), "ARRAY<BIGINT>");
  EXPECT_EQ(Types::MAP(Types::STRING, Types::LONG).toDataType().toString(), "MAP<STRING, BIGINT>");
}

TEST(TypeInformationTest, CompositeAccessorsAndErrors) {
  TypeInformation row = Types::ROW_NAMED({"name", "score"}, {Types::STRING, Types::INT});
  EXPECT_EQ(row.getArity(), 2);
  EXPECT_EQ(row.getFieldNames(), (std::vector<std::string>{"name", "score"}));
  EXPECT_EQ(row.getFieldTypes()[1], Types::INT);
  EXPECT_EQ(Types::ROW({Types::INT}).getFieldNames(), std::vector<std::string>{"f0"});
  EXPECT_EQ(Types::STRING.getArity(), 1);
  EXPECT_TRUE(Types::TUPLE({Types::INT}).isTupleType());
  EXPECT_NE(Types::INT, Types::LONG);
  try {
    Types::ROW_NAMED({"a"}, {Types::INT, Types::INT});
    FAIL() << "expected an exception";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Number of field names (1) and field types (2) of a ROW type must be equal.");
  }
  EXPECT_THROW(Types::ROW_NAMED({"a", "a"}, {Types::INT, Types::INT}), ValidationException);
}

TEST(TypeInfoOfTest, DefaultsFollowFlinkTypeExtraction) {
  EXPECT_EQ(TypeInfoOf<std::string>::get(), Types::STRING);
  EXPECT_EQ(TypeInfoOf<int32_t>::get(), Types::INT);
  EXPECT_EQ(TypeInfoOf<int64_t>::get(), Types::LONG);
  EXPECT_EQ(TypeInfoOf<long long>::get(), Types::LONG);
  EXPECT_EQ(TypeInfoOf<double>::get(), Types::DOUBLE);
  EXPECT_EQ(TypeInfoOf<float>::get(), Types::FLOAT);
  EXPECT_EQ(TypeInfoOf<bool>::get(), Types::BOOLEAN);
  EXPECT_EQ(TypeInfoOf<Decimal>::get(), Types::BIG_DEC);
  EXPECT_EQ(TypeInfoOf<LocalDateTime>::get(), Types::LOCAL_DATE_TIME);
  EXPECT_EQ(TypeInfoOf<Instant>::get(), Types::INSTANT);
  TypeInformation row = TypeInfoOf<Row>::get();
  EXPECT_EQ(row.getKind(), TypeInformation::Kind::ROW);
  EXPECT_FALSE(row.hasKnownFields());
  EXPECT_EQ(row.toString(), "Row");
  EXPECT_EQ((TypeInfoOf<std::pair<std::string, int>>::get().toString()),
            "Java Tuple2<String, Integer>");
  EXPECT_EQ((TypeInfoOf<std::tuple<int64_t, double, std::string>>::get().toString()),
            "Java Tuple3<Long, Double, String>");
  EXPECT_EQ(TypeInfoOf<std::vector<int>>::get().toString(), "List<Integer>");
  EXPECT_EQ(TypeInfoOf<User>::get().toString(), "GenericType<User>");
  EXPECT_EQ(TypeInfoOf<User>::get().toDataType().toString(), "RAW('User', '...')");
  EXPECT_EQ(TypeInfoOf<eddy_test_types::Order>::get().getClassName(), "eddy_test_types::Order");
}

}  // namespace
}  // namespace eddy

// The unresolved Schema: what the builder accepts, what it rejects (with Flink's messages),
// and its printed form.
#include "eddy/table/schema.h"

#include <gtest/gtest.h>

#include "eddy/exceptions.h"

namespace eddy {
namespace {

std::string errorOf(const Schema::Builder& builder) {
  try {
    builder.build();
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "no error";
}

TEST(SchemaTest, PrintsEveryKindOfColumn) {
  Schema schema = Schema::newBuilder()
                      .column("user", DataTypes::STRING())
                      .column("amount", "DECIMAL(12, 2)")
                      .columnByExpression("ts", "CAST(ts1 AS TIMESTAMP(3))")
                      .columnByMetadata("event_time", DataTypes::TIMESTAMP_LTZ(3), "timestamp", true)
                      .columnByMetadata("partition", DataTypes::INT())
                      .withComment("the Kafka partition")
                      .watermark("ts", "ts - INTERVAL '1' SECOND")
                      .primaryKey({"user"})
                      .build();
  EXPECT_EQ(schema.toString(),
            "(\n"
            "  `user` STRING,\n"
            "  `amount` [DECIMAL(12, 2)],\n"
            "  `ts` AS [CAST(ts1 AS TIMESTAMP(3))],\n"
            "  `event_time` TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,\n"
            "  `partition` INT METADATA COMMENT 'the Kafka partition',\n"
            "  WATERMARK FOR `ts` AS [ts - INTERVAL '1' SECOND],\n"
            "  CONSTRAINT `PK_user` PRIMARY KEY (`user`) NOT ENFORCED\n"
            ")");
  EXPECT_EQ(schema.getColumns().size(), 5u);
  EXPECT_EQ(Schema::columnName(schema.getColumns()[2]), "ts");
  EXPECT_EQ(Schema::derived().toString(), "()");
}

TEST(SchemaTest, FromSchemaCopiesEverything) {
  Schema base = Schema::newBuilder().column("a", DataTypes::INT()).primaryKey({"a"}).build();
  Schema extended =
      Schema::newBuilder().fromSchema(base).columnByExpression("b", "a + 1").build();
  EXPECT_EQ(extended.toString(),
            "(\n  `a` INT,\n  `b` AS [a + 1],\n"
            "  CONSTRAINT `PK_a` PRIMARY KEY (`a`) NOT ENFORCED\n)");
}

TEST(SchemaTest, RejectsInvalidDeclarations) {
  EXPECT_EQ(errorOf(Schema::newBuilder().column("a", DataTypes::INT()).column("a", "STRING")),
            "Schema must not contain duplicate column names. Found duplicates: [a]");
  EXPECT_EQ(errorOf(Schema::newBuilder().column("a", DataTypes::INT()).watermark("ts", "ts")),
            "Invalid column name 'ts' for rowtime attribute in watermark declaration. Available "
            "columns are: [a]");
  EXPECT_EQ(errorOf(Schema::newBuilder().column("a", DataTypes::INT()).primaryKey({"b"})),
            "Invalid primary key 'PK_b'. Column 'b' does not exist.");
  EXPECT_EQ(errorOf(Schema::newBuilder().column("a", DataTypes::INT()).primaryKey({"a", "a"})),
            "Invalid primary key 'PK_a_a'. A primary key must not contain duplicate columns. "
            "Found: [a]");
  EXPECT_THROW(Schema::newBuilder().withComment("x"), ValidationException);
  EXPECT_THROW(Schema::newBuilder().column("a", DataTypes::INT()).primaryKey({"a"}).primaryKey({"a"}),
               ValidationException);
}

}  // namespace
}  // namespace eddy

// The datagen connector: exact bounded counts at parallelism 1 and 3, exact gap-free sequences
// split across subtasks, random values within their ranges, lengths and null rates, the
// throttled unbounded source stopped by executeAndCollect(limit), and invalid option values
// rejected with messages naming the key.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <set>

#include "connectors/datagen/datagen_factory.h"
#include "connectors/tests/connector_test_support.h"

namespace eddy::connectors {
namespace {

using testing::bigintType;
using testing::collectChunks;
using testing::intType;
using testing::rowsOf;
using testing::rowType;
using testing::stringType;
using testing::tableContext;
using testing::validationMessage;

std::unique_ptr<DynamicTableSource> dataGenSource(LogicalTypePtr type,
                                                  std::map<std::string, std::string> options) {
  options["connector"] = "datagen";
  ConnectorContext context = tableContext(std::move(type), std::move(options));
  return FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
}

std::vector<Row> generate(LogicalTypePtr type, std::map<std::string, std::string> options,
                          int parallelism) {
  return rowsOf(collectChunks(dataGenSource(std::move(type), std::move(options))->createSource(),
                              parallelism));
}

TEST(DataGenTest, BoundedCountIsExactAtParallelismOne) {
  auto type = rowType({{"id", intType()}, {"name", stringType()}});
  auto source = dataGenSource(type, {{"number-of-rows", "2500"}});
  EXPECT_TRUE(source->isBounded());
  EXPECT_EQ(source->createSource()->getBoundedness(), Boundedness::BOUNDED);
  auto chunks = collectChunks(source->createSource(), 1);
  for (const auto& chunk : chunks) {
    EXPECT_LE(chunk.size(), 1024);
    EXPECT_TRUE(equalTypes(chunk.rowType(), type));
  }
  std::vector<Row> rows = rowsOf(chunks);
  ASSERT_EQ(rows.size(), 2500u);
  for (const Row& row : rows) EXPECT_EQ(row.getKind(), RowKind::INSERT);
}

TEST(DataGenTest, BoundedCountIsExactAtParallelismThree) {
  auto type = rowType({{"id", intType()}});
  EXPECT_EQ(generate(type, {{"number-of-rows", "1001"}}, 3).size(), 1001u);
  EXPECT_EQ(generate(type, {{"number-of-rows", "2"}}, 3).size(), 2u);
  EXPECT_EQ(generate(type, {{"number-of-rows", "0"}}, 3).size(), 0u);
}

TEST(DataGenTest, SequenceIsExactAndGapFreeAcrossSubtasks) {
  auto type =
      rowType({{"id", bigintType()}, {"small", LogicalType::simple(LogicalTypeRoot::SMALLINT)}});
  std::vector<Row> rows = generate(type,
                                   {{"rows-per-second", "1000000"},
                                    {"fields.id.kind", "sequence"},
                                    {"fields.id.start", "-1000"},
                                    {"fields.id.end", "3999"},
                                    {"fields.small.kind", "sequence"},
                                    {"fields.small.start", "0"},
                                    {"fields.small.end", "30000"}},
                                   3);
  ASSERT_EQ(rows.size(), 5000u);  // the shorter sequence bounds the source
  std::vector<int64_t> ids;
  for (const Row& row : rows) {
    ids.push_back(row.getFieldAs<int64_t>(0));
    // Both sequences advance together: small = id + 1000.
    EXPECT_EQ(row.getFieldAs<int16_t>(1), row.getFieldAs<int64_t>(0) + 1000);
  }
  std::sort(ids.begin(), ids.end());
  for (size_t i = 0; i < ids.size(); ++i) ASSERT_EQ(ids[i], -1000 + static_cast<int64_t>(i));
}

TEST(DataGenTest, SmallerNumberOfRowsEndsTheSequence) {
  auto type = rowType({{"id", intType()}});
  std::vector<Row> rows = generate(type,
                                   {{"number-of-rows", "4"},
                                    {"fields.id.kind", "sequence"},
                                    {"fields.id.start", "10"},
                                    {"fields.id.end", "100"}},
                                   1);
  std::vector<std::string> printed;
  for (const Row& row : rows) printed.push_back(row.toString());
  EXPECT_EQ(printed, (std::vector<std::string>{"+I[10]", "+I[11]", "+I[12]", "+I[13]"}));
}

TEST(DataGenTest, SequenceOfStringsDecimalsAndDoubles) {
  auto type = rowType({{"s", stringType()},
                       {"d", LogicalType::decimal(10, 2)},
                       {"f", LogicalType::simple(LogicalTypeRoot::DOUBLE)}});
  std::vector<Row> rows = generate(type,
                                   {{"fields.s.kind", "sequence"},
                                    {"fields.s.start", "8"},
                                    {"fields.s.end", "10"},
                                    {"fields.d.kind", "sequence"},
                                    {"fields.d.start", "1"},
                                    {"fields.d.end", "3"},
                                    {"fields.f.kind", "sequence"},
                                    {"fields.f.start", "5"},
                                    {"fields.f.end", "9"}},
                                   1);
  std::vector<std::string> printed;
  for (const Row& row : rows) printed.push_back(row.toString());
  EXPECT_EQ(printed, (std::vector<std::string>{"+I[8, 1.00, 5.0]", "+I[9, 2.00, 6.0]",
                                               "+I[10, 3.00, 7.0]"}));
}

TEST(DataGenTest, RandomValuesStayWithinTheirBounds) {
  auto type = rowType({{"i", intType()},
                       {"t", LogicalType::simple(LogicalTypeRoot::TINYINT)},
                       {"x", LogicalType::simple(LogicalTypeRoot::DOUBLE)},
                       {"m", LogicalType::decimal(5, 2)},
                       {"v", LogicalType::varchar(50)},
                       {"c", LogicalType::charType(5)},
                       {"s", stringType()},
                       {"b", LogicalType::varbinary(10)},
                       {"flag", LogicalType::simple(LogicalTypeRoot::BOOLEAN)},
                       {"ts", LogicalType::timestamp(3)},
                       {"ltz", LogicalType::localZonedTimestamp(3)},
                       {"day", LogicalType::simple(LogicalTypeRoot::DATE)}});
  int64_t before = std::chrono::duration_cast<std::chrono::milliseconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
  std::vector<Row> rows = generate(type,
                                   {{"number-of-rows", "3000"},
                                    {"fields.i.min", "-5"},
                                    {"fields.i.max", "5"},
                                    {"fields.x.min", "-1.5"},
                                    {"fields.x.max", "2.5"},
                                    {"fields.m.min", "1.25"},
                                    {"fields.m.max", "2.5"},
                                    {"fields.v.length", "7"},
                                    {"fields.b.length", "4"},
                                    {"fields.ts.max-past", "5 s"},
                                    {"fields.ltz.max-past", "1 min"}},
                                   2);
  int64_t after = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  ASSERT_EQ(rows.size(), 3000u);
  std::set<int32_t> distinctInts;
  std::set<bool> flags;
  int8_t tinyMin = 0, tinyMax = 0;
  for (const Row& row : rows) {
    int32_t i = row.getFieldAs<int32_t>(0);
    EXPECT_GE(i, -5);
    EXPECT_LE(i, 5);
    distinctInts.insert(i);
    tinyMin = std::min(tinyMin, row.getFieldAs<int8_t>(1));
    tinyMax = std::max(tinyMax, row.getFieldAs<int8_t>(1));
    double x = row.getFieldAs<double>(2);
    EXPECT_GE(x, -1.5);
    EXPECT_LE(x, 2.5);
    const Decimal& m = row.getFieldAs<Decimal>(3);
    EXPECT_EQ(m.scale(), 2);
    EXPECT_GE(m.unscaledValue(), 125);
    EXPECT_LE(m.unscaledValue(), 250);
    const std::string& v = row.getFieldAs<std::string>(4);
    EXPECT_EQ(v.size(), 7u);
    EXPECT_EQ(v.find_first_not_of("0123456789abcdef"), std::string::npos) << v;
    EXPECT_EQ(row.getFieldAs<std::string>(5).size(), 5u);    // CHAR(5): its length
    EXPECT_EQ(row.getFieldAs<std::string>(6).size(), 100u);  // the default length
    EXPECT_EQ(row.getFieldAs<Bytes>(7).size(), 4u);
    flags.insert(row.getFieldAs<bool>(8));
    int64_t ts = row.getFieldAs<LocalDateTime>(9).getMillisecond();
    EXPECT_GE(ts, before - 5000);
    EXPECT_LE(ts, after);
    int64_t ltz = row.getFieldAs<Instant>(10).toEpochMilli();
    EXPECT_GE(ltz, before - 60000);
    EXPECT_LE(ltz, after);
    int64_t day = row.getFieldAs<LocalDate>(11).toEpochDay();
    EXPECT_GE(day, before / 86'400'000);
    EXPECT_LE(day, after / 86'400'000);
  }
  EXPECT_EQ(distinctInts.size(), 11u);  // 3000 draws from 11 values hit them all
  EXPECT_EQ(flags.size(), 2u);
  EXPECT_LT(tinyMin, -64);  // the default bounds are the type's range
  EXPECT_GT(tinyMax, 64);
}

TEST(DataGenTest, NullRate) {
  auto type = rowType({{"half", intType()}, {"all", stringType()}, {"none", intType()}});
  std::vector<Row> rows = generate(type,
                                   {{"number-of-rows", "4000"},
                                    {"fields.half.null-rate", "0.5"},
                                    {"fields.all.null-rate", "1"},
                                    {"fields.none.null-rate", "0"}},
                                   1);
  ASSERT_EQ(rows.size(), 4000u);
  int halfNulls = 0;
  for (const Row& row : rows) {
    halfNulls += row.getField(0).isNull() ? 1 : 0;
    EXPECT_TRUE(row.getField(1).isNull());
    EXPECT_FALSE(row.getField(2).isNull());
  }
  EXPECT_GT(halfNulls, 1600);
  EXPECT_LT(halfNulls, 2400);
}

TEST(DataGenTest, UnboundedSourceIsThrottledAndStopsWithLimit) {
  auto source = dataGenSource(rowType({{"id", intType()}}), {{"rows-per-second", "400"}});
  EXPECT_FALSE(source->isBounded());
  EXPECT_EQ(source->createSource()->getBoundedness(), Boundedness::CONTINUOUS_UNBOUNDED);
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto started = std::chrono::steady_clock::now();
  std::vector<vector::Chunk> chunks =
      env->fromSource(source->createSource(), WatermarkStrategy<vector::Chunk>::noWatermarks(),
                      "datagen")
          .executeAndCollect(12);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_EQ(chunks.size(), 12u);
  int64_t rows = 0;
  for (const auto& chunk : chunks) rows += chunk.size();
  // Each subtask makes 200 rows/s in chunks of 10 (50 ms), the first at once: 12 chunks of
  // 10 rows take at least (120 - 2 * 10) / 400 s.
  EXPECT_GE(rows, 120);
  EXPECT_GE(seconds, (static_cast<double>(rows) - 20) / 400 * 0.9);
  EXPECT_LT(seconds, 10.0);
}

TEST(DataGenTest, BoundedSourceRespectsRowsPerSecond) {
  auto started = std::chrono::steady_clock::now();
  std::vector<Row> rows = generate(rowType({{"id", intType()}}),
                                   {{"rows-per-second", "1000"}, {"number-of-rows", "500"}}, 1);
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(rows.size(), 500u);
  // 50 rows at once, then 1000 rows/s: at least 0.45 s.
  EXPECT_GE(seconds, 0.4);
}

struct InvalidOptionCase {
  std::map<std::string, std::string> options;
  std::string message;
};

TEST(DataGenTest, InvalidOptionValuesNameTheKey) {
  auto type = rowType({{"id", intType()},
                       {"x", intType()},
                       {"s", LogicalType::varchar(10)},
                       {"ts", LogicalType::timestamp(3)},
                       {"t", LogicalType::simple(LogicalTypeRoot::TINYINT)},
                       {"flag", LogicalType::simple(LogicalTypeRoot::BOOLEAN)},
                       {"m", LogicalType::decimal(5, 2)},
                       {"k", LogicalType::simple(LogicalTypeRoot::INTEGER, false)}});
  std::vector<InvalidOptionCase> cases = {
      {{{"fields.id.min", "abc"}},
       "Could not parse value 'abc' for key 'fields.id.min' of table 't': expected an integer "
       "between -2147483648 and 2147483647."},
      {{{"rows-per-second", "-1"}},
       "Invalid value '-1' for key 'rows-per-second' of table 't': expected an integer of at "
       "least 1."},
      {{{"number-of-rows", "INVALID"}},
       "Could not parse value 'INVALID' for key 'number-of-rows' of table 't': expected a "
       "non-negative integer."},
      {{{"fields.x.kind", "foo"}},
       "Invalid value 'foo' for key 'fields.x.kind' of table 't': expected 'random' or "
       "'sequence'."},
      {{{"fields.flag.kind", "sequence"}},
       "Invalid value 'sequence' for key 'fields.flag.kind' of table 't': expected 'random': "
       "field 'flag' has type BOOLEAN, and a sequence is generated only for TINYINT, SMALLINT, "
       "INT, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR and VARCHAR."},
      {{{"fields.id.null-rate", "1.5"}},
       "Invalid value '1.5' for key 'fields.id.null-rate' of table 't': expected a number "
       "between 0 and 1."},
      {{{"fields.k.null-rate", "0.1"}},
       "Invalid value '0.1' for key 'fields.k.null-rate' of table 't': expected 0 because field "
       "'k' is NOT NULL."},
      {{{"fields.id.min", "10"}, {"fields.id.max", "5"}},
       "Invalid value '5' for key 'fields.id.max' of table 't': expected an integer between 10 "
       "('fields.id.min') and 2147483647."},
      {{{"fields.t.max", "200"}},
       "Invalid value '200' for key 'fields.t.max' of table 't': expected an integer between "
       "-128 and 127."},
      {{{"fields.s.length", "11"}},
       "Invalid value '11' for key 'fields.s.length' of table 't': expected an integer between "
       "0 and 10."},
      {{{"fields.ts.max-past", "soon"}},
       "Could not parse value 'soon' for key 'fields.ts.max-past' of table 't': expected a "
       "non-negative duration such as '500 ms', '5 s', '1 min', '2 h' or '1 d'."},
      {{{"fields.m.min", "12345"}},
       "Could not parse value '12345' for key 'fields.m.min' of table 't': expected a decimal "
       "number that fits DECIMAL(5, 2)."},
      {{{"fields.id.kind", "sequence"}, {"fields.id.start", "1"}},
       "Could not find required property 'fields.id.end' for sequence generator of table 't'."},
      {{{"fields.id.kind", "sequence"}, {"fields.id.start", "5"}, {"fields.id.end", "4"}},
       "Invalid value '4' for key 'fields.id.end' of table 't': expected an integer between 5 "
       "and 2147483647."},
  };
  for (const InvalidOptionCase& invalid : cases) {
    auto options = invalid.options;
    options["connector"] = "datagen";
    ConnectorContext context = tableContext(type, options);
    EXPECT_EQ(validationMessage([&] { FactoryRegistry::builtIn().factoryFor(context); }),
              invalid.message);
    // createDynamicTableSource checks the values as well.
    EXPECT_EQ(validationMessage([&] { DataGenTableFactory().createDynamicTableSource(context); }),
              invalid.message);
  }
}

TEST(DataGenTest, UnsupportedFieldTypeIsRejected) {
  auto type = rowType({{"tags", LogicalType::array(stringType())}});
  EXPECT_EQ(validationMessage([&] { dataGenSource(type, {}); }),
            "Unsupported type ARRAY<STRING> of field 'tags' of table 't' for the datagen "
            "connector. It generates BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, "
            "DECIMAL, CHAR, VARCHAR, BINARY, VARBINARY, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ "
            "fields.");
}

}  // namespace
}  // namespace eddy::connectors

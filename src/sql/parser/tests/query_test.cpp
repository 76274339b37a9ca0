// Queries: SELECT and its clauses, FROM items and joins, set operations, WITH, ORDER BY and
// the limits, VALUES. Each case parses, prints in normalized form and round-trips.
#include <gtest/gtest.h>

#include "sql/parser/tests/round_trip.h"

namespace eddy::sql {
namespace {

using testing::roundTripStatement;

struct QueryCase {
  const char* input;
  const char* expected;
};

// Failures print the SQL instead of the bytes of the case.
void PrintTo(const QueryCase& testCase, std::ostream* out) { *out << testCase.input; }

class QueryRoundTripTest : public ::testing::TestWithParam<QueryCase> {};

TEST_P(QueryRoundTripTest, PrintsNormalizedAndRoundTrips) {
  EXPECT_EQ(roundTripStatement(GetParam().input), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Select, QueryRoundTripTest,
    ::testing::Values(
        QueryCase{"select * from t", "SELECT * FROM `t`"}, QueryCase{"SELECT 1", "SELECT 1"},
        QueryCase{"SELECT DISTINCT a, b FROM t", "SELECT DISTINCT `a`, `b` FROM `t`"},
        QueryCase{"SELECT ALL a FROM t", "SELECT `a` FROM `t`"},
        QueryCase{"SELECT a AS x, b y, c FROM t", "SELECT `a` AS `x`, `b` AS `y`, `c` FROM `t`"},
        QueryCase{"SELECT t.*, u.a FROM t, u", "SELECT `t`.*, `u`.`a` FROM `t`, `u`"},
        QueryCase{"SELECT a FROM t WHERE a > 1 AND b IS NOT NULL",
                  "SELECT `a` FROM `t` WHERE `a` > 1 AND `b` IS NOT NULL"},
        QueryCase{"SELECT a, COUNT(*) FROM t GROUP BY a HAVING COUNT(*) > 1",
                  "SELECT `a`, COUNT(*) FROM `t` GROUP BY `a` HAVING COUNT(*) > 1"},
        QueryCase{"SELECT a, b, SUM(c) FROM t GROUP BY GROUPING SETS ((a, b), (a), ())",
                  "SELECT `a`, `b`, SUM(`c`) FROM `t` GROUP BY GROUPING SETS ((`a`, `b`), (`a`), "
                  "())"},
        QueryCase{"SELECT a FROM t GROUP BY ROLLUP (a, b)",
                  "SELECT `a` FROM `t` GROUP BY ROLLUP (`a`, `b`)"},
        QueryCase{"SELECT a FROM t GROUP BY CUBE(a, b), c",
                  "SELECT `a` FROM `t` GROUP BY CUBE (`a`, `b`), `c`"},
        QueryCase{"SELECT a FROM t GROUP BY GROUPING SETS (a, ROLLUP (b, c))",
                  "SELECT `a` FROM `t` GROUP BY GROUPING SETS (`a`, ROLLUP (`b`, `c`))"},
        QueryCase{"SELECT a, GROUPING(a) FROM t GROUP BY ()",
                  "SELECT `a`, GROUPING(`a`) FROM `t` GROUP BY ()"},
        QueryCase{"SELECT SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts)",
                  "SELECT SUM(`x`) OVER `w` FROM `t` WINDOW `w` AS (PARTITION BY `k` ORDER BY "
                  "`ts`)"},
        QueryCase{"SELECT * FROM (SELECT a, ROW_NUMBER() OVER (PARTITION BY a ORDER BY ts DESC) "
                  "AS rn FROM t) WHERE rn <= 3",
                  "SELECT * FROM (SELECT `a`, ROW_NUMBER() OVER (PARTITION BY `a` ORDER BY `ts` "
                  "DESC) AS `rn` FROM `t`) WHERE `rn` <= 3"}));

INSTANTIATE_TEST_SUITE_P(
    From, QueryRoundTripTest,
    ::testing::Values(
        QueryCase{"SELECT * FROM cat.db.t AS x", "SELECT * FROM `cat`.`db`.`t` AS `x`"},
        QueryCase{"SELECT * FROM t x (a, b)", "SELECT * FROM `t` AS `x` (`a`, `b`)"},
        QueryCase{"SELECT * FROM `my table`", "SELECT * FROM `my table`"},
        QueryCase{"SELECT * FROM orders FOR SYSTEM_TIME AS OF o.proc_time AS r",
                  "SELECT * FROM `orders` FOR SYSTEM_TIME AS OF `o`.`proc_time` AS `r`"},
        QueryCase{"SELECT * FROM (SELECT a FROM t) AS s",
                  "SELECT * FROM (SELECT `a` FROM `t`) AS `s`"},
        QueryCase{"SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t(id, name)",
                  "SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS `t` (`id`, `name`)"},
        QueryCase{"SELECT * FROM t CROSS JOIN UNNEST(t.tags) AS x(tag)",
                  "SELECT * FROM `t` CROSS JOIN UNNEST(`t`.`tags`) AS `x` (`tag`)"},
        QueryCase{"SELECT * FROM t, UNNEST(arr) WITH ORDINALITY AS x(v, i)",
                  "SELECT * FROM `t`, UNNEST(`arr`) WITH ORDINALITY AS `x` (`v`, `i`)"},
        QueryCase{"SELECT * FROM t, LATERAL TABLE(split(s)) AS x(word)",
                  "SELECT * FROM `t`, LATERAL TABLE(SPLIT(`s`)) AS `x` (`word`)"},
        QueryCase{"SELECT * FROM t LEFT JOIN LATERAL TABLE(f(a)) AS x(v) ON TRUE",
                  "SELECT * FROM `t` LEFT JOIN LATERAL TABLE(F(`a`)) AS `x` (`v`) ON TRUE"},
        QueryCase{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '10' MINUTES))",
                  "SELECT * FROM TABLE(TUMBLE(TABLE `t`, DESCRIPTOR(`ts`), INTERVAL '10' MINUTE))"},
        QueryCase{"SELECT * FROM TABLE(HOP(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE, "
                  "INTERVAL '10' MINUTE))",
                  "SELECT * FROM TABLE(HOP(TABLE `t`, DESCRIPTOR(`ts`), INTERVAL '1' MINUTE, "
                  "INTERVAL '10' MINUTE))"},
        QueryCase{"SELECT * FROM TABLE(CUMULATE(DATA => TABLE t, TIMECOL => DESCRIPTOR(ts), "
                  "STEP => INTERVAL '1' HOUR, SIZE => INTERVAL '1' DAY))",
                  "SELECT * FROM TABLE(CUMULATE(DATA => TABLE `t`, TIMECOL => DESCRIPTOR(`ts`), "
                  "STEP => INTERVAL '1' HOUR, SIZE => INTERVAL '1' DAY))"},
        QueryCase{"SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY (k1, k2), DESCRIPTOR(ts), "
                  "INTERVAL '5' MINUTES))",
                  "SELECT * FROM TABLE(SESSION(TABLE `t` PARTITION BY (`k1`, `k2`), "
                  "DESCRIPTOR(`ts`), INTERVAL '5' MINUTE))"},
        QueryCase{"SELECT * FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), "
                  "INTERVAL '5' MINUTES))",
                  "SELECT * FROM TABLE(SESSION(TABLE `t` PARTITION BY `k`, DESCRIPTOR(`ts`), "
                  "INTERVAL '5' MINUTE))"}));

INSTANTIATE_TEST_SUITE_P(
    Joins, QueryRoundTripTest,
    ::testing::Values(
        QueryCase{"SELECT * FROM a JOIN b ON a.id = b.id",
                  "SELECT * FROM `a` JOIN `b` ON `a`.`id` = `b`.`id`"},
        QueryCase{"SELECT * FROM a INNER JOIN b USING (id, k)",
                  "SELECT * FROM `a` JOIN `b` USING (`id`, `k`)"},
        QueryCase{"SELECT * FROM a LEFT OUTER JOIN b ON TRUE RIGHT JOIN c ON x FULL JOIN d ON y",
                  "SELECT * FROM `a` LEFT JOIN `b` ON TRUE RIGHT JOIN `c` ON `x` FULL JOIN `d` "
                  "ON `y`"},
        QueryCase{"SELECT * FROM a CROSS JOIN b, c", "SELECT * FROM `a` CROSS JOIN `b`, `c`"},
        QueryCase{"SELECT * FROM a JOIN (b JOIN c ON b.x = c.x) ON a.y = b.y",
                  "SELECT * FROM `a` JOIN (`b` JOIN `c` ON `b`.`x` = `c`.`x`) ON `a`.`y` = "
                  "`b`.`y`"},
        QueryCase{"SELECT * FROM UserTable U, OrderTable O WHERE U.uid = O.uid AND O.ts "
                  "BETWEEN U.ts AND U.ts + INTERVAL '5' MINUTES",
                  "SELECT * FROM `UserTable` AS `U`, `OrderTable` AS `O` WHERE `U`.`uid` = "
                  "`O`.`uid` AND `O`.`ts` BETWEEN `U`.`ts` AND `U`.`ts` + INTERVAL '5' "
                  "MINUTE"}));

INSTANTIATE_TEST_SUITE_P(
    SetOperationsAndModifiers, QueryRoundTripTest,
    ::testing::Values(
        QueryCase{"SELECT a FROM t UNION ALL SELECT a FROM u",
                  "SELECT `a` FROM `t` UNION ALL SELECT `a` FROM `u`"},
        QueryCase{"SELECT 1 UNION DISTINCT SELECT 2", "SELECT 1 UNION SELECT 2"},
        QueryCase{"SELECT 1 UNION SELECT 2 INTERSECT SELECT 3",
                  "SELECT 1 UNION SELECT 2 INTERSECT SELECT 3"},
        QueryCase{"(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3",
                  "(SELECT 1 UNION SELECT 2) INTERSECT SELECT 3"},
        QueryCase{"SELECT 1 EXCEPT (SELECT 2 EXCEPT SELECT 3)",
                  "SELECT 1 EXCEPT (SELECT 2 EXCEPT SELECT 3)"},
        QueryCase{"SELECT 1 MINUS SELECT 2", "SELECT 1 EXCEPT SELECT 2"},
        QueryCase{"SELECT 1 INTERSECT ALL SELECT 2 EXCEPT ALL SELECT 3",
                  "SELECT 1 INTERSECT ALL SELECT 2 EXCEPT ALL SELECT 3"},
        QueryCase{"SELECT a FROM t ORDER BY a DESC NULLS LAST, b ASC NULLS FIRST LIMIT 10",
                  "SELECT `a` FROM `t` ORDER BY `a` DESC NULLS LAST, `b` NULLS FIRST LIMIT 10"},
        QueryCase{"SELECT a FROM t LIMIT 5 OFFSET 10", "SELECT `a` FROM `t` LIMIT 5 OFFSET 10"},
        QueryCase{"SELECT a FROM t ORDER BY a OFFSET 2 ROWS FETCH FIRST 3 ROWS ONLY",
                  "SELECT `a` FROM `t` ORDER BY `a` LIMIT 3 OFFSET 2"},
        QueryCase{"SELECT a FROM t FETCH NEXT 1 ROW ONLY", "SELECT `a` FROM `t` LIMIT 1"},
        QueryCase{"SELECT a FROM t OFFSET 1 ROW", "SELECT `a` FROM `t` OFFSET 1"},
        QueryCase{"SELECT a FROM t UNION SELECT b FROM u ORDER BY 1",
                  "SELECT `a` FROM `t` UNION SELECT `b` FROM `u` ORDER BY 1"},
        QueryCase{"(SELECT a FROM t ORDER BY a LIMIT 1) UNION ALL SELECT 2",
                  "(SELECT `a` FROM `t` ORDER BY `a` LIMIT 1) UNION ALL SELECT 2"},
        QueryCase{"((SELECT 1))", "SELECT 1"},
        QueryCase{"WITH x AS (SELECT 1 AS a), y (b) AS (SELECT a FROM x) SELECT * FROM y",
                  "WITH `x` AS (SELECT 1 AS `a`), `y` (`b`) AS (SELECT `a` FROM `x`) SELECT * "
                  "FROM `y`"},
        QueryCase{"WITH x AS (SELECT 1) SELECT * FROM x ORDER BY 1 LIMIT 1",
                  "WITH `x` AS (SELECT 1) SELECT * FROM `x` ORDER BY 1 LIMIT 1"},
        QueryCase{"VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"},
        QueryCase{"VALUES 1, 2", "VALUES (1), (2)"},
        QueryCase{"VALUES ROW(1, 2)", "VALUES (1, 2)"}));

TEST(QueryTreeTest, IntersectBindsTighterThanUnion) {
  StatementPtr statement = parseStatement("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3");
  const auto& query = *statement->as<QueryStatement>().query;
  ASSERT_TRUE(query.is<SetOperationQuery>());
  const auto& unionNode = query.as<SetOperationQuery>();
  EXPECT_EQ(unionNode.op, SetOperator::kUnion);
  EXPECT_TRUE(unionNode.left->is<SelectQuery>());
  ASSERT_TRUE(unionNode.right->is<SetOperationQuery>());
  EXPECT_EQ(unionNode.right->as<SetOperationQuery>().op, SetOperator::kIntersect);
}

TEST(QueryTreeTest, JoinsAreLeftDeepWithTheirConditions) {
  StatementPtr statement =
      parseStatement("SELECT * FROM a LEFT JOIN b ON a.x = b.x JOIN c USING (y)");
  const auto& select = statement->as<QueryStatement>().query->as<SelectQuery>();
  const auto& outer = select.from->as<JoinReference>();
  EXPECT_EQ(outer.joinType, relational::JoinType::INNER);
  EXPECT_EQ(outer.usingColumns, (std::vector<std::string>{"y"}));
  const auto& inner = outer.left->as<JoinReference>();
  EXPECT_EQ(inner.joinType, relational::JoinType::LEFT);
  ASSERT_NE(inner.condition, nullptr);
  EXPECT_EQ(inner.right->as<NamedTableReference>().name, (QualifiedName{"b"}));
}

TEST(QueryTreeTest, LookupJoinKeepsTheTimeAttribute) {
  StatementPtr statement = parseStatement(
      "SELECT * FROM o LEFT JOIN p FOR SYSTEM_TIME AS OF o.event_time AS q ON o.k = q.k");
  const auto& join =
      statement->as<QueryStatement>().query->as<SelectQuery>().from->as<JoinReference>();
  const auto& lookup = join.right->as<NamedTableReference>();
  EXPECT_EQ(lookup.alias, "q");
  ASSERT_NE(lookup.systemTimeAsOf, nullptr);
  EXPECT_EQ(lookup.systemTimeAsOf->as<IdentifierExpression>().names,
            (QualifiedName{"o", "event_time"}));
}

TEST(QueryTreeTest, WindowTableFunctionArguments) {
  StatementPtr statement = parseStatement(
      "SELECT * FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '5' MINUTES))");
  const auto& from =
      statement->as<QueryStatement>().query->as<SelectQuery>().from->as<TableFunctionReference>();
  EXPECT_FALSE(from.lateral);
  EXPECT_EQ(from.call->name, (QualifiedName{"TUMBLE"}));
  ASSERT_EQ(from.call->arguments.size(), 3u);
  EXPECT_EQ(from.call->arguments[0]->as<TableArgumentExpression>().tableName,
            (QualifiedName{"orders"}));
  EXPECT_EQ(from.call->arguments[1]->as<DescriptorExpression>().columns,
            (std::vector<std::string>{"ts"}));
  EXPECT_EQ(from.call->arguments[2]->as<IntervalLiteralExpression>().qualifier.start,
            TimeUnit::kMinute);
}

TEST(QueryTreeTest, OrderByWrapsTheSetOperation) {
  StatementPtr statement = parseStatement("SELECT 1 UNION SELECT 2 ORDER BY 1 LIMIT 3 OFFSET 4");
  const auto& orderBy = statement->as<QueryStatement>().query->as<OrderByQuery>();
  EXPECT_TRUE(orderBy.query->is<SetOperationQuery>());
  EXPECT_EQ(orderBy.orderBy.size(), 1u);
  EXPECT_EQ(orderBy.fetch->as<LiteralExpression>().value, "3");
  EXPECT_EQ(orderBy.offset->as<LiteralExpression>().value, "4");
}

TEST(QueryTreeTest, DeepButReasonableNestingParses) {
  std::string sql = "SELECT * FROM t WHERE ";
  for (int i = 0; i < 100; ++i) sql += "(";
  sql += "a";
  for (int i = 0; i < 100; ++i) sql += ")";
  EXPECT_EQ(roundTripStatement(sql), "SELECT * FROM `t` WHERE `a`");
}

}  // namespace
}  // namespace eddy::sql

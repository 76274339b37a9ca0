// Syntax errors: the exact message, line and column of typical mistakes, lexical errors with
// the position where the faulty token starts, type errors inside CAST and DDL, and the depth
// limit that keeps hostile input from exhausting the stack.
#include <gtest/gtest.h>

#include "sql/parser/tests/round_trip.h"

namespace eddy::sql {
namespace {

using testing::expressionError;
using testing::statementError;

struct ErrorCase {
  const char* sql;
  const char* message;
};

// Failures print the SQL instead of the bytes of the case.
void PrintTo(const ErrorCase& testCase, std::ostream* out) { *out << testCase.sql; }

class StatementErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(StatementErrorTest, ThrowsTheExactMessage) {
  EXPECT_EQ(statementError(GetParam().sql), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    TypicalMistakes, StatementErrorTest,
    ::testing::Values(
        ErrorCase{"SELECT * FROM",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 14. Was expecting "
                  "one of: <identifier>, \"(\", \"LATERAL\", \"TABLE\", \"UNNEST\""},
        ErrorCase{"SELECT FROM t",
                  "SQL parse failed. Encountered \"FROM\" at line 1, column 8. Was expecting one "
                  "of: <expression>, \"DISTINCT\", \"ALL\""},
        ErrorCase{"SELECT a, FROM t",
                  "SQL parse failed. Encountered \"FROM\" at line 1, column 11. Was expecting: "
                  "<expression>"},
        ErrorCase{"SELECT a FROM t WHERE",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 22. Was expecting: "
                  "<expression>"},
        ErrorCase{"SELECT (a + b FROM t",
                  "SQL parse failed. Encountered \"FROM\" at line 1, column 15. Was expecting: "
                  "\")\""},
        ErrorCase{"SELECT a FROM t GROUP a",
                  "SQL parse failed. Encountered \"a\" at line 1, column 23. Was expecting: "
                  "\"BY\""},
        ErrorCase{"SELECT a FROM t JOIN u",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 23. Was expecting "
                  "one of: <identifier>, \"AS\", \"ON\", \"USING\""},
        ErrorCase{"SELECT CASE WHEN a THEN b",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 26. Was expecting "
                  "one of: \"ELSE\", \"END\""},
        ErrorCase{"SELEC a FROM t",
                  "SQL parse failed. Encountered \"SELEC\" at line 1, column 1. Was expecting "
                  "one of: \"SELECT\", \"INSERT\", \"CREATE\", \"DROP\", \"ALTER\", \"USE\", "
                  "\"SHOW\", \"DESCRIBE\", \"EXPLAIN\", \"SET\", \"RESET\", \"EXECUTE\", "
                  "\"BEGIN\", \"VALUES\", \"WITH\""},
        ErrorCase{"SELECT a b c FROM t",
                  "SQL parse failed. Encountered \"c\" at line 1, column 12. Was expecting one "
                  "of: <EOF>, \",\", \"FROM\", \"WHERE\", \"GROUP\", \"HAVING\", \"WINDOW\", "
                  "\"INTERSECT\", \"UNION\", \"EXCEPT\", \"ORDER\", \"LIMIT\", \"OFFSET\", "
                  "\"FETCH\", \";\""},
        ErrorCase{"CREATE TABLE t (a INT,)",
                  "SQL parse failed. Encountered \")\" at line 1, column 23. Was expecting: "
                  "<identifier>"},
        ErrorCase{"CREATE TABLE t (a INT) WITH ('k' 'v')",
                  "SQL parse failed. Encountered \"'v'\" at line 1, column 34. Was expecting: "
                  "\"=\""},
        ErrorCase{"CREATE TABLE t (a INT) WITH ('k' = 'v',)",
                  "SQL parse failed. Encountered \")\" at line 1, column 40. Was expecting: "
                  "<string literal>"},
        ErrorCase{"INSERT INTO t (a, b)",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 21. Was expecting "
                  "one of: \"SELECT\", \"VALUES\", \"WITH\", \"(\""},
        ErrorCase{"SELECT a FROM t; SELECT b",
                  "SQL parse failed. Encountered \"SELECT\" at line 1, column 18. Was expecting: "
                  "<EOF>"},
        ErrorCase{"",
                  "SQL parse failed. Encountered \"<EOF>\" at line 1, column 1. Was expecting "
                  "one of: \"SELECT\", \"INSERT\", \"CREATE\", \"DROP\", \"ALTER\", \"USE\", "
                  "\"SHOW\", \"DESCRIBE\", \"EXPLAIN\", \"SET\", \"RESET\", \"EXECUTE\", "
                  "\"BEGIN\", \"VALUES\", \"WITH\""},
        ErrorCase{"SELECT INTERVAL '5' FROM t",
                  "SQL parse failed. Encountered \"FROM\" at line 1, column 21. Was expecting "
                  "one of: \"YEAR\", \"MONTH\", \"DAY\", \"HOUR\", \"MINUTE\", \"SECOND\""},
        ErrorCase{"SELECT EXTRACT(FORTNIGHT FROM ts)",
                  "SQL parse failed. Encountered \"FORTNIGHT\" at line 1, column 16. Was "
                  "expecting: <time unit>"},
        ErrorCase{"DROP INDEX i",
                  "SQL parse failed. Encountered \"INDEX\" at line 1, column 6. Was expecting "
                  "one of: \"TEMPORARY\", \"TABLE\", \"VIEW\", \"DATABASE\", \"CATALOG\""},
        ErrorCase{"SELECT select FROM t",
                  "SQL parse failed. Encountered \"select\" at line 1, column 8. Was expecting "
                  "one of: <expression>, \"DISTINCT\", \"ALL\""}));

INSTANTIATE_TEST_SUITE_P(
    LexicalErrors, StatementErrorTest,
    ::testing::Values(
        ErrorCase{"SELECT a FROM t\nWHERE b = 1\n  AND c = 'abc",
                  "SQL parse failed. Unterminated string literal at line 3, column 11."},
        ErrorCase{"SELECT `a FROM t",
                  "SQL parse failed. Unterminated quoted identifier at line 1, column 8."},
        ErrorCase{"SELECT a /* comment FROM t",
                  "SQL parse failed. Unterminated comment at line 1, column 10."},
        ErrorCase{"SELECT a # b",
                  "SQL parse failed. Unexpected character \"#\" at line 1, column 10."},
        ErrorCase{"SELECT ``",
                  "SQL parse failed. Zero-length quoted identifier at line 1, column 8."},
        ErrorCase{"SELECT X'0G'",
                  "SQL parse failed. Binary literal string must contain only characters '0' - "
                  "'9', 'A' - 'F' at line 1, column 8."}));

INSTANTIATE_TEST_SUITE_P(
    SemanticSyntaxErrors, StatementErrorTest,
    ::testing::Values(
        ErrorCase{"SELECT CAST(a AS DECIMAL(40, 2)) FROM t",
                  "SQL parse failed. Invalid type \"DECIMAL(40, 2)\" at line 1, column 26: "
                  "DECIMAL precision must be between 1 and 38 (both inclusive), but was 40."},
        ErrorCase{"SELECT CAST(a AS FOO) FROM t",
                  "SQL parse failed. Invalid type \"FOO\" at line 1, column 18: unknown type "
                  "'FOO'"},
        ErrorCase{"CREATE TABLE t (\n  a INT,\n  b MAP<INT>\n)",
                  "SQL parse failed. Invalid type \"MAP<INT>\" at line 3, column 12: unexpected "
                  "'>', expected ','"},
        ErrorCase{"SELECT INTERVAL '5' SECOND TO HOUR",
                  "SQL parse failed. Invalid interval qualifier at line 1, column 21: SECOND TO "
                  "HOUR is not a valid range (use YEAR TO MONTH, DAY TO HOUR|MINUTE|SECOND, HOUR "
                  "TO MINUTE|SECOND or MINUTE TO SECOND)."},
        ErrorCase{"CREATE TABLE t (a INT PRIMARY KEY NOT ENFORCED, PRIMARY KEY (a) NOT ENFORCED)",
                  "SQL parse failed. Duplicate primary key definition at line 1, column 49."},
        ErrorCase{"SELECT JSON_VALUE(j, '$.a' DEFAULT -1 ON EMPTY NULL ON EMPTY)",
                  "SQL parse failed. Duplicate ON EMPTY clause in JSON_VALUE at line 1, column "
                  "48."},
        ErrorCase{"SELECT * FROM TABLE(t)",
                  "SQL parse failed. Expected a function call at line 1, column 21 as the "
                  "argument of TABLE(..)."}));

TEST(ParseErrorTest, ExceptionCarriesLineAndColumn) {
  try {
    parseStatement("SELECT a\nFROM t\nWHERE a = = 1");
    FAIL() << "no error";
  } catch (const SqlParseException& error) {
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.column(), 11);
    EXPECT_EQ(std::string(error.what()),
              "SQL parse failed. Encountered \"=\" at line 3, column 11. Was expecting: "
              "<expression>");
  }
}

TEST(ParseErrorTest, ColumnsCountCharactersNotBytes) {
  try {
    parseStatement("SELECT 'äöü' #");
    FAIL() << "no error";
  } catch (const SqlParseException& error) {
    EXPECT_EQ(error.column(), 14);
  }
}

TEST(ParseErrorTest, ExpressionEntryPointRejectsTrailingTokens) {
  EXPECT_EQ(expressionError("a b"),
            "SQL parse failed. Encountered \"b\" at line 1, column 3. Was expecting: <EOF>");
  EXPECT_EQ(expressionError(""),
            "SQL parse failed. Encountered \"<EOF>\" at line 1, column 1. Was expecting: "
            "<expression>");
}

TEST(ParseErrorTest, DeepParenthesesFailCleanly) {
  std::string sql = "SELECT ";
  for (int i = 0; i < 100000; ++i) sql += "(";
  sql += "1";
  EXPECT_EQ(statementError(sql),
            "SQL parse failed. Nesting too deep at line 1, column 506: the parser accepts at most "
            "500 levels of parentheses, subqueries and unary operators and 5000 levels of "
            "operator chains.");
}

TEST(ParseErrorTest, DeepUnaryOperatorsAndSubqueriesFailCleanly) {
  std::string signs = "SELECT ";
  for (int i = 0; i < 100000; ++i) signs += "- ";
  signs += "1";
  EXPECT_NE(statementError(signs).find("Nesting too deep"), std::string::npos);
  std::string subqueries = "SELECT * FROM ";
  for (int i = 0; i < 100000; ++i) subqueries += "(SELECT * FROM ";
  EXPECT_NE(statementError(subqueries).find("Nesting too deep"), std::string::npos);
}

TEST(ParseErrorTest, LongOperatorChainsFailCleanlyBeyondTheTreeLimit) {
  std::string sql = "SELECT 1";
  for (int i = 0; i < 10000; ++i) sql += "+1";
  EXPECT_EQ(statementError(sql),
            "SQL parse failed. Nesting too deep at line 1, column 10004: the parser accepts at "
            "most 500 levels of parentheses, subqueries and unary operators and 5000 levels of "
            "operator chains.");
}

TEST(ParseErrorTest, GarbageNeverCrashes) {
  // Every prefix of a rich statement either parses or throws SqlParseException.
  const std::string sql =
      "CREATE TABLE t (a INT, b AS CAST(a AS DECIMAL(10, 2)), WATERMARK FOR ts AS ts - "
      "INTERVAL '5' SECOND) WITH ('k' = 'v'); SELECT a, COUNT(DISTINCT b) FILTER (WHERE c) "
      "OVER (PARTITION BY d ORDER BY e ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM "
      "TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) AS x LEFT JOIN u FOR "
      "SYSTEM_TIME AS OF x.ts AS y ON x.a = y.a GROUP BY GROUPING SETS ((a), ()) ORDER BY 1 "
      "LIMIT 3;";
  int parsed = 0;
  for (size_t length = 0; length <= sql.size(); ++length) {
    try {
      parseScript(sql.substr(0, length));
      ++parsed;
    } catch (const SqlParseException&) {
    }
  }
  EXPECT_GT(parsed, 3);
}

}  // namespace
}  // namespace eddy::sql

namespace eddy::sql {
namespace {

// Random token soup: every input parses or throws SqlParseException (never another exception,
// never a crash), and whatever parses round-trips through unparse().
TEST(ParseErrorTest, RandomTokenSequencesFailCleanlyOrRoundTrip) {
  static constexpr const char* kVocabulary[] = {
      "SELECT",  "FROM",     "WHERE",      "t",      "a",         "b",           "1",
      "2.5",     "'s'",      ",",          "(",      ")",         "=",           "+",
      "-",       "*",        "AND",        "OR",     "NOT",       "IN",          "BETWEEN",
      "IS",      "NULL",     "CAST",       "AS",     "INT",       "DECIMAL",     "JOIN",
      "ON",      "LEFT",     "GROUP",      "BY",     "ORDER",     "LIMIT",       "UNION",
      "ALL",     "CASE",     "WHEN",       "THEN",   "END",       "INTERVAL",    "SECOND",
      "TABLE",   "TUMBLE",   "DESCRIPTOR", "OVER",   "PARTITION", "ROWS",        "CURRENT",
      "ROW",     ";",        "CREATE",     "WITH",   "INSERT",    "INTO",        "VALUES",
      "[",       "]",        "<",          ">",      "ARRAY",     "MAP",         "EXISTS",
      "LIKE",    "DISTINCT", "COUNT",      "FILTER", "`q`",       ".",           "?",
      "::",      "=>",       "TO",         "HOUR",   "FOR",       "SYSTEM_TIME", "OF",
      "PRIMARY", "KEY",      "WATERMARK"};
  constexpr size_t kVocabularySize = sizeof(kVocabulary) / sizeof(kVocabulary[0]);
  uint64_t state = 42;
  auto random = [&state](size_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>((state >> 33) % bound);
  };
  int parsed = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::string sql = random(2) == 0 ? "SELECT " : "";
    size_t length = 1 + random(12);
    for (size_t i = 0; i < length; ++i) {
      sql += kVocabulary[random(kVocabularySize)];
      sql += ' ';
    }
    std::vector<StatementPtr> statements;
    try {
      statements = parseScript(sql);
    } catch (const SqlParseException&) {
      continue;
    } catch (const std::exception& error) {
      ADD_FAILURE() << sql << ": " << error.what();
      continue;
    }
    ++parsed;
    for (const StatementPtr& statement : statements) {
      std::string printed = unparse(*statement);
      try {
        EXPECT_EQ(unparse(*parseStatement(printed)), printed) << sql;
      } catch (const SqlParseException& error) {
        ADD_FAILURE() << sql << " printed as " << printed << ": " << error.what();
      }
    }
  }
  EXPECT_GT(parsed, 100);
}

}  // namespace
}  // namespace eddy::sql

namespace eddy::sql::testing {
namespace {

// Findings of the parser fuzzer (tests/fuzz).
TEST(ParseErrorTest, DeeplyNestedTypesFailCleanly) {
  std::string type;
  for (int i = 0; i < 20000; ++i) type += "ARRAY<";
  type += "INT";
  for (int i = 0; i < 20000; ++i) type += ">";
  std::string message = statementError("SELECT CAST(NULL AS " + type + ")");
  EXPECT_NE(message.find("types nested deeper than 200 levels are not supported"), std::string::npos)
      << message.substr(0, 300);
  std::string row = "CREATE TABLE t (c ";
  for (int i = 0; i < 5000; ++i) row += "ROW<a ";
  row += "INT";
  for (int i = 0; i < 5000; ++i) row += ">";
  message = statementError(row + ")");
  EXPECT_NE(message.find("types nested deeper than 200 levels are not supported"), std::string::npos)
      << message.substr(0, 300);
}

TEST(ParseErrorTest, FieldAccessOnALiteralRoundTrips) {
  EXPECT_EQ(roundTripStatement("SELECT 1 . a"), "SELECT (1).`a`");
  EXPECT_EQ(roundTripStatement("SELECT 1 . a . b"), "SELECT (1).`a`.`b`");
  EXPECT_EQ(roundTripStatement("SELECT f(1 . a)"), "SELECT F((1).`a`)");
}

}  // namespace
}  // namespace eddy::sql::testing

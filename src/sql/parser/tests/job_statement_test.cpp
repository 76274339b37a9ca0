// Flink's job statements: SHOW JOBS and STOP JOB '<id>' [WITH SAVEPOINT] [WITH DRAIN] — their
// normalized print and round trip (Flink's SqlParserTest cases), their trees, and the exact
// errors with line and column (WITH DRAIN without WITH SAVEPOINT, as Flink's parser refuses it).
#include <gtest/gtest.h>

#include "sql/parser/tests/round_trip.h"

namespace eddy::sql {
namespace {

using testing::roundTripStatement;
using testing::statementError;

TEST(JobStatementTest, PrintsNormalizedAndRoundTrips) {
  EXPECT_EQ(roundTripStatement("SHOW JOBS"), "SHOW JOBS");
  EXPECT_EQ(roundTripStatement("show jobs"), "SHOW JOBS");
  EXPECT_EQ(roundTripStatement("STOP JOB 'myjob'"), "STOP JOB 'myjob'");
  EXPECT_EQ(roundTripStatement("stop job '228d70913eab60dda85c5e7f78b5782c' with savepoint"),
            "STOP JOB '228d70913eab60dda85c5e7f78b5782c' WITH SAVEPOINT");
  EXPECT_EQ(roundTripStatement("STOP JOB 'myjob' WITH SAVEPOINT WITH DRAIN"),
            "STOP JOB 'myjob' WITH SAVEPOINT WITH DRAIN");
  EXPECT_EQ(roundTripStatement("STOP JOB 'it''s'"), "STOP JOB 'it''s'");
}

TEST(JobStatementTest, BuildsTheirTrees) {
  StatementPtr show = parseStatement("SHOW JOBS;");
  ASSERT_EQ(show->kind, StatementKind::kShow);
  EXPECT_EQ(show->as<ShowStatement>().showKind, ShowKind::kJobs);

  StatementPtr plain = parseStatement("STOP JOB 'a'");
  ASSERT_EQ(plain->kind, StatementKind::kStopJob);
  EXPECT_EQ(plain->as<StopJobStatement>().jobId, "a");
  EXPECT_FALSE(plain->as<StopJobStatement>().withSavepoint);
  EXPECT_FALSE(plain->as<StopJobStatement>().withDrain);

  std::vector<StatementPtr> script = parseScript(
      "SHOW JOBS;\n"
      "  STOP JOB '228d70913eab60dda85c5e7f78b5782c'\n"
      "    WITH SAVEPOINT WITH DRAIN;\n");
  ASSERT_EQ(script.size(), 2u);
  ASSERT_EQ(script[1]->kind, StatementKind::kStopJob);
  const auto& stop = script[1]->as<StopJobStatement>();
  EXPECT_EQ(stop.jobId, "228d70913eab60dda85c5e7f78b5782c");
  EXPECT_TRUE(stop.withSavepoint);
  EXPECT_TRUE(stop.withDrain);
  EXPECT_EQ(stop.position, (SourcePosition{2, 3}));
  EXPECT_EQ(stop.sourceText,
            "STOP JOB '228d70913eab60dda85c5e7f78b5782c'\n    WITH SAVEPOINT WITH DRAIN");
}

TEST(JobStatementTest, WithDrainOnlyAfterWithSavepoint) {
  EXPECT_EQ(statementError("STOP JOB 'myjob' WITH DRAIN"),
            "SQL parse failed. From line 1, column 18 to line 1, column 27: WITH DRAIN could only "
            "be used after WITH SAVEPOINT.");
  EXPECT_EQ(statementError("STOP JOB 'myjob' WITH DRAIN WITH SAVEPOINT"),
            "SQL parse failed. From line 1, column 18 to line 1, column 27: WITH DRAIN could only "
            "be used after WITH SAVEPOINT.");
  try {
    parseScript("SET 'a' = 'b';\nSTOP JOB 'myjob'\n  WITH DRAIN;");
    FAIL() << "parsed WITH DRAIN without WITH SAVEPOINT";
  } catch (const SqlParseException& error) {
    EXPECT_EQ(error.line(), 3);
    EXPECT_EQ(error.column(), 3);
    EXPECT_EQ(std::string(error.what()),
              "SQL parse failed. From line 3, column 3 to line 3, column 12: WITH DRAIN could "
              "only be used after WITH SAVEPOINT.");
  }
}

TEST(JobStatementTest, OtherMistakesNameTheirPosition) {
  EXPECT_EQ(statementError("STOP JOB myjob"),
            "SQL parse failed. Encountered \"myjob\" at line 1, column 10. Was expecting: "
            "<string literal>");
  EXPECT_EQ(statementError("STOP JOB 'myjob' WITH CHECKPOINT"),
            "SQL parse failed. Encountered \"WITH\" at line 1, column 18. Was expecting one of: "
            "<EOF>, \";\"");
  EXPECT_EQ(statementError("SHOW JOB"),
            "SQL parse failed. Encountered \"JOB\" at line 1, column 6. Was expecting one of: "
            "\"CATALOGS\", \"CURRENT\", \"DATABASES\", \"TABLES\", \"VIEWS\", \"FUNCTIONS\", "
            "\"JOBS\", \"COLUMNS\", \"CREATE\"");
}

}  // namespace
}  // namespace eddy::sql

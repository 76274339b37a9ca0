// Splitting typed lines into complete statements: `;` ends a statement outside literals,
// quoted identifiers and comments; a statement set's statements one by one.
#include "client/statement_buffer.h"

#include <gtest/gtest.h>

namespace eddy::client {
namespace {

using Statements = std::vector<std::string>;

TEST(StatementBufferTest, AStatementMaySpanLines) {
  StatementBuffer buffer;
  EXPECT_TRUE(buffer.isEmpty());
  buffer.addLine("SELECT a,");
  EXPECT_EQ(buffer.takeCompleteStatements(), Statements{});
  EXPECT_FALSE(buffer.isEmpty());
  buffer.addLine("  b FROM t;");
  EXPECT_EQ(buffer.takeCompleteStatements(), Statements{"SELECT a,\n  b FROM t;"});
  EXPECT_TRUE(buffer.isEmpty());
}

TEST(StatementBufferTest, SeveralStatementsOnOneLineAndARestThatWaits) {
  StatementBuffer buffer;
  buffer.addLine("SET 'a' = 'b'; SELECT 1; SELECT");
  EXPECT_EQ(buffer.takeCompleteStatements(), (Statements{"SET 'a' = 'b';", " SELECT 1;"}));
  buffer.addLine("2;");
  EXPECT_EQ(buffer.takeCompleteStatements(), Statements{" SELECT\n2;"});
}

TEST(StatementBufferTest, SemicolonsInLiteralsIdentifiersAndCommentsDoNotEndStatements) {
  StatementBuffer buffer;
  buffer.addLine("SELECT 'a;b', `c;d` -- e;f");
  buffer.addLine("/* g;");
  buffer.addLine("h; */ FROM t");
  EXPECT_EQ(buffer.takeCompleteStatements(), Statements{});
  buffer.addLine(";");
  EXPECT_EQ(buffer.takeCompleteStatements(),
            Statements{"SELECT 'a;b', `c;d` -- e;f\n/* g;\nh; */ FROM t\n;"});
}

TEST(StatementBufferTest, CommentsAndBlankLinesAloneAreNoStatement) {
  StatementBuffer buffer;
  buffer.addLine("-- just a comment");
  buffer.addLine("");
  EXPECT_TRUE(buffer.isEmpty());
  buffer.addLine("/* an open comment");
  EXPECT_FALSE(buffer.isEmpty());
}

// The interactive client checks a statement set's statements one by one as they are entered.
TEST(StatementBufferTest, AStatementSetIsTakenStatementByStatement) {
  StatementBuffer buffer;
  buffer.addLine("BEGIN STATEMENT SET;");
  buffer.addLine("INSERT INTO a SELECT 1;");
  EXPECT_EQ(buffer.takeCompleteStatements(),
            (Statements{"BEGIN STATEMENT SET;", "\nINSERT INTO a SELECT 1;"}));
  buffer.addLine("END;");
  EXPECT_EQ(buffer.takeCompleteStatements(), Statements{"END;"});
  EXPECT_TRUE(buffer.isEmpty());
}

}  // namespace
}  // namespace eddy::client

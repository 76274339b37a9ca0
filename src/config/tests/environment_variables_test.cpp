// ${NAME} substitution and the error for an unset variable.
#include "config/environment_variables.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "eddy/exceptions.h"

namespace eddy::config {
namespace {

TEST(EnvironmentVariablesTest, ReplacesEachReference) {
  setenv("EDDY_TEST_ROWS", "3", 1);
  setenv("EDDY_TEST_NAME", "orders", 1);
  EXPECT_EQ(substituteEnvironmentVariables("'rows' = '${EDDY_TEST_ROWS}', ${EDDY_TEST_NAME}/x",
                                           "job.sql"),
            "'rows' = '3', orders/x");
  EXPECT_EQ(substituteEnvironmentVariables("no references, $HOME, ${", "job.sql"),
            "no references, $HOME, ${");
}

TEST(EnvironmentVariablesTest, AnUnsetVariableIsAnErrorNamingItAndItsLine) {
  unsetenv("EDDY_TEST_MISSING");
  try {
    substituteEnvironmentVariables("SELECT 1;\nSELECT '${EDDY_TEST_MISSING}';", "job.sql");
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Environment variable 'EDDY_TEST_MISSING' is not set (referenced at line 2 of "
                 "job.sql)");
  }
  try {
    substituteEnvironmentVariables("${EDDY_TEST_MISSING}", "flink.yaml", 7);
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Environment variable 'EDDY_TEST_MISSING' is not set (referenced at line 7 of "
                 "flink.yaml)");
  }
}

TEST(EnvironmentVariablesTest, SqlCommentsAreLeftAsTheyAre) {
  unsetenv("EDDY_TEST_MISSING");
  setenv("EDDY_TEST_RATE", "1000", 1);
  // Comments may mention a variable; string literals and code still get theirs; '--' inside a
  // literal starts no comment; lines are still counted through comments.
  EXPECT_EQ(substituteEnvironmentVariables(
                "-- set ${EDDY_TEST_MISSING} to choose\n/* or ${EDDY_TEST_MISSING}\n */ SELECT "
                "'--${EDDY_TEST_RATE}', ${EDDY_TEST_RATE}; -- ${EDDY_TEST_MISSING}",
                "job.sql", 1, /*sqlComments=*/true),
            "-- set ${EDDY_TEST_MISSING} to choose\n/* or ${EDDY_TEST_MISSING}\n */ SELECT "
            "'--1000', 1000; -- ${EDDY_TEST_MISSING}");
  try {
    substituteEnvironmentVariables("-- ${EDDY_TEST_MISSING}\n/*\n*/ SELECT ${EDDY_TEST_MISSING}",
                                   "job.sql", 1, /*sqlComments=*/true);
    FAIL() << "expected an error";
  } catch (const ValidationException& error) {
    EXPECT_STREQ(error.what(),
                 "Environment variable 'EDDY_TEST_MISSING' is not set (referenced at line 3 of "
                 "job.sql)");
  }
  unsetenv("EDDY_TEST_RATE");
}

}  // namespace
}  // namespace eddy::config

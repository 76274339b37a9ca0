// User-defined scalar functions: registered from C++ lambdas with createTemporarySystemFunction,
// called from SQL and the Table API; their SQL signature from the C++ one, implicit casts of the
// arguments, NULL handling (plain parameters: NULL in, NULL out; std::optional parameters see
// std::nullopt), shadowing of built-ins, the errors of a wrong call or a duplicate name, and a
// failing function failing the job.
#include <gtest/gtest.h>

#include <eddy/table/table_environment.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace eddy {
namespace {

std::vector<std::string> rowsOf(TableResult result) {
  std::vector<std::string> printed;
  for (const Row& row : result.collectAll()) printed.push_back(row.toString());
  return printed;
}

std::unique_ptr<TableEnvironment> environment() {
  auto env = TableEnvironment::create(EnvironmentSettings::inBatchMode());
  env->executeSql("SET 'parallelism.default' = '1'");
  // Nexmark q14's function: how often `c` occurs in `text`.
  env->createTemporarySystemFunction(
      "count_char", scalarFunction([](const std::string& text, const std::string& c) -> int64_t {
        if (c.empty()) return 0;
        int64_t count = 0;
        for (size_t at = text.find(c); at != std::string::npos; at = text.find(c, at + c.size())) {
          ++count;
        }
        return count;
      }));
  return env;
}

std::string errorOf(const std::function<void()>& action) {
  try {
    action();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(UserFunctionTest, ScalarFunctionFromALambdaInSqlAndTheTableApi) {
  auto env = environment();
  Table result = env->sqlQuery(
      "SELECT s, count_char(s, 'a') AS n, COUNT_CHAR(s, s) AS self FROM (VALUES ('banana'), "
      "('kiwi'), (CAST(NULL AS STRING))) AS t(s)");
  EXPECT_EQ(result.getResolvedSchema().toString(),
            "(\n  `s` STRING,\n  `n` BIGINT,\n  `self` BIGINT\n)");
  EXPECT_EQ(rowsOf(result.execute()),
            (std::vector<std::string>{"+I[banana, 3, 1]", "+I[kiwi, 0, 1]", "+I[null, null, null]"}));
  Table table = env->fromValues({lit("papaya")}).select(
      {callFunction("count_char", {$("f0"), lit("p")}).as("p")});
  EXPECT_EQ(table.getResolvedSchema().toString(), "(\n  `p` BIGINT NOT NULL\n)");
  EXPECT_EQ(rowsOf(table.execute()), (std::vector<std::string>{"+I[2]"}));
}

TEST(UserFunctionTest, ArgumentsAreCastAndOptionalParametersSeeNulls) {
  auto env = environment();
  env->createTemporarySystemFunction(
      "add_or_default", scalarFunction([](std::optional<int64_t> a, double b) -> std::optional<double> {
        if (!a) return std::nullopt;
        return static_cast<double>(*a) + b;
      }));
  // INT reaches the int64_t parameter, INT the double one.
  EXPECT_EQ(rowsOf(env->executeSql("SELECT add_or_default(x, 1), add_or_default(NULL, 2) FROM "
                                   "(VALUES (1), (40)) AS t(x)")),
            (std::vector<std::string>{"+I[2.0, null]", "+I[41.0, null]"}));
  EXPECT_EQ(errorOf([&] { env->sqlQuery("SELECT count_char(1, 'a')"); }),
            "SQL validation failed. From line 1, column 8: Cannot apply 'COUNT_CHAR' to arguments "
            "of type 'COUNT_CHAR(<INT>, <CHAR(1)>)'. Supported form(s): "
            "'COUNT_CHAR(<STRING>, <STRING>)'");
  EXPECT_EQ(errorOf([&] { env->sqlQuery("SELECT count_char('a')"); }),
            "SQL validation failed. From line 1, column 8: Cannot apply 'COUNT_CHAR' to arguments "
            "of type 'COUNT_CHAR(<CHAR(1)>)'. Supported form(s): 'COUNT_CHAR(<STRING>, <STRING>)'");
}

TEST(UserFunctionTest, RegistrationShadowingDroppingAndListing) {
  auto env = environment();
  EXPECT_EQ(errorOf([&] {
              env->createTemporarySystemFunction(
                  "COUNT_CHAR", scalarFunction([](const std::string&) { return int64_t{0}; }));
            }),
            "Could not register temporary system function. A function named 'COUNT_CHAR' does "
            "already exist.");
  // A temporary system function shadows the built-in of its name.
  env->createTemporarySystemFunction(
      "upper", scalarFunction([](const std::string& s) { return "<" + s + ">"; }));
  EXPECT_EQ(rowsOf(env->executeSql("SELECT UPPER('x')")), (std::vector<std::string>{"+I[<x>]"}));
  EXPECT_EQ(env->listUserDefinedFunctions(), (std::vector<std::string>{"count_char", "upper"}));
  auto shown = rowsOf(env->executeSql("SHOW FUNCTIONS"));
  EXPECT_NE(std::find(shown.begin(), shown.end(), "+I[COUNT_CHAR]"), shown.end());
  EXPECT_TRUE(env->dropTemporarySystemFunction("UPPER"));
  EXPECT_FALSE(env->dropTemporarySystemFunction("upper"));
  EXPECT_EQ(rowsOf(env->executeSql("SELECT UPPER('x')")), (std::vector<std::string>{"+I[X]"}));
  EXPECT_EQ(errorOf([&] { env->sqlQuery("SELECT nothing_like_it(1)"); }),
            "SQL validation failed. From line 1, column 8: No match found for function signature "
            "NOTHING_LIKE_IT(<INT>)");
}

TEST(UserFunctionTest, AFailingFunctionFailsTheJobWithItsMessage) {
  auto env = environment();
  env->createTemporarySystemFunction("strict", scalarFunction([](int32_t x) -> int32_t {
                                       if (x > 1) throw std::runtime_error("x is too large: " + std::to_string(x));
                                       return x;
                                     }));
  std::string error = errorOf([&] { rowsOf(env->executeSql("SELECT strict(x) FROM (VALUES (1), (2)) AS t(x)")); });
  EXPECT_NE(error.find("x is too large: 2"), std::string::npos) << error;
}

}  // namespace
}  // namespace eddy

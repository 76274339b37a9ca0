// Flink's type rules: least restrictive types, numeric widening, DECIMAL arithmetic types and
// message type names.
#include "function/type_rules.h"

#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

using function::leastRestrictive;

std::string least(std::vector<std::string_view> names) {
  std::vector<LogicalTypePtr> types;
  for (std::string_view name : names) types.push_back(type(name));
  LogicalTypePtr result = leastRestrictive(types);
  return result == nullptr ? "none" : result->asSummaryString();
}

TEST(TypeRulesTest, LeastRestrictive) {
  EXPECT_EQ(least({"INT NOT NULL", "BIGINT NOT NULL"}), "BIGINT NOT NULL");
  EXPECT_EQ(least({"INT NOT NULL", "BIGINT"}), "BIGINT");
  EXPECT_EQ(least({"TINYINT", "DECIMAL(5, 2)"}), "DECIMAL(5, 2)");
  EXPECT_EQ(least({"INT", "DECIMAL(5, 2)"}), "DECIMAL(12, 2)");
  EXPECT_EQ(least({"DECIMAL(10, 2)", "DECIMAL(5, 4)"}), "DECIMAL(12, 4)");
  EXPECT_EQ(least({"INT", "FLOAT"}), "FLOAT");
  EXPECT_EQ(least({"DECIMAL(10, 2)", "FLOAT"}), "DOUBLE");
  EXPECT_EQ(least({"BIGINT", "DOUBLE"}), "DOUBLE");
  EXPECT_EQ(least({"CHAR(3) NOT NULL", "CHAR(5) NOT NULL"}), "CHAR(5) NOT NULL");
  EXPECT_EQ(least({"CHAR(3)", "VARCHAR(2)"}), "VARCHAR(3)");
  EXPECT_EQ(least({"STRING", "CHAR(3)"}), "STRING");
  EXPECT_EQ(least({"NULL", "INT NOT NULL"}), "INT");
  EXPECT_EQ(least({"DATE", "TIMESTAMP(3)"}), "TIMESTAMP(3)");
  EXPECT_EQ(least({"TIMESTAMP(3)", "TIMESTAMP(6)"}), "TIMESTAMP(6)");
  EXPECT_EQ(least({"INT", "BOOLEAN"}), "none");
  EXPECT_EQ(least({"STRING", "INT"}), "none");
}

TEST(TypeRulesTest, DecimalArithmeticTypes) {
  auto a = type("DECIMAL(10, 2)"), b = type("DECIMAL(5, 3)");
  EXPECT_EQ(function::decimalPlusType(*a, *b, true)->asSummaryString(), "DECIMAL(12, 3)");
  EXPECT_EQ(function::decimalTimesType(*a, *b, true)->asSummaryString(), "DECIMAL(15, 5)");
  EXPECT_EQ(function::decimalDivideType(*a, *b, true)->asSummaryString(), "DECIMAL(19, 8)");
  EXPECT_EQ(function::decimalModType(*a, *b, true)->asSummaryString(), "DECIMAL(5, 3)");
  EXPECT_EQ(function::decimalDivideType(*type("INT"), *type("INT"), false)->asSummaryString(),
            "DECIMAL(21, 11) NOT NULL");
  EXPECT_EQ(function::adjustedDecimal(50, 20, true)->asSummaryString(), "DECIMAL(38, 8)");
  EXPECT_EQ(function::adjustedDecimal(50, 4, true)->asSummaryString(), "DECIMAL(38, 4)");
}

TEST(TypeRulesTest, NamesInMessages) {
  EXPECT_EQ(function::typeNameInMessage(*type("STRING NOT NULL")), "VARCHAR(2147483647)");
  EXPECT_EQ(function::typeNameInMessage(*type("DECIMAL(10, 2) NOT NULL")), "DECIMAL(10, 2)");
  EXPECT_EQ(function::typeNameInMessage(*type("INT")), "INT");
}

TEST(TypeRulesTest, RegistryIsCaseInsensitiveAndListsNames) {
  const auto& registry = function::FunctionRegistry::builtIn();
  EXPECT_NE(registry.lookup("upper"), nullptr);
  EXPECT_EQ(registry.lookup("Char_Length"), registry.lookup("CHARACTER_LENGTH"));
  EXPECT_EQ(registry.lookup("NO_SUCH_FUNCTION"), nullptr);
  std::vector<std::string> names = registry.functionNames();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_NE(std::find(names.begin(), names.end(), "SPLIT_INDEX"), names.end());
}

}  // namespace
}  // namespace eddy::expression::testing

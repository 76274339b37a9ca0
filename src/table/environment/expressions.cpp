#include "eddy/table/expressions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "eddy/exceptions.h"

namespace eddy {

namespace {
std::string quoteString(const std::string& value) {
  std::string result = "'";
  for (char c : value) {
    if (c == '\'') result.push_back('\'');
    result.push_back(c);
  }
  return result + "'";
}

std::string typeText(const DataType& type) {
  return type.getLogicalType()->asSerializableString();
}
}  // namespace

Expression::Expression(int32_t value) : sql_(std::to_string(value)) {}
Expression::Expression(int64_t value) : sql_("CAST(" + std::to_string(value) + " AS BIGINT)") {}
Expression::Expression(double value) {
  if (std::isnan(value)) {
    sql_ = "CAST('NaN' AS DOUBLE)";
  } else if (std::isinf(value)) {
    sql_ = value > 0 ? "CAST('Infinity' AS DOUBLE)" : "CAST('-Infinity' AS DOUBLE)";
  } else {
    // The shortest text that reads back as the same double, as an approximate literal.
    std::string text = fmt::format("{}", value);
    if (text.find_first_of("eE") == std::string::npos) text += "E0";
    sql_ = text[0] == '-' ? "(" + text + ")" : text;
  }
}
Expression::Expression(bool value) : sql_(value ? "TRUE" : "FALSE") {}
Expression::Expression(const char* value) : sql_(quoteString(value)) {}
Expression::Expression(const std::string& value) : sql_(quoteString(value)) {}

Expression Expression::sql(std::string text) { return ofSql("(" + text + ")"); }

Expression Expression::binary(const char* op, const Expression& other) const {
  return ofSql("(" + sql_ + " " + op + " " + other.sql_ + ")");
}
Expression Expression::function(const char* name) const {
  return ofSql(std::string(name) + "(" + sql_ + ")");
}
Expression Expression::aggregate(const char* name) const {
  Expression result = function(name);
  result.aggregateName_ = name;
  result.aggregateArgument_ = sql_;
  return result;
}

Expression Expression::plus(const Expression& other) const { return binary("+", other); }
Expression Expression::minus(const Expression& other) const { return binary("-", other); }
Expression Expression::times(const Expression& other) const { return binary("*", other); }
Expression Expression::dividedBy(const Expression& other) const { return binary("/", other); }
Expression Expression::mod(const Expression& other) const {
  return ofSql("MOD(" + sql_ + ", " + other.sql_ + ")");
}
Expression Expression::isEqual(const Expression& other) const { return binary("=", other); }
Expression Expression::isNotEqual(const Expression& other) const { return binary("<>", other); }
Expression Expression::isGreater(const Expression& other) const { return binary(">", other); }
Expression Expression::isGreaterOrEqual(const Expression& other) const {
  return binary(">=", other);
}
Expression Expression::isLess(const Expression& other) const { return binary("<", other); }
Expression Expression::isLessOrEqual(const Expression& other) const { return binary("<=", other); }
Expression Expression::and_(const Expression& other) const { return binary("AND", other); }
Expression Expression::or_(const Expression& other) const { return binary("OR", other); }
Expression Expression::not_() const { return ofSql("(NOT " + sql_ + ")"); }
Expression Expression::isNull() const { return ofSql("(" + sql_ + " IS NULL)"); }
Expression Expression::isNotNull() const { return ofSql("(" + sql_ + " IS NOT NULL)"); }
Expression Expression::isTrue() const { return ofSql("(" + sql_ + " IS TRUE)"); }
Expression Expression::isFalse() const { return ofSql("(" + sql_ + " IS FALSE)"); }
Expression Expression::between(const Expression& lower, const Expression& upper) const {
  return ofSql("(" + sql_ + " BETWEEN " + lower.sql_ + " AND " + upper.sql_ + ")");
}
Expression Expression::in(const std::vector<Expression>& values) const {
  if (values.empty()) throw ValidationException("IN needs at least one value");
  std::string text = "(" + sql_ + " IN (";
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + values[i].sql_;
  return ofSql(text + "))");
}
Expression Expression::like(const Expression& pattern) const { return binary("LIKE", pattern); }

Expression Expression::abs() const { return function("ABS"); }
Expression Expression::get(const std::string& field) const {
  return ofSql("(" + sql_ + ")." + escapeIdentifier(field));
}
Expression Expression::at(const Expression& index) const {
  return ofSql("(" + sql_ + ")[" + index.sql_ + "]");
}
Expression Expression::cardinality() const { return function("CARDINALITY"); }
Expression Expression::element() const { return function("ELEMENT"); }
Expression Expression::arrayContains(const Expression& needle) const {
  return ofSql("ARRAY_CONTAINS(" + sql_ + ", " + needle.sql_ + ")");
}
Expression Expression::upperCase() const { return function("UPPER"); }
Expression Expression::lowerCase() const { return function("LOWER"); }
Expression Expression::charLength() const { return function("CHAR_LENGTH"); }
Expression Expression::trim() const { return function("TRIM"); }
Expression Expression::substring(const Expression& begin) const {
  return ofSql("SUBSTRING(" + sql_ + " FROM " + begin.sql_ + ")");
}
Expression Expression::substring(const Expression& begin, const Expression& length) const {
  return ofSql("SUBSTRING(" + sql_ + " FROM " + begin.sql_ + " FOR " + length.sql_ + ")");
}
Expression Expression::cast(const DataType& type) const {
  return ofSql("CAST(" + sql_ + " AS " + typeText(type) + ")");
}
Expression Expression::tryCast(const DataType& type) const {
  return ofSql("TRY_CAST(" + sql_ + " AS " + typeText(type) + ")");
}
Expression Expression::then(const Expression& then, const Expression& otherwise) const {
  return ofSql("(CASE WHEN " + sql_ + " THEN " + then.sql_ + " ELSE " + otherwise.sql_ + " END)");
}

Expression Expression::count() const { return aggregate("COUNT"); }
Expression Expression::sum() const { return aggregate("SUM"); }
Expression Expression::avg() const { return aggregate("AVG"); }
Expression Expression::min() const { return aggregate("MIN"); }
Expression Expression::max() const { return aggregate("MAX"); }
Expression Expression::distinct() const {
  if (aggregateName_.empty()) {
    throw ValidationException("distinct() applies to an aggregate, e.g. $(\"a\").count().distinct(); got " + sql_);
  }
  return ofSql(aggregateName_ + "(DISTINCT " + aggregateArgument_ + ")");
}

Expression Expression::as(const std::string& name) const {
  Expression result = *this;
  result.alias_ = name;
  return result;
}
Expression Expression::asc() const {
  Expression result = *this;
  result.ordering_ = "ASC";
  return result;
}
Expression Expression::desc() const {
  Expression result = *this;
  result.ordering_ = "DESC";
  return result;
}

namespace {
/// Whether `sql` is an unsigned integer literal (`lit(5)`).
bool isIntegerLiteral(const std::string& sql) {
  return !sql.empty() && std::all_of(sql.begin(), sql.end(), [](char c) { return c >= '0' && c <= '9'; });
}
}  // namespace

Expression Expression::interval(const char* unit) const {
  if (isIntegerLiteral(sql_)) return ofSql("INTERVAL '" + sql_ + "' " + unit);
  return ofSql("(" + sql_ + " * INTERVAL '1' " + unit + ")");
}
Expression Expression::millis() const {
  // SQL has no millisecond interval literal: a fraction of a second.
  if (isIntegerLiteral(sql_)) {
    long long value = std::stoll(sql_);
    return ofSql(fmt::format("INTERVAL '{}.{:03}' SECOND", value / 1000, value % 1000));
  }
  return ofSql("(" + sql_ + " * INTERVAL '0.001' SECOND)");
}
Expression Expression::seconds() const { return interval("SECOND"); }
Expression Expression::minutes() const { return interval("MINUTE"); }
Expression Expression::hours() const { return interval("HOUR"); }
Expression Expression::days() const { return interval("DAY"); }

Expression Expression::start() const { return function("start"); }
Expression Expression::end() const { return function("end"); }
Expression Expression::rowtime() const { return function("rowtime"); }
Expression Expression::proctime() const { return function("proctime"); }

Expression Expression::over(const Expression& windowAlias) const {
  return ofSql(sql_ + " OVER " + windowAlias.sql_);
}

// The over window bounds are markers that Over's preceding() turns into a frame; they are not
// SQL and fail to bind anywhere else.
struct OverBound {
  static Expression of(const char* marker) { return Expression::ofSql(marker); }
};
const Expression UNBOUNDED_ROW = OverBound::of("$UNBOUNDED_ROW");
const Expression UNBOUNDED_RANGE = OverBound::of("$UNBOUNDED_RANGE");
const Expression CURRENT_ROW = OverBound::of("$CURRENT_ROW");
const Expression CURRENT_RANGE = OverBound::of("$CURRENT_RANGE");
Expression rowInterval(int64_t rows) { return Expression::ofSql("$ROWS " + std::to_string(rows)); }

Expression col(const std::string& name) { return Expression::ofSql(escapeIdentifier(name)); }

Expression nullOf(const DataType& type) {
  return Expression::ofSql("CAST(NULL AS " + typeText(type) + ")");
}

Expression row(const std::vector<Expression>& fields) {
  std::string text = "ROW(";
  for (size_t i = 0; i < fields.size(); ++i) text += (i ? ", " : "") + fields[i].sql_;
  return Expression::ofSql(text + ")");
}

namespace {
std::string listed(const std::vector<Expression>& expressions) {
  std::string text;
  for (size_t i = 0; i < expressions.size(); ++i) {
    text += (i ? ", " : "") + expressions[i].asSummaryString();
  }
  return text;
}
}  // namespace

Expression array(const std::vector<Expression>& elements) {
  return Expression::ofSql("ARRAY[" + listed(elements) + "]");
}

Expression map(const std::vector<Expression>& keysAndValues) {
  return Expression::ofSql("MAP[" + listed(keysAndValues) + "]");
}

Expression callFunction(const std::string& name, const std::vector<Expression>& arguments) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  std::string text = (plain ? name : escapeIdentifier(name)) + "(";
  for (size_t i = 0; i < arguments.size(); ++i) text += (i ? ", " : "") + arguments[i].sql_;
  return Expression::ofSql(text + ")");
}

Expression operator+(const Expression& a, const Expression& b) { return a.plus(b); }
Expression operator-(const Expression& a, const Expression& b) { return a.minus(b); }
Expression operator*(const Expression& a, const Expression& b) { return a.times(b); }
Expression operator/(const Expression& a, const Expression& b) { return a.dividedBy(b); }
Expression operator%(const Expression& a, const Expression& b) { return a.mod(b); }
Expression operator==(const Expression& a, const Expression& b) { return a.isEqual(b); }
Expression operator!=(const Expression& a, const Expression& b) { return a.isNotEqual(b); }
Expression operator<(const Expression& a, const Expression& b) { return a.isLess(b); }
Expression operator<=(const Expression& a, const Expression& b) { return a.isLessOrEqual(b); }
Expression operator>(const Expression& a, const Expression& b) { return a.isGreater(b); }
Expression operator>=(const Expression& a, const Expression& b) { return a.isGreaterOrEqual(b); }
Expression operator&&(const Expression& a, const Expression& b) { return a.and_(b); }
Expression operator||(const Expression& a, const Expression& b) { return a.or_(b); }
Expression operator!(const Expression& a) { return a.not_(); }
Expression operator-(const Expression& a) { return Expression::sql("- " + a.asSummaryString()); }

}  // namespace eddy

// Flink's type rules (see type_rules.h).
#include "function/type_rules.h"

#include <algorithm>

#include "eddy/exceptions.h"

namespace eddy::function {
namespace {

using Root = LogicalTypeRoot;

// Rank in TINYINT < SMALLINT < INT < BIGINT < DECIMAL < FLOAT < DOUBLE.
int numericRank(Root root) {
  switch (root) {
    case Root::TINYINT:
      return 0;
    case Root::SMALLINT:
      return 1;
    case Root::INTEGER:
      return 2;
    case Root::BIGINT:
      return 3;
    case Root::DECIMAL:
      return 4;
    case Root::FLOAT:
      return 5;
    case Root::DOUBLE:
      return 6;
    default:
      return -1;
  }
}

LogicalTypePtr commonDecimal(const LogicalType& left, const LogicalType& right, bool nullable) {
  LogicalTypePtr a = toDecimal(left);
  LogicalTypePtr b = toDecimal(right);
  int scale = std::max(a->getScale(), b->getScale());
  int integerDigits =
      std::max(a->getPrecision() - a->getScale(), b->getPrecision() - b->getScale());
  int precision = std::min(integerDigits + scale, LogicalType::kMaxDecimalPrecision);
  return LogicalType::decimal(precision, std::min(scale, precision), nullable);
}

}  // namespace

bool isIntegral(const LogicalType& type) {
  Root root = type.getTypeRoot();
  return root == Root::TINYINT || root == Root::SMALLINT || root == Root::INTEGER ||
         root == Root::BIGINT;
}
bool isExactNumeric(const LogicalType& type) {
  return isIntegral(type) || type.getTypeRoot() == Root::DECIMAL;
}
bool isApproximateNumeric(const LogicalType& type) {
  return type.getTypeRoot() == Root::FLOAT || type.getTypeRoot() == Root::DOUBLE;
}
bool isNumeric(const LogicalType& type) {
  return isExactNumeric(type) || isApproximateNumeric(type);
}
bool isCharacterString(const LogicalType& type) { return type.isCharacterString(); }
bool isBinaryString(const LogicalType& type) { return type.isBinaryString(); }
bool isBoolean(const LogicalType& type) { return type.getTypeRoot() == Root::BOOLEAN; }
bool isDatetime(const LogicalType& type) {
  Root root = type.getTypeRoot();
  return root == Root::DATE || root == Root::TIME_WITHOUT_TIME_ZONE ||
         root == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
         root == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
}
bool isNullType(const LogicalType& type) { return type.getTypeRoot() == Root::NULL_TYPE; }

bool anyNullable(const std::vector<LogicalTypePtr>& types) {
  return std::any_of(types.begin(), types.end(),
                     [](const LogicalTypePtr& type) { return type->isNullable(); });
}

LogicalTypePtr toDecimal(const LogicalType& exactNumeric) {
  bool nullable = exactNumeric.isNullable();
  switch (exactNumeric.getTypeRoot()) {
    case Root::TINYINT:
      return LogicalType::decimal(3, 0, nullable);
    case Root::SMALLINT:
      return LogicalType::decimal(5, 0, nullable);
    case Root::INTEGER:
      return LogicalType::decimal(10, 0, nullable);
    case Root::BIGINT:
      return LogicalType::decimal(19, 0, nullable);
    case Root::DECIMAL:
      return exactNumeric.copy(nullable);
    default:
      throw InternalError("toDecimal of a non-exact type " + exactNumeric.asSummaryString());
  }
}

LogicalTypePtr adjustedDecimal(int precision, int scale, bool nullable) {
  constexpr int kMinimumAdjustedScale = 6;
  if (precision <= LogicalType::kMaxDecimalPrecision) {
    return LogicalType::decimal(std::max(precision, 1), scale, nullable);
  }
  int integerDigits = precision - scale;
  int minimumScale = std::min(scale, kMinimumAdjustedScale);
  int adjustedScale = std::max(LogicalType::kMaxDecimalPrecision - integerDigits, minimumScale);
  return LogicalType::decimal(LogicalType::kMaxDecimalPrecision, adjustedScale, nullable);
}

LogicalTypePtr decimalPlusType(const LogicalType& left, const LogicalType& right, bool nullable) {
  LogicalTypePtr a = toDecimal(left), b = toDecimal(right);
  int scale = std::max(a->getScale(), b->getScale());
  int precision =
      std::max(a->getPrecision() - a->getScale(), b->getPrecision() - b->getScale()) + scale + 1;
  return adjustedDecimal(precision, scale, nullable);
}

LogicalTypePtr decimalTimesType(const LogicalType& left, const LogicalType& right,
                                bool nullable) {
  LogicalTypePtr a = toDecimal(left), b = toDecimal(right);
  return adjustedDecimal(a->getPrecision() + b->getPrecision(), a->getScale() + b->getScale(),
                         nullable);
}

LogicalTypePtr decimalDivideType(const LogicalType& left, const LogicalType& right,
                                 bool nullable) {
  LogicalTypePtr a = toDecimal(left), b = toDecimal(right);
  int scale = std::max(6, a->getScale() + b->getPrecision() + 1);
  int precision = a->getPrecision() - a->getScale() + b->getScale() + scale;
  return adjustedDecimal(precision, scale, nullable);
}

LogicalTypePtr decimalModType(const LogicalType& left, const LogicalType& right, bool nullable) {
  LogicalTypePtr a = toDecimal(left), b = toDecimal(right);
  int scale = std::max(a->getScale(), b->getScale());
  int precision =
      std::min(a->getPrecision() - a->getScale(), b->getPrecision() - b->getScale()) + scale;
  return adjustedDecimal(precision, scale, nullable);
}

LogicalTypePtr commonNumericType(const LogicalType& left, const LogicalType& right) {
  if (!isNumeric(left) || !isNumeric(right)) return nullptr;
  bool nullable = left.isNullable() || right.isNullable();
  int leftRank = numericRank(left.getTypeRoot());
  int rightRank = numericRank(right.getTypeRoot());
  if (left.getTypeRoot() == Root::DOUBLE || right.getTypeRoot() == Root::DOUBLE) {
    return LogicalType::simple(Root::DOUBLE, nullable);
  }
  bool anyDecimal = left.getTypeRoot() == Root::DECIMAL || right.getTypeRoot() == Root::DECIMAL;
  bool anyFloat = left.getTypeRoot() == Root::FLOAT || right.getTypeRoot() == Root::FLOAT;
  if (anyFloat) {
    return LogicalType::simple(anyDecimal ? Root::DOUBLE : Root::FLOAT, nullable);
  }
  if (anyDecimal) return commonDecimal(left, right, nullable);
  return (leftRank >= rightRank ? left : right).copy(nullable);
}

LogicalTypePtr leastRestrictive(const std::vector<LogicalTypePtr>& types) {
  LogicalTypePtr result;
  bool nullable = false;
  for (const LogicalTypePtr& type : types) {
    nullable = nullable || type->isNullable();
    if (isNullType(*type)) continue;
    if (result == nullptr) {
      result = type;
      continue;
    }
    const LogicalType& a = *result;
    const LogicalType& b = *type;
    if (isNumeric(a) && isNumeric(b)) {
      result = commonNumericType(a, b);
    } else if (isCharacterString(a) && isCharacterString(b)) {
      int length = std::max(a.getLength(), b.getLength());
      bool bothChar = a.getTypeRoot() == Root::CHAR && b.getTypeRoot() == Root::CHAR;
      result = bothChar ? LogicalType::charType(length) : LogicalType::varchar(length);
    } else if (isBinaryString(a) && isBinaryString(b)) {
      int length = std::max(a.getLength(), b.getLength());
      bool bothBinary = a.getTypeRoot() == Root::BINARY && b.getTypeRoot() == Root::BINARY;
      result = bothBinary ? LogicalType::binary(length) : LogicalType::varbinary(length);
    } else if (a.getTypeRoot() == b.getTypeRoot() &&
               (a.getTypeRoot() == Root::TIME_WITHOUT_TIME_ZONE ||
                a.getTypeRoot() == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
                a.getTypeRoot() == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
      int precision = std::max(a.getPrecision(), b.getPrecision());
      if (a.getTypeRoot() == Root::TIME_WITHOUT_TIME_ZONE) {
        result = LogicalType::time(precision);
      } else if (a.getTypeRoot() == Root::TIMESTAMP_WITHOUT_TIME_ZONE) {
        result = LogicalType::timestamp(precision);
      } else {
        result = LogicalType::localZonedTimestamp(precision);
      }
    } else if ((a.getTypeRoot() == Root::DATE &&
                b.getTypeRoot() == Root::TIMESTAMP_WITHOUT_TIME_ZONE) ||
               (b.getTypeRoot() == Root::DATE &&
                a.getTypeRoot() == Root::TIMESTAMP_WITHOUT_TIME_ZONE)) {
      result = LogicalType::timestamp(
          a.getTypeRoot() == Root::DATE ? b.getPrecision() : a.getPrecision());
    } else if (*a.copy(true) == *b.copy(true)) {
      // equal up to nullability
    } else if (a.getTypeRoot() == b.getTypeRoot() &&
               (a.getTypeRoot() == Root::ARRAY || a.getTypeRoot() == Root::MULTISET)) {
      LogicalTypePtr element = leastRestrictive({a.getElementType(), b.getElementType()});
      if (element == nullptr || isNullType(*element)) return nullptr;
      result = a.getTypeRoot() == Root::ARRAY ? LogicalType::array(element)
                                              : LogicalType::multiset(element);
    } else if (a.getTypeRoot() == Root::MAP && b.getTypeRoot() == Root::MAP) {
      LogicalTypePtr key = leastRestrictive({a.getKeyType(), b.getKeyType()});
      LogicalTypePtr value = leastRestrictive({a.getValueType(), b.getValueType()});
      if (key == nullptr || value == nullptr || isNullType(*key) || isNullType(*value)) {
        return nullptr;
      }
      result = LogicalType::map(key, value);
    } else if (a.getTypeRoot() == Root::ROW && b.getTypeRoot() == Root::ROW &&
               a.getFieldCount() == b.getFieldCount()) {
      // Field by field, named as the first row (Calcite's leastRestrictiveStructuredType).
      std::vector<RowField> fields = a.getFields();
      for (size_t i = 0; i < fields.size(); ++i) {
        fields[i].type = leastRestrictive({fields[i].type, b.getFields()[i].type});
        if (fields[i].type == nullptr || isNullType(*fields[i].type)) return nullptr;
      }
      result = LogicalType::row(std::move(fields));
    } else {
      return nullptr;
    }
  }
  if (result == nullptr) return LogicalType::nullType();
  return result->copy(nullable);
}

bool areComparable(const LogicalType& left, const LogicalType& right) {
  if (isNullType(left) || isNullType(right)) return true;
  if (isNumeric(left) && isNumeric(right)) return true;
  if (isCharacterString(left) && isCharacterString(right)) return true;
  if (isBinaryString(left) && isBinaryString(right)) return true;
  if (isBoolean(left) && isBoolean(right)) return true;
  if (isDatetime(left) && isDatetime(right)) {
    return leastRestrictive({left.copy(true), right.copy(true)}) != nullptr;
  }
  // ARRAY, MULTISET, MAP and ROW values compare (for equality) with values of a type they
  // share a common type with.
  const Root root = left.getTypeRoot();
  if (root == right.getTypeRoot() &&
      (root == Root::ARRAY || root == Root::MULTISET || root == Root::MAP || root == Root::ROW)) {
    return leastRestrictive({left.copy(true), right.copy(true)}) != nullptr;
  }
  return false;
}

bool supportsImplicitCast(const LogicalType& from, const LogicalType& to) {
  if (isNullType(from)) return true;
  const Root source = from.getTypeRoot();
  const Root target = to.getTypeRoot();
  if (isCharacterString(from) && isCharacterString(to)) return true;
  if (isBinaryString(from) && isBinaryString(to)) return true;
  if (isNumeric(from) && isNumeric(to)) {
    // The numeric kinds from narrow to wide; DECIMAL takes every exact kind, FLOAT every kind
    // but DOUBLE, DOUBLE every kind.
    auto rank = [](Root root) {
      switch (root) {
        case Root::TINYINT: return 0;
        case Root::SMALLINT: return 1;
        case Root::INTEGER: return 2;
        case Root::BIGINT: return 3;
        case Root::DECIMAL: return 4;
        case Root::FLOAT: return 5;
        default: return 6;  // DOUBLE
      }
    };
    return target == Root::DECIMAL ? true : rank(source) <= rank(target);
  }
  switch (target) {
    case Root::DATE:
      return source == Root::DATE || source == Root::TIMESTAMP_WITHOUT_TIME_ZONE;
    case Root::TIME_WITHOUT_TIME_ZONE:
      return source == Root::TIME_WITHOUT_TIME_ZONE || source == Root::TIMESTAMP_WITHOUT_TIME_ZONE;
    case Root::TIMESTAMP_WITHOUT_TIME_ZONE:
    case Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      return source == Root::TIMESTAMP_WITHOUT_TIME_ZONE ||
             source == Root::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    case Root::ARRAY:
    case Root::MULTISET:
      return source == target &&
             supportsImplicitCast(*from.getElementType(), *to.getElementType());
    case Root::MAP:
      return source == target && supportsImplicitCast(*from.getKeyType(), *to.getKeyType()) &&
             supportsImplicitCast(*from.getValueType(), *to.getValueType());
    case Root::ROW: {
      if (source != target || from.getFields().size() != to.getFields().size()) return false;
      for (size_t i = 0; i < from.getFields().size(); ++i) {
        if (!supportsImplicitCast(*from.getFields()[i].type, *to.getFields()[i].type)) {
          return false;
        }
      }
      return true;
    }
    case Root::STRUCTURED_TYPE:
    case Root::RAW:
      return *from.copy(true) == *to.copy(true);
    default:
      return source == target;
  }
}

std::string typeNameInMessage(const LogicalType& type) {
  if (type.getTypeRoot() == Root::VARCHAR && type.getLength() == LogicalType::kMaxLength) {
    return "VARCHAR(2147483647)";
  }
  if (type.getTypeRoot() == Root::VARBINARY && type.getLength() == LogicalType::kMaxLength) {
    return "VARBINARY(2147483647)";
  }
  if (type.getTypeRoot() == Root::NULL_TYPE) return "NULL";
  return type.copy(true)->asSummaryString();
}

}  // namespace eddy::function

// Collection functions with Flink's semantics: the value constructors and the functions over
// ARRAY, MAP and MULTISET values.
//   ARRAY[a, b, ..]        ARRAY<common type of the elements> NOT NULL (printed ARRAY(a, b))
//   MAP[k1, v1, k2, v2]    MAP<common key type, common value type> NOT NULL; a repeated key
//                          keeps its first position and its last value (Java's HashMap.put)
//   ROW(a, b, ..)          ROW<EXPR$0 a's type, EXPR$1 b's type, ..> NOT NULL
//   ITEM(array, i)         `array[i]`: element i, counted from 1; NULL out of range
//   ITEM(map, key)         `map[key]`: the key's value; NULL when absent
//   CARDINALITY(c)         INT: elements of an ARRAY, entries of a MAP, elements (with their
//                          multiplicity) of a MULTISET
//   ELEMENT(array)         the only element; NULL for an empty array; more than one element
//                          fails "Array has more than one element."
//   ARRAY_CONTAINS(a, x)   whether an element equals x (a NULL x finds NULL elements)
//   ARRAY_POSITION(a, x)   INT position of the first element equal to x, 0 when none; NULL
//                          for a NULL x
//   ARRAY_REMOVE(a, x)     a without the elements equal to x
//   ARRAY_DISTINCT(a)      a without repeated elements, first occurrences kept in order
//   ARRAY_REVERSE(a)       a in reverse order
//   ARRAY_CONCAT(a, b, ..) the arrays one after the other (NULL when any is NULL)
//   ARRAY_JOIN(a, sep [, nullReplacement])
//                          the STRING elements joined by sep; NULL elements skipped, or
//                          written as nullReplacement
//   MAP_KEYS(m), MAP_VALUES(m)
//                          ARRAY of the keys / values in entry order
//   MAP_ENTRIES(m)         ARRAY<ROW<key K, value V>> of the entries in order
//   ARRAY_APPEND(a, x), ARRAY_PREPEND(a, x), ARRAY_SLICE(a, start [, end]),
//   ARRAY_UNION(a, b), ARRAY_INTERSECT(a, b), ARRAY_EXCEPT(a, b) (distinct, in order of first
//   appearance), ARRAY_MAX(a), ARRAY_MIN(a), ARRAY_SORT(a [, ascending [, nullsFirst]]),
//   SPLIT(s, delimiter), MAP_FROM_ARRAYS(keys, values), MAP_UNION(m, ..)
// Except where said, a NULL collection argument gives NULL. Nested values are boxed (one
// eddy::Value per row, see src/vector/vector.h), so these kernels work row by row on Values.
#include "eddy/exceptions.h"
#include "function/scalar/cast.h"
#include "eddy/row.h"
#include "function/scalar/scalar_function_builders.h"
#include "function/type_rules.h"
#include "function/value_order.h"

namespace eddy::function {
namespace {

using Root = LogicalTypeRoot;

bool isArray(const LogicalType& type) { return type.getTypeRoot() == Root::ARRAY; }
bool isMap(const LogicalType& type) { return type.getTypeRoot() == Root::MAP; }

/// A kernel that computes each result Value from the argument Values of its row. With
/// `nullInNullOut`, a row with a NULL argument is NULL without calling `compute`.
template <typename Compute>
ScalarKernel valueKernel(Compute compute, bool nullInNullOut = true) {
  return [compute, nullInNullOut](const std::vector<KernelVector>& arguments,
                                  const LogicalTypePtr& resultType) {
    const int64_t size = arguments.empty() ? 1 : arguments[0].size();
    const bool constant = std::all_of(arguments.begin(), arguments.end(),
                                      [](const KernelVector& a) { return a.isConstant(); });
    std::vector<Value> values(arguments.size());
    auto computeRow = [&](int64_t row) -> Value {
      for (size_t i = 0; i < arguments.size(); ++i) {
        if (arguments[i].isNull(row)) {
          if (nullInNullOut) return Value();
          values[i] = Value();
        } else {
          values[i] = arguments[i].valueAt(row);
        }
      }
      return compute(values);
    };
    if (constant) return KernelVector::constant(resultType, computeRow(0), size);
    vector::Vector result(resultType);
    result.reserve(size);
    for (int64_t row = 0; row < size; ++row) {
      Value value = computeRow(row);
      if (value.isNull()) {
        result.appendNull();
      } else {
        result.appendValue(value);
      }
    }
    return KernelVector::adopt(std::move(result));
  };
}

/// The common type of `types` (at least one), or nullptr.
LogicalTypePtr commonType(const std::vector<LogicalTypePtr>& types) {
  if (types.empty()) return nullptr;
  LogicalTypePtr common = leastRestrictive(types);
  if (common == nullptr || isNullType(*common)) return nullptr;
  return common;
}

/// Sets `key` to `value` in `entries`: a new key is appended, a present one keeps its position
/// and takes the value (Java's HashMap.put order, as MAP[..] and Flink's map builders).
void putEntry(ValueMap& entries, const Value& key, const Value& value) {
  auto found = std::find_if(entries.begin(), entries.end(),
                            [&](const auto& entry) { return entry.first == key; });
  if (found != entries.end()) {
    found->second = value;
  } else {
    entries.emplace_back(key, value);
  }
}

// --- Constructors. ---

std::optional<BoundScalarFunction> bindArray(const std::vector<LogicalTypePtr>& arguments) {
  LogicalTypePtr element = commonType(arguments);
  if (element == nullptr) return std::nullopt;
  std::vector<LogicalTypePtr> casts;
  for (const LogicalTypePtr& argument : arguments) casts.push_back(element->copy(argument->isNullable()));
  return BoundScalarFunction{casts, LogicalType::array(element, false),
                             valueKernel([](const std::vector<Value>& values) {
                               return Value::ofArray(ValueArray(values.begin(), values.end()));
                             }, false)};
}

std::optional<BoundScalarFunction> bindMap(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty() || arguments.size() % 2 != 0) return std::nullopt;
  std::vector<LogicalTypePtr> keys, values;
  for (size_t i = 0; i < arguments.size(); ++i) (i % 2 == 0 ? keys : values).push_back(arguments[i]);
  LogicalTypePtr key = commonType(keys);
  LogicalTypePtr value = commonType(values);
  if (key == nullptr || value == nullptr) return std::nullopt;
  std::vector<LogicalTypePtr> casts;
  for (size_t i = 0; i < arguments.size(); ++i) {
    casts.push_back((i % 2 == 0 ? key : value)->copy(arguments[i]->isNullable()));
  }
  return BoundScalarFunction{
      casts, LogicalType::map(key, value, false),
      valueKernel([](const std::vector<Value>& values) {
        ValueMap entries;
        for (size_t i = 0; i + 1 < values.size(); i += 2) putEntry(entries, values[i], values[i + 1]);
        return Value::ofMap(std::move(entries));
      }, false)};
}

std::optional<BoundScalarFunction> bindRow(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty()) return std::nullopt;
  std::vector<RowField> fields;
  std::vector<LogicalTypePtr> casts;
  for (size_t i = 0; i < arguments.size(); ++i) {
    // A field of the untyped NULL has no type to give it: CAST(NULL AS type) names one.
    if (isNullType(*arguments[i])) return std::nullopt;
    fields.push_back(RowField{"EXPR$" + std::to_string(i), arguments[i], {}});
    casts.push_back(arguments[i]);
  }
  return BoundScalarFunction{casts, LogicalType::row(std::move(fields), false),
                             valueKernel([](const std::vector<Value>& values) {
                               Row row = Row::withPositions(static_cast<int>(values.size()));
                               for (size_t i = 0; i < values.size(); ++i) {
                                 row.setField(static_cast<int>(i), values[i]);
                               }
                               return Value(std::move(row));
                             }, false)};
}

// --- Access. ---

std::optional<BoundScalarFunction> bindItem(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2) return std::nullopt;
  const LogicalType& collection = *arguments[0];
  const LogicalTypePtr& index = arguments[1];
  if (isArray(collection)) {
    if (!isIntegral(*index) && !isNullType(*index)) return std::nullopt;
    return BoundScalarFunction{
        {arguments[0], LogicalType::simple(Root::BIGINT, index->isNullable())},
        collection.getElementType()->copy(true),
        valueKernel([](const std::vector<Value>& values) {
          const ValueArray& elements = values[0].get<ValueArray>();
          int64_t position = values[1].get<int64_t>();
          if (position < 1 || position > static_cast<int64_t>(elements.size())) return Value();
          return elements[static_cast<size_t>(position - 1)];
        })};
  }
  if (isMap(collection)) {
    const LogicalTypePtr& key = collection.getKeyType();
    if (!isNullType(*index) && !areComparable(*key, *index)) return std::nullopt;
    // A character-string key is looked up as it is (a cast to a shorter CHAR would cut it).
    LogicalTypePtr lookup = isCharacterString(*index) ? index : key->copy(index->isNullable());
    return BoundScalarFunction{{arguments[0], lookup}, collection.getValueType()->copy(true),
                               valueKernel([](const std::vector<Value>& values) {
                                 for (const auto& [k, v] : values[0].get<ValueMap>()) {
                                   if (k == values[1]) return v;
                                 }
                                 return Value();
                               })};
  }
  return std::nullopt;
}

std::optional<BoundScalarFunction> bindCardinality(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 1) return std::nullopt;
  const Root root = arguments[0]->getTypeRoot();
  if (root != Root::ARRAY && root != Root::MAP && root != Root::MULTISET) return std::nullopt;
  const bool multiset = root == Root::MULTISET;
  return BoundScalarFunction{
      arguments, LogicalType::simple(Root::INTEGER, arguments[0]->isNullable()),
      valueKernel([multiset](const std::vector<Value>& values) {
        if (values[0].is<ValueArray>()) {
          return Value(static_cast<int32_t>(values[0].get<ValueArray>().size()));
        }
        const ValueMap& entries = values[0].get<ValueMap>();
        if (!multiset) return Value(static_cast<int32_t>(entries.size()));
        int32_t count = 0;
        for (const auto& entry : entries) count += entry.second.get<int32_t>();
        return Value(count);
      })};
}

std::optional<BoundScalarFunction> bindElement(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 1 || !isArray(*arguments[0])) return std::nullopt;
  return BoundScalarFunction{arguments, arguments[0]->getElementType()->copy(true),
                             valueKernel([](const std::vector<Value>& values) {
                               const ValueArray& elements = values[0].get<ValueArray>();
                               if (elements.size() > 1) {
                                 throw TableException("Array has more than one element.");
                               }
                               return elements.empty() ? Value() : elements[0];
                             })};
}

// --- Array functions. ---

/// The argument types of f(array, needle): the array's elements and the needle meet at their
/// common type. nullopt when they have none.
std::optional<std::vector<LogicalTypePtr>> arrayAndNeedle(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2 || !isArray(*arguments[0])) return std::nullopt;
  const LogicalTypePtr& element = arguments[0]->getElementType();
  LogicalTypePtr common = isNullType(*arguments[1]) ? element : commonType({element, arguments[1]});
  if (common == nullptr) return std::nullopt;
  return std::vector<LogicalTypePtr>{
      LogicalType::array(common->copy(element->isNullable()), arguments[0]->isNullable()),
      common->copy(arguments[1]->isNullable())};
}

std::optional<BoundScalarFunction> bindArrayContains(const std::vector<LogicalTypePtr>& arguments) {
  auto casts = arrayAndNeedle(arguments);
  if (!casts) return std::nullopt;
  return BoundScalarFunction{
      *casts, LogicalType::simple(Root::BOOLEAN, arguments[0]->isNullable()),
      valueKernel([](const std::vector<Value>& values) {
        if (values[0].isNull()) return Value();
        const ValueArray& elements = values[0].get<ValueArray>();
        return Value(std::find(elements.begin(), elements.end(), values[1]) != elements.end());
      }, false)};
}

std::optional<BoundScalarFunction> bindArrayPosition(const std::vector<LogicalTypePtr>& arguments) {
  auto casts = arrayAndNeedle(arguments);
  if (!casts) return std::nullopt;
  return BoundScalarFunction{*casts, LogicalType::simple(Root::INTEGER, anyNullable(arguments)),
                             valueKernel([](const std::vector<Value>& values) {
                               const ValueArray& elements = values[0].get<ValueArray>();
                               auto found = std::find(elements.begin(), elements.end(), values[1]);
                               if (found == elements.end()) return Value(int32_t{0});
                               return Value(static_cast<int32_t>(found - elements.begin() + 1));
                             })};
}

std::optional<BoundScalarFunction> bindArrayRemove(const std::vector<LogicalTypePtr>& arguments) {
  auto casts = arrayAndNeedle(arguments);
  if (!casts) return std::nullopt;
  LogicalTypePtr result = (*casts)[0];
  return BoundScalarFunction{*casts, result, valueKernel([](const std::vector<Value>& values) {
                               if (values[0].isNull()) return Value();
                               ValueArray kept;
                               for (const Value& element : values[0].get<ValueArray>()) {
                                 if (!(element == values[1])) kept.push_back(element);
                               }
                               return Value::ofArray(std::move(kept));
                             }, false)};
}

/// f(array) → an array of the same type, computed by `transform`.
template <typename Transform>
ScalarFunctionBinder arrayTransform(Transform transform) {
  return [transform](const std::vector<LogicalTypePtr>& arguments)
             -> std::optional<BoundScalarFunction> {
    if (arguments.size() != 1 || !isArray(*arguments[0])) return std::nullopt;
    return BoundScalarFunction{arguments, arguments[0],
                               valueKernel([transform](const std::vector<Value>& values) {
                                 ValueArray elements = values[0].get<ValueArray>();
                                 transform(elements);
                                 return Value::ofArray(std::move(elements));
                               })};
  };
}

std::optional<BoundScalarFunction> bindArrayConcat(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty()) return std::nullopt;
  std::vector<LogicalTypePtr> elements;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isArray(*argument)) return std::nullopt;
    elements.push_back(argument->getElementType());
  }
  LogicalTypePtr element = commonType(elements);
  if (element == nullptr) return std::nullopt;
  std::vector<LogicalTypePtr> casts;
  for (const LogicalTypePtr& argument : arguments) {
    casts.push_back(LogicalType::array(element, argument->isNullable()));
  }
  return BoundScalarFunction{casts, LogicalType::array(element, anyNullable(arguments)),
                             valueKernel([](const std::vector<Value>& values) {
                               ValueArray all;
                               for (const Value& value : values) {
                                 const ValueArray& part = value.get<ValueArray>();
                                 all.insert(all.end(), part.begin(), part.end());
                               }
                               return Value::ofArray(std::move(all));
                             })};
}

std::optional<BoundScalarFunction> bindArrayJoin(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() < 2 || arguments.size() > 3 || !isArray(*arguments[0]) ||
      !isCharacterString(*arguments[0]->getElementType())) {
    return std::nullopt;
  }
  std::vector<LogicalTypePtr> casts{arguments[0]};
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (!isCharacterString(*arguments[i]) && !isNullType(*arguments[i])) return std::nullopt;
    casts.push_back(stringType(arguments[i]->isNullable()));
  }
  bool nullable = arguments[0]->isNullable() || arguments[1]->isNullable();
  return BoundScalarFunction{
      casts, stringType(nullable), valueKernel([](const std::vector<Value>& values) {
        if (values[0].isNull() || values[1].isNull()) return Value();
        const std::string& separator = values[1].get<std::string>();
        const Value* replacement = values.size() > 2 && !values[2].isNull() ? &values[2] : nullptr;
        std::string joined;
        bool first = true;
        for (const Value& element : values[0].get<ValueArray>()) {
          const Value* text = element.isNull() ? replacement : &element;
          if (text == nullptr) continue;
          if (!first) joined += separator;
          first = false;
          joined += text->get<std::string>();
        }
        return Value(std::move(joined));
      }, false)};
}

/// f(array, element) → the array with the element added at the end (ARRAY_APPEND) or the
/// front (ARRAY_PREPEND); the element type widens to the common type.
std::optional<BoundScalarFunction> bindArrayAdd(const std::vector<LogicalTypePtr>& arguments,
                                                bool append) {
  auto casts = arrayAndNeedle(arguments);
  if (!casts) return std::nullopt;
  // The element may be NULL, so the result's elements are nullable when it is.
  LogicalTypePtr element = (*casts)[0]->getElementType()->copy(
      (*casts)[0]->getElementType()->isNullable() || arguments[1]->isNullable());
  (*casts)[0] = LogicalType::array(element, arguments[0]->isNullable());
  return BoundScalarFunction{*casts, (*casts)[0], valueKernel([append](const std::vector<Value>& values) {
                               if (values[0].isNull()) return Value();
                               ValueArray elements = values[0].get<ValueArray>();
                               elements.insert(append ? elements.end() : elements.begin(), values[1]);
                               return Value::ofArray(std::move(elements));
                             }, false)};
}

/// ARRAY_UNION / ARRAY_INTERSECT / ARRAY_EXCEPT of two arrays: distinct elements, in order
/// of first appearance.
enum class SetOperation { kUnion, kIntersect, kExcept };
std::optional<BoundScalarFunction> bindArraySet(const std::vector<LogicalTypePtr>& arguments,
                                                SetOperation operation) {
  if (arguments.size() != 2 || !isArray(*arguments[0]) || !isArray(*arguments[1])) return std::nullopt;
  LogicalTypePtr element = commonType({arguments[0]->getElementType(), arguments[1]->getElementType()});
  if (element == nullptr) return std::nullopt;
  std::vector<LogicalTypePtr> casts{LogicalType::array(element, arguments[0]->isNullable()),
                                    LogicalType::array(element, arguments[1]->isNullable())};
  return BoundScalarFunction{
      casts, LogicalType::array(element, anyNullable(arguments)),
      valueKernel([operation](const std::vector<Value>& values) {
        const ValueArray& left = values[0].get<ValueArray>();
        const ValueArray& right = values[1].get<ValueArray>();
        auto contains = [](const ValueArray& elements, const Value& value) {
          return std::find(elements.begin(), elements.end(), value) != elements.end();
        };
        ValueArray result;
        auto add = [&](const Value& value) {
          if (!contains(result, value)) result.push_back(value);
        };
        for (const Value& value : left) {
          if (operation == SetOperation::kUnion ||
              (operation == SetOperation::kIntersect) == contains(right, value)) {
            add(value);
          }
        }
        if (operation == SetOperation::kUnion) {
          for (const Value& value : right) add(value);
        }
        return Value::ofArray(std::move(result));
      })};
}

/// Whether elements of `type` have an order (compareValues).
bool isOrderable(const LogicalType& type) {
  return isNumeric(type) || isCharacterString(type) || isBoolean(type) || isDatetime(type);
}

/// ARRAY_MAX / ARRAY_MIN: the largest / smallest non-NULL element; NULL when there is none.
std::optional<BoundScalarFunction> bindArrayExtreme(const std::vector<LogicalTypePtr>& arguments,
                                                    bool maximum) {
  if (arguments.size() != 1 || !isArray(*arguments[0]) ||
      !isOrderable(*arguments[0]->getElementType())) {
    return std::nullopt;
  }
  return BoundScalarFunction{arguments, arguments[0]->getElementType()->copy(true),
                             valueKernel([maximum](const std::vector<Value>& values) {
                               const Value* best = nullptr;
                               for (const Value& element : values[0].get<ValueArray>()) {
                                 if (element.isNull()) continue;
                                 if (best == nullptr ||
                                     (compareValues(element, *best) > 0) == maximum) {
                                   best = &element;
                                 }
                               }
                               return best == nullptr ? Value() : *best;
                             })};
}

/// ARRAY_SORT(array [, ascending [, nullsFirst]]): ascending with NULLs first by default;
/// descending puts NULLs last unless nullsFirst says otherwise.
std::optional<BoundScalarFunction> bindArraySort(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty() || arguments.size() > 3 || !isArray(*arguments[0]) ||
      !isOrderable(*arguments[0]->getElementType())) {
    return std::nullopt;
  }
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (!isBoolean(*arguments[i]) && !isNullType(*arguments[i])) return std::nullopt;
  }
  std::vector<LogicalTypePtr> casts{arguments[0]};
  for (size_t i = 1; i < arguments.size(); ++i) {
    casts.push_back(LogicalType::simple(Root::BOOLEAN, arguments[i]->isNullable()));
  }
  return BoundScalarFunction{casts, arguments[0]->copy(anyNullable(arguments)),
                             valueKernel([](const std::vector<Value>& values) {
                               const bool ascending = values.size() < 2 || values[1].get<bool>();
                               const bool nullsFirst =
                                   values.size() < 3 ? ascending : values[2].get<bool>();
                               ValueArray elements = values[0].get<ValueArray>();
                               std::stable_sort(elements.begin(), elements.end(),
                                                [&](const Value& a, const Value& b) {
                                                  if (a.isNull() != b.isNull()) {
                                                    return a.isNull() ? nullsFirst : !nullsFirst;
                                                  }
                                                  if (a.isNull()) return false;
                                                  int order = compareValues(a, b);
                                                  return ascending ? order < 0 : order > 0;
                                                });
                               return Value::ofArray(std::move(elements));
                             })};
}

/// ARRAY_SLICE(array, start [, end]): elements start..end inclusive, 1-based, 0 as 1, negative
/// counting from the end, end defaulting to the last; empty when start is after end.
std::optional<BoundScalarFunction> bindArraySlice(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() < 2 || arguments.size() > 3 || !isArray(*arguments[0])) return std::nullopt;
  std::vector<LogicalTypePtr> casts{arguments[0]};
  for (size_t i = 1; i < arguments.size(); ++i) {
    if (!isIntegral(*arguments[i]) && !isNullType(*arguments[i])) return std::nullopt;
    casts.push_back(LogicalType::simple(Root::INTEGER, arguments[i]->isNullable()));
  }
  return BoundScalarFunction{casts, arguments[0]->copy(anyNullable(arguments)),
                             valueKernel([](const std::vector<Value>& values) {
                               const ValueArray& elements = values[0].get<ValueArray>();
                               const int64_t size = static_cast<int64_t>(elements.size());
                               auto position = [size](int64_t offset) {
                                 return offset < 0 ? size + offset + 1 : std::max<int64_t>(offset, 1);
                               };
                               int64_t from = position(values[1].get<int32_t>());
                               int64_t to = values.size() > 2 ? position(values[2].get<int32_t>()) : size;
                               from = std::max<int64_t>(from, 1);
                               to = std::min(to, size);
                               if (from > to) return Value::ofArray({});
                               return Value::ofArray(ValueArray(elements.begin() + (from - 1),
                                                                elements.begin() + to));
                             })};
}

/// SPLIT(string, delimiter): ARRAY<STRING> of the pieces (empty pieces kept; an empty
/// delimiter splits every character).
std::optional<BoundScalarFunction> bindSplit(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2) return std::nullopt;
  std::vector<LogicalTypePtr> casts;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isCharacterString(*argument) && !isNullType(*argument)) return std::nullopt;
    casts.push_back(stringType(argument->isNullable()));
  }
  return BoundScalarFunction{
      casts, LogicalType::array(stringType(false), anyNullable(arguments)),
      valueKernel([](const std::vector<Value>& values) {
        const std::string& text = values[0].get<std::string>();
        const std::string& delimiter = values[1].get<std::string>();
        ValueArray pieces;
        if (delimiter.empty()) {
          for (size_t i = 0; i < text.size();) {
            // One code point per piece.
            const auto lead = static_cast<unsigned char>(text[i]);
            size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            pieces.push_back(Value(text.substr(i, length)));
            i += length;
          }
          return Value::ofArray(std::move(pieces));
        }
        size_t begin = 0;
        for (size_t found; (found = text.find(delimiter, begin)) != std::string::npos;) {
          pieces.push_back(Value(text.substr(begin, found - begin)));
          begin = found + delimiter.size();
        }
        pieces.push_back(Value(text.substr(begin)));
        return Value::ofArray(std::move(pieces));
      })};
}

// --- Map functions. ---

/// MAP_FROM_ARRAYS(keys, values): a map of the pairs (arrays of one length; a repeated key
/// keeps its last value).
std::optional<BoundScalarFunction> bindMapFromArrays(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 2 || !isArray(*arguments[0]) || !isArray(*arguments[1])) return std::nullopt;
  return BoundScalarFunction{
      arguments,
      LogicalType::map(arguments[0]->getElementType(), arguments[1]->getElementType(),
                       anyNullable(arguments)),
      valueKernel([](const std::vector<Value>& values) {
        const ValueArray& keys = values[0].get<ValueArray>();
        const ValueArray& items = values[1].get<ValueArray>();
        if (keys.size() != items.size()) {
          throw TableException("Invalid function MAP_FROM_ARRAYS call:\nThe length of the keys "
                               "array " + std::to_string(keys.size()) +
                               " is not equal to the length of the values array " +
                               std::to_string(items.size()));
        }
        ValueMap entries;
        for (size_t i = 0; i < keys.size(); ++i) putEntry(entries, keys[i], items[i]);
        return Value::ofMap(std::move(entries));
      })};
}

/// MAP_UNION(m1, m2, ..): the entries of all maps, a later map's value winning for a key.
std::optional<BoundScalarFunction> bindMapUnion(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.empty()) return std::nullopt;
  for (const LogicalTypePtr& argument : arguments) {
    if (!isMap(*argument)) return std::nullopt;
  }
  LogicalTypePtr common = commonType(arguments);
  if (common == nullptr) return std::nullopt;
  std::vector<LogicalTypePtr> casts;
  for (const LogicalTypePtr& argument : arguments) casts.push_back(common->copy(argument->isNullable()));
  return BoundScalarFunction{casts, common->copy(anyNullable(arguments)),
                             valueKernel([](const std::vector<Value>& values) {
                               ValueMap entries;
                               for (const Value& map : values) {
                                 for (const auto& [key, value] : map.get<ValueMap>()) {
                                   putEntry(entries, key, value);
                                 }
                               }
                               return Value::ofMap(std::move(entries));
                             })};
}

std::optional<BoundScalarFunction> bindMapPart(const std::vector<LogicalTypePtr>& arguments,
                                               bool keys) {
  if (arguments.size() != 1 || !isMap(*arguments[0])) return std::nullopt;
  const LogicalType& map = *arguments[0];
  LogicalTypePtr element = keys ? map.getKeyType() : map.getValueType();
  return BoundScalarFunction{arguments, LogicalType::array(element, map.isNullable()),
                             valueKernel([keys](const std::vector<Value>& values) {
                               ValueArray part;
                               for (const auto& [k, v] : values[0].get<ValueMap>()) {
                                 part.push_back(keys ? k : v);
                               }
                               return Value::ofArray(std::move(part));
                             })};
}

std::optional<BoundScalarFunction> bindMapEntries(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 1 || !isMap(*arguments[0])) return std::nullopt;
  const LogicalType& map = *arguments[0];
  LogicalTypePtr entry = LogicalType::row(
      {RowField{"key", map.getKeyType(), {}}, RowField{"value", map.getValueType(), {}}}, false);
  return BoundScalarFunction{arguments, LogicalType::array(entry, map.isNullable()),
                             valueKernel([](const std::vector<Value>& values) {
                               ValueArray entries;
                               for (const auto& [k, v] : values[0].get<ValueMap>()) {
                                 entries.push_back(Value(Row::of(k, v)));
                               }
                               return Value::ofArray(std::move(entries));
                             })};
}

}  // namespace

void registerCollectionFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction("ARRAY", FunctionSyntax::kFunction, {"'ARRAY[<ANY>, ...]'"}, bindArray));
  registry.add(ScalarFunction("MAP", FunctionSyntax::kFunction, {"'MAP[<ANY>, <ANY>, ...]'"}, bindMap));
  registry.add(ScalarFunction("ROW", FunctionSyntax::kFunction, {"'ROW(<ANY>, ...)'"}, bindRow));
  registry.add(ScalarFunction("ITEM", FunctionSyntax::kFunction,
                              {"'<ARRAY>[<INTEGER>]'", "'<MAP>[<ANY>]'"}, bindItem));
  registry.add(ScalarFunction("CARDINALITY", FunctionSyntax::kFunction,
                              {"'CARDINALITY(<MULTISET>)'", "'CARDINALITY(<ARRAY>)'",
                               "'CARDINALITY(<MAP>)'"},
                              bindCardinality));
  registry.add(
      ScalarFunction("ELEMENT", FunctionSyntax::kFunction, {"'ELEMENT(<ARRAY>)'"}, bindElement));
  registry.add(ScalarFunction("ARRAY_CONTAINS", FunctionSyntax::kFunction,
                              {"'ARRAY_CONTAINS(<ARRAY>, <ARRAY ELEMENT>)'"}, bindArrayContains));
  registry.add(ScalarFunction("ARRAY_POSITION", FunctionSyntax::kFunction,
                              {"'ARRAY_POSITION(<ARRAY>, <ARRAY ELEMENT>)'"}, bindArrayPosition));
  registry.add(ScalarFunction("ARRAY_REMOVE", FunctionSyntax::kFunction,
                              {"'ARRAY_REMOVE(<ARRAY>, <ARRAY ELEMENT>)'"}, bindArrayRemove));
  registry.add(ScalarFunction("ARRAY_DISTINCT", FunctionSyntax::kFunction,
                              {"'ARRAY_DISTINCT(<ARRAY>)'"}, arrayTransform([](ValueArray& elements) {
                                ValueArray distinct;
                                for (Value& element : elements) {
                                  if (std::find(distinct.begin(), distinct.end(), element) ==
                                      distinct.end()) {
                                    distinct.push_back(std::move(element));
                                  }
                                }
                                elements = std::move(distinct);
                              })));
  registry.add(ScalarFunction(
      "ARRAY_REVERSE", FunctionSyntax::kFunction, {"'ARRAY_REVERSE(<ARRAY>)'"},
      arrayTransform([](ValueArray& elements) { std::reverse(elements.begin(), elements.end()); })));
  registry.add(ScalarFunction("ARRAY_CONCAT", FunctionSyntax::kFunction,
                              {"'ARRAY_CONCAT(<ARRAY>, ...)'"}, bindArrayConcat));
  registry.add(ScalarFunction("ARRAY_JOIN", FunctionSyntax::kFunction,
                              {"'ARRAY_JOIN(<ARRAY<STRING>>, <CHARACTER>[, <CHARACTER>])'"},
                              bindArrayJoin));
  for (bool append : {true, false}) {
    const char* name = append ? "ARRAY_APPEND" : "ARRAY_PREPEND";
    registry.add(ScalarFunction(name, FunctionSyntax::kFunction,
                                {std::string("'") + name + "(<ARRAY>, <ARRAY ELEMENT>)'"},
                                [append](const std::vector<LogicalTypePtr>& arguments) {
                                  return bindArrayAdd(arguments, append);
                                }));
  }
  for (auto [name, operation] : {std::pair{"ARRAY_UNION", SetOperation::kUnion},
                                 std::pair{"ARRAY_INTERSECT", SetOperation::kIntersect},
                                 std::pair{"ARRAY_EXCEPT", SetOperation::kExcept}}) {
    registry.add(ScalarFunction(name, FunctionSyntax::kFunction,
                                {std::string("'") + name + "(<ARRAY>, <ARRAY>)'"},
                                [operation](const std::vector<LogicalTypePtr>& arguments) {
                                  return bindArraySet(arguments, operation);
                                }));
  }
  for (bool maximum : {true, false}) {
    const char* name = maximum ? "ARRAY_MAX" : "ARRAY_MIN";
    registry.add(ScalarFunction(name, FunctionSyntax::kFunction,
                                {std::string("'") + name + "(<ARRAY>)'"},
                                [maximum](const std::vector<LogicalTypePtr>& arguments) {
                                  return bindArrayExtreme(arguments, maximum);
                                }));
  }
  registry.add(ScalarFunction("ARRAY_SORT", FunctionSyntax::kFunction,
                              {"'ARRAY_SORT(<ARRAY>[, <BOOLEAN>[, <BOOLEAN>]])'"}, bindArraySort));
  registry.add(ScalarFunction("ARRAY_SLICE", FunctionSyntax::kFunction,
                              {"'ARRAY_SLICE(<ARRAY>, <INTEGER>[, <INTEGER>])'"}, bindArraySlice));
  registry.add(ScalarFunction("SPLIT", FunctionSyntax::kFunction,
                              {"'SPLIT(<CHARACTER>, <CHARACTER>)'"}, bindSplit));
  registry.add(ScalarFunction("MAP_FROM_ARRAYS", FunctionSyntax::kFunction,
                              {"'MAP_FROM_ARRAYS(<ARRAY>, <ARRAY>)'"}, bindMapFromArrays));
  registry.add(ScalarFunction("MAP_UNION", FunctionSyntax::kFunction, {"'MAP_UNION(<MAP>, ...)'"},
                              bindMapUnion));
  registry.add(ScalarFunction("MAP_KEYS", FunctionSyntax::kFunction, {"'MAP_KEYS(<MAP>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindMapPart(arguments, true);
                              }));
  registry.add(ScalarFunction("MAP_VALUES", FunctionSyntax::kFunction, {"'MAP_VALUES(<MAP>)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindMapPart(arguments, false);
                              }));
  registry.add(ScalarFunction("MAP_ENTRIES", FunctionSyntax::kFunction, {"'MAP_ENTRIES(<MAP>)'"},
                              bindMapEntries));
}

}  // namespace eddy::function

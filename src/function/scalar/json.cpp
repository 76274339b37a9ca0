// JSON functions with Flink's (Calcite's SqlJsonUtils) semantics and default behaviours, the
// only ones the parser can express today (no RETURNING, ON EMPTY, ON ERROR, wrapper or NULL
// clauses):
//   JSON_EXISTS(json, path)  TRUE when the path selects a non-null value; FALSE ON ERROR
//                            (invalid JSON, a strict-mode path that selects nothing).
//   JSON_VALUE(json, path)   the scalar the path selects as a STRING (strings unquoted,
//                            numbers as Java prints them: 1, 1.5, 1.0E10); NULL ON EMPTY (no
//                            value, JSON null, an object or array) and NULL ON ERROR.
//   JSON_QUERY(json, path)   the object or array the path selects, as compact JSON text
//                            (Jackson's form); NULL ON EMPTY, NULL ON ERROR, WITHOUT ARRAY
//                            WRAPPER.
//   JSON_STRING(value)       a scalar serialized as JSON ('1', 'true', '"a"'); NULL for NULL.
//   JSON_ARRAY(v, ...)       a JSON array of the values, ABSENT ON NULL.
// Paths are SQL/JSON paths: an optional mode `lax` (the default) or `strict`, `$`, then
// `.key`, `."key"`, `['key']`, `[n]`, `[*]` and `.*` steps. In lax mode a missing key or index
// selects nothing; in strict mode it is an error. Wildcard paths select a list (an array).
// Documents are parsed with simdjson's DOM parser, one parser per kernel call. This is the only
// file of the module that includes simdjson.h (a 1.3 MB header).
#include <fmt/format.h>
#include <simdjson.h>

#include "common/json_string.h"
#include "eddy/exceptions.h"
#include "function/json_text.h"
#include "function/scalar/cast.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using std::string_view;
namespace dom = simdjson::dom;

// --- Paths. ---

struct PathStep {
  enum Kind { kKey, kIndex, kWildcard } kind;
  std::string key;
  int64_t index = 0;
};

struct JsonPath {
  bool strict = false;
  std::vector<PathStep> steps;
  bool definite() const {
    for (const PathStep& step : steps) {
      if (step.kind == PathStep::kWildcard) return false;
    }
    return true;
  }
};

// nullopt for a malformed path (an error: NULL / FALSE, as Calcite's "Illegal jsonpath spec").
std::optional<JsonPath> parsePath(string_view text) {
  JsonPath path;
  size_t position = 0;
  auto skipSpaces = [&] {
    while (position < text.size() && std::isspace(static_cast<unsigned char>(text[position]))) {
      ++position;
    }
  };
  skipSpaces();
  for (auto [word, strict] : {std::pair{"strict", true}, std::pair{"lax", false}}) {
    string_view mode(word);
    if (text.substr(position, mode.size()) == mode && position + mode.size() < text.size() &&
        std::isspace(static_cast<unsigned char>(text[position + mode.size()]))) {
      path.strict = strict;
      position += mode.size();
      skipSpaces();
      break;
    }
  }
  if (position >= text.size() || text[position] != '$') return std::nullopt;
  ++position;
  auto quoted = [&](char quote) -> std::optional<std::string> {
    ++position;  // the opening quote
    std::string key;
    while (position < text.size() && text[position] != quote) {
      if (text[position] == '\\' && position + 1 < text.size()) ++position;
      key.push_back(text[position++]);
    }
    if (position >= text.size()) return std::nullopt;
    ++position;
    return key;
  };
  while (true) {
    skipSpaces();
    if (position >= text.size()) break;
    char c = text[position];
    if (c == '.') {
      ++position;
      if (position < text.size() && text[position] == '*') {
        ++position;
        path.steps.push_back({PathStep::kWildcard, "", 0});
      } else if (position < text.size() && (text[position] == '"' || text[position] == '\'')) {
        auto key = quoted(text[position]);
        if (!key) return std::nullopt;
        path.steps.push_back({PathStep::kKey, *key, 0});
      } else {
        size_t start = position;
        while (position < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[position])) || text[position] == '_' ||
                text[position] == '$' || static_cast<unsigned char>(text[position]) >= 0x80)) {
          ++position;
        }
        if (position == start) return std::nullopt;
        path.steps.push_back(
            {PathStep::kKey, std::string(text.substr(start, position - start)), 0});
      }
    } else if (c == '[') {
      ++position;
      skipSpaces();
      if (position < text.size() && text[position] == '*') {
        ++position;
        path.steps.push_back({PathStep::kWildcard, "", 0});
      } else if (position < text.size() && (text[position] == '"' || text[position] == '\'')) {
        auto key = quoted(text[position]);
        if (!key) return std::nullopt;
        path.steps.push_back({PathStep::kKey, *key, 0});
      } else {
        size_t start = position;
        while (position < text.size() && std::isdigit(static_cast<unsigned char>(text[position]))) {
          ++position;
        }
        if (position == start || position - start > 9) return std::nullopt;
        path.steps.push_back(
            {PathStep::kIndex, "", std::stoll(std::string(text.substr(start, position - start)))});
      }
      skipSpaces();
      if (position >= text.size() || text[position] != ']') return std::nullopt;
      ++position;
    } else {
      return std::nullopt;
    }
  }
  return path;
}

// What a path selects: nothing, one element, or (wildcards) a list; or an error.
struct Selection {
  bool error = false;
  bool strict = false;  // the path's mode
  bool list = false;
  std::vector<dom::element> elements;
};

// Follows steps[from..] from `element`, appending what it reaches; false on a strict error.
bool follow(const JsonPath& path, size_t from, dom::element element,
            std::vector<dom::element>& out) {
  if (from == path.steps.size()) {
    out.push_back(element);
    return true;
  }
  const PathStep& step = path.steps[from];
  switch (step.kind) {
    case PathStep::kKey: {
      dom::object object;
      if (element.get_object().get(object) != simdjson::SUCCESS) return !path.strict;
      dom::element child;
      if (object.at_key(step.key).get(child) != simdjson::SUCCESS) return !path.strict;
      return follow(path, from + 1, child, out);
    }
    case PathStep::kIndex: {
      dom::array array;
      if (element.get_array().get(array) != simdjson::SUCCESS) return !path.strict;
      dom::element child;
      if (array.at(static_cast<size_t>(step.index)).get(child) != simdjson::SUCCESS) {
        return !path.strict;
      }
      return follow(path, from + 1, child, out);
    }
    case PathStep::kWildcard: {
      dom::array array;
      dom::object object;
      if (element.get_array().get(array) == simdjson::SUCCESS) {
        for (dom::element child : array) {
          if (!follow(path, from + 1, child, out)) return false;
        }
        return true;
      }
      if (element.get_object().get(object) == simdjson::SUCCESS) {
        for (dom::key_value_pair field : object) {
          if (!follow(path, from + 1, field.value, out)) return false;
        }
        return true;
      }
      return !path.strict;
    }
  }
  return false;
}

// Parses the document and applies the path (the parsed path of a literal, or of the row).
class JsonEvaluator {
 public:
  Selection select(string_view json, string_view pathText) {
    Selection selection;
    const JsonPath* path = pathFor(pathText);
    dom::element root;
    if (path == nullptr || parser_.parse(json.data(), json.size()).get(root) != simdjson::SUCCESS) {
      selection.error = true;
      return selection;
    }
    selection.strict = path->strict;
    selection.list = !path->definite();
    if (!follow(*path, 0, root, selection.elements)) selection.error = true;
    if (path->strict && !selection.error && selection.elements.empty()) selection.error = true;
    return selection;
  }

 private:
  const JsonPath* pathFor(string_view text) {
    if (!parsed_ || text != pathText_) {
      parsed_ = true;
      pathText_.assign(text);
      path_ = parsePath(text);
    }
    return path_ ? &*path_ : nullptr;
  }

  dom::parser parser_;
  bool parsed_ = false;
  std::string pathText_;
  std::optional<JsonPath> path_;
};

// --- Serialization (Jackson's compact form). ---

// A scalar's text as JSON_VALUE returns it (strings unquoted).
std::string scalarText(dom::element element) {
  switch (element.type()) {
    case dom::element_type::STRING:
      return std::string(element.get_string().value_unsafe());
    case dom::element_type::INT64:
      return std::to_string(element.get_int64().value_unsafe());
    case dom::element_type::UINT64:
      return std::to_string(element.get_uint64().value_unsafe());
    case dom::element_type::DOUBLE:
      return javaDoubleToString(element.get_double().value_unsafe());
    case dom::element_type::BOOL:
      return element.get_bool().value_unsafe() ? "true" : "false";
    default:
      return "null";
  }
}

void serialize(dom::element element, std::string& out) {
  switch (element.type()) {
    case dom::element_type::ARRAY: {
      out.push_back('[');
      bool first = true;
      dom::array array = element.get_array().value_unsafe();
      for (dom::element child : array) {
        if (!first) out.push_back(',');
        first = false;
        serialize(child, out);
      }
      out.push_back(']');
      return;
    }
    case dom::element_type::OBJECT: {
      out.push_back('{');
      bool first = true;
      dom::object object = element.get_object().value_unsafe();
      for (dom::key_value_pair field : object) {
        if (!first) out.push_back(',');
        first = false;
        common::appendJsonString(field.key, out);
        out.push_back(':');
        serialize(field.value, out);
      }
      out.push_back('}');
      return;
    }
    case dom::element_type::STRING:
      common::appendJsonString(element.get_string().value_unsafe(), out);
      return;
    default:
      out.append(scalarText(element));
      return;
  }
}

bool isScalar(dom::element element) {
  return element.type() != dom::element_type::ARRAY && element.type() != dom::element_type::OBJECT;
}

// --- Functions. ---

template <typename Result, typename Operation>
ScalarKernel documentKernel(Operation operation) {
  return [operation](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
    JsonEvaluator evaluator;
    return BinaryExecutor::execute<string_view, string_view, Result>(
        values[0], values[1], type, [&](string_view json, string_view path) {
          return operation(evaluator.select(json, path));
        });
  };
}

// The behaviours of the ON EMPTY / ON ERROR clauses, as the binder passes them (INT literals).
enum Behaviour : int32_t {
  kNullBehaviour = 0,
  kErrorBehaviour = 1,
  kDefaultBehaviour = 2,  // JSON_VALUE; JSON_QUERY: EMPTY ARRAY
  kEmptyObjectBehaviour = 3,
};
// JSON_EXISTS's ON ERROR.
enum ExistsOnError : int32_t { kExistsFalse = 0, kExistsTrue = 1, kExistsUnknown = 2, kExistsError = 3 };
// JSON_QUERY's wrapper.
enum Wrapper : int32_t { kWithoutWrapper = 0, kConditionalWrapper = 1, kUnconditionalWrapper = 2 };

// What an error of a JSON function says (Calcite's messages where it has one).
std::string errorMessage(string_view function, string_view json, string_view path,
                         const std::optional<std::string>& strictValue, bool query) {
  if (strictValue) {
    return fmt::format("Strict jsonpath mode requires {} value, and the actual value is: '{}'",
                       query ? "array or object" : "scalar", *strictValue);
  }
  return fmt::format("{}: the JSON text '{}' is invalid, or the path '{}' is invalid or selects "
                     "nothing in strict mode",
                     function, json, path);
}

// The JSON function's character arguments (NULL as STRING) followed by INT literals of the
// clauses (any count of `clauses`).
std::optional<std::vector<LogicalTypePtr>> clauseArguments(const std::vector<LogicalTypePtr>& arguments,
                                                           std::initializer_list<size_t> counts) {
  if (std::find(counts.begin(), counts.end(), arguments.size()) == counts.end()) return std::nullopt;
  auto types = characterArguments({arguments.begin(), arguments.begin() + 2});
  if (!types) return std::nullopt;
  for (size_t i = 2; i < arguments.size(); ++i) types->push_back(arguments[i]);
  return types;
}

int32_t literalInt(const KernelVector& vector) { return vector.data<int32_t>()[0]; }

std::optional<BoundScalarFunction> bindJsonExists(const std::vector<LogicalTypePtr>& arguments) {
  auto types = clauseArguments(arguments, {2, 3});
  if (!types) return std::nullopt;
  const bool unknownPossible = types->size() == 3;
  return BoundScalarFunction{
      *types,
      LogicalType::simple(LogicalTypeRoot::BOOLEAN,
                          anyNullable({(*types)[0], (*types)[1]}) || unknownPossible),
      [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        const int32_t onError = values.size() > 2 ? literalInt(values[2]) : kExistsFalse;
        JsonEvaluator evaluator;
        return BinaryExecutor::execute<string_view, string_view, bool>(
            values[0], values[1], type,
            [&](string_view json, string_view path) -> std::optional<bool> {
              Selection selection = evaluator.select(json, path);
              if (selection.error) {
                switch (onError) {
                  case kExistsTrue: return true;
                  case kExistsUnknown: return std::nullopt;
                  case kExistsError:
                    throw TableException(errorMessage("JSON_EXISTS", json, path, std::nullopt, false));
                  default: return false;
                }
              }
              if (selection.elements.empty()) return false;
              if (selection.list) return true;
              return !selection.elements[0].is_null();
            });
      }};
}

// JSON_VALUE(json, path) gives the scalar as STRING, NULL on empty and on error. The binder's
// long form JSON_VALUE(json, path, <NULL of the RETURNING type>, onEmpty, emptyDefault,
// onError, errorDefault) converts it to the RETURNING type (a failed conversion is an error)
// and applies the behaviours.
std::optional<BoundScalarFunction> bindJsonValue(const std::vector<LogicalTypePtr>& arguments) {
  auto types = clauseArguments(arguments, {2, 7});
  if (!types) return std::nullopt;
  if (types->size() == 2) {
    return BoundScalarFunction{
        *types, stringType(true),
        documentKernel<string_view>([](const Selection& selection) -> std::optional<std::string> {
          if (selection.error || selection.list || selection.elements.size() != 1) {
            return std::nullopt;
          }
          dom::element element = selection.elements[0];
          if (!isScalar(element) || element.is_null()) return std::nullopt;
          return scalarText(element);
        })};
  }
  LogicalTypePtr returning = (*types)[2]->copy(true);
  return BoundScalarFunction{
      *types, returning,
      [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        const int32_t onEmpty = literalInt(values[3]);
        const int32_t onError = literalInt(values[5]);
        const LogicalTypePtr text = stringType(false);
        const bool toString = isCharacterString(*type);
        JsonEvaluator evaluator;
        vector::Vector out(type);
        out.reserve(values[0].size());
        for (int64_t row = 0; row < values[0].size(); ++row) {
          if (values[0].isNull(row) || values[1].isNull(row)) {
            out.appendNull();
            continue;
          }
          string_view json = values[0].stringAt(row);
          string_view path = values[1].stringAt(row);
          Selection selection = evaluator.select(json, path);
          bool empty = false;
          std::optional<std::string> strictValue;
          Value result;
          bool failed = selection.error;
          if (!failed) {
            const bool one = !selection.list && selection.elements.size() == 1;
            const bool scalar = one && isScalar(selection.elements[0]);
            if (scalar && !selection.elements[0].is_null()) {
              result = Value(scalarText(selection.elements[0]));
              if (!toString) {
                result = castValue(result, text, type, /*tryCast=*/true);
                failed = result.isNull();
              }
            } else if (selection.strict && !scalar && !selection.elements.empty()) {
              failed = true;
              std::string serialized;
              if (selection.list) {
                serialized = "[..]";
              } else {
                serialize(selection.elements[0], serialized);
              }
              strictValue = serialized;
            } else {
              empty = true;
            }
          }
          if (empty || failed) {
            const int32_t behaviour = empty ? onEmpty : onError;
            if (behaviour == kErrorBehaviour) {
              if (empty) throw TableException("Empty result of JSON_VALUE function is not allowed");
              if (!selection.error && !strictValue) {
                throw TableException(fmt::format("JSON_VALUE: cannot convert the value of '{}' "
                                                 "at '{}' to {}",
                                                 json, path, type->copy(true)->asSummaryString()));
              }
              throw TableException(errorMessage("JSON_VALUE", json, path, strictValue, false));
            }
            result = behaviour == kDefaultBehaviour ? values[empty ? 4 : 6].valueAt(row) : Value();
          }
          if (result.isNull()) {
            out.appendNull();
          } else {
            out.appendValue(result);
          }
        }
        return KernelVector::adopt(std::move(out));
      }};
}

// The JSON text JSON_QUERY gives for a selection with `wrapper`; nullopt when it is empty (an
// absent or null value, or a scalar in lax mode); `strictScalar` set when a strict path
// selects a scalar (an error).
std::optional<std::string> queryText(const Selection& selection, int32_t wrapper,
                                     std::optional<std::string>& strictScalar) {
  std::string out;
  const bool collection = selection.list || (!selection.elements.empty() &&
                                             selection.elements[0].type() == dom::element_type::ARRAY);
  const bool wrap = wrapper == kUnconditionalWrapper || (wrapper == kConditionalWrapper && !collection);
  if (selection.elements.empty() && !selection.list) return std::nullopt;
  if (selection.list || wrap) {
    out.push_back('[');
    if (wrap && !selection.list) {
      serialize(selection.elements[0], out);
    } else {
      for (size_t i = 0; i < selection.elements.size(); ++i) {
        if (i > 0) out.push_back(',');
        serialize(selection.elements[i], out);
      }
    }
    out.push_back(']');
    if (wrap && selection.list) out = "[" + out + "]";
    return out;
  }
  dom::element element = selection.elements[0];
  if (element.is_null()) return std::nullopt;
  if (isScalar(element)) {
    if (selection.strict) {
      serialize(element, out);
      strictScalar = out;
    }
    return std::nullopt;
  }
  serialize(element, out);
  return out;
}

// JSON_QUERY(json, path [, wrapper, onEmpty, onError]): behaviours NULL, ERROR, EMPTY ARRAY
// ('[]'), EMPTY OBJECT ('{}').
std::optional<BoundScalarFunction> bindJsonQuery(const std::vector<LogicalTypePtr>& arguments) {
  auto types = clauseArguments(arguments, {2, 5});
  if (!types) return std::nullopt;
  return BoundScalarFunction{
      *types, stringType(true),
      [](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        const bool clauses = values.size() == 5;
        const int32_t wrapper = clauses ? literalInt(values[2]) : kWithoutWrapper;
        const int32_t onEmpty = clauses ? literalInt(values[3]) : kNullBehaviour;
        const int32_t onError = clauses ? literalInt(values[4]) : kNullBehaviour;
        JsonEvaluator evaluator;
        return BinaryExecutor::execute<string_view, string_view, string_view>(
            values[0], values[1], type,
            [&](string_view json, string_view path) -> std::optional<std::string> {
              Selection selection = evaluator.select(json, path);
              std::optional<std::string> strictScalar;
              std::optional<std::string> text;
              if (!selection.error) {
                text = queryText(selection, wrapper, strictScalar);
                if (text) return text;
              }
              const bool error = selection.error || strictScalar.has_value();
              switch (error ? onError : onEmpty) {
                case kErrorBehaviour:
                  if (!error) throw TableException("Empty result of JSON_QUERY function is not allowed");
                  throw TableException(errorMessage("JSON_QUERY", json, path, strictScalar, true));
                case kDefaultBehaviour:
                  return std::string("[]");
                case kEmptyObjectBehaviour:
                  return std::string("{}");
                default:
                  return std::nullopt;
              }
            });
      }};
}

// IS JSON [VALUE | SCALAR | ARRAY | OBJECT]: whether the text parses as such JSON (FALSE for
// NULL).
std::optional<BoundScalarFunction> bindIsJson(const std::vector<LogicalTypePtr>& arguments,
                                              int kind) {
  auto types = shapedArguments(arguments, "S");
  if (!types) return std::nullopt;
  return BoundScalarFunction{
      *types, LogicalType::simple(LogicalTypeRoot::BOOLEAN, false),
      [kind](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        dom::parser parser;
        KernelVector result(type, values[0].size(), values[0].isConstant());
        bool* out = result.mutableData<bool>();
        for (int64_t row = 0; row < result.physicalSize(); ++row) {
          out[row] = false;
          if (values[0].isNull(row)) continue;
          string_view text = values[0].stringAt(row);
          dom::element root;
          if (parser.parse(text.data(), text.size()).get(root) != simdjson::SUCCESS) continue;
          const dom::element_type found = root.type();
          out[row] = kind == 0 ||
                     (kind == 1 && found != dom::element_type::ARRAY &&
                      found != dom::element_type::OBJECT) ||
                     (kind == 2 && found == dom::element_type::ARRAY) ||
                     (kind == 3 && found == dom::element_type::OBJECT);
        }
        return result;
      }};
}

// One SQL value as JSON text.
void appendJsonValue(const KernelVector& vector, int64_t row, std::string& out) {
  if (isCharacterString(*vector.type())) {
    common::appendJsonString(vector.stringAt(row), out);  // without making a Value
    return;
  }
  appendJsonText(vector.valueAt(row), false, out);
}

std::optional<BoundScalarFunction> bindJsonString(const std::vector<LogicalTypePtr>& arguments) {
  if (arguments.size() != 1) return std::nullopt;
  LogicalTypePtr type = arguments[0];
  if (isNullType(*type)) type = stringType(true);
  if (!isJsonScalarType(*type)) return std::nullopt;
  return BoundScalarFunction{
      {type},
      stringType(type->isNullable()),
      [](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
        const KernelVector& input = values[0];
        KernelVector result(resultType, input.size(), input.isConstant());
        std::string buffer;
        for (int64_t row = 0; row < result.physicalSize(); ++row) {
          if (input.isNull(row)) {
            result.appendString(string_view());
            result.setNull(row);
            continue;
          }
          buffer.clear();
          appendJsonValue(input, row, buffer);
          result.appendString(buffer);
        }
        return result;
      }};
}

// JSON_OBJECT(onNull, k1, v1, raw1, ..) and JSON_ARRAY(onNull, v1, raw1, ..), as the binder
// passes them: onNull an INT literal (0 NULL ON NULL, 1 ABSENT ON NULL), each raw a BOOLEAN
// literal, TRUE where the value is JSON text of a nested JSON_OBJECT/JSON_ARRAY call (inserted
// as it is, not as a string). Keys must not be NULL.
std::optional<BoundScalarFunction> bindJsonConstructor(const std::vector<LogicalTypePtr>& arguments,
                                                       bool object) {
  const size_t stride = object ? 3 : 2;
  if (arguments.empty() || (arguments.size() - 1) % stride != 0) return std::nullopt;
  std::vector<LogicalTypePtr> types{arguments[0]};
  for (size_t i = 1; i < arguments.size(); i += stride) {
    if (object) {
      const LogicalTypePtr& key = arguments[i];
      if (!isCharacterString(*key) && !isNullType(*key)) return std::nullopt;
      types.push_back(isNullType(*key) ? stringType(true) : key);
    }
    const LogicalTypePtr& value = arguments[i + stride - 2];
    if (isNullType(*value)) {
      types.push_back(stringType(true));
    } else if (isJsonScalarType(*value)) {
      types.push_back(value);
    } else {
      return std::nullopt;
    }
    types.push_back(arguments[i + stride - 1]);
  }
  return BoundScalarFunction{
      types, stringType(false),
      [object, stride](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
        const bool absentOnNull = literalInt(values[0]) == 1;
        int64_t size = 1;
        bool constant = true;
        for (const KernelVector& value : values) {
          size = std::max(size, value.size());
          constant = constant && value.isConstant();
        }
        KernelVector result(resultType, size, constant);
        std::string buffer;
        for (int64_t row = 0; row < result.physicalSize(); ++row) {
          buffer.assign(object ? "{" : "[");
          bool first = true;
          for (size_t i = 1; i < values.size(); i += stride) {
            const KernelVector& value = values[i + stride - 2];
            if (value.isNull(row) && absentOnNull) continue;
            if (!first) buffer.push_back(',');
            first = false;
            if (object) {
              if (values[i].isNull(row)) throw TableException("JSON_OBJECT: a key is NULL");
              common::appendJsonString(values[i].stringAt(row), buffer);
              buffer.push_back(':');
            }
            if (value.isNull(row)) {
              buffer.append("null");
            } else if (values[i + stride - 1].data<bool>()[0]) {
              buffer.append(value.stringAt(row));
            } else {
              appendJsonValue(value, row, buffer);
            }
          }
          buffer.push_back(object ? '}' : ']');
          result.appendString(buffer);
        }
        return result;
      }};
}

}  // namespace

void registerJsonFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction("JSON_EXISTS", FunctionSyntax::kFunction,
                              {"'JSON_EXISTS(<CHARACTER>, <CHARACTER>)'"}, bindJsonExists));
  registry.add(ScalarFunction("JSON_VALUE", FunctionSyntax::kFunction,
                              {"'JSON_VALUE(<CHARACTER>, <CHARACTER>)'"}, bindJsonValue));
  registry.add(ScalarFunction("JSON_QUERY", FunctionSyntax::kFunction,
                              {"'JSON_QUERY(<CHARACTER>, <CHARACTER>)'"}, bindJsonQuery));
  registry.add(ScalarFunction("JSON_STRING", FunctionSyntax::kFunction, {"'JSON_STRING(<ANY>)'"},
                              bindJsonString));
  registry.add(ScalarFunction("JSON_ARRAY", FunctionSyntax::kFunction, {"'JSON_ARRAY(<ANY>, ...)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindJsonConstructor(arguments, false);
                              }));
  registry.add(ScalarFunction("JSON_OBJECT", FunctionSyntax::kFunction,
                              {"'JSON_OBJECT(KEY <CHARACTER> VALUE <ANY>, ...)'"},
                              [](const std::vector<LogicalTypePtr>& arguments) {
                                return bindJsonConstructor(arguments, true);
                              }));
  const char* kinds[] = {"IS JSON VALUE", "IS JSON SCALAR", "IS JSON ARRAY", "IS JSON OBJECT"};
  for (int kind = 0; kind < 4; ++kind) {
    registry.add(ScalarFunction(kinds[kind], FunctionSyntax::kPostfixOperator,
                                {std::string("'<CHARACTER> ") + kinds[kind] + "'"},
                                [kind](const std::vector<LogicalTypePtr>& arguments) {
                                  return bindIsJson(arguments, kind);
                                }));
  }
}

bool isJsonScalarType(const LogicalType& type) {
  return isCharacterString(type) || isNumeric(type) || isBoolean(type);
}

void appendJsonText(const Value& value, bool raw, std::string& out) {
  switch (value.kind()) {
    case ValueKind::NULL_VALUE:
      out.append("null");
      return;
    case ValueKind::STRING:
      if (raw) {
        out.append(value.get<std::string>());
      } else {
        common::appendJsonString(value.get<std::string>(), out);
      }
      return;
    case ValueKind::BOOLEAN:
      out.append(value.get<bool>() ? "true" : "false");
      return;
    case ValueKind::DOUBLE:
      out.append(javaDoubleToString(value.get<double>()));
      return;
    case ValueKind::FLOAT:
      out.append(javaFloatToString(value.get<float>()));
      return;
    case ValueKind::DECIMAL: {
      const Decimal& decimal = value.get<Decimal>();
      out.append(decimal::toPlainString(decimal.unscaledValue(), decimal.scale()));
      return;
    }
    default:
      out.append(value.toString());
      return;
  }
}

}  // namespace eddy::function

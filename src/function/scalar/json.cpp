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

void appendQuoted(std::string& out, string_view text) {
  out.push_back('"');
  for (char c : text) {
    switch (c) {
      case '"':
        out.append("\\\"");
        break;
      case '\\':
        out.append("\\\\");
        break;
      case '\b':
        out.append("\\b");
        break;
      case '\f':
        out.append("\\f");
        break;
      case '\n':
        out.append("\\n");
        break;
      case '\r':
        out.append("\\r");
        break;
      case '\t':
        out.append("\\t");
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out.append(fmt::format("\\u{:04X}", static_cast<unsigned char>(c)));
        } else {
          out.push_back(c);
        }
    }
  }
  out.push_back('"');
}

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
        appendQuoted(out, field.key);
        out.push_back(':');
        serialize(field.value, out);
      }
      out.push_back('}');
      return;
    }
    case dom::element_type::STRING:
      appendQuoted(out, element.get_string().value_unsafe());
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

std::optional<std::vector<LogicalTypePtr>> characterArguments(
    const std::vector<LogicalTypePtr>& arguments, size_t count) {
  if (arguments.size() != count) return std::nullopt;
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& type : arguments) {
    if (isNullType(*type)) {
      types.push_back(stringType(true));
    } else if (isCharacterString(*type)) {
      types.push_back(type);
    } else {
      return std::nullopt;
    }
  }
  return types;
}

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

std::optional<BoundScalarFunction> bindJsonExists(const std::vector<LogicalTypePtr>& arguments) {
  auto types = characterArguments(arguments, 2);
  if (!types) return std::nullopt;
  return BoundScalarFunction{*types,
                             LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(*types)),
                             documentKernel<bool>([](const Selection& selection) {
                               if (selection.error || selection.elements.empty()) return false;
                               if (selection.list) return true;
                               return !selection.elements[0].is_null();
                             })};
}

std::optional<BoundScalarFunction> bindJsonValue(const std::vector<LogicalTypePtr>& arguments) {
  auto types = characterArguments(arguments, 2);
  if (!types) return std::nullopt;
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

std::optional<BoundScalarFunction> bindJsonQuery(const std::vector<LogicalTypePtr>& arguments) {
  auto types = characterArguments(arguments, 2);
  if (!types) return std::nullopt;
  return BoundScalarFunction{
      *types, stringType(true),
      documentKernel<string_view>([](const Selection& selection) -> std::optional<std::string> {
        if (selection.error || selection.elements.empty()) return std::nullopt;
        std::string out;
        if (selection.list) {
          out.push_back('[');
          for (size_t i = 0; i < selection.elements.size(); ++i) {
            if (i > 0) out.push_back(',');
            serialize(selection.elements[i], out);
          }
          out.push_back(']');
          return out;
        }
        if (isScalar(selection.elements[0])) return std::nullopt;
        serialize(selection.elements[0], out);
        return out;
      })};
}

// One SQL value as JSON text.
void appendJsonValue(const KernelVector& vector, int64_t row, std::string& out) {
  const LogicalType& type = *vector.type();
  if (isCharacterString(type)) {
    appendQuoted(out, vector.stringAt(row));
    return;
  }
  Value value = vector.valueAt(row);
  switch (value.kind()) {
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

bool isJsonScalarType(const LogicalType& type) {
  return isCharacterString(type) || isNumeric(type) || isBoolean(type);
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

std::optional<BoundScalarFunction> bindJsonArray(const std::vector<LogicalTypePtr>& arguments) {
  std::vector<LogicalTypePtr> types;
  for (const LogicalTypePtr& argument : arguments) {
    if (isNullType(*argument)) {
      types.push_back(stringType(true));
    } else if (isJsonScalarType(*argument)) {
      types.push_back(argument);
    } else {
      return std::nullopt;
    }
  }
  return BoundScalarFunction{
      types, stringType(false),
      [](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
        int64_t size = values.empty() ? 1 : values[0].size();
        bool constant = std::all_of(values.begin(), values.end(),
                                    [](const KernelVector& value) { return value.isConstant(); });
        KernelVector result(resultType, size, constant);
        std::string buffer;
        for (int64_t row = 0; row < result.physicalSize(); ++row) {
          buffer.assign("[");
          bool first = true;
          for (const KernelVector& value : values) {
            if (value.isNull(row)) continue;  // ABSENT ON NULL
            if (!first) buffer.push_back(',');
            first = false;
            appendJsonValue(value, row, buffer);
          }
          buffer.push_back(']');
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
                              bindJsonArray));
}

}  // namespace eddy::function

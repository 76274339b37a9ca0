// The only file that includes simdjson.h (a 1.3 MB header): keep it that way.
#include "formats/json/json_row_deserializer.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "formats/json/json_member_reader.h"
#include "formats/text_value_codec.h"
#include "vector/vector.h"

namespace eddy::formats {

namespace {

namespace ondemand = simdjson::ondemand;

std::string_view trimJsonWhitespace(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' ||
                           text.front() == '\r')) {
    text.remove_prefix(1);
  }
  return text;
}

// A JSON text as messages show it: cut after 100 characters.
std::string shownJson(std::string_view text) {
  constexpr size_t kMaxShown = 100;
  text = trimJsonWhitespace(text);
  if (text.size() <= kMaxShown) return std::string(text);
  return std::string(text.substr(0, kMaxShown)) + "...";
}

std::string_view jsonTypeName(ondemand::json_type type) {
  switch (type) {
    case ondemand::json_type::array:
      return "an array";
    case ondemand::json_type::object:
      return "an object";
    case ondemand::json_type::number:
      return "a number";
    case ondemand::json_type::string:
      return "a string";
    case ondemand::json_type::boolean:
      return "a boolean";
    case ondemand::json_type::null:
      return "null";
  }
  return "an unknown value";
}

// The outcome of converting one JSON value.
enum class Conversion { kOk, kMismatch, kOutOfRange, kInvalidJson };

// A scalar (or a container's text) taken out of the document.
struct JsonScalar {
  ondemand::json_type type = ondemand::json_type::null;
  // Unescaped string, number token, "true"/"false", or a container's JSON text.
  std::string_view text;
  // The JSON text of the value, for messages.
  std::string_view raw;
};

// Reads `value` into a JsonScalar (containers as their raw JSON text, consumed).
simdjson::error_code readScalar(ondemand::value& value, JsonScalar& scalar) {
  if (auto error = value.type().get(scalar.type)) return error;
  switch (scalar.type) {
    case ondemand::json_type::null: {
      bool isNull = false;
      if (auto error = value.is_null().get(isNull)) return error;
      if (!isNull) return simdjson::INCORRECT_TYPE;
      scalar.text = scalar.raw = "null";
      return simdjson::SUCCESS;
    }
    case ondemand::json_type::string:
      scalar.raw = trimJsonWhitespace(value.raw_json_token());
      return value.get_string().get(scalar.text);
    case ondemand::json_type::number:
      scalar.raw = scalar.text = trimJsonWhitespace(value.raw_json_token());
      return simdjson::SUCCESS;
    case ondemand::json_type::boolean: {
      bool flag = false;
      if (auto error = value.get_bool().get(flag)) return error;
      scalar.text = scalar.raw = flag ? "true" : "false";
      return simdjson::SUCCESS;
    }
    case ondemand::json_type::array: {
      ondemand::array array;
      if (auto error = value.get_array().get(array)) return error;
      if (auto error = array.raw_json().get(scalar.text)) return error;
      scalar.raw = scalar.text;
      return simdjson::SUCCESS;
    }
    case ondemand::json_type::object: {
      ondemand::object object;
      if (auto error = value.get_object().get(object)) return error;
      if (auto error = object.raw_json().get(scalar.text)) return error;
      scalar.raw = scalar.text;
      return simdjson::SUCCESS;
    }
  }
  return simdjson::INCORRECT_TYPE;
}

// Copies `text` into `buffer` with the padding simdjson reads past its end.
void copyPadded(std::string_view text, std::string& buffer) {
  buffer.resize(text.size() + simdjson::SIMDJSON_PADDING);
  std::memcpy(buffer.data(), text.data(), text.size());
  std::memset(buffer.data() + text.size(), 0, simdjson::SIMDJSON_PADDING);
}

JsonKind kindOf(ondemand::json_type type) {
  switch (type) {
    case ondemand::json_type::array:
      return JsonKind::kArray;
    case ondemand::json_type::object:
      return JsonKind::kObject;
    case ondemand::json_type::number:
      return JsonKind::kNumber;
    case ondemand::json_type::string:
      return JsonKind::kString;
    case ondemand::json_type::boolean:
      return JsonKind::kBoolean;
    case ondemand::json_type::null:
      return JsonKind::kNull;
  }
  return JsonKind::kNull;
}

// Appends a non-null scalar to a column of a scalar type.
Conversion appendScalar(vector::Vector& column, const JsonScalar& scalar) {
  const LogicalType& type = *column.type();
  const LogicalTypeRoot root = type.getTypeRoot();
  using JsonType = ondemand::json_type;
  bool accepted = false;
  if (type.isCharacterString()) {
    column.appendString(scalar.text);
    return Conversion::kOk;
  }
  if (root == LogicalTypeRoot::BOOLEAN) {
    accepted = scalar.type == JsonType::boolean || scalar.type == JsonType::string;
  } else if (hasNumberText(root)) {
    accepted = scalar.type == JsonType::number || scalar.type == JsonType::string;
  } else {
    accepted = scalar.type == JsonType::string;  // binary, temporal
  }
  if (!accepted) return Conversion::kMismatch;
  switch (appendParsedText(column, scalar.text)) {
    case TextParseResult::kOk:
      return Conversion::kOk;
    case TextParseResult::kOutOfRange:
      return Conversion::kOutOfRange;
    case TextParseResult::kMalformed:
      return Conversion::kMismatch;
  }
  return Conversion::kMismatch;
}

}  // namespace

class JsonRowDeserializer::Decoder {
 public:
  Decoder(LogicalTypePtr rowType, JsonFormatOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {
    const auto& fields = rowType_->getFields();
    for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
      columnIndex_.emplace(fields[i].name, i);
    }
  }

  // Returns true when a row was appended (see RowDeserializer::deserialize); counts into the
  // given counters.
  bool deserialize(std::string_view record, const RecordLocation& location, vector::Chunk& rows,
                   int64_t& malformedRecords, int64_t& skippedRecords) {
    if (trimJsonWhitespace(record).empty()) return false;
    const int columnCount = rowType_->getFieldCount();
    const int64_t size = rows.size();
    columns_.resize(columnCount);
    for (int column = 0; column < columnCount; ++column) {
      columns_[column] = &rows.mutableColumn(column);
    }
    seen_.assign(columnCount, false);
    bool malformed = false;

    // Invalid JSON or a record that is not an object: no row.
    auto rejectRecord = [&](const std::string& what) {
      for (vector::Vector* column : columns_) column->resize(size);
      if (!options_.ignoreParseErrors) fail(location, what);
      ++malformedRecords;
      ++skippedRecords;
      return false;
    };
    auto invalidJson = [&](simdjson::error_code error) {
      return rejectRecord(
          fmt::format("invalid JSON ({}): {}", simdjson::error_message(error), shownJson(record)));
    };

    copyPadded(record, recordBuffer_);
    ondemand::document document;
    if (auto error = parser_.iterate(recordBuffer_.data(), record.size(), recordBuffer_.size())
                         .get(document)) {
      return invalidJson(error);
    }
    ondemand::json_type rootType;
    if (auto error = document.type().get(rootType)) return invalidJson(error);
    if (rootType != ondemand::json_type::object) {
      return rejectRecord(fmt::format("expected a JSON object but got {}: {}",
                                      jsonTypeName(rootType), shownJson(record)));
    }
    ondemand::object object;
    if (auto error = document.get_object().get(object)) return invalidJson(error);
    for (auto fieldResult : object) {
      ondemand::field field;
      if (auto error = std::move(fieldResult).get(field)) return invalidJson(error);
      std::string_view key;
      if (auto error = field.unescaped_key().get(key)) return invalidJson(error);
      auto found = columnIndex_.find(key);
      if (found == columnIndex_.end() || seen_[found->second]) continue;  // value skipped
      const int column = found->second;
      seen_[column] = true;
      JsonScalar scalar;
      if (auto error = readScalar(field.value(), scalar)) return invalidJson(error);
      Conversion conversion = appendColumn(column, scalar);
      if (conversion == Conversion::kOk) continue;
      if (conversion == Conversion::kInvalidJson) {
        return invalidJson(simdjson::TAPE_ERROR);
      }
      const LogicalType& type = *rowType_->getFields()[column].type;
      bool isNull = scalar.type == ondemand::json_type::null;
      if (options_.ignoreParseErrors && !isNull && type.isNullable()) {
        columns_[column]->appendNull();
        malformed = true;
        continue;
      }
      std::string what =
          isNull ? fmt::format("{} expects {} but got null", describeColumn(column),
                               type.asSummaryString())
                 : fmt::format("{} expects {} but got {}{}", describeColumn(column),
                               type.asSummaryString(), shownJson(scalar.raw),
                               conversion == Conversion::kOutOfRange ? " (out of range)" : "");
      return rejectRecord(what);
    }
    const char* trailing = nullptr;
    if (document.current_location().get(trailing) == simdjson::SUCCESS) {
      return rejectRecord(
          fmt::format("invalid JSON (text after the object): {}", shownJson(record)));
    }
    for (int column = 0; column < columnCount; ++column) {
      if (seen_[column]) continue;
      const LogicalType& type = *rowType_->getFields()[column].type;
      if (options_.failOnMissingField) {
        return rejectRecord(fmt::format("could not find field with name '{}' (column position {})",
                                        rowType_->getFields()[column].name, column));
      }
      if (!type.isNullable()) {
        return rejectRecord(fmt::format("{} expects {} but the field is missing",
                                        describeColumn(column), type.asSummaryString()));
      }
      columns_[column]->appendNull();
    }
    rows.mutableRowKinds().push_back(RowKind::INSERT);
    if (malformed) ++malformedRecords;
    return true;
  }

 private:
  std::string describeColumn(int column) const {
    return fmt::format("column '{}' (position {})", rowType_->getFields()[column].name, column);
  }

  [[noreturn]] void fail(const RecordLocation& location, const std::string& what) const {
    throw ConnectorException(fmt::format("Failed to deserialize JSON row {} of {}: {}",
                                         location.row, location.source, what));
  }

  // Appends `scalar` (a top-level member) to column `column`.
  Conversion appendColumn(int column, const JsonScalar& scalar) {
    vector::Vector& values = *columns_[column];
    const LogicalTypePtr& type = rowType_->getFields()[column].type;
    if (scalar.type == ondemand::json_type::null) {
      if (!type->isNullable()) return Conversion::kMismatch;
      values.appendNull();
      return Conversion::kOk;
    }
    if (values.layout() != vector::PhysicalLayout::kBoxed) return appendScalar(values, scalar);
    // A nested column: parse the container's text again, with the nested parser.
    bool isArray = type->getTypeRoot() == LogicalTypeRoot::ARRAY;
    if (scalar.type != (isArray ? ondemand::json_type::array : ondemand::json_type::object)) {
      return Conversion::kMismatch;
    }
    copyPadded(scalar.text, nestedBuffer_);
    ondemand::document document;
    if (nestedParser_.iterate(nestedBuffer_.data(), scalar.text.size(), nestedBuffer_.size())
            .get(document)) {
      return Conversion::kInvalidJson;
    }
    Value result;
    Conversion conversion;
    if (isArray) {
      ondemand::array array;
      if (document.get_array().get(array)) return Conversion::kInvalidJson;
      conversion = convertArray(array, type, result);
    } else {
      ondemand::object object;
      if (document.get_object().get(object)) return Conversion::kInvalidJson;
      conversion = convertObject(object, type, result);
    }
    if (conversion != Conversion::kOk) return conversion;
    values.appendBoxed(std::move(result));
    return Conversion::kOk;
  }

  Conversion convertValue(ondemand::value value, const LogicalTypePtr& type, Value& out) {
    ondemand::json_type jsonType;
    if (value.type().get(jsonType)) return Conversion::kInvalidJson;
    switch (type->getTypeRoot()) {
      case LogicalTypeRoot::ARRAY:
        if (jsonType == ondemand::json_type::array) {
          ondemand::array array;
          if (value.get_array().get(array)) return Conversion::kInvalidJson;
          return convertArray(array, type, out);
        }
        break;
      case LogicalTypeRoot::MAP:
      case LogicalTypeRoot::MULTISET:
      case LogicalTypeRoot::ROW:
        if (jsonType == ondemand::json_type::object) {
          ondemand::object object;
          if (value.get_object().get(object)) return Conversion::kInvalidJson;
          return convertObject(object, type, out);
        }
        break;
      default:
        break;
    }
    JsonScalar scalar;
    if (readScalar(value, scalar)) return Conversion::kInvalidJson;
    if (scalar.type == ondemand::json_type::null) {
      if (!type->isNullable()) return Conversion::kMismatch;
      out = Value();
      return Conversion::kOk;
    }
    if (!isTextScalarType(*type) || scalar.type == ondemand::json_type::array ||
        (scalar.type == ondemand::json_type::object && !type->isCharacterString())) {
      return Conversion::kMismatch;
    }
    vector::Vector& scratch = scratchFor(type);
    scratch.resize(0);
    Conversion conversion = appendScalar(scratch, scalar);
    if (conversion == Conversion::kOk) out = scratch.valueAt(0);
    return conversion;
  }

  Conversion convertArray(ondemand::array& array, const LogicalTypePtr& type, Value& out) {
    ValueArray elements;
    for (auto elementResult : array) {
      ondemand::value element;
      if (std::move(elementResult).get(element)) return Conversion::kInvalidJson;
      Value converted;
      Conversion conversion = convertValue(element, type->getElementType(), converted);
      if (conversion != Conversion::kOk) return conversion;
      elements.push_back(std::move(converted));
    }
    out = Value(std::move(elements));
    return Conversion::kOk;
  }

  Conversion convertObject(ondemand::object& object, const LogicalTypePtr& type, Value& out) {
    const LogicalTypeRoot root = type->getTypeRoot();
    if (root == LogicalTypeRoot::ROW) {
      const auto& fields = type->getFields();
      std::vector<Value> values(fields.size());
      std::vector<bool> seen(fields.size(), false);
      for (auto fieldResult : object) {
        ondemand::field field;
        if (std::move(fieldResult).get(field)) return Conversion::kInvalidJson;
        std::string_view key;
        if (field.unescaped_key().get(key)) return Conversion::kInvalidJson;
        int index = type->getFieldIndex(key);
        if (index < 0 || seen[index]) continue;
        seen[index] = true;
        Conversion conversion = convertValue(field.value(), fields[index].type, values[index]);
        if (conversion != Conversion::kOk) return conversion;
      }
      for (size_t i = 0; i < fields.size(); ++i) {
        if (!seen[i] && (options_.failOnMissingField || !fields[i].type->isNullable())) {
          return Conversion::kMismatch;
        }
      }
      Row row(static_cast<int>(fields.size()));
      for (size_t i = 0; i < fields.size(); ++i) {
        row.setField(static_cast<int>(i), std::move(values[i]));
      }
      out = Value(std::move(row));
      return Conversion::kOk;
    }
    const LogicalTypePtr& keyType =
        root == LogicalTypeRoot::MAP ? type->getKeyType() : type->getElementType();
    const LogicalTypePtr& valueType =
        root == LogicalTypeRoot::MAP ? type->getValueType() : multisetCountType_;
    ValueMap entries;
    for (auto fieldResult : object) {
      ondemand::field field;
      if (std::move(fieldResult).get(field)) return Conversion::kInvalidJson;
      std::string_view key;
      if (field.unescaped_key().get(key)) return Conversion::kInvalidJson;
      Value converted;
      Conversion conversion = convertValue(field.value(), valueType, converted);
      if (conversion != Conversion::kOk) return conversion;
      (void)keyType;  // string keys (checked by the factory)
      entries.emplace_back(Value(std::string(key)), std::move(converted));
    }
    out = Value(std::move(entries));
    return Conversion::kOk;
  }

  vector::Vector& scratchFor(const LogicalTypePtr& type) {
    auto found = scratch_.find(type.get());
    if (found == scratch_.end()) found = scratch_.emplace(type.get(), vector::Vector(type)).first;
    return found->second;
  }

  LogicalTypePtr rowType_;
  JsonFormatOptions options_;
  std::unordered_map<std::string_view, int> columnIndex_;  // views of rowType_'s names
  ondemand::parser parser_;
  ondemand::parser nestedParser_;
  std::string recordBuffer_;  // the record, padded for simdjson
  std::string nestedBuffer_;  // a nested column's JSON text, padded
  std::vector<vector::Vector*> columns_;
  std::vector<bool> seen_;
  // Vectors that turn scalar values inside nested columns into Values, by type.
  std::unordered_map<const LogicalType*, vector::Vector> scratch_;
  LogicalTypePtr multisetCountType_ = LogicalType::simple(LogicalTypeRoot::INTEGER, false);
};

JsonRowDeserializer::JsonRowDeserializer(LogicalTypePtr rowType, JsonFormatOptions options)
    : decoder_(std::make_unique<Decoder>(std::move(rowType), std::move(options))) {}

JsonRowDeserializer::~JsonRowDeserializer() = default;

size_t JsonRowDeserializer::recordLength(std::string_view bytes, bool endOfInput) const {
  size_t end = bytes.find('\n');
  if (end != std::string_view::npos) return end + 1;
  return endOfInput ? bytes.size() : 0;
}

bool JsonRowDeserializer::deserialize(std::string_view record, const RecordLocation& location,
                                      vector::Chunk& rows) {
  if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
  if (!record.empty() && record.back() == '\r') record.remove_suffix(1);
  return decoder_->deserialize(record, location, rows, malformedRecords_, skippedRecords_);
}

// ---- JsonMemberReader (json_member_reader.h) ------------------------------------------------

class JsonMemberReader::Parsers {
 public:
  ondemand::parser objectParser;
  ondemand::parser arrayParser;
  std::string objectBuffer;
  std::string arrayBuffer;
};

JsonMemberReader::JsonMemberReader() : parsers_(std::make_unique<Parsers>()) {}

JsonMemberReader::~JsonMemberReader() = default;

namespace {

std::string invalidJsonText(simdjson::error_code error, std::string_view json) {
  return fmt::format("invalid JSON ({}): {}", simdjson::error_message(error), shownJson(json));
}

}  // namespace

std::string JsonMemberReader::readObject(std::string_view json,
                                         const std::vector<std::string>& names,
                                         std::vector<JsonMember>& members) {
  members.assign(names.size(), JsonMember{});
  copyPadded(json, parsers_->objectBuffer);
  ondemand::document document;
  if (auto error =
          parsers_->objectParser
              .iterate(parsers_->objectBuffer.data(), json.size(), parsers_->objectBuffer.size())
              .get(document)) {
    return invalidJsonText(error, json);
  }
  ondemand::json_type rootType;
  if (auto error = document.type().get(rootType)) return invalidJsonText(error, json);
  if (rootType != ondemand::json_type::object) {
    return fmt::format("expected a JSON object but got {}: {}", jsonTypeName(rootType),
                       shownJson(json));
  }
  ondemand::object object;
  if (auto error = document.get_object().get(object)) return invalidJsonText(error, json);
  for (auto fieldResult : object) {
    ondemand::field field;
    if (auto error = std::move(fieldResult).get(field)) return invalidJsonText(error, json);
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return invalidJsonText(error, json);
    auto name = std::find(names.begin(), names.end(), key);
    if (name == names.end()) continue;
    JsonMember& member = members[static_cast<size_t>(name - names.begin())];
    if (member.kind != JsonKind::kMissing) continue;
    JsonScalar scalar;
    if (auto error = readScalar(field.value(), scalar)) return invalidJsonText(error, json);
    member = JsonMember{kindOf(scalar.type), scalar.text};
  }
  const char* trailing = nullptr;
  if (document.current_location().get(trailing) == simdjson::SUCCESS) {
    return fmt::format("invalid JSON (text after the object): {}", shownJson(json));
  }
  return "";
}

std::string JsonMemberReader::readArray(std::string_view json, std::vector<JsonMember>& elements) {
  elements.clear();
  copyPadded(json, parsers_->arrayBuffer);
  ondemand::document document;
  if (auto error =
          parsers_->arrayParser
              .iterate(parsers_->arrayBuffer.data(), json.size(), parsers_->arrayBuffer.size())
              .get(document)) {
    return invalidJsonText(error, json);
  }
  ondemand::json_type rootType;
  if (auto error = document.type().get(rootType)) return invalidJsonText(error, json);
  if (rootType != ondemand::json_type::array) {
    return fmt::format("expected a JSON array but got {}: {}", jsonTypeName(rootType),
                       shownJson(json));
  }
  ondemand::array array;
  if (auto error = document.get_array().get(array)) return invalidJsonText(error, json);
  for (auto elementResult : array) {
    ondemand::value element;
    if (auto error = std::move(elementResult).get(element)) return invalidJsonText(error, json);
    JsonScalar scalar;
    if (auto error = readScalar(element, scalar)) return invalidJsonText(error, json);
    elements.push_back(JsonMember{kindOf(scalar.type), scalar.text});
  }
  return "";
}

}  // namespace eddy::formats

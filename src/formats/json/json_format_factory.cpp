#include "formats/json/json_format_factory.h"

#include <fmt/format.h>

#include <cctype>

#include "eddy/exceptions.h"
#include "formats/format_options.h"
#include "formats/json/json_row_deserializer.h"
#include "formats/json/json_row_serializer.h"
#include "formats/text_value_codec.h"

namespace eddy::formats {

namespace {

// Throws when `type` (of column `column`) cannot be read or written as JSON.
void checkJsonType(const LogicalType& type, const FormatContext& context, const RowField& column) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::ARRAY:
      checkJsonType(*type.getElementType(), context, column);
      return;
    case LogicalTypeRoot::MAP:
    case LogicalTypeRoot::MULTISET: {
      const LogicalType& keyType =
          type.getTypeRoot() == LogicalTypeRoot::MAP ? *type.getKeyType() : *type.getElementType();
      if (!keyType.isCharacterString()) {
        throw ValidationException(fmt::format(
            "JSON format doesn't support non-string as key type of map. The type is: {} (column "
            "'{}' of table '{}').",
            type.asSummaryString(), column.name, context.tableName));
      }
      if (type.getTypeRoot() == LogicalTypeRoot::MAP) {
        checkJsonType(*type.getValueType(), context, column);
      }
      return;
    }
    case LogicalTypeRoot::ROW:
      for (const RowField& field : type.getFields()) checkJsonType(*field.type, context, column);
      return;
    default:
      if (isTextScalarType(type)) return;
      throw ValidationException(
          fmt::format("The json format does not support the type {} of column '{}' (table '{}').",
                      type.asSummaryString(), column.name, context.tableName));
  }
}

class JsonDecodingFormat final : public DecodingFormat {
 public:
  JsonDecodingFormat(LogicalTypePtr rowType, JsonFormatOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowDeserializer> createDeserializer() const override {
    return std::make_unique<JsonRowDeserializer>(rowType_, options_);
  }

 private:
  LogicalTypePtr rowType_;
  JsonFormatOptions options_;
};

class JsonEncodingFormat final : public EncodingFormat {
 public:
  JsonEncodingFormat(LogicalTypePtr rowType, JsonFormatOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowSerializer> createSerializer() const override {
    return std::make_unique<JsonRowSerializer>(rowType_, options_);
  }

 private:
  LogicalTypePtr rowType_;
  JsonFormatOptions options_;
};

}  // namespace

JsonFormatOptions parseJsonFormatOptions(const FormatContext& context) {
  FormatOptions options(context);
  JsonFormatOptions parsed;
  parsed.failOnMissingField = options.getBoolean("fail-on-missing-field").value_or(false);
  parsed.ignoreParseErrors = options.getBoolean("ignore-parse-errors").value_or(false);
  if (parsed.failOnMissingField && parsed.ignoreParseErrors) {
    throw ValidationException(
        "fail-on-missing-field and ignore-parse-errors shouldn't both be true.");
  }
  if (std::optional<std::string> standard = options.getString("timestamp-format.standard")) {
    if (*standard != "SQL" && *standard != "ISO-8601") {
      throw ValidationException(fmt::format(
          "Unsupported value '{}' for timestamp-format.standard. Supported values are [SQL, "
          "ISO-8601].",
          *standard));
    }
    parsed.isoTimestamps = *standard == "ISO-8601";
  }
  if (std::optional<std::string> mode = options.getString("map-null-key.mode")) {
    std::string upper = *mode;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    if (upper == "FAIL") {
      parsed.mapNullKeyMode = MapNullKeyMode::kFail;
    } else if (upper == "DROP") {
      parsed.mapNullKeyMode = MapNullKeyMode::kDrop;
    } else if (upper == "LITERAL") {
      parsed.mapNullKeyMode = MapNullKeyMode::kLiteral;
    } else {
      throw ValidationException(fmt::format(
          "Unsupported value '{}' for option map-null-key.mode. Supported values are [LITERAL, "
          "FAIL, DROP].",
          *mode));
    }
  }
  parsed.mapNullKeyLiteral = options.getString("map-null-key.literal").value_or("null");
  parsed.encodeDecimalAsPlainNumber =
      options.getBoolean("encode.decimal-as-plain-number").value_or(false);
  parsed.encodeIgnoreNullFields = options.getBoolean("encode.ignore-null-fields").value_or(false);
  options.getBoolean("decode.json-parser.enabled");  // validated, no effect
  for (const RowField& column : context.physicalRowType->getFields()) {
    checkJsonType(*column.type, context, column);
  }
  return parsed;
}

std::set<std::string> JsonFormatFactory::optionalOptions() const {
  return {"fail-on-missing-field",     "ignore-parse-errors",
          "timestamp-format.standard", "map-null-key.mode",
          "map-null-key.literal",      "encode.decimal-as-plain-number",
          "encode.ignore-null-fields", "decode.json-parser.enabled"};
}

void JsonFormatFactory::validate(const FormatContext& context) const {
  parseJsonFormatOptions(context);
}

std::shared_ptr<const DecodingFormat> JsonFormatFactory::createDecodingFormat(
    const FormatContext& context) const {
  return std::make_shared<JsonDecodingFormat>(context.physicalRowType,
                                              parseJsonFormatOptions(context));
}

std::shared_ptr<const EncodingFormat> JsonFormatFactory::createEncodingFormat(
    const FormatContext& context) const {
  return std::make_shared<JsonEncodingFormat>(context.physicalRowType,
                                              parseJsonFormatOptions(context));
}

}  // namespace eddy::formats

#include "formats/csv/csv_format_factory.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"
#include "formats/csv/csv_row_deserializer.h"
#include "formats/csv/csv_row_serializer.h"
#include "formats/format_options.h"
#include "formats/text_value_codec.h"

namespace eddy::formats {

namespace {

bool isSupportedCsvType(const LogicalType& type) {
  if (isTextScalarType(type)) return true;
  if (type.getTypeRoot() == LogicalTypeRoot::ARRAY) return isTextScalarType(*type.getElementType());
  if (type.getTypeRoot() == LogicalTypeRoot::ROW) {
    for (const RowField& field : type.getFields()) {
      if (!isTextScalarType(*field.type)) return false;
    }
    return true;
  }
  return false;
}

class CsvDecodingFormat final : public DecodingFormat {
 public:
  CsvDecodingFormat(LogicalTypePtr rowType, CsvFormatOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowDeserializer> createDeserializer() const override {
    return std::make_unique<CsvRowDeserializer>(rowType_, options_);
  }
  bool supportsProjection() const override { return true; }
  std::unique_ptr<RowDeserializer> createProjectedDeserializer(
      const std::vector<int>& columns) const override {
    for (int column : columns) {
      if (column < 0 || column >= rowType_->getFieldCount()) {
        throw InternalError("a CSV projection names a column out of range");
      }
    }
    return std::make_unique<CsvRowDeserializer>(rowType_, options_, columns);
  }

 private:
  LogicalTypePtr rowType_;
  CsvFormatOptions options_;
};

class CsvEncodingFormat final : public EncodingFormat {
 public:
  CsvEncodingFormat(LogicalTypePtr rowType, CsvFormatOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowSerializer> createSerializer() const override {
    return std::make_unique<CsvRowSerializer>(rowType_, options_);
  }

 private:
  LogicalTypePtr rowType_;
  CsvFormatOptions options_;
};

}  // namespace

CsvFormatOptions parseCsvFormatOptions(const FormatContext& context) {
  FormatOptions options(context);
  CsvFormatOptions parsed;
  bool quoteDisabled = options.getBoolean("disable-quote-character").value_or(false);
  if (quoteDisabled && options.getString("quote-character")) {
    throw ValidationException(
        "Format cannot define a quote character and disabled quote character at the same time.");
  }
  parsed.fieldDelimiter = options.getCharacter("field-delimiter", true).value_or(',');
  parsed.quoteCharacter =
      quoteDisabled ? std::nullopt
                    : std::optional<char>(options.getCharacter("quote-character").value_or('"'));
  parsed.allowComments = options.getBoolean("allow-comments").value_or(false);
  parsed.ignoreParseErrors = options.getBoolean("ignore-parse-errors").value_or(false);
  parsed.arrayElementDelimiter = options.getCharacter("array-element-delimiter").value_or(';');
  parsed.escapeCharacter = options.getCharacter("escape-character");
  parsed.nullLiteral = options.getString("null-literal");
  parsed.writeBigDecimalInScientificNotation =
      options.getBoolean("write-bigdecimal-in-scientific-notation").value_or(true);

  auto distinct = [&](std::string_view first, char firstValue, std::string_view second,
                      char secondValue) {
    if (firstValue == secondValue) {
      throw ValidationException(fmt::format(
          "The options '{}' and '{}' of table '{}' must not be the same character, but both "
          "are '{}'.",
          context.key(first), context.key(second), context.tableName, firstValue));
    }
  };
  if (parsed.fieldDelimiter == '\n' || parsed.fieldDelimiter == '\r') {
    options.throwInvalid("field-delimiter", *options.getString("field-delimiter"),
                         "a character other than a line break");
  }
  if (parsed.quoteCharacter) {
    distinct("field-delimiter", parsed.fieldDelimiter, "quote-character", *parsed.quoteCharacter);
  }
  if (parsed.escapeCharacter) {
    distinct("field-delimiter", parsed.fieldDelimiter, "escape-character", *parsed.escapeCharacter);
    if (parsed.quoteCharacter) {
      distinct("quote-character", *parsed.quoteCharacter, "escape-character",
               *parsed.escapeCharacter);
    }
  }
  distinct("field-delimiter", parsed.fieldDelimiter, "array-element-delimiter",
           parsed.arrayElementDelimiter);

  for (const RowField& column : context.physicalRowType->getFields()) {
    if (!isSupportedCsvType(*column.type)) {
      throw ValidationException(
          fmt::format("The csv format does not support the type {} of column '{}' (table '{}').",
                      column.type->asSummaryString(), column.name, context.tableName));
    }
  }
  return parsed;
}

std::set<std::string> CsvFormatFactory::optionalOptions() const {
  return {"field-delimiter",
          "disable-quote-character",
          "quote-character",
          "allow-comments",
          "ignore-parse-errors",
          "array-element-delimiter",
          "escape-character",
          "null-literal",
          "write-bigdecimal-in-scientific-notation"};
}

std::set<std::string> CsvFormatFactory::notSupportedYetOptions() const {
  // Options of newer Flink versions.
  return {"trim-spaces",          "ignore-trailing-unmappable",
          "allow-trailing-comma", "fail-on-missing-columns",
          "empty-string-as-null", "ignore-first-line"};
}

void CsvFormatFactory::validate(const FormatContext& context) const {
  parseCsvFormatOptions(context);
}

std::shared_ptr<const DecodingFormat> CsvFormatFactory::createDecodingFormat(
    const FormatContext& context) const {
  return std::make_shared<CsvDecodingFormat>(context.physicalRowType,
                                             parseCsvFormatOptions(context));
}

std::shared_ptr<const EncodingFormat> CsvFormatFactory::createEncodingFormat(
    const FormatContext& context) const {
  return std::make_shared<CsvEncodingFormat>(context.physicalRowType,
                                             parseCsvFormatOptions(context));
}

}  // namespace eddy::formats

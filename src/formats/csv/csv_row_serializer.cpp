#include "formats/csv/csv_row_serializer.h"

#include "eddy/row.h"

namespace eddy::formats {

namespace {

// Numbers and booleans are written as they are (Jackson's writeNumber / writeBoolean).
bool isTextType(const LogicalType& type) {
  return type.getTypeRoot() != LogicalTypeRoot::BOOLEAN && !hasNumberText(type.getTypeRoot());
}

}  // namespace

CsvRowSerializer::CsvRowSerializer(LogicalTypePtr rowType, CsvFormatOptions options)
    : rowType_(std::move(rowType)), options_(std::move(options)) {
  textOptions_.timestampSeparator = ' ';
  textOptions_.decimalNotation.stripTrailingZeros = true;
  textOptions_.decimalNotation.plain = !options_.writeBigDecimalInScientificNotation;
  for (const RowField& column : rowType_->getFields()) {
    isText_.push_back(isTextType(*column.type));
    std::vector<vector::Vector> scratch;
    if (column.type->getTypeRoot() == LogicalTypeRoot::ARRAY) {
      scratch.emplace_back(column.type->getElementType());
    } else if (column.type->getTypeRoot() == LogicalTypeRoot::ROW) {
      for (const RowField& field : column.type->getFields()) scratch.emplace_back(field.type);
    }
    elementScratch_.push_back(std::move(scratch));
  }
}

void CsvRowSerializer::appendField(std::string_view text, bool isText, std::string& out) const {
  const char delimiter = options_.fieldDelimiter;
  if (options_.quoteCharacter) {
    const char quote = *options_.quoteCharacter;
    const bool escaping = options_.escapeCharacter.has_value();
    const char escape = options_.escapeCharacter.value_or('\0');
    bool needsQuotes = false;
    if (isText) {
      needsQuotes = text.empty() || text.front() == '#' ||
                    (options_.nullLiteral && text == *options_.nullLiteral);
    }
    for (size_t i = 0; i < text.size() && !needsQuotes; ++i) {
      char c = text[i];
      needsQuotes = c == delimiter || c == quote || (escaping && c == escape) ||
                    (isText && static_cast<unsigned char>(c) < '-');
    }
    if (!needsQuotes) {
      out += text;
      return;
    }
    out.push_back(quote);
    for (char c : text) {
      if (c == quote || (escaping && c == escape)) out.push_back(c);
      out.push_back(c);
    }
    out.push_back(quote);
    return;
  }
  if (!options_.escapeCharacter) {
    out += text;
    return;
  }
  const char escape = *options_.escapeCharacter;
  for (char c : text) {
    if (c == delimiter || c == escape) {
      out.push_back(escape);
      out.push_back(c);
    } else if (c == '\n') {
      out.push_back(escape);
      out.push_back('n');
    } else if (c == '\r') {
      out.push_back(escape);
      out.push_back('r');
    } else {
      out.push_back(c);
    }
  }
}

void CsvRowSerializer::appendNested(int column, const Value& value, std::string& out) {
  std::vector<vector::Vector>& scratch = elementScratch_[column];
  auto appendElement = [&](vector::Vector& elementVector, const Value& element, bool first) {
    if (!first) out.push_back(options_.arrayElementDelimiter);
    if (element.isNull()) {
      if (options_.nullLiteral) out += *options_.nullLiteral;
      return;
    }
    elementVector.resize(0);
    elementVector.appendValue(element);
    appendValueText(elementVector, 0, textOptions_, out);
  };
  if (value.is<ValueArray>()) {
    bool first = true;
    for (const Value& element : value.get<ValueArray>()) {
      appendElement(scratch[0], element, first);
      first = false;
    }
    return;
  }
  const Row& row = value.getRow();
  for (int i = 0; i < row.getArity() && i < static_cast<int>(scratch.size()); ++i) {
    appendElement(scratch[i], row.getField(i), i == 0);
  }
}

void CsvRowSerializer::serialize(const vector::Chunk& chunk, int64_t row, std::string& out) {
  const int columnCount = chunk.columnCount();
  for (int column = 0; column < columnCount; ++column) {
    if (column > 0) out.push_back(options_.fieldDelimiter);
    const vector::Vector& values = chunk.column(column);
    if (values.isNull(row)) {
      if (options_.nullLiteral) out += *options_.nullLiteral;
      continue;
    }
    text_.clear();
    if (values.layout() == vector::PhysicalLayout::kBoxed) {
      appendNested(column, values.boxedAt(row), text_);
    } else {
      appendValueText(values, row, textOptions_, text_);
    }
    appendField(text_, isText_[column], out);
  }
}

}  // namespace eddy::formats

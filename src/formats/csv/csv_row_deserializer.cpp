#include "formats/csv/csv_row_deserializer.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "formats/text_value_codec.h"

namespace eddy::formats {

namespace {

// A value as messages show it: quoted, cut after 100 characters.
std::string quotedForMessage(std::string_view text) {
  constexpr size_t kMaxShown = 100;
  if (text.size() <= kMaxShown) return fmt::format("'{}'", text);
  return fmt::format("'{}...'", text.substr(0, kMaxShown));
}

// The character an escape sequence stands for (Jackson's CsvDecoder._unescape).
char unescaped(char c) {
  switch (c) {
    case '0':
      return '\0';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 't':
      return '\t';
    default:
      return c;
  }
}

std::string_view withoutLineTerminator(std::string_view record) {
  if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
  if (!record.empty() && record.back() == '\r') record.remove_suffix(1);
  return record;
}

}  // namespace

CsvRowDeserializer::CsvRowDeserializer(LogicalTypePtr rowType, CsvFormatOptions options)
    : rowType_(std::move(rowType)), options_(std::move(options)) {
  for (const RowField& column : rowType_->getFields()) {
    std::vector<vector::Vector> scratch;
    if (column.type->getTypeRoot() == LogicalTypeRoot::ARRAY) {
      scratch.emplace_back(column.type->getElementType());
    } else if (column.type->getTypeRoot() == LogicalTypeRoot::ROW) {
      for (const RowField& field : column.type->getFields()) scratch.emplace_back(field.type);
    }
    elementScratch_.push_back(std::move(scratch));
  }
}

CsvRowDeserializer::CsvRowDeserializer(LogicalTypePtr rowType, CsvFormatOptions options,
                                       std::vector<int> projection)
    : CsvRowDeserializer(std::move(rowType), std::move(options)) {
  projection_ = std::move(projection);
}

size_t CsvRowDeserializer::recordLength(std::string_view bytes, bool endOfInput) const {
  const size_t size = bytes.size();
  if (options_.allowComments && !bytes.empty() && bytes[0] == '#') {
    size_t end = bytes.find('\n');
    if (end != std::string_view::npos) return end + 1;
    return endOfInput ? size : 0;
  }
  const char delimiter = options_.fieldDelimiter;
  const bool quoting = options_.quoteCharacter.has_value();
  const char quote = options_.quoteCharacter.value_or('\0');
  const bool escaping = options_.escapeCharacter.has_value();
  const char escape = options_.escapeCharacter.value_or('\0');
  bool atFieldStart = true;
  bool inQuotes = false;
  for (size_t i = 0; i < size; ++i) {
    char c = bytes[i];
    if (escaping && c == escape) {
      if (i + 1 == size) return endOfInput ? size : 0;
      ++i;  // the escaped character, whatever it is
      atFieldStart = false;
      continue;
    }
    if (inQuotes) {
      if (c == quote) {
        if (i + 1 == size && !endOfInput) return 0;  // a doubled quote or the closing one?
        if (i + 1 < size && bytes[i + 1] == quote) {
          ++i;
        } else {
          inQuotes = false;
        }
      }
      continue;
    }
    if (c == '\n') return i + 1;
    if (c == delimiter) {
      atFieldStart = true;
      continue;
    }
    if (quoting && c == quote && atFieldStart) inQuotes = true;
    atFieldStart = false;
  }
  return endOfInput ? size : 0;
}

std::string CsvRowDeserializer::describeColumn(int column) const {
  if (column < rowType_->getFieldCount()) {
    return fmt::format("column '{}' (position {})", rowType_->getFields()[column].name, column);
  }
  return fmt::format("the field at position {}", column);
}

std::string CsvRowDeserializer::splitFields(std::string_view record) {
  fields_.clear();
  fieldText_.clear();
  const size_t size = record.size();
  const char delimiter = options_.fieldDelimiter;
  const bool escaping = options_.escapeCharacter.has_value();
  const char escape = options_.escapeCharacter.value_or('\0');
  size_t i = 0;
  while (true) {
    Field field{fieldText_.size(), 0, false};
    if (options_.quoteCharacter && i < size && record[i] == *options_.quoteCharacter) {
      const char quote = *options_.quoteCharacter;
      field.quoted = true;
      ++i;
      bool closed = false;
      while (i < size) {
        char c = record[i];
        if (escaping && c == escape && i + 1 < size) {
          fieldText_.push_back(unescaped(record[i + 1]));
          i += 2;
        } else if (c == quote) {
          if (i + 1 < size && record[i + 1] == quote) {
            fieldText_.push_back(quote);
            i += 2;
          } else {
            closed = true;
            ++i;
            break;
          }
        } else {
          fieldText_.push_back(c);
          ++i;
        }
      }
      int position = static_cast<int>(fields_.size());
      if (!closed) return describeColumn(position) + " has an unterminated quoted value";
      field.end = fieldText_.size();
      fields_.push_back(field);
      if (i == size) return "";
      if (record[i] != delimiter) {
        return fmt::format("{} has text after its closing quote: {}", describeColumn(position),
                           quotedForMessage(record.substr(i)));
      }
      ++i;
      continue;
    }
    if (!escaping) {
      size_t end = record.find(delimiter, i);
      if (end == std::string_view::npos) end = size;
      fieldText_.append(record.data() + i, end - i);
      i = end;
    } else {
      while (i < size && record[i] != delimiter) {
        if (record[i] == escape && i + 1 < size) {
          fieldText_.push_back(unescaped(record[i + 1]));
          i += 2;
        } else {
          fieldText_.push_back(record[i]);
          ++i;
        }
      }
    }
    field.end = fieldText_.size();
    fields_.push_back(field);
    if (i >= size) return "";
    ++i;  // the delimiter; a delimiter at the end gives a last, empty field
  }
}

CsvRowDeserializer::ValueError CsvRowDeserializer::appendNested(int column, std::string_view text) {
  const LogicalType& type = *rowType_->getFields()[column].type;
  const bool isArray = type.getTypeRoot() == LogicalTypeRoot::ARRAY;
  std::vector<vector::Vector>& scratch = elementScratch_[column];
  auto malformed = [&] {
    return ValueError{fmt::format("{} expects {} but got {}", describeColumn(column),
                                  type.asSummaryString(), quotedForMessage(text))};
  };
  std::vector<Value> elements;
  size_t start = 0;
  bool empty = text.empty();
  int index = 0;
  while (!empty) {
    size_t end = text.find(options_.arrayElementDelimiter, start);
    std::string_view element =
        text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (!isArray && index >= static_cast<int>(scratch.size())) return malformed();  // too many
    vector::Vector& elementVector = scratch[isArray ? 0 : index];
    const LogicalType& elementType = *elementVector.type();
    bool isNull = (options_.nullLiteral && element == *options_.nullLiteral) ||
                  (element.empty() && !(options_.nullLiteral && elementType.isCharacterString()));
    if (isNull) {
      if (!elementType.isNullable()) return malformed();
      elements.emplace_back();
    } else {
      elementVector.resize(0);
      if (appendParsedText(elementVector, element) != TextParseResult::kOk) return malformed();
      elements.push_back(elementVector.valueAt(0));
    }
    ++index;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  vector::Vector& values = *currentColumns_[column];
  if (isArray) {
    values.appendBoxed(Value(ValueArray(std::move(elements))));
    return {};
  }
  if (static_cast<int>(elements.size()) != type.getFieldCount()) return malformed();
  Row row(static_cast<int>(elements.size()));
  for (size_t i = 0; i < elements.size(); ++i) {
    row.setField(static_cast<int>(i), std::move(elements[i]));
  }
  values.appendBoxed(Value(std::move(row)));
  return {};
}

CsvRowDeserializer::ValueError CsvRowDeserializer::appendField(int column, const Field& field) {
  const LogicalType& type = *rowType_->getFields()[column].type;
  vector::Vector& values = *currentColumns_[column];
  std::string_view text(fieldText_.data() + field.begin, field.end - field.begin);
  bool isNull = false;
  if (!field.quoted && options_.nullLiteral && text == *options_.nullLiteral) {
    isNull = true;
  } else if (text.empty()) {
    bool keepsEmpty = field.quoted ? (type.isCharacterString() || type.isBinaryString() ||
                                      type.getTypeRoot() == LogicalTypeRoot::ARRAY)
                                   : (options_.nullLiteral && type.isCharacterString());
    isNull = !keepsEmpty;
  }
  if (isNull) {
    if (!type.isNullable()) {
      return ValueError{
          fmt::format("{} expects {} but got null", describeColumn(column), type.asSummaryString()),
          true};
    }
    values.appendNull();
    return {};
  }
  if (type.getTypeRoot() == LogicalTypeRoot::ARRAY || type.getTypeRoot() == LogicalTypeRoot::ROW) {
    return appendNested(column, text);
  }
  switch (appendParsedText(values, text)) {
    case TextParseResult::kOk:
      return {};
    case TextParseResult::kMalformed:
      return ValueError{fmt::format("{} expects {} but got {}", describeColumn(column),
                                    type.asSummaryString(), quotedForMessage(text))};
    case TextParseResult::kOutOfRange:
      return ValueError{fmt::format("{} expects {} but got {} (out of range)",
                                    describeColumn(column), type.asSummaryString(),
                                    quotedForMessage(text))};
  }
  return {};
}

void CsvRowDeserializer::fail(const RecordLocation& location, const std::string& what) const {
  throw ConnectorException(fmt::format("Failed to deserialize CSV row {} of {}: {}", location.row,
                                       location.source, what));
}

bool CsvRowDeserializer::deserialize(std::string_view record, const RecordLocation& location,
                                     vector::Chunk& rows) {
  record = withoutLineTerminator(record);
  // A blank line gives no row, except in a table of one column, where it is the row whose value
  // is an empty unquoted field (how the serializer writes a null there).
  if (record.empty() && rowType_->getFieldCount() != 1) return false;
  if (options_.allowComments && record.front() == '#') return false;
  std::string quotingError = splitFields(record);
  if (!quotingError.empty()) {
    if (!options_.ignoreParseErrors) fail(location, quotingError);
    ++malformedRecords_;
    ++skippedRecords_;
    return false;
  }
  const int columnCount = rowType_->getFieldCount();
  if (static_cast<int>(fields_.size()) == columnCount + 1 && !fields_.back().quoted &&
      fields_.back().begin == fields_.back().end) {
    fields_.pop_back();  // a trailing delimiter
  }
  bool malformed = false;
  if (static_cast<int>(fields_.size()) != columnCount) {
    if (!options_.ignoreParseErrors) {
      fail(location, fmt::format("expected {} fields but found {}", columnCount, fields_.size()));
    }
    malformed = true;
  }
  currentColumns_.resize(columnCount);
  const int64_t size = rows.size();
  const int outputCount = projection_ ? static_cast<int>(projection_->size()) : columnCount;
  for (int output = 0; output < outputCount; ++output) {
    const int column = projection_ ? (*projection_)[static_cast<size_t>(output)] : output;
    currentColumns_[column] = &rows.mutableColumn(output);
    const LogicalType& type = *rowType_->getFields()[column].type;
    ValueError error;
    if (column < static_cast<int>(fields_.size())) {
      error = appendField(column, fields_[column]);
    } else if (type.isNullable()) {
      currentColumns_[column]->appendNull();  // a missing field (ignore-parse-errors)
    } else {
      error = ValueError{fmt::format("{} expects {} but the record has no field for it",
                                     describeColumn(column), type.asSummaryString()),
                         true};
    }
    if (error.what.empty()) continue;
    if (options_.ignoreParseErrors && !error.nullInNotNull && type.isNullable()) {
      currentColumns_[column]->appendNull();
      malformed = true;
      continue;
    }
    for (int previous = 0; previous < output; ++previous) {
      rows.mutableColumn(previous).resize(size);
    }
    if (!options_.ignoreParseErrors) fail(location, error.what);
    ++malformedRecords_;
    ++skippedRecords_;
    return false;
  }
  rows.mutableRowKinds().push_back(RowKind::INSERT);
  if (malformed) ++malformedRecords_;
  return true;
}

}  // namespace eddy::formats

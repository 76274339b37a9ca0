#include "formats/json/json_row_serializer.h"

#include <cmath>

#include "common/json_string.h"
#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "eddy/types/record_format.h"

namespace eddy::formats {

JsonRowSerializer::JsonRowSerializer(LogicalTypePtr rowType, JsonFormatOptions options)
    : rowType_(std::move(rowType)), options_(std::move(options)) {
  textOptions_.timestampSeparator = options_.isoTimestamps ? 'T' : ' ';
  textOptions_.decimalNotation.plain = options_.encodeDecimalAsPlainNumber;
  textOptions_.decimalNotation.stripTrailingZeros = false;
  for (const RowField& column : rowType_->getFields()) {
    std::string prefix;
    common::appendJsonString(column.name, prefix);
    prefix.push_back(':');
    memberPrefixes_.push_back(std::move(prefix));
  }
}

vector::Vector& JsonRowSerializer::scratchFor(const LogicalTypePtr& type) {
  auto found = scratch_.find(type.get());
  if (found == scratch_.end()) found = scratch_.emplace(type.get(), vector::Vector(type)).first;
  return found->second;
}

void JsonRowSerializer::appendScalar(const vector::Vector& column, int64_t index,
                                     std::string& out) {
  const LogicalTypeRoot root = column.type()->getTypeRoot();
  bool bare = root == LogicalTypeRoot::BOOLEAN || hasNumberText(root);
  // Jackson writes non-finite numbers as strings (WRITE_NAN_AS_STRINGS).
  if (root == LogicalTypeRoot::FLOAT) bare = std::isfinite(column.data<float>()[index]);
  if (root == LogicalTypeRoot::DOUBLE) bare = std::isfinite(column.data<double>()[index]);
  if (bare) {
    appendValueText(column, index, textOptions_, out);
    return;
  }
  text_.clear();
  appendValueText(column, index, textOptions_, text_);
  common::appendJsonString(text_, out);
}

void JsonRowSerializer::appendValue(const Value& value, const LogicalTypePtr& type,
                                    std::string& out) {
  if (value.isNull()) {
    out += "null";
    return;
  }
  switch (type->getTypeRoot()) {
    case LogicalTypeRoot::ARRAY: {
      out.push_back('[');
      bool first = true;
      for (const Value& element : value.get<ValueArray>()) {
        if (!first) out.push_back(',');
        first = false;
        appendValue(element, type->getElementType(), out);
      }
      out.push_back(']');
      return;
    }
    case LogicalTypeRoot::MAP:
    case LogicalTypeRoot::MULTISET: {
      bool isMap = type->getTypeRoot() == LogicalTypeRoot::MAP;
      const LogicalTypePtr& keyType = isMap ? type->getKeyType() : type->getElementType();
      out.push_back('{');
      bool first = true;
      for (const auto& [key, entry] : value.get<ValueMap>()) {
        std::string keyText;
        if (key.isNull()) {
          if (options_.mapNullKeyMode == MapNullKeyMode::kDrop) continue;
          if (options_.mapNullKeyMode == MapNullKeyMode::kFail) {
            throw ConnectorException(
                "JSON format doesn't support to serialize map data with null keys. You can drop "
                "null key entries or encode null in literals by specifying map-null-key.mode "
                "option.");
          }
          keyText = options_.mapNullKeyLiteral;
        } else {
          vector::Vector& scratch = scratchFor(keyType);
          scratch.resize(0);
          scratch.appendValue(key);
          keyText = scratch.stringAt(0);
        }
        if (!first) out.push_back(',');
        first = false;
        common::appendJsonString(keyText, out);
        out.push_back(':');
        if (isMap) {
          appendValue(entry, type->getValueType(), out);
        } else {
          out += entry.toString();  // the count
        }
      }
      out.push_back('}');
      return;
    }
    case LogicalTypeRoot::ROW: {
      const Row& row = value.getRow();
      const auto& fields = type->getFields();
      out.push_back('{');
      bool first = true;
      for (int i = 0; i < static_cast<int>(fields.size()); ++i) {
        const Value& field = i < row.getArity() ? row.getField(i) : Value();
        if (field.isNull() && options_.encodeIgnoreNullFields) continue;
        if (!first) out.push_back(',');
        first = false;
        common::appendJsonString(fields[i].name, out);
        out.push_back(':');
        appendValue(field, fields[i].type, out);
      }
      out.push_back('}');
      return;
    }
    default: {
      vector::Vector& scratch = scratchFor(type);
      scratch.resize(0);
      scratch.appendValue(value);
      appendScalar(scratch, 0, out);
      return;
    }
  }
}

void JsonRowSerializer::serialize(const vector::Chunk& chunk, int64_t row, std::string& out) {
  out.push_back('{');
  bool first = true;
  const auto& fields = rowType_->getFields();
  for (int column = 0; column < chunk.columnCount(); ++column) {
    const vector::Vector& values = chunk.column(column);
    bool isNull = values.isNull(row);
    if (isNull && options_.encodeIgnoreNullFields) continue;
    if (!first) out.push_back(',');
    first = false;
    out += memberPrefixes_[column];
    if (isNull) {
      out += "null";
    } else if (values.layout() == vector::PhysicalLayout::kBoxed) {
      appendValue(values.boxedAt(row), fields[column].type, out);
    } else {
      appendScalar(values, row, out);
    }
  }
  out.push_back('}');
}

}  // namespace eddy::formats

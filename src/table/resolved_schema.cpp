#include "eddy/table/resolved_schema.h"

namespace eddy {

ResolvedSchema ResolvedSchema::fromRowType(const LogicalTypePtr& rowType) {
  std::vector<Column> columns;
  for (const RowField& field : rowType->getFields()) {
    columns.push_back(Column{field.name, DataType(field.type), std::nullopt});
  }
  return ResolvedSchema(std::move(columns));
}

std::vector<std::string> ResolvedSchema::getColumnNames() const {
  std::vector<std::string> names;
  for (const Column& column : columns_) names.push_back(column.name);
  return names;
}

std::vector<DataType> ResolvedSchema::getColumnDataTypes() const {
  std::vector<DataType> types;
  for (const Column& column : columns_) types.push_back(column.dataType);
  return types;
}

LogicalTypePtr ResolvedSchema::toRowType() const {
  std::vector<RowField> fields;
  for (const Column& column : columns_) {
    fields.push_back(RowField{column.name, column.dataType.getLogicalType(), std::nullopt});
  }
  return LogicalType::row(std::move(fields), false);
}

std::string ResolvedSchema::toString() const {
  if (columns_.empty()) return "()";
  std::string text = "(\n";
  for (size_t i = 0; i < columns_.size(); ++i) {
    const Column& column = columns_[i];
    std::string name = "`";
    for (char c : column.name) {
      name += c;
      if (c == '`') name += '`';
    }
    name += "`";
    text += "  " + name + " " + column.dataType.toString();
    if (column.extra) text += " " + *column.extra;
    text += i + 1 < columns_.size() ? ",\n" : "\n";
  }
  return text + ")";
}

}  // namespace eddy

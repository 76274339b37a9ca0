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

namespace {
std::string quoted(const std::string& name) { return escapeIdentifier(name); }
}  // namespace

std::string ResolvedSchema::toString() const {
  if (columns_.empty()) return "()";
  std::vector<std::string> lines;
  for (const Column& column : columns_) {
    std::string line = quoted(column.name) + " " + column.dataType.toString();
    if (column.extra) line += " " + *column.extra;
    lines.push_back(std::move(line));
  }
  for (const WatermarkSpec& watermark : watermarkSpecs_) {
    std::string type;
    for (const Column& column : columns_) {
      if (column.name == watermark.columnName) {
        type = column.dataType.getLogicalType()
                   ->copyWithTimestampKind(TimestampKind::REGULAR)
                   ->asSummaryString();
      }
    }
    lines.push_back("WATERMARK FOR " + quoted(watermark.columnName) + ": " + type + " AS " +
                    watermark.expression);
  }
  std::string text = "(\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    text += "  " + lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  }
  return text + ")";
}

}  // namespace eddy

// ResolvedSchema: the schema of a table after resolution — every column with its final data
// type — as Flink's ResolvedSchema. Its printed form is what Table::printSchema() shows:
//
//   (
//     `name` STRING,
//     `score` INT
//   )
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "eddy/types/data_types.h"

namespace eddy {

class ResolvedSchema {
 public:
  struct Column {
    std::string name;
    DataType dataType;
    /// Computed columns: the expression as SQL; metadata columns: the METADATA clause.
    std::optional<std::string> extra;
  };

  /// `WATERMARK FOR column: TYPE AS expression`, as declared.
  struct WatermarkSpec {
    std::string columnName;
    std::string expression;  // SQL
  };

  ResolvedSchema() = default;
  explicit ResolvedSchema(std::vector<Column> columns,
                          std::vector<WatermarkSpec> watermarkSpecs = {})
      : columns_(std::move(columns)), watermarkSpecs_(std::move(watermarkSpecs)) {}
  /// Physical columns of a ROW type.
  static ResolvedSchema fromRowType(const LogicalTypePtr& rowType);

  const std::vector<Column>& getColumns() const { return columns_; }
  const std::vector<WatermarkSpec>& getWatermarkSpecs() const { return watermarkSpecs_; }
  int getColumnCount() const { return static_cast<int>(columns_.size()); }
  std::vector<std::string> getColumnNames() const;
  std::vector<DataType> getColumnDataTypes() const;
  /// ROW<...> of the columns.
  LogicalTypePtr toRowType() const;
  /// The printed form (see the file comment); watermarks follow the columns as
  /// `WATERMARK FOR `rowtime`: TIMESTAMP_LTZ(3) AS rowtime - INTERVAL '10' SECOND`.
  std::string toString() const;

 private:
  std::vector<Column> columns_;
  std::vector<WatermarkSpec> watermarkSpecs_;
};

}  // namespace eddy

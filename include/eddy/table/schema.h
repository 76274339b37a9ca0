// Schema: the declared, not yet resolved, schema of a table or of a DataStream converted into
// a table, as Flink's org.apache.flink.table.api.Schema. Columns are physical (name and type),
// computed (name and a SQL expression) or metadata (name, type, optional metadata key,
// virtual or not); a schema may declare watermarks (rowtime column and SQL expression) and
// a primary key. Expressions stay SQL text here; the binder resolves them against the
// catalog into a ResolvedSchema. A Schema is an immutable value.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "eddy/types/data_types.h"

namespace eddy {

class Schema {
 public:
  /// A column's type, given as a DataType or as a type string ("DECIMAL(12, 2)").
  using ColumnType = std::variant<DataType, std::string>;

  struct PhysicalColumn {
    std::string name;
    ColumnType type;
    std::optional<std::string> comment;
  };
  struct ComputedColumn {
    std::string name;
    std::string expression;  // SQL
    std::optional<std::string> comment;
  };
  struct MetadataColumn {
    std::string name;
    ColumnType type;
    std::optional<std::string> metadataKey;  // unset: the column name
    bool isVirtual = false;
    std::optional<std::string> comment;
  };
  using Column = std::variant<PhysicalColumn, ComputedColumn, MetadataColumn>;

  struct WatermarkSpec {
    std::string columnName;
    std::string expression;  // SQL, e.g. "ts - INTERVAL '5' SECOND" or "SOURCE_WATERMARK()"
  };
  struct PrimaryKey {
    std::string constraintName;
    std::vector<std::string> columnNames;
  };

  class Builder {
   public:
    /// Adds the columns, watermarks and key of `schema`.
    Builder& fromSchema(const Schema& schema);
    Builder& column(std::string name, DataType type);
    Builder& column(std::string name, std::string typeString);
    Builder& columnByExpression(std::string name, std::string sqlExpression);
    Builder& columnByMetadata(std::string name, DataType type);
    Builder& columnByMetadata(std::string name, DataType type, bool isVirtual);
    Builder& columnByMetadata(std::string name, DataType type, std::string metadataKey,
                              bool isVirtual = false);
    Builder& columnByMetadata(std::string name, std::string typeString,
                              std::optional<std::string> metadataKey = std::nullopt,
                              bool isVirtual = false);
    /// A comment on the column added last.
    Builder& withComment(std::string comment);
    Builder& watermark(std::string columnName, std::string sqlExpression);
    /// A primary key named "PK_<columns joined by _>" as Flink names it.
    Builder& primaryKey(std::vector<std::string> columnNames);
    Builder& primaryKeyNamed(std::string constraintName, std::vector<std::string> columnNames);
    /// Validates names (unique, non-empty; key and watermark columns declared) and builds.
    /// Throws ValidationException naming the offending column.
    Schema build() const;

   private:
    std::vector<Column> columns_;
    std::vector<WatermarkSpec> watermarks_;
    std::optional<PrimaryKey> primaryKey_;
  };

  static Builder newBuilder() { return Builder(); }
  /// The schema without columns.
  static Schema derived() { return Schema(); }

  const std::vector<Column>& getColumns() const { return columns_; }
  const std::vector<WatermarkSpec>& getWatermarkSpecs() const { return watermarks_; }
  const std::optional<PrimaryKey>& getPrimaryKey() const { return primaryKey_; }
  static const std::string& columnName(const Column& column);

  /// Flink's unresolved-schema text: one line per column, watermark and key.
  std::string toString() const;

 private:
  std::vector<Column> columns_;
  std::vector<WatermarkSpec> watermarks_;
  std::optional<PrimaryKey> primaryKey_;
};

}  // namespace eddy

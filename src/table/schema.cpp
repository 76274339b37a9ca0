#include "eddy/table/schema.h"

#include <algorithm>
#include <set>

#include "eddy/exceptions.h"

namespace eddy {

namespace {

std::string quoted(const std::string& name) { return escapeIdentifier(name); }

std::string typeText(const Schema::ColumnType& type) {
  if (const auto* dataType = std::get_if<DataType>(&type)) return dataType->toString();
  return "[" + std::get<std::string>(type) + "]";
}

std::string join(const std::vector<std::string>& names, const std::string& separator,
                 bool quote) {
  std::string result;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) result += separator;
    result += quote ? quoted(names[i]) : names[i];
  }
  return result;
}

}  // namespace

const std::string& Schema::columnName(const Column& column) {
  return std::visit([](const auto& c) -> const std::string& { return c.name; }, column);
}

Schema::Builder& Schema::Builder::fromSchema(const Schema& schema) {
  columns_.insert(columns_.end(), schema.columns_.begin(), schema.columns_.end());
  watermarks_.insert(watermarks_.end(), schema.watermarks_.begin(), schema.watermarks_.end());
  if (schema.primaryKey_) primaryKey_ = schema.primaryKey_;
  return *this;
}

Schema::Builder& Schema::Builder::column(std::string name, DataType type) {
  columns_.push_back(PhysicalColumn{std::move(name), std::move(type), std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::column(std::string name, std::string typeString) {
  columns_.push_back(PhysicalColumn{std::move(name), std::move(typeString), std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::columnByExpression(std::string name, std::string sqlExpression) {
  columns_.push_back(ComputedColumn{std::move(name), std::move(sqlExpression), std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::columnByMetadata(std::string name, DataType type) {
  return columnByMetadata(std::move(name), std::move(type), false);
}

Schema::Builder& Schema::Builder::columnByMetadata(std::string name, DataType type,
                                                   bool isVirtual) {
  columns_.push_back(
      MetadataColumn{std::move(name), std::move(type), std::nullopt, isVirtual, std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::columnByMetadata(std::string name, DataType type,
                                                   std::string metadataKey, bool isVirtual) {
  columns_.push_back(MetadataColumn{std::move(name), std::move(type), std::move(metadataKey),
                                    isVirtual, std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::columnByMetadata(std::string name, std::string typeString,
                                                   std::optional<std::string> metadataKey,
                                                   bool isVirtual) {
  columns_.push_back(MetadataColumn{std::move(name), std::move(typeString),
                                    std::move(metadataKey), isVirtual, std::nullopt});
  return *this;
}

Schema::Builder& Schema::Builder::withComment(std::string comment) {
  if (columns_.empty()) {
    throw ValidationException("Method 'withComment(...)' must be called after a column definition, "
                              "but there is no preceding column defined.");
  }
  std::visit([&comment](auto& column) { column.comment = std::move(comment); }, columns_.back());
  return *this;
}

Schema::Builder& Schema::Builder::watermark(std::string columnName, std::string sqlExpression) {
  watermarks_.push_back(WatermarkSpec{std::move(columnName), std::move(sqlExpression)});
  return *this;
}

Schema::Builder& Schema::Builder::primaryKey(std::vector<std::string> columnNames) {
  std::string name = "PK_" + join(columnNames, "_", false);
  return primaryKeyNamed(std::move(name), std::move(columnNames));
}

Schema::Builder& Schema::Builder::primaryKeyNamed(std::string constraintName,
                                                  std::vector<std::string> columnNames) {
  if (primaryKey_) {
    throw ValidationException("Multiple primary keys are not supported.");
  }
  if (columnNames.empty()) {
    throw ValidationException("Primary key constraint must be defined for at least a single column.");
  }
  primaryKey_ = PrimaryKey{std::move(constraintName), std::move(columnNames)};
  return *this;
}

Schema Schema::Builder::build() const {
  std::set<std::string> names;
  for (const Column& column : columns_) {
    const std::string& name = columnName(column);
    if (name.empty()) throw ValidationException("A column name must not be empty.");
    if (!names.insert(name).second) {
      throw ValidationException("Schema must not contain duplicate column names. Found duplicates: [" +
                                name + "]");
    }
  }
  // A schema without physical columns completes the columns derived from a DataStream's type
  // (StreamTableEnvironment::fromDataStream): its watermark and key may name derived columns,
  // which are checked when the schema is resolved.
  const bool complete = std::any_of(columns_.begin(), columns_.end(), [](const Column& column) {
    return std::holds_alternative<PhysicalColumn>(column);
  });
  std::set<std::string> watermarkColumns;
  for (const WatermarkSpec& watermark : watermarks_) {
    if (complete && !names.count(watermark.columnName)) {
      throw ValidationException("Invalid column name '" + watermark.columnName +
                                "' for rowtime attribute in watermark declaration. Available "
                                "columns are: [" + join(std::vector<std::string>(names.begin(), names.end()), ", ", false) + "]");
    }
    if (!watermarkColumns.insert(watermark.columnName).second) {
      throw ValidationException("Multiple watermark definitions are not supported yet.");
    }
  }
  if (primaryKey_) {
    std::set<std::string> keyColumns;
    for (const std::string& name : primaryKey_->columnNames) {
      if (complete && !names.count(name)) {
        throw ValidationException("Invalid primary key '" + primaryKey_->constraintName +
                                  "'. Column '" + name + "' does not exist.");
      }
      if (!keyColumns.insert(name).second) {
        throw ValidationException("Invalid primary key '" + primaryKey_->constraintName +
                                  "'. A primary key must not contain duplicate columns. Found: [" +
                                  name + "]");
      }
    }
  }
  Schema schema;
  schema.columns_ = columns_;
  schema.watermarks_ = watermarks_;
  schema.primaryKey_ = primaryKey_;
  return schema;
}

std::string Schema::toString() const {
  std::vector<std::string> lines;
  for (const Column& column : columns_) {
    std::string line = std::visit(
        [](const auto& c) -> std::string {
          using C = std::decay_t<decltype(c)>;
          std::string text = quoted(c.name);
          if constexpr (std::is_same_v<C, PhysicalColumn>) {
            text += " " + typeText(c.type);
          } else if constexpr (std::is_same_v<C, ComputedColumn>) {
            text += " AS [" + c.expression + "]";
          } else {
            text += " " + typeText(c.type) + " METADATA";
            if (c.metadataKey) text += " FROM '" + *c.metadataKey + "'";
            if (c.isVirtual) text += " VIRTUAL";
          }
          if (c.comment) text += " COMMENT '" + *c.comment + "'";
          return text;
        },
        column);
    lines.push_back(std::move(line));
  }
  for (const WatermarkSpec& watermark : watermarks_) {
    lines.push_back("WATERMARK FOR " + quoted(watermark.columnName) + " AS [" +
                    watermark.expression + "]");
  }
  if (primaryKey_) {
    lines.push_back("CONSTRAINT " + quoted(primaryKey_->constraintName) + " PRIMARY KEY (" +
                    join(primaryKey_->columnNames, ", ", true) + ") NOT ENFORCED");
  }
  if (lines.empty()) return "()";
  std::string text = "(\n";
  for (size_t i = 0; i < lines.size(); ++i) {
    text += "  " + lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  }
  return text + ")";
}

}  // namespace eddy

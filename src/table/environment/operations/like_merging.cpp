// CREATE TABLE .. LIKE: the new table's definitions merged with the base table's, feature by
// feature (columns, generated and metadata columns, watermarks, constraints, partitions,
// options) under the LIKE clause's strategies (INCLUDING, EXCLUDING, OVERWRITING), as Flink's
// MergeTableLikeUtil does; see mergeLike in table_definition.h.
#include <algorithm>
#include <map>

#include "eddy/exceptions.h"
#include "sql/parser/unparse.h"
#include "table/environment/operations/table_definition.h"

namespace eddy::table::operations {

namespace {

using Strategy = sql::LikeStrategy;
using Feature = sql::LikeFeature;
/// The merging strategy of each feature but kAll.
using Strategies = std::map<Feature, Strategy>;

/// The LIKE clause's strategies over the defaults (INCLUDING ALL OVERWRITING OPTIONS); ALL sets
/// every feature (OVERWRITING ALL leaves constraints and partitions INCLUDING).
Strategies likeStrategies(const sql::CreateTableStatement& create) {
  Strategies strategy = {
      {Feature::kConstraints, Strategy::kIncluding}, {Feature::kGenerated, Strategy::kIncluding},
      {Feature::kMetadata, Strategy::kIncluding},    {Feature::kOptions, Strategy::kOverwriting},
      {Feature::kPartitions, Strategy::kIncluding},  {Feature::kWatermarks, Strategy::kIncluding}};
  auto featureName = [](Feature feature) -> std::string {
    switch (feature) {
      case Feature::kAll: return "ALL";
      case Feature::kConstraints: return "CONSTRAINTS";
      case Feature::kGenerated: return "GENERATED";
      case Feature::kMetadata: return "METADATA";
      case Feature::kOptions: return "OPTIONS";
      case Feature::kPartitions: return "PARTITIONS";
      case Feature::kWatermarks: return "WATERMARKS";
    }
    return "";
  };
  for (const sql::LikeOption& option : create.like->options) {
    if (option.strategy == Strategy::kOverwriting &&
        (option.feature == Feature::kConstraints || option.feature == Feature::kPartitions)) {
      throw ValidationException("Illegal merging strategy 'OVERWRITING' for '" +
                                featureName(option.feature) + "' option.");
    }
    if (option.feature == Feature::kAll) {
      for (auto& [feature, chosen] : strategy) {
        chosen = option.strategy == Strategy::kOverwriting &&
                         (feature == Feature::kConstraints || feature == Feature::kPartitions)
                     ? Strategy::kIncluding
                     : option.strategy;
      }
    } else {
      strategy[option.feature] = option.strategy;
    }
  }
  return strategy;
}

/// The base table's columns (generated and metadata ones as chosen), then the new ones; a new
/// generated or metadata column replaces the base table's only when OVERWRITING.
std::vector<Schema::Column> mergedColumns(const sql::CreateTableStatement& create,
                                          const catalog::CatalogBaseTable& base,
                                          const Strategies& strategy) {
  std::vector<Schema::Column> columns;
  for (const Schema::Column& column : base.schema.getColumns()) {
    if (std::holds_alternative<Schema::ComputedColumn>(column) &&
        strategy.at(Feature::kGenerated) == Strategy::kExcluding) {
      continue;
    }
    if (std::holds_alternative<Schema::MetadataColumn>(column) &&
        strategy.at(Feature::kMetadata) == Strategy::kExcluding) {
      continue;
    }
    columns.push_back(column);
  }
  Schema::Builder own = Schema::newBuilder();
  for (const sql::TableColumn& column : create.columns) addColumn(own, column);
  const Schema ownSchema = own.build();
  for (const Schema::Column& column : ownSchema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    auto existing = std::find_if(columns.begin(), columns.end(), [&](const Schema::Column& c) {
      return Schema::columnName(c) == name;
    });
    if (existing == columns.end()) {
      columns.push_back(column);
      continue;
    }
    const bool generated = std::holds_alternative<Schema::ComputedColumn>(column) &&
                           std::holds_alternative<Schema::ComputedColumn>(*existing);
    const bool metadata = std::holds_alternative<Schema::MetadataColumn>(column) &&
                          std::holds_alternative<Schema::MetadataColumn>(*existing);
    if (generated && strategy.at(Feature::kGenerated) == Strategy::kOverwriting) {
      *existing = column;
    } else if (metadata && strategy.at(Feature::kMetadata) == Strategy::kOverwriting) {
      *existing = column;
    } else if (generated) {
      throw ValidationException("A generated column named '" + name + "' already exists in the "
                                "base table. You might want to specify EXCLUDING GENERATED or "
                                "OVERWRITING GENERATED.");
    } else if (metadata) {
      throw ValidationException("A metadata column named '" + name + "' already exists in the "
                                "base table. You might want to specify EXCLUDING METADATA or "
                                "OVERWRITING METADATA.");
    } else {
      throw ValidationException("A column named '" + name + "' already exists in the base table.");
    }
  }
  return columns;
}

/// The base table's watermarks unless excluded; a new one for the same column replaces it
/// only when OVERWRITING.
std::vector<Schema::WatermarkSpec> mergedWatermarks(const sql::CreateTableStatement& create,
                                                    const catalog::CatalogBaseTable& base,
                                                    const Strategies& strategy) {
  std::vector<Schema::WatermarkSpec> watermarks;
  if (strategy.at(Feature::kWatermarks) != Strategy::kExcluding) {
    watermarks = base.schema.getWatermarkSpecs();
  }
  for (const sql::WatermarkDefinition& definition : create.watermarks) {
    Schema::WatermarkSpec spec{definition.column.back(), sql::unparse(*definition.expression)};
    auto existing = std::find_if(watermarks.begin(), watermarks.end(), [&](const auto& w) {
      return w.columnName == spec.columnName;
    });
    if (existing == watermarks.end()) {
      watermarks.push_back(std::move(spec));
    } else if (strategy.at(Feature::kWatermarks) == Strategy::kOverwriting) {
      *existing = std::move(spec);
    } else {
      throw ValidationException("There already exists a watermark spec for column '" +
                                spec.columnName + "' in the base table. You might want to specify "
                                "EXCLUDING WATERMARKS or OVERWRITING WATERMARKS.");
    }
  }
  return watermarks;
}

/// The primary key: the base table's or the new one, never both.
void addMergedPrimaryKey(Schema::Builder& builder, const sql::CreateTableStatement& create,
                         const catalog::CatalogBaseTable& base, const Strategies& strategy) {
  const auto& baseKey = base.schema.getPrimaryKey();
  const bool keepBaseKey = baseKey && strategy.at(Feature::kConstraints) == Strategy::kIncluding;
  if (create.primaryKey && keepBaseKey) {
    throw ValidationException("The base table already has a primary key. You might want to "
                              "specify EXCLUDING CONSTRAINTS.");
  }
  if (create.primaryKey) {
    if (create.primaryKey->name) {
      builder.primaryKeyNamed(*create.primaryKey->name, create.primaryKey->columns);
    } else {
      builder.primaryKey(create.primaryKey->columns);
    }
  } else if (keepBaseKey) {
    builder.primaryKeyNamed(baseKey->constraintName, baseKey->columnNames);
  }
}

/// The base table's options unless excluded; a key in both is an error unless OVERWRITING.
std::map<std::string, std::string> mergedOptions(const sql::CreateTableStatement& create,
                                                 const catalog::CatalogBaseTable& base,
                                                 const Strategies& strategy) {
  std::map<std::string, std::string> options;
  if (strategy.at(Feature::kOptions) != Strategy::kExcluding) options = base.options;
  for (const sql::TableOption& option : create.options) {
    auto existing = options.find(option.key);
    if (existing != options.end() && strategy.at(Feature::kOptions) == Strategy::kIncluding) {
      throw ValidationException("There already exists an option ['" + option.key + "' -> '" +
                                existing->second + "']  in the base table. You might want to "
                                "specify EXCLUDING OPTIONS or OVERWRITING OPTIONS.");
    }
    options[option.key] = option.value;
  }
  return options;
}

}  // namespace

catalog::CatalogBaseTable mergeLike(const sql::CreateTableStatement& create,
                                    const catalog::CatalogBaseTable& base,
                                    const std::string& baseName) {
  if (base.kind != catalog::CatalogBaseTable::Kind::TABLE) {
    throw ValidationException("Source table '" + baseName + "' of the LIKE clause can not be a VIEW");
  }
  const Strategies strategy = likeStrategies(create);
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : mergedColumns(create, base, strategy)) {
    addSchemaColumn(builder, column);
  }
  for (const auto& watermark : mergedWatermarks(create, base, strategy)) {
    builder.watermark(watermark.columnName, watermark.expression);
  }
  addMergedPrimaryKey(builder, create, base, strategy);
  catalog::CatalogBaseTable table;
  table.schema = builder.build();
  const bool keepBasePartitions =
      !base.partitionKeys.empty() && strategy.at(Feature::kPartitions) == Strategy::kIncluding;
  if (!create.partitionKeys.empty() && keepBasePartitions) {
    throw ValidationException("The base table has already defined partitions. You might want "
                              "to specify EXCLUDING PARTITIONS.");
  }
  table.partitionKeys = keepBasePartitions ? base.partitionKeys : create.partitionKeys;
  table.options = mergedOptions(create, base, strategy);
  table.comment = create.comment;
  return table;
}

}  // namespace eddy::table::operations

// ALTER TABLE: RENAME TO, SET and RESET options, and the schema changes (Flink's
// AlterSchemaConverter and its messages): ADD and MODIFY columns, watermarks and primary keys;
// DROP columns, the primary key or the watermark; RENAME a column (its watermark and the
// expressions that name it follow). A column a partition key, a computed column or a watermark
// reads may not be dropped or renamed. The changed schema resolves as a read of the table
// would before the catalog takes it. Temporary tables and views are not altered.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <set>

#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "sql/binder/binder.h"
#include "sql/planner/plan_table_scan.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/operations/table_definition.h"

namespace eddy::table::operations {

namespace {

/// Whether SQL text `text` names `column` (as a plain or backquoted identifier).
bool mentionsColumn(const std::string& text, const std::string& column) {
  auto identifierCharacter = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
  };
  for (size_t at = text.find(column); at != std::string::npos; at = text.find(column, at + 1)) {
    const bool startsWord = at == 0 || !identifierCharacter(text[at - 1]);
    const size_t end = at + column.size();
    const bool endsWord = end == text.size() || !identifierCharacter(text[end]);
    if (startsWord && endsWord) return true;
  }
  return false;
}

/// An ALTER TABLE change of a schema's columns and constraints.
struct SchemaChange {
  std::set<std::string> dropped{};  // columns
  std::string renamedFrom{};        // a column's old name (empty: none) ..
  std::string renamedTo{};          // .. and its new one
  bool dropWatermarks = false;
  bool dropPrimaryKey = false;

  std::string nameOf(const std::string& column) const {
    return column == renamedFrom ? renamedTo : column;
  }
};

/// `text` (SQL as the schema keeps it, identifiers backquoted) with `from` renamed to `to`.
std::string renameInSql(const std::string& text, const std::string& from, const std::string& to) {
  const std::string quoted = "`" + from + "`";
  std::string result;
  size_t at = 0;
  for (size_t next; (next = text.find(quoted, at)) != std::string::npos; at = next + quoted.size()) {
    result += text.substr(at, next - at) + "`" + to + "`";
  }
  return result + text.substr(at);
}

/// `schema` with `change` applied: dropped columns left out, the renamed column (and the
/// watermark of a renamed rowtime column) under its new name; a renamed metadata column keeps
/// its metadata key.
Schema changedSchema(const Schema& schema, const SchemaChange& change) {
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : schema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    if (change.dropped.count(name)) continue;
    Schema::Column renamed = column;
    std::visit(
        [&](auto& c) {
          c.name = change.nameOf(name);
          if constexpr (std::is_same_v<std::decay_t<decltype(c)>, Schema::MetadataColumn>) {
            if (!c.metadataKey && c.name != name) c.metadataKey = name;  // the key stays
          }
        },
        renamed);
    addSchemaColumn(builder, renamed);
  }
  if (!change.dropWatermarks) {
    for (const auto& watermark : schema.getWatermarkSpecs()) {
      builder.watermark(change.nameOf(watermark.columnName),
                        change.renamedFrom.empty()
                            ? watermark.expression
                            : renameInSql(watermark.expression, change.renamedFrom, change.renamedTo));
    }
  }
  if (!change.dropPrimaryKey && schema.getPrimaryKey()) {
    std::vector<std::string> columns;
    for (const std::string& column : schema.getPrimaryKey()->columnNames) {
      columns.push_back(change.nameOf(column));
    }
    builder.primaryKeyNamed(schema.getPrimaryKey()->constraintName, columns);
  }
  return builder.build();
}

/// ALTER TABLE ADD or MODIFY (Flink's AlterSchemaConverter): an added column goes to the end,
/// a modified one keeps its place, unless `FIRST` or `AFTER column` says otherwise; a watermark
/// or a primary key is added where the table has none and modified where it has one.
Schema alteredSchema(const Schema& schema, const sql::AlterTableStatement& alter) {
  const bool modify = alter.action == sql::AlterTableAction::kModify;
  std::vector<Schema::Column> columns = schema.getColumns();
  auto find = [&](const std::string& name) {
    return std::find_if(columns.begin(), columns.end(), [&](const Schema::Column& column) {
      return Schema::columnName(column) == name;
    });
  };
  std::set<std::string> listed;
  for (const sql::TableColumn& column : alter.columns) {
    if (!listed.insert(column.name).second) {
      throw ValidationException("Encounter duplicate column `" + column.name + "`.");
    }
  }
  for (const sql::TableColumn& column : alter.columns) {
    Schema::Builder single = Schema::newBuilder();
    addColumn(single, column);
    Schema::Column altered = single.build().getColumns().front();
    auto existing = find(column.name);
    size_t at = columns.size();
    if (modify) {
      if (existing == columns.end()) {
        throw ValidationException("Try to modify a column `" + column.name +
                                  "` which does not exist in the table.");
      }
      at = existing - columns.begin();
      columns.erase(existing);
    } else if (existing != columns.end()) {
      throw ValidationException("Try to add a column `" + column.name +
                                "` which already exists in the table.");
    }
    if (column.placement == sql::TableColumn::Placement::kFirst) {
      at = 0;
    } else if (column.placement == sql::TableColumn::Placement::kAfter) {
      auto after = find(column.afterColumn);
      if (after == columns.end()) {
        throw ValidationException("Referenced column `" + column.afterColumn +
                                  "` by 'AFTER' does not exist in the table.");
      }
      at = after - columns.begin() + 1;
    }
    columns.insert(columns.begin() + static_cast<long>(at), std::move(altered));
  }
  const auto& watermarks = schema.getWatermarkSpecs();
  if (!alter.watermarks.empty() && !modify && !watermarks.empty()) {
    throw ValidationException("The base table has already defined the watermark strategy `" +
                              watermarks.front().columnName + "` AS " +
                              watermarks.front().expression +
                              ". You might want to drop it before adding a new one.");
  }
  if (!alter.watermarks.empty() && modify && watermarks.empty()) {
    throw ValidationException("The base table does not define any watermark strategy. You might "
                              "want to add a new one.");
  }
  const auto& primaryKey = schema.getPrimaryKey();
  if (alter.primaryKey && !modify && primaryKey) {
    std::vector<std::string> quoted;
    for (const std::string& column : primaryKey->columnNames) quoted.push_back("`" + column + "`");
    throw ValidationException(fmt::format(
        "The base table has already defined the primary key constraint [{}]. You might want to "
        "drop it before adding a new one.",
        fmt::join(quoted, ", ")));
  }
  if (alter.primaryKey && modify && !primaryKey) {
    throw ValidationException("The base table does not define any primary key constraint. You "
                              "might want to add a new one.");
  }
  Schema::Builder builder = Schema::newBuilder();
  for (const Schema::Column& column : columns) addSchemaColumn(builder, column);
  if (alter.watermarks.empty()) {
    for (const auto& watermark : watermarks) builder.watermark(watermark.columnName, watermark.expression);
  }
  if (!alter.primaryKey && primaryKey) {
    builder.primaryKeyNamed(primaryKey->constraintName, primaryKey->columnNames);
  }
  addConstraints(builder, alter.watermarks, alter.primaryKey);
  return builder.build();
}

/// Throws when `column` of `table` may not be dropped or renamed: a partition key, read by a
/// computed column (other than those in `alsoDropped`) or by a watermark expression other than
/// its own (`renaming`: the rowtime column's own watermark follows it; dropping: it is read).
void checkColumnIsFree(const catalog::CatalogBaseTable& table, const std::string& column,
                       const std::set<std::string>& alsoDropped, bool renaming) {
  if (std::find(table.partitionKeys.begin(), table.partitionKeys.end(), column) !=
      table.partitionKeys.end()) {
    throw ValidationException("The column `" + column + "` is used as the partition keys.");
  }
  for (const Schema::Column& other : table.schema.getColumns()) {
    const auto* computed = std::get_if<Schema::ComputedColumn>(&other);
    if (computed && !alsoDropped.count(computed->name) &&
        mentionsColumn(computed->expression, column)) {
      throw ValidationException("The column `" + column + "` is referenced by the computed column `" +
                                computed->name + "` AS " + computed->expression + ".");
    }
  }
  for (const auto& watermark : table.schema.getWatermarkSpecs()) {
    const bool own = watermark.columnName == column;
    if ((own && !renaming) || (!own && mentionsColumn(watermark.expression, column))) {
      throw ValidationException("The column `" + column +
                                "` is referenced by the watermark expression `" +
                                watermark.columnName + "` AS " + watermark.expression + ".");
    }
  }
}

/// ALTER TABLE DROP (columns): the schema without them; a column of the primary key, or one
/// that a kept column or another table part reads, is not dropped.
Schema withoutColumns(const catalog::CatalogBaseTable& table,
                      const sql::AlterTableStatement& alter) {
  SchemaChange change;
  std::set<std::string> names;
  for (const Schema::Column& column : table.schema.getColumns()) {
    names.insert(Schema::columnName(column));
  }
  for (const std::string& column : alter.dropColumns) {
    if (!names.count(column)) {
      throw ValidationException("The column `" + column + "` does not exist in the base table.");
    }
    if (!change.dropped.insert(column).second) {
      throw ValidationException("Duplicate column `" + column + "` in the DROP list.");
    }
  }
  for (const std::string& column : alter.dropColumns) {
    if (const auto& key = table.schema.getPrimaryKey();
        key && std::find(key->columnNames.begin(), key->columnNames.end(), column) !=
                   key->columnNames.end()) {
      throw ValidationException("The column `" + column + "` is used as the primary key.");
    }
    checkColumnIsFree(table, column, change.dropped, /*renaming=*/false);
  }
  if (change.dropped.size() == names.size()) {
    throw ValidationException("A table needs at least one column; ALTER TABLE DROP would "
                              "drop all of them.");
  }
  return changedSchema(table.schema, change);
}

/// ALTER TABLE DROP PRIMARY KEY [name].
Schema withoutPrimaryKey(const catalog::CatalogBaseTable& table,
                         const sql::AlterTableStatement& alter) {
  const auto& key = table.schema.getPrimaryKey();
  if (!key) throw ValidationException("The base table does not define any primary key.");
  if (alter.constraintName && *alter.constraintName != key->constraintName) {
    throw ValidationException("The base table does not define a primary key constraint named `" +
                              *alter.constraintName + "`. Available constraint name: [`" +
                              key->constraintName + "`].");
  }
  return changedSchema(table.schema, SchemaChange{.dropPrimaryKey = true});
}

/// ALTER TABLE DROP WATERMARK.
Schema withoutWatermark(const catalog::CatalogBaseTable& table) {
  if (table.schema.getWatermarkSpecs().empty()) {
    throw ValidationException("The base table does not define any watermark strategy.");
  }
  return changedSchema(table.schema, SchemaChange{.dropWatermarks = true});
}

/// ALTER TABLE RENAME column TO name.
Schema withRenamedColumn(const catalog::CatalogBaseTable& table,
                         const sql::AlterTableStatement& alter) {
  bool found = false;
  for (const Schema::Column& column : table.schema.getColumns()) {
    const std::string& name = Schema::columnName(column);
    if (name == alter.newColumnName) {
      throw ValidationException("The column `" + alter.newColumnName +
                                "` already existed in table schema.");
    }
    found = found || name == alter.column;
  }
  if (!found) {
    throw ValidationException("The column `" + alter.column + "` does not exist in the base table.");
  }
  checkColumnIsFree(table, alter.column, {}, /*renaming=*/true);
  return changedSchema(
      table.schema, SchemaChange{.renamedFrom = alter.column, .renamedTo = alter.newColumnName});
}

}  // namespace

TableResult alterTable(OperationContext& context, const sql::AlterTableStatement& alter) {
  catalog::CatalogManager& catalogs = context.catalogs();
  catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(alter.tableName);
  std::optional<catalog::CatalogManager::ResolvedTable> resolved = catalogs.getTable(identifier);
  if (!resolved) {
    if (alter.ifExists) return TableResult::ok();
    throw ValidationException("Table `" + identifier.catalogName + "`.`" +
                              identifier.databaseName + "`.`" + identifier.objectName +
                              "` doesn't exist or is a temporary table.");
  }
  if (resolved->isTemporary) {
    throw ValidationException("ALTER TABLE of the temporary table '" +
                              identifier.asSummaryString() + "' is not supported");
  }
  if (resolved->table->kind != catalog::CatalogBaseTable::Kind::TABLE) {
    throw ValidationException("ALTER TABLE for a view is not allowed: '" +
                              identifier.asSummaryString() + "'");
  }
  catalog::CatalogBaseTable table = *resolved->table;
  switch (alter.action) {
    case sql::AlterTableAction::kRename:
      catalogs.renameTable(identifier, alter.newName.back(), false);
      return TableResult::ok();
    case sql::AlterTableAction::kSetOptions:
      for (const sql::TableOption& option : alter.options) table.options[option.key] = option.value;
      break;
    case sql::AlterTableAction::kResetOptions:
      for (const std::string& key : alter.resetKeys) {
        if (key == "connector") {
          throw ValidationException("ALTER TABLE RESET does not support changing 'connector'");
        }
        table.options.erase(key);
      }
      break;
    case sql::AlterTableAction::kAdd:
    case sql::AlterTableAction::kModify:
      table.schema = alteredSchema(table.schema, alter);
      break;
    case sql::AlterTableAction::kDropColumns:
      table.schema = withoutColumns(table, alter);
      break;
    case sql::AlterTableAction::kDropPrimaryKey:
      table.schema = withoutPrimaryKey(table, alter);
      break;
    case sql::AlterTableAction::kDropWatermark:
      table.schema = withoutWatermark(table);
      break;
    case sql::AlterTableAction::kRenameColumn:
      table.schema = withRenamedColumn(table, alter);
      break;
  }
  if (alter.action != sql::AlterTableAction::kSetOptions &&
      alter.action != sql::AlterTableAction::kResetOptions) {
    // The new schema resolves as a read of the table would (Flink resolves it here too):
    // computed columns and the watermark over the columns they read, metadata keys, types.
    sql::planTableScan(catalogs, table, identifier.asSummaryString(),
                       sql::MetadataKeys::kDeclared, context.bindingContext());
    checkKeysArePhysical(table);
  }
  catalogs.alterTable(std::move(table), identifier, false);
  return TableResult::ok();
}

}  // namespace eddy::table::operations

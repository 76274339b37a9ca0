// How the definitions of a CREATE TABLE or ALTER TABLE become a catalog table: the statement's
// columns, watermarks and primary key as Schema entries, the check that keys are physical
// columns (table_definition.cpp), a table LIKE another (like_merging.cpp) and the table of a
// CREATE TABLE AS SELECT with its query (create_table_as.cpp). Used by create_table.cpp,
// alter_table.cpp and explain.cpp.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "eddy/table/schema.h"
#include "sql/parser/ast.h"
#include "sql/planner/logical_node.h"

namespace eddy::table::operations {

/// Adds a column of CREATE TABLE or ALTER TABLE ADD to a schema.
void addColumn(Schema::Builder& builder, const sql::TableColumn& column);

/// The watermarks and the primary key of a CREATE TABLE or ALTER TABLE ADD.
void addConstraints(Schema::Builder& builder,
                    const std::vector<sql::WatermarkDefinition>& watermarks,
                    const std::optional<sql::PrimaryKeyConstraint>& primaryKey);
void addConstraints(Schema::Builder& builder, const sql::CreateTableStatement& create);

/// Adds `column` (of a built Schema) to `builder`, comment included.
void addSchemaColumn(Schema::Builder& builder, const Schema::Column& column);

/// Throws unless the primary key's and the partition keys' columns of `table` are physical
/// columns (Flink's schema resolution and SqlCreateTableConverter checks and messages).
void checkKeysArePhysical(const catalog::CatalogBaseTable& table);

/// CREATE TABLE .. LIKE base: the new table's columns, watermarks, key, partitions and options
/// merged with the base table's as Flink's MergeTableLikeUtil does (default strategies:
/// INCLUDING ALL OVERWRITING OPTIONS; the physical columns always come from the base table,
/// the new columns after them).
catalog::CatalogBaseTable mergeLike(const sql::CreateTableStatement& create,
                                    const catalog::CatalogBaseTable& base,
                                    const std::string& baseName);

/// CREATE TABLE .. AS SELECT (Flink's FLIP-463): the table's columns are the declared columns
/// the query does not produce, first and in declaration order, then the query's columns in the
/// query's order (time attributes as plain timestamps), a declared type replacing the query's
/// (the query's value is implicitly cast to it); watermarks, the primary key and the partition
/// keys refer to any of them. Returns the table and the query projected onto its physical
/// columns (NULL for declared columns the query does not produce). Everything is checked here,
/// before the table exists.
std::pair<catalog::CatalogBaseTable, sql::LogicalNodePtr> createTableAsSelect(
    const sql::CreateTableStatement& create, const std::string& tableName,
    const sql::LogicalNodePtr& query);

}  // namespace eddy::table::operations

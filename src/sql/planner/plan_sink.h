// Planning the sink of an INSERT (Flink's LogicalSink and the changelog-mode negotiation of
// StreamPhysicalSink): over the optimized query, planSink decides how the table's connector
// consumes the rows — whether it may take updates at all, whether it gets -U rows, whether
// Flink's SinkUpsertMaterializer goes before it — and records that in a LogicalSink, which
// EXPLAIN prints and the translator (translate_sink.cpp) turns into the NOT NULL enforcer, the
// materializer and the sink operator.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// What an INSERT writes into, as insert.cpp resolves it.
struct SinkTarget {
  std::string tableName;  // catalog.database.table
  /// The connector's sink (overwrite and static partitions applied).
  std::shared_ptr<const connectors::DynamicTableSink> sink;
  bool overwrite = false;
  /// Whether the table declares a PRIMARY KEY, and its columns among the rows written (nullopt
  /// when it has none, or a key column is not written).
  bool declaresPrimaryKey = false;
  std::optional<std::vector<int>> primaryKey;
  /// The sink's NOT NULL columns that the query may fill with NULL.
  std::vector<int> notNullColumns;
};

/// The LogicalSink over `optimizedQuery` (its rows already cast to the sink's columns).
/// `streaming`: the job's runtime mode; `upsertMaterialize`: table.exec.sink.upsert-materialize
/// (NONE, AUTO, FORCE). Fails (TableException) when the sink cannot take the query's updates.
std::shared_ptr<const LogicalSink> planSink(LogicalNodePtr optimizedQuery, const SinkTarget& target,
                                            bool streaming, const std::string& upsertMaterialize);

/// Flink's SinkUpsertMaterializer decision for a consumer with primary key `primaryKey`
/// (columns of `input`'s output) that takes updates without -U rows, under
/// table.exec.sink.upsert-materialize `mode`: AUTO where `input` updates and none of its upsert
/// keys (upsertKeysOf) lies within the key, FORCE always, NONE never.
bool needsUpsertMaterializer(const LogicalNode& input, const std::vector<int>& primaryKey,
                             const std::string& mode);

/// The sink over another input (for EXPLAIN's syntax tree: the same sink over the bound query).
std::shared_ptr<const LogicalSink> withSinkInput(const LogicalSink& sink, LogicalNodePtr input);

}  // namespace eddy::sql

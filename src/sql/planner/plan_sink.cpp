// LogicalSink and planSink (plan_sink.h).
#include "sql/planner/plan_sink.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "connectors/dynamic_table_factory.h"
#include "eddy/exceptions.h"

namespace eddy::sql {

LogicalSink::LogicalSink(LogicalNodePtr input, std::string table,
                         std::shared_ptr<const connectors::DynamicTableSink> tableSink,
                         bool overwriting, std::vector<int> notNull, std::vector<int> key,
                         bool materialize)
    : LogicalNode(LogicalNodeKind::kSink, input->rowType, {input}, input->changelogMode),
      tableName(std::move(table)),
      sink(std::move(tableSink)),
      overwrite(overwriting),
      notNullColumns(std::move(notNull)),
      primaryKey(std::move(key)),
      upsertMaterialize(materialize) {}

std::string LogicalSink::describe() const {
  return fmt::format("LogicalSink(table=[{}], fields=[{}]{})", tableName,
                     fmt::join(rowType->getFieldNames(), ", "),
                     overwrite ? ", overwrite=[true]" : "");
}

bool needsUpsertMaterializer(const LogicalNode& input, const std::vector<int>& primaryKey,
                             const std::string& mode) {
  if (primaryKey.empty() || mode == "NONE") return false;
  if (mode == "FORCE") return true;
  if (input.changelogMode == ChangelogMode::kInsertOnly) return false;
  const std::vector<std::vector<int>> upsertKeys = upsertKeysOf(input);
  return !std::any_of(upsertKeys.begin(), upsertKeys.end(), [&](const std::vector<int>& key) {
    return std::all_of(key.begin(), key.end(), [&](int column) {
      return std::find(primaryKey.begin(), primaryKey.end(), column) != primaryKey.end();
    });
  });
}

std::shared_ptr<const LogicalSink> planSink(LogicalNodePtr optimizedQuery, const SinkTarget& target,
                                            bool streaming, const std::string& upsertMaterialize) {
  const connectors::DynamicTableSink& sink = *target.sink;
  const bool updating = streaming && optimizedQuery->changelogMode != ChangelogMode::kInsertOnly;
  if (updating && !sink.acceptsUpdates()) {
    throw TableException("Table sink '" + target.tableName +
                         "' doesn't support consuming update changes which is produced by node " +
                         updateProducer(*optimizedQuery).describe());
  }
  // A sink that does not consume -U rows (Flink: its changelog mode has no UPDATE_BEFORE) gets
  // the updates without them where the query allows (withoutUpdateBefore); with a primary key
  // only when the updates are upserts by exactly that key.
  if (updating && !sink.consumesUpdateBefore() &&
      (target.primaryKey || !target.declaresPrimaryKey)) {
    if (LogicalNodePtr upserts = withoutUpdateBefore(optimizedQuery, target.primaryKey)) {
      optimizedQuery = std::move(upserts);
    }
  }
  // Flink's SinkUpsertMaterializer before an upsert sink (one with a primary key that takes
  // updates without -U; a retract sink, which takes -U and +U, gets none, as in Flink).
  const bool materialize =
      streaming && target.primaryKey && sink.acceptsUpdates() && !sink.consumesUpdateBefore() &&
      needsUpsertMaterializer(*optimizedQuery, *target.primaryKey, upsertMaterialize);
  return std::make_shared<LogicalSink>(std::move(optimizedQuery), target.tableName, target.sink,
                                       target.overwrite, target.notNullColumns,
                                       target.primaryKey.value_or(std::vector<int>{}), materialize);
}

std::shared_ptr<const LogicalSink> withSinkInput(const LogicalSink& sink, LogicalNodePtr input) {
  return std::make_shared<LogicalSink>(std::move(input), sink.tableName, sink.sink, sink.overwrite,
                                       sink.notNullColumns, sink.primaryKey,
                                       sink.upsertMaterialize);
}

}  // namespace eddy::sql

// What a sink's input is translated with (translator.h): Flink's SinkUpsertMaterializer, when a
// sink with a primary key needs one (upsertMaterializerFor) and as the operator before the sink
// (materializeUpserts).
#include <algorithm>

#include "sql/physical/translation_context.h"

namespace eddy::sql {

std::shared_ptr<runtime::operators::SinkUpsertMaterializerSpec> upsertMaterializerFor(
    const LogicalNode& plan, const std::vector<int>& primaryKey, const std::string& mode) {
  if (primaryKey.empty() || mode == "NONE") return nullptr;
  const std::vector<std::vector<int>> upsertKeys = upsertKeysOf(plan);
  if (mode != "FORCE") {
    if (plan.changelogMode == ChangelogMode::kInsertOnly) return nullptr;
    const bool withinKey = std::any_of(upsertKeys.begin(), upsertKeys.end(), [&](const auto& key) {
      return std::all_of(key.begin(), key.end(), [&](int column) {
        return std::find(primaryKey.begin(), primaryKey.end(), column) != primaryKey.end();
      });
    });
    if (withinKey) return nullptr;
  }
  auto spec = std::make_shared<runtime::operators::SinkUpsertMaterializerSpec>();
  spec->rowType = plan.rowType;
  spec->primaryKey = primaryKey;
  for (const auto& key : upsertKeys) {
    if (spec->upsertKey.empty() || key.size() < spec->upsertKey.size() ||
        (key.size() == spec->upsertKey.size() && key < spec->upsertKey)) {
      spec->upsertKey = key;
    }
  }
  return spec;
}

DataStream<vector::Chunk> materializeUpserts(
    const DataStream<vector::Chunk>& rows,
    std::shared_ptr<const runtime::operators::SinkUpsertMaterializerSpec> spec) {
  const std::string names = physical::keyNames(spec->rowType, spec->primaryKey);
  DataStream<vector::Chunk> materialized =
      physical::hashExchange(rows, spec->primaryKey, spec->rowType)
          .transform<vector::Chunk>(
              "SinkMaterializer(pk=[" + names + "])",
              std::make_shared<runtime::LambdaOperatorFactory>([spec] {
                return std::make_unique<runtime::operators::SinkUpsertMaterializerOperator>(spec);
              }),
              true);
  materialized.setParallelism(rows.getParallelism());
  return materialized;
}

}  // namespace eddy::sql

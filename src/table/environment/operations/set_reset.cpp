// SET and RESET: the session's options. SET alone lists them (sensitive values masked);
// SET 'key' = 'value' validates the value (an invalid one throws; an unknown key, or one eddy
// does not honour yet, only warns, docs/configuration.md); RESET removes one option or all.
#include "config/option_registry.h"
#include "eddy/table/table_config.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

TableResult set(OperationContext& context, const sql::SetStatement& set) {
  if (!set.key) {
    std::vector<Row> rows;
    for (const auto& [key, value] : context.configuration()) {
      rows.push_back(Row::of(key, config::displayValue(key, value)));
    }
    return TableResult::ofRows(
        ResolvedSchema({ResolvedSchema::Column{"key", DataTypes::STRING().notNull(), std::nullopt},
                        ResolvedSchema::Column{"value", DataTypes::STRING().notNull(), std::nullopt}}),
        std::move(rows));
  }
  // An invalid value throws; an unknown key, or one not honoured yet, only warns.
  TableConfig(context.configuration()).set(*set.key, set.value.value_or(""));
  return TableResult::ok();
}

TableResult reset(OperationContext& context, const sql::ResetStatement& reset) {
  if (reset.key) {
    context.configuration().erase(*reset.key);
  } else {
    context.configuration().clear();
  }
  return TableResult::ok();
}

}  // namespace eddy::table::operations

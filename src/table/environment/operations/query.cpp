// Queries (SELECT, VALUES, set operations): a query statement bound and run as a job whose
// rows the result pulls through a collect sink (TableEnvironmentImpl::executePlan, also
// Table::execute()), or explained (TableEnvironmentImpl::explainQueryPlan, also EXPLAIN and
// Table::explain()).
#include <memory>

#include "eddy/datastream/data_stream.h"
#include "runtime/operators/chunk_exchange.h"
#include "sql/binder/binder.h"
#include "sql/optimizer/optimizer.h"
#include "sql/physical/translator.h"
#include "table/environment/operations/job_progress.h"
#include "table/environment/operations/statement_operations.h"
#include "table/environment/table_environment_impl.h"
#include "table/tableau_printer.h"

namespace eddy {

namespace {

using table::operations::progressOf;
using table::operations::withSinkInputMetrics;

/// Rows of a running (or finished) job, pulled through the collect sink. Owns the job's
/// environment so that it lives as long as the rows are read.
class JobRowSource final : public table::SessionRowSource {
 public:
  JobRowSource(std::unique_ptr<StreamExecutionEnvironment> environment,
               CloseableIterator<Row> iterator, common::SessionTimeZone sessionTimeZone)
      : environment_(std::move(environment)),
        iterator_(std::move(iterator)),
        sessionTimeZone_(std::move(sessionTimeZone)) {}
  std::optional<Row> next() override {
    if (!iterator_.hasNext()) return std::nullopt;
    return iterator_.next();
  }
  void close() override { iterator_.close(); }
  void cancel() override { iterator_.cancel(); }
  const common::SessionTimeZone& sessionTimeZone() const override { return sessionTimeZone_; }
  int64_t numLateRecordsDropped() const override {
    return iterator_.getJobClient().getNumLateRecordsDropped();
  }
  JobProgress progress() const override { return progressOf(iterator_.getJobClient()); }

 private:
  std::unique_ptr<StreamExecutionEnvironment> environment_;
  CloseableIterator<Row> iterator_;
  common::SessionTimeZone sessionTimeZone_;
};

}  // namespace

TableResult table::TableEnvironmentImpl::executePlan(
    const std::shared_ptr<const sql::LogicalNode>& plan) {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  // The result's rows and watermark count for the job's progress (JobProgress).
  DataStream<vector::Chunk> chunks =
      withSinkInputMetrics(sql::translateToDataStream(plan, *environment, translation));
  // The conversion runs at the plan's parallelism, chained (forward): a rebalance from a
  // parallelism-1 operator (a global aggregate) to more subtasks would reorder its changelog.
  DataStream<Row> converted =
      chunks.transform<Row>("ChunkToRows", std::make_shared<runtime::LambdaOperatorFactory>([] {
                              return std::make_unique<runtime::operators::ChunkToRowsOperator>();
                            }));
  converted.setParallelism(chunks.getParallelism());
  CloseableIterator<Row> rows = converted.executeAndCollect("collect");
  return TableResult(ResultKind::SUCCESS_WITH_CONTENT, ResolvedSchema::fromRowType(plan->rowType),
                     std::make_unique<JobRowSource>(std::move(environment), std::move(rows),
                                                    translation.sessionTimeZone),
                     translation.streaming);
}

std::string table::TableEnvironmentImpl::explainQueryPlan(
    const std::shared_ptr<const sql::LogicalNode>& plan, bool changelogMode, bool estimatedCost,
    bool jsonExecutionPlan) const {
  sql::TranslationSettings translation;
  auto environment = newJobEnvironment(translation);
  DataStream<vector::Chunk> physical = sql::translateToDataStream(plan, *environment, translation);
  std::string text =
      "== Abstract Syntax Tree ==\n" + sql::explainPlan(*plan, false) +
      "\n== Optimized Logical Plan ==\n" +
      sql::explainPlan(*sql::optimize(plan, translation.optimizer), changelogMode, estimatedCost) +
      "\n== Physical Plan ==\n" + sql::explainPhysicalPlan(physical);
  // The operators of the job executePlan would run, at their parallelism, without the
  // result's row conversion and collect sink (Flink's plan of a query has no sink either).
  if (jsonExecutionPlan) {
    text += "\n== Physical Execution Plan ==\n" + environment->getExecutionPlan() + "\n";
  }
  return text;
}

namespace table::operations {

TableResult executeQuery(OperationContext& context, const sql::QueryStatement& query) {
  sql::Binder binder(context.catalogs(), context.bindingContext());
  return context.executePlan(binder.bindQuery(*query.query));
}

}  // namespace table::operations

}  // namespace eddy

// The job progress of a statement's job (job_progress.h).
#include "table/environment/operations/job_progress.h"

#include <memory>

#include "eddy/runtime/stream_operator.h"

namespace eddy::table::operations {

namespace {

/// Counts the rows that reach a table sink and reports the watermark passed on to it (the job's
/// progress, JobProgress); forwards everything unchanged. Chained before each INSERT's sink and
/// before a query's result conversion.
class SinkInputMetricsOperator final : public runtime::StreamOperator {
 public:
  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    if (context.metrics) reporter_ = context.metrics->registerWatermarkReporter();
  }
  void processBatch(int, runtime::BatchPtr batch) override {
    if (context().metrics) context().metrics->numRowsWritten += batch->rowCount();
    output().emitBatch(std::move(batch));
  }
  void processWatermark(runtime::Watermark watermark) override {
    if (reporter_ >= 0) context().metrics->reportWatermark(reporter_, watermark.timestamp);
    output().emitWatermark(watermark);
  }

 private:
  int reporter_ = -1;
};

}  // namespace

JobProgress progressOf(const JobClient& client) {
  std::shared_ptr<const runtime::JobMetrics> metrics = client.getMetrics();
  return JobProgress{metrics->numRowsRead.load(), metrics->numRowsWritten.load(),
                     metrics->sinkWatermark(), client.getNumRestarts()};
}

DataStream<vector::Chunk> withSinkInputMetrics(DataStream<vector::Chunk> rows) {
  DataStream<vector::Chunk> counted = rows.transform<vector::Chunk>(
      "SinkInputMetrics", std::make_shared<runtime::LambdaOperatorFactory>([] {
        return std::make_unique<SinkInputMetricsOperator>();
      }));
  counted.setParallelism(rows.getParallelism());
  return counted;
}

}  // namespace eddy::table::operations

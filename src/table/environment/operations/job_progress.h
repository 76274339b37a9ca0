// The progress of a job a statement runs (JobProgress: rows read, rows written, the watermark
// that reached the sinks), as the SQL client shows it while a query or an INSERT runs. Rows
// written and the sink watermark are counted by a SinkInputMetricsOperator chained before
// each INSERT's sink and before a query's result conversion (withSinkInputMetrics).
#pragma once

#include "eddy/datastream/data_stream.h"
#include "eddy/datastream/execution_environment.h"
#include "eddy/table/table_result.h"
#include "vector/chunk.h"

namespace eddy::table::operations {

/// The progress of the job `client` runs, now.
JobProgress progressOf(const JobClient& client);

/// `rows` followed by a chained operator that counts them as the job's rows written and
/// reports the watermark passed on with them; it forwards everything unchanged.
DataStream<vector::Chunk> withSinkInputMetrics(DataStream<vector::Chunk> rows);

}  // namespace eddy::table::operations

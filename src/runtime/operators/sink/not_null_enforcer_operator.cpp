#include "runtime/operators/sink/not_null_enforcer_operator.h"

#include "eddy/exceptions.h"
#include "vector/chunk.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

std::string notNullViolationMessage(const std::string& name) {
  return "Column '" + name +
         "' is NOT NULL, however, a null value is being written into it. You can set job "
         "configuration 'table.exec.sink.not-null-enforcer'='DROP' to suppress this exception "
         "and drop such records silently.";
}

void NotNullEnforcerOperator::processBatch(int, BatchPtr batch) {
  auto& chunks = typedBatch<vector::Chunk>(*batch).records;
  auto results = std::make_unique<TypedBatch<vector::Chunk>>();
  for (vector::Chunk& chunk : chunks) {
    bool anyNull = false;
    for (int column : spec_->columns) anyNull = anyNull || chunk.column(column).mayHaveNulls();
    if (!anyNull) {
      results->push(std::move(chunk), kNoTimestamp);
      continue;
    }
    std::vector<int32_t> kept;
    kept.reserve(static_cast<size_t>(chunk.size()));
    for (int64_t row = 0; row < chunk.size(); ++row) {
      size_t violated = spec_->columns.size();
      for (size_t c = 0; c < spec_->columns.size() && violated == spec_->columns.size(); ++c) {
        if (chunk.column(spec_->columns[c]).isNull(row)) violated = c;
      }
      if (violated == spec_->columns.size()) {
        kept.push_back(static_cast<int32_t>(row));
        continue;
      }
      if (!spec_->dropRows) {
        // The rows before this one still reach the sink; then the job fails.
        if (!kept.empty()) {
          results->push(vector::gather(chunk, kept.data(), static_cast<int64_t>(kept.size())),
                        kNoTimestamp);
        }
        output().emitBatch(std::move(results));
        throw TableException(notNullViolationMessage(spec_->names[violated]));
      }
      if (context().metrics) ++context().metrics->numNotNullRowsDropped;
    }
    if (!kept.empty()) {
      results->push(vector::gather(chunk, kept.data(), static_cast<int64_t>(kept.size())),
                    kNoTimestamp);
    }
  }
  output().emitBatch(std::move(results));
}

}  // namespace eddy::runtime::operators

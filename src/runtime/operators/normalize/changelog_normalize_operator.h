// ChangelogNormalize: turns an upsert changelog (+I/+U/-D by a unique key, no -U; what
// StreamTableEnvironment::fromChangelogStream reads with ChangelogMode::upsert()) into a
// retract changelog (+I/-U/+U/-D), as Flink's ChangelogNormalize: the last row of each key is
// kept in keyed state; an upsert of a new key is +I, of a known key -U (the stored row) then
// +U (an identical row changes nothing and emits nothing); a delete of a known key is -D with
// the stored row, of an unknown key nothing. Its input arrives through a HASH exchange on the
// key columns. STREAMING only (a changelog source is rejected in BATCH by the planner).
//
// Checkpoints: the last rows are the ValueState "last-row" (the row's values) of the task's
// keyed backend, so they are in every snapshot by key group and a restore at another
// parallelism gets the keys of its key groups (docs/state_format.md, "Table operators'
// state"). Output is emitted by the end of every batch: nothing to flush before a barrier.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"
#include "state/heap_keyed_state_backend.h"
#include "state/state_backend_loader.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

class ChangelogNormalizeOperator final : public StreamOperator {
 public:
  /// `generateUpdateBefore` false: an update is +U alone, without the -U of the stored row
  /// (for a consumer that takes upserts by the key).
  ChangelogNormalizeOperator(LogicalTypePtr rowType, std::vector<int> keyColumns,
                             bool generateUpdateBefore = true);
  ~ChangelogNormalizeOperator() override;

  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;

 private:
  void append(const std::vector<Value>& row, RowKind kind);
  void emitOutput();

  LogicalTypePtr rowType_;
  std::vector<int> keyColumns_;
  bool generateUpdateBefore_;
  HeapKeyedStateBackend* stateBackend_ = nullptr;  // the task's, from the context
  ValueState<std::vector<Value>>* lastRow_ = nullptr;
  std::unique_ptr<vector::Chunk> output_;
  std::string keyBytes_;
};

}  // namespace eddy::runtime::operators

// ExpandOperator: the first step of a split distinct aggregation (Flink's SplitAggregateRule
// with `table.optimizer.distinct-agg.split.enabled`, its Expand node). A GROUP BY with
// f(DISTINCT x) calls is computed in two levels: a partial aggregation grouped by the keys and a
// bucket of the distinct argument, MOD(hash(x), bucket-num), then a final aggregation by the
// keys alone that sums (or MIN/MAXes) the partial results. A hot key's distinct values then
// spread over bucket-num partial groups, and so over every subtask.
//
// Each DISTINCT argument needs its own bucketing (a value of `bidder` must land in one bucket,
// whatever `auction` is), so the input is copied once per distinct argument ("copy" i buckets
// by argument i). Every output row is the input row followed by its bucket (INT NOT NULL) and
// one BOOLEAN NOT NULL filter per aggregate call: TRUE where the call belongs to this copy
// (a distinct call to its argument's copy, every other call to copy 0) and the call's own
// FILTER (WHERE ...) column, if any, is TRUE. The partial aggregation reads those filters, so
// each call sees each input row exactly once. A copy is emitted as a chunk of its own, with the
// input's row kinds, in input order.
#pragma once

#include <memory>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

struct ExpandSpec {
  LogicalTypePtr inputRowType;
  /// The input row type's fields, then `$bucket` INT NOT NULL, then one `$filter<k>` BOOLEAN
  /// NOT NULL per call (expandRowType).
  LogicalTypePtr outputRowType;
  /// Copy i buckets by input column bucketColumns[i] (at least one copy).
  std::vector<int> bucketColumns;
  int bucketCount = 1024;
  struct CallFilter {
    int copy = 0;             // the copy whose rows the call reads
    int filterColumn = -1;    // the call's own FILTER column in the input, or -1
  };
  std::vector<CallFilter> calls;
};

/// The output row type of an ExpandSpec over `inputRowType` with `callCount` calls.
LogicalTypePtr expandRowType(const LogicalTypePtr& inputRowType, size_t callCount);

class ExpandOperator final : public StreamOperator {
 public:
  explicit ExpandOperator(std::shared_ptr<const ExpandSpec> spec);
  void processBatch(int inputIndex, BatchPtr batch) override;

 private:
  /// `chunk` as copy `copy`: its columns (moved when `last`), bucket and filter columns.
  vector::Chunk expand(vector::Chunk& chunk, int copy, bool last);

  std::shared_ptr<const ExpandSpec> spec_;
  std::string keyBytes_;
  std::vector<int32_t> buckets_;
  std::vector<char> filter_;
};

}  // namespace eddy::runtime::operators

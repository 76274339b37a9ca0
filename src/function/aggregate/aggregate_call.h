// AggregateCall: one aggregate function of a GROUP BY as the planner hands it to the
// aggregate operators — which function, over which input column, with which result type —
// and the accumulators that compute it incrementally, with retraction (Flink's
// *WithRetractAggFunction family), so the same definitions serve the streaming
// GroupAggregate (which must retract for -U/-D input) and the batch hash aggregate.
//
// An accumulator is a small list of Values kept in keyed state (so a checkpoint captures it):
//   COUNT(*), COUNT(x)   [count BIGINT]
//   SUM(x)               [sum, count of non-null inputs BIGINT]   (NULL when count is 0)
//   AVG(x)               [sum, count]                              (NULL when count is 0)
//   MIN(x), MAX(x)       [map value → multiplicity]                (so a retraction of the
//                                                                  current minimum finds the
//                                                                  next one); [extreme] when
//                                                                  not retractable
//   SINGLE_VALUE(x)      [rows BIGINT, NULL rows BIGINT, map non-null value → multiplicity]
//   FIRST_VALUE(x),      [runs: map value → count, in arrival order]: consecutive equal
//   LAST_VALUE(x),       values share one run, so a retraction removes the earliest
//   LISTAGG(x [, sep])   occurrence of its value (as Flink's *WithRetractAggFunction) and the
//                        first/last/joined values follow from what is left
//   STDDEV_POP/_SAMP(x), [count BIGINT, mean DOUBLE, m2 DOUBLE]: Welford's online algorithm
//   VAR_POP/_SAMP(x)     (run backwards to retract), as Flink's INTERNAL_WELFORD_M2 which its
//                        planner rewrites these four to; result m2 / n or m2 / (n - 1)
//                        (square root for STDDEV), cast to the result type
//   COLLECT(x)           [map value → multiplicity, sorted by value where values have an
//                        order, else by arrival]: the MULTISET; its counts are INT, as Flink's
//   JSON_ARRAYAGG(x)     [runs, as LISTAGG's]: a JSON array of the values in arrival order (a
//                        retraction removes the earliest equal one), NULLs kept or not per
//                        NULL/ABSENT ON NULL (default ABSENT), as Flink's JsonArrayAggFunction
//   JSON_OBJECTAGG(k, v) [map key → value, sorted by key]: the argument is ROW(k, v); a row
//                        adds its key (a key already present fails, as Flink's
//                        JsonObjectAggFunction), a retraction removes the key; a JSON object in
//                        key order; NULL values kept or not per NULL/ABSENT ON NULL (default
//                        NULL; an absent key is not present); a NULL key fails
//   f(DISTINCT x)        [hash table value → multiplicity, occupied slots, f's
//                        accumulator...]: a value reaches f when its multiplicity becomes 1
//                        and leaves it when it drops to 0
//
// Where the pieces are (src/function/aggregate/): aggregate_call.cpp creates, updates, merges
// and reads accumulators by kind; the arithmetic of SUM, AVG and the variances is in
// numeric_accumulators, the value lists of MIN/MAX with retraction, SINGLE_VALUE, FIRST_VALUE,
// LAST_VALUE, LISTAGG, COLLECT and the JSON aggregates in collection_accumulators, the DISTINCT
// tables in distinct_table; the functions by name in aggregate_function_registry.h.
//
// Threading: AggregateCall is an immutable definition shared by subtasks; an accumulator is
// owned by one operator subtask and changed only by its task thread.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "function/aggregate/aggregate_function_registry.h"
#include "function/aggregate/distinct_table.h"
#include "function/value_order.h"

namespace eddy::function {

struct AggregateCall {
  AggregateKind kind;
  int argumentColumn = -1;  // -1 for COUNT(*)
  LogicalTypePtr resultType;
  /// Rows where this column is not TRUE are ignored (`FILTER (WHERE ...)`); -1: none.
  int filterColumn = -1;
  /// `f(DISTINCT x)`: each distinct value counts once.
  bool distinct = false;
  /// LISTAGG's separator (its literal second argument).
  std::string listSeparator = ",";
  /// LAG's offset (rows back, >= 0) and default (of resultType; NULL unless given).
  int64_t lagOffset = 1;
  Value lagDefault = Value();
  /// JSON_OBJECTAGG / JSON_ARRAYAGG: ABSENT ON NULL (NULL values left out), and whether the
  /// values are JSON text already (a nested JSON_OBJECT / JSON_ARRAY call).
  bool jsonAbsentOnNull = false;
  bool jsonRawValues = false;
  /// Whether rows may be retracted (accumulate with retract = true), as for a GroupAggregate
  /// over an updating input or a sliding OVER frame. Without, MIN and MAX keep just the current
  /// extreme (Flink's MinAggFunction instead of MinWithRetractAggFunction) and cost O(1) per
  /// row; the planner clears it where the input is insert-only.
  bool retractable = true;
};

/// The accumulator of one call (see the file comment); starts empty.
using Accumulator = std::vector<Value>;

Accumulator createAccumulator(const AggregateCall& call);
/// Adds (retract = false) or removes (retract = true) one input value. NULL inputs are
/// ignored except by COUNT(*).
void accumulate(const AggregateCall& call, Accumulator& accumulator, const Value& input,
                bool retract);
/// The same on an accumulator stored from `accumulator` on (createAccumulator(call).size()
/// values, e.g. inside one flat list of a group's accumulators). Returns whether the
/// accumulator took the value (false for an ignored NULL or a DISTINCT value already counted),
/// so an unchanged call's result need not be recomputed.
bool accumulate(const AggregateCall& call, Value* accumulator, const Value& input, bool retract);
/// The current result, a Value of call.resultType's kind (NULL where SQL says so).
Value aggregateResult(const AggregateCall& call, const Accumulator& accumulator);
/// The same into `result`, whose storage is reused where the result is a copy of accumulator
/// state (COUNT, MIN/MAX without retraction).
void assignAggregateResult(const AggregateCall& call, const Value* accumulator, Value& result);

/// Two-phase aggregation (Flink's local/global aggregation): whether `call`'s accumulator can
/// travel as a partial row and be merged into another (Flink's AggregateFunction.merge):
/// COUNT, SUM, AVG, and MIN/MAX without retraction; not DISTINCT calls.
bool supportsMerge(const AggregateCall& call);
/// The column types of `call`'s accumulator in a partial row (supportsMerge calls only):
/// COUNT [BIGINT NOT NULL], SUM/AVG [wide sum, BIGINT NOT NULL count] (BIGINT for integer
/// arguments, DOUBLE for FLOAT/DOUBLE, DECIMAL(38, s) for DECIMAL(p, s)), MIN/MAX [the
/// argument's type, nullable].
std::vector<LogicalTypePtr> accumulatorTypes(const AggregateCall& call,
                                             const LogicalTypePtr& argumentType);
/// Merges `other` (the values of another accumulator of the same call, e.g. a partial row's
/// columns) into `accumulator`.
void merge(const AggregateCall& call, Accumulator& accumulator, const Value* other);
void merge(const AggregateCall& call, Value* accumulator, const Value* other);

}  // namespace eddy::function

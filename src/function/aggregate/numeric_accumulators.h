// The arithmetic of the numeric aggregates' accumulators (aggregate_call.h): the wide sums of
// SUM and AVG (BIGINT for integers, wrapping as Java does; DOUBLE for floating point;
// DECIMAL(38, s) for decimals) and the Welford moments [count, mean, m2] of STDDEV_POP,
// STDDEV_SAMP, VAR_POP and VAR_SAMP (Flink's INTERNAL_WELFORD_M2).
//
// Called by aggregate_call.cpp for one call's accumulator; no state of their own.
#pragma once

#include <cstdint>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"

namespace eddy::function {

/// `sum` (NULL: 0) plus, or with `subtract` minus, `input`, kept wide.
Value addToSum(const Value& sum, const Value& input, bool subtract);
/// `wide` (BIGINT, DOUBLE or DECIMAL(38, s)) as a value of `type`.
Value narrowTo(const Value& wide, const LogicalType& type);
/// AVG of `count` (> 0) values summing to the wide `sum`, as a value of `resultType`: integers
/// truncate (Flink's AvgAggFunction), decimals round HALF_UP to the result scale.
Value averageOf(const Value& sum, int64_t count, const LogicalType& resultType);

/// One step of Welford's online algorithm over `moments` [count, mean, m2], forwards or
/// (retracting) backwards.
void addToMoments(Value* moments, double input, bool retract);
/// The variance (`squareRoot`: the standard deviation) of `moments`, of the population or of
/// the sample, cast to `resultType`; NULL without rows (and for one row of a sample).
Value varianceOf(const Value* moments, bool population, bool squareRoot,
                 const LogicalType& resultType);

}  // namespace eddy::function

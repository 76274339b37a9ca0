// Distinct tables: the multiplicities of the distinct values an `f(DISTINCT x)` call has seen,
// so that a value reaches f's accumulator when its multiplicity becomes 1 and leaves it when it
// drops to 0 (aggregate_call.cpp).
//
// A call's own table is the first kDistinctPrefix values of its accumulator: an open-addressing
// hash table (linear probing) kept in a ValueMap, so each row costs O(1) however many distinct
// values the group has. A slot is (value, count): a NULL value is an empty slot (NULL inputs
// never get here), count 0 a deleted one; the second value counts the occupied slots (live and
// deleted), and the table doubles when they pass 70%. Integer values (TINYINT..BIGINT, the
// usual DISTINCT keys) use a table of plain 16-byte slots kept in a BYTES value instead, chosen
// by the first value.
//
// A shared table serves several f(DISTINCT x) calls over the same integer argument x (as
// Flink's distinct aggregates share one MapView per argument): per distinct value, one
// multiplicity per call (each call has its own FILTER), so a row probes the table once for all
// of them (GroupAggregateOperator).
//
// Threading: a table is part of an accumulator, owned by one operator subtask.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "eddy/types/value.h"

namespace eddy::function {

/// The values of a call's own table at the front of an f(DISTINCT x) accumulator.
inline constexpr size_t kDistinctPrefix = 2;

/// Adds `step` to the multiplicity of `value` in the call's own table at `table`; returns the
/// new multiplicity (0: gone), or -1 when retracting a value that is not there (nothing
/// changes).
int64_t addDistinct(Value* table, const Value& value, int64_t step);

/// A shared table: [BYTES slots, BIGINT occupied slots]; a slot is the value, a used flag and
/// `callCount` multiplicities (int64 each), in an open-addressing table of linear probing.
std::vector<Value> createSharedDistinctTable();
/// The `callCount` multiplicities of `value` in the shared table, added (all 0) when missing
/// and `add` is true; nullptr when missing otherwise. The pointer is valid until the next call.
/// `table` points at the table's two values.
int64_t* sharedDistinctCounts(Value* table, int64_t value, int callCount, bool add);

}  // namespace eddy::function

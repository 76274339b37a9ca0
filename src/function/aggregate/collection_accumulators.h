// The accumulators that keep values (aggregate_call.h): sorted maps value → multiplicity
// (MIN and MAX with retraction, SINGLE_VALUE, COLLECT), arrival-ordered runs value → count in
// which equal neighbours share a run (FIRST_VALUE, LAST_VALUE, LISTAGG, JSON_ARRAYAGG), and the
// key-sorted map of JSON_OBJECTAGG; with the results made from them.
//
// Called by aggregate_call.cpp for one call's accumulator; no state of their own.
#pragma once

#include <cstdint>
#include <string>

#include "eddy/row.h"
#include "eddy/types/value.h"

namespace eddy::function {

/// Adds `step` to the multiplicity of `value` in the sorted map `entries`; returns the new
/// multiplicity (entries at 0 are removed).
int64_t addMultiplicity(ValueMap& entries, const Value& value, int64_t step);
/// COLLECT's multiset: addMultiplicity where values have an order (a deterministic print),
/// else found by equality and new values appended (arrival order).
void addToCollection(ValueMap& entries, const Value& value, int64_t step);
/// The multiset: each distinct value with its count as INT (Flink's MapData of Integer).
Value multisetOf(const ValueMap& entries);

/// Appends `value` to the arrival-ordered `runs` (value → count; equal neighbours share a run),
/// or, retracting, removes its earliest occurrence (nothing when it has none).
void addToRuns(ValueMap& runs, const Value& value, bool retract);
/// The runs' values joined by `separator`, each as often as it occurs (NULL without any).
Value joinRuns(const ValueMap& runs, const std::string& separator);
/// A JSON array of the runs' values, each as often as it occurs (`rawValues`: the values are
/// JSON text already).
Value jsonArrayOfRuns(const ValueMap& runs, bool rawValues);

/// JSON_OBJECTAGG: adds the key → value `pair` to the key-sorted `entries` (a key already
/// present fails, as Flink's JsonObjectAggFunction; a NULL value is left out with
/// `absentOnNull`), or, retracting, removes its key whatever its value. A NULL key fails.
void addJsonObjectEntry(ValueMap& entries, const Row& pair, bool retract, bool absentOnNull);
/// The JSON object of `entries`, in key order.
Value jsonObjectOf(const ValueMap& entries, bool rawValues);

}  // namespace eddy::function

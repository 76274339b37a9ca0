// CAST and TRY_CAST between the scalar types, with Flink's (1.15+) cast rules: numeric
// narrowing wraps as Java's primitive casts, DECIMAL rescaling rounds HALF_UP, values that do
// not fit or strings that do not parse fail CAST with a TableException naming the value and
// the target, and give NULL for TRY_CAST. Casts to STRING print as Flink's SQL CAST does
// (BOOLEAN `TRUE`, DOUBLE like Java's Double.toString, DECIMAL with all its scale digits,
// TIMESTAMP(3) as `2021-08-21 13:00:00.000`); casts to CHAR(n)/VARCHAR(n) pad or truncate.
#pragma once

#include <string>

#include "common/session_time_zone.h"
#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "function/kernel_vector.h"

namespace eddy::function {

/// Whether CAST(<from> AS <to>) is supported.
bool isCastSupported(const LogicalType& from, const LogicalType& to);

/// Casts every row of `input` to `target`. With `tryCast`, a failing row becomes NULL;
/// without, the first failing row throws TableException "CAST('abc' AS INT) failed: ...".
/// Casts between TIMESTAMP_LTZ and the zoneless types (TIMESTAMP, DATE, TIME, strings) read
/// the instant as a wall-clock time in `sessionTimeZone`, as Flink does.
KernelVector castVector(const KernelVector& input, const LogicalTypePtr& target, bool tryCast,
                        const common::SessionTimeZone& sessionTimeZone = {});

/// One value of `from` cast to `to` (isCastSupported must hold); nested values (ARRAY, MAP,
/// MULTISET, ROW) element by element. NULL stays NULL.
Value castValue(const Value& value, const LogicalTypePtr& from, const LogicalTypePtr& to,
                bool tryCast, const common::SessionTimeZone& sessionTimeZone = {});

/// `value` of `type` as CAST(value AS STRING) prints it, NULL as `NULL`: nested values as
/// Flink's cast rules write them — ARRAY `[1, NULL, 3]`, MAP `{a=1, b=2}`, MULTISET
/// `{a=2}` (value=count), ROW `(1, abc)`, elements in their own CAST-to-string form.
std::string castToStringText(const Value& value, const LogicalTypePtr& type,
                             const common::SessionTimeZone& sessionTimeZone = {});

/// DOUBLE and FLOAT as Java's Double.toString / Float.toString print them (`1.0`, `1.0E10`,
/// `1.234E-5`, `NaN`, `Infinity`), shortest round-trip digits.
std::string javaDoubleToString(double value);
std::string javaFloatToString(float value);

}  // namespace eddy::function

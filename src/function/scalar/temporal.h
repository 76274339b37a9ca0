// Entry points of the temporal functions that other files of the function module and the
// binder call: interval literals (Calcite's rules and messages), datetime ± interval
// arithmetic for the `+` and `-` operators, and FLOOR/CEIL(datetime TO unit) for the numeric
// FLOOR/CEIL functions. The functions themselves are registered by registerTemporalFunctions
// (temporal.cpp). Any thread.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "function/function_registry.h"

namespace eddy::function {

/// The fields an interval qualifier names.
enum class IntervalField { kYear, kMonth, kDay, kHour, kMinute, kSecond };

/// The value and type of `INTERVAL [-]'text' start [TO end]`: a year-month interval (a
/// Period of months, type INTERVAL MONTH) or a day-time interval (a Duration of milliseconds,
/// type INTERVAL SECOND(3)), as Flink types interval literals. `startPrecision` is -1 when not
/// written (2). Throws ValidationException with Calcite's messages: "Illegal interval literal
/// format '1:2:3' for INTERVAL HOUR TO MINUTE", "Interval field value 100 exceeds precision of
/// DAY(2) field".
std::pair<Value, LogicalTypePtr> intervalLiteral(std::string_view text, bool negative,
                                                 IntervalField start,
                                                 std::optional<IntervalField> end,
                                                 int startPrecision);

/// `left + right` / `left - right` (or unary minus with one argument) when an operand is a
/// datetime or an interval: DATE/TIME/TIMESTAMP/TIMESTAMP_LTZ ± interval, interval +
/// datetime, interval ± interval of the same family. nullopt for other operand types.
std::optional<BoundScalarFunction> bindTemporalArithmetic(
    bool minus, const std::vector<LogicalTypePtr>& arguments);

/// FLOOR/CEIL(datetime TO unit): `arguments` are the datetime and the unit as a character
/// literal (its value in `literals`). nullopt when they are not. A TIMESTAMP_LTZ is rounded
/// on its wall-clock time in `zone`.
std::optional<BoundScalarFunction> bindTemporalFloorCeil(
    bool ceil, const std::vector<LogicalTypePtr>& arguments, const LiteralArguments& literals,
    const common::SessionTimeZone& zone);

/// Whether the type is an INTERVAL.
bool isInterval(const LogicalType& type);

}  // namespace eddy::function

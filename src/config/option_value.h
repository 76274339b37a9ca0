// Parsing of typed option values, in the forms Flink's configuration accepts: integers,
// booleans, decimal numbers, durations (`60s`, `5 s`, `10 min`, `24 h`, `500 ms`, `1d`; a
// plain number is milliseconds, as in Flink's TimeUtils.parseDuration) and memory sizes
// (`512mb`, `1 gb`, `64kb`; a plain number is bytes, powers of 1024 as in Flink's
// MemorySize). Units are case-insensitive and may be separated from the number by spaces.
// Each parser returns nothing when the text is not of its form; the caller (OptionRegistry)
// turns that into an error naming the key and the value. Pure functions, any thread.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

namespace eddy::config {

std::optional<int64_t> parseInteger(std::string_view text);
std::optional<double> parseDouble(std::string_view text);
/// `true` or `false`, case-insensitive.
std::optional<bool> parseBoolean(std::string_view text);
/// A non-negative duration; sub-millisecond units (µs, ns) are accepted and truncated.
std::optional<std::chrono::milliseconds> parseDuration(std::string_view text);
/// A non-negative memory size in bytes.
std::optional<uint64_t> parseMemorySize(std::string_view text);

}  // namespace eddy::config

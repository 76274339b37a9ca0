// The text forms of SQL values shared by the text formats (csv, json), after what Flink's
// formats accept and write (Java's parsers and java.time's ISO formatters):
//
//   type               read                                      written
//   BOOLEAN            true / false, any case, blanks trimmed    true / false
//   TINYINT..BIGINT    [+-]digits, blanks trimmed (parseInt)     digits
//   FLOAT / DOUBLE     Java's Float/Double.parseFloat forms:     Java's Float/Double.toString:
//                      1.5, -2e10, .5, 5., 1.5f, NaN, Infinity   1.5, -2.0E10, NaN, Infinity
//   DECIMAL(p, s)      BigDecimal syntax (1.50, -3, 1.5E+3),     BigDecimal.toString (plain or
//                      rounded HALF_UP to scale s; more than p   1E-7) or toPlainString, with
//                      digits is out of range                    or without trailing zeros
//   DATE               yyyy-[m]m-[d]d                            yyyy-MM-dd
//   TIME(p)            HH:mm[:ss[.fffffffff]]                    HH:mm:ss[.f] (fraction only
//                                                                when non-zero, shortest)
//   TIMESTAMP(p)       date, ' ' or 'T', time                    yyyy-MM-dd HH:mm:ss[.f] (or T)
//   TIMESTAMP_LTZ(p)   the same, optionally ending in 'Z' (UTC)  ... with a 'Z' suffix
//   BINARY/VARBINARY   base64 (padding optional)                 base64 with padding
//
// Times and timestamps are truncated to the column's precision when read. The functions are
// pure and thread-safe; the parsers return false on malformed text and never throw.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "vector/vector.h"

namespace eddy::formats {

/// Java's String.trim(): removes characters <= ' ' at both ends.
std::string_view trimJava(std::string_view text);

bool parseBooleanText(std::string_view text, bool& value);
bool parseInt64Text(std::string_view text, int64_t min, int64_t max, int64_t& value);
bool parseDoubleText(std::string_view text, double& value);
bool parseFloatText(std::string_view text, float& value);

enum class DecimalParseResult { kOk, kMalformed, kOutOfRange };
/// Parses a decimal and rounds it HALF_UP to `scale`: the unscaled value of DECIMAL(precision,
/// scale). kOutOfRange when it needs more than `precision` digits.
DecimalParseResult parseDecimalText(std::string_view text, int precision, int scale,
                                    __int128& unscaled);

bool parseDateText(std::string_view text, int32_t& epochDay);
/// `precision` 0..9: fractional digits kept.
bool parseTimeText(std::string_view text, int precision, int64_t& nanoOfDay);
/// `utcSuffix`: a trailing 'Z' is allowed (TIMESTAMP_LTZ).
bool parseTimestampText(std::string_view text, int precision, bool utcSuffix, int64_t& millisecond,
                        int32_t& nanoOfMillisecond);
bool decodeBase64(std::string_view text, std::string& bytes);

void appendDateText(int32_t epochDay, std::string& out);
void appendTimeText(int64_t nanoOfDay, std::string& out);
/// `separator` is ' ' (SQL) or 'T' (ISO-8601).
void appendTimestampText(int64_t millisecond, int32_t nanoOfMillisecond, char separator,
                         std::string& out);

/// How a decimal is written.
struct DecimalNotation {
  /// BigDecimal.toPlainString instead of BigDecimal.toString (which may use 1E-7).
  bool plain = false;
  /// stripTrailingZeros first (what Jackson's node factory does for Flink's csv format).
  bool stripTrailingZeros = false;
};
void appendDecimalText(__int128 unscaled, int scale, DecimalNotation notation, std::string& out);
void appendBase64(std::string_view bytes, std::string& out);

// --- Whole values of a column. ---

/// True for the types whose text forms above are defined (the "scalar" types): BOOLEAN,
/// TINYINT..BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, BINARY, VARBINARY, DATE, TIME,
/// TIMESTAMP, TIMESTAMP_LTZ, and the intervals (INTERVAL YEAR TO MONTH as a number of months,
/// INTERVAL DAY TO SECOND as a number of milliseconds, as Flink's formats).
bool isTextScalarType(const LogicalType& type);
/// True for the scalar types whose text form is a number, which JSON writes as a number and
/// CSV leaves unquoted: TINYINT..BIGINT, FLOAT, DOUBLE, DECIMAL and the intervals.
bool hasNumberText(LogicalTypeRoot root);

enum class TextParseResult { kOk, kMalformed, kOutOfRange };
/// Parses `text` as a value of `column`'s (scalar) type and appends it. On kMalformed or
/// kOutOfRange the column is unchanged. Strings are taken as they are (not trimmed).
TextParseResult appendParsedText(vector::Vector& column, std::string_view text);

/// How values are written as text.
struct TextWriteOptions {
  /// Between date and time of TIMESTAMP / TIMESTAMP_LTZ: ' ' (SQL) or 'T' (ISO-8601).
  char timestampSeparator = ' ';
  DecimalNotation decimalNotation;
};
/// Appends the text of the (non-null) value `index` of `column` (scalar type) to `out`.
void appendValueText(const vector::Vector& column, int64_t index, const TextWriteOptions& options,
                     std::string& out);

}  // namespace eddy::formats

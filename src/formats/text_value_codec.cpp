#include "formats/text_value_codec.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "eddy/types/decimal.h"
#include "eddy/types/record_format.h"
#include "eddy/types/temporal.h"

namespace eddy::formats {

namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kNanosPerMilli = 1'000'000;
constexpr int64_t kMillisPerDay = 86'400'000;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Reads 1..maxDigits digits at `position`.
bool readDigits(std::string_view text, size_t& position, int minDigits, int maxDigits,
                int64_t& value) {
  value = 0;
  int count = 0;
  while (position < text.size() && isDigit(text[position]) && count < maxDigits) {
    value = value * 10 + (text[position] - '0');
    ++position;
    ++count;
  }
  return count >= minDigits && (position >= text.size() || !isDigit(text[position]));
}

// yyyy-[m]m-[d]d from `position`.
bool readDate(std::string_view text, size_t& position, int64_t& epochDay) {
  bool negative = false;
  if (position < text.size() && (text[position] == '-' || text[position] == '+')) {
    negative = text[position] == '-';
    ++position;
  }
  int64_t year = 0;
  int64_t month = 0;
  int64_t day = 0;
  if (!readDigits(text, position, 4, 9, year)) return false;
  if (negative) year = -year;
  if (position >= text.size() || text[position++] != '-') return false;
  if (!readDigits(text, position, 1, 2, month)) return false;
  if (position >= text.size() || text[position++] != '-') return false;
  if (!readDigits(text, position, 1, 2, day)) return false;
  if (month < 1 || month > 12 || day < 1 || day > types::daysInMonth(year, static_cast<int>(month))) {
    return false;
  }
  epochDay = types::daysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  return true;
}

// HH:mm[:ss[.fffffffff]] from `position`, truncated to `precision` fractional digits.
bool readTime(std::string_view text, size_t& position, int precision, int64_t& nanoOfDay) {
  int64_t hour = 0;
  int64_t minute = 0;
  int64_t second = 0;
  int64_t nanos = 0;
  if (!readDigits(text, position, 1, 2, hour)) return false;
  if (position >= text.size() || text[position++] != ':') return false;
  if (!readDigits(text, position, 1, 2, minute)) return false;
  if (position < text.size() && text[position] == ':') {
    ++position;
    if (!readDigits(text, position, 1, 2, second)) return false;
    if (position < text.size() && text[position] == '.') {
      ++position;
      size_t start = position;
      if (!readDigits(text, position, 1, 9, nanos)) return false;
      for (size_t digits = position - start; digits < 9; ++digits) nanos *= 10;
    }
  }
  if (hour > 23 || minute > 59 || second > 59) return false;
  int64_t unit = 1;
  for (int i = precision; i < 9; ++i) unit *= 10;
  nanos -= nanos % unit;
  nanoOfDay = ((hour * 60 + minute) * 60 + second) * kNanosPerSecond + nanos;
  return true;
}

void appendTwoDigits(int64_t value, std::string& out) {
  out.push_back(static_cast<char>('0' + value / 10));
  out.push_back(static_cast<char>('0' + value % 10));
}

// The fraction of a second as java.time's appendFraction(NANO_OF_SECOND, 0, 9, true): nothing
// for zero, else '.' and the digits without trailing zeros.
void appendFraction(int64_t nanos, std::string& out) {
  if (nanos == 0) return;
  char digits[9];
  for (int i = 8; i >= 0; --i) {
    digits[i] = static_cast<char>('0' + nanos % 10);
    nanos /= 10;
  }
  int length = 9;
  while (digits[length - 1] == '0') --length;
  out.push_back('.');
  out.append(digits, length);
}

int base64Value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string_view trimJava(std::string_view text) {
  while (!text.empty() && static_cast<unsigned char>(text.front()) <= ' ') text.remove_prefix(1);
  while (!text.empty() && static_cast<unsigned char>(text.back()) <= ' ') text.remove_suffix(1);
  return text;
}

bool parseBooleanText(std::string_view text, bool& value) {
  text = trimJava(text);
  auto equalsIgnoreCase = [text](std::string_view word) {
    if (text.size() != word.size()) return false;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      if (c != word[i]) return false;
    }
    return true;
  };
  if (equalsIgnoreCase("true")) {
    value = true;
    return true;
  }
  if (equalsIgnoreCase("false")) {
    value = false;
    return true;
  }
  return false;
}

bool parseInt64Text(std::string_view text, int64_t min, int64_t max, int64_t& value) {
  text = trimJava(text);
  if (!text.empty() && text.front() == '+') {
    text.remove_prefix(1);
    if (!text.empty() && text.front() == '-') return false;
  }
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size() &&
         value >= min && value <= max;
}

namespace {

// Java's FloatingDecimal grammar, for from_chars: returns the text without sign handling issues.
template <typename Floating>
bool parseFloating(std::string_view text, Floating& value) {
  text = trimJava(text);
  bool negative = false;
  std::string_view body = text;
  if (!body.empty() && (body.front() == '+' || body.front() == '-')) {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (body == "NaN") {
    value = std::numeric_limits<Floating>::quiet_NaN();
    return true;
  }
  if (body == "Infinity") {
    value = negative ? -std::numeric_limits<Floating>::infinity()
                     : std::numeric_limits<Floating>::infinity();
    return true;
  }
  // Java allows a type suffix.
  if (!body.empty() &&
      (body.back() == 'f' || body.back() == 'F' || body.back() == 'd' || body.back() == 'D')) {
    body.remove_suffix(1);
  }
  // from_chars accepts "inf"/"nan" and hex only with the hex format; Java's text must start with
  // a digit or a point.
  if (body.empty() || !(isDigit(body.front()) || body.front() == '.')) return false;
  Floating parsed = 0;
  auto [end, error] =
      std::from_chars(body.data(), body.data() + body.size(), parsed, std::chars_format::general);
  if (end != body.data() + body.size()) return false;
  if (error == std::errc::result_out_of_range) {
    // Java rounds overflow to infinity and underflow to zero; from_chars reports both. Tell them
    // apart by the magnitude of the exponent.
    size_t exponent = body.find_first_of("eE");
    bool large = exponent == std::string_view::npos ||
                 (exponent + 1 < body.size() && body[exponent + 1] != '-');
    parsed = large ? std::numeric_limits<Floating>::infinity() : Floating(0);
  } else if (error != std::errc()) {
    return false;
  }
  value = negative ? -parsed : parsed;
  return true;
}

}  // namespace

bool parseDoubleText(std::string_view text, double& value) { return parseFloating(text, value); }
bool parseFloatText(std::string_view text, float& value) { return parseFloating(text, value); }

DecimalParseResult parseDecimalText(std::string_view text, int precision, int scale,
                                    __int128& unscaled) {
  text = trimJava(text);
  size_t position = 0;
  bool negative = false;
  if (position < text.size() && (text[position] == '+' || text[position] == '-')) {
    negative = text[position] == '-';
    ++position;
  }
  std::string digits;  // significant digits, without leading zeros
  int64_t fractionDigits = 0;
  bool anyDigit = false;
  bool point = false;
  for (; position < text.size(); ++position) {
    char c = text[position];
    if (isDigit(c)) {
      anyDigit = true;
      if (point) ++fractionDigits;
      if (c != '0' || !digits.empty()) digits.push_back(c);
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!anyDigit) return DecimalParseResult::kMalformed;
  int64_t exponent = 0;
  if (position < text.size() && (text[position] == 'e' || text[position] == 'E')) {
    ++position;
    bool negativeExponent = false;
    if (position < text.size() && (text[position] == '+' || text[position] == '-')) {
      negativeExponent = text[position] == '-';
      ++position;
    }
    size_t start = position;
    while (position < text.size() && isDigit(text[position])) {
      if (position - start < 10) exponent = exponent * 10 + (text[position] - '0');
      ++position;
    }
    if (position == start) return DecimalParseResult::kMalformed;
    if (position - start >= 10) exponent = 1'000'000'000;  // beyond any precision either way
    if (negativeExponent) exponent = -exponent;
  }
  if (position != text.size()) return DecimalParseResult::kMalformed;
  if (digits.empty()) {
    unscaled = 0;
    return DecimalParseResult::kOk;
  }
  // value = digits * 10^(exponent - fractionDigits); unscaled = value * 10^scale.
  int64_t shift = exponent - fractionDigits + scale;
  if (shift >= 0) {
    if (static_cast<int64_t>(digits.size()) + shift > precision) {
      return DecimalParseResult::kOutOfRange;
    }
    digits.append(static_cast<size_t>(shift), '0');
  } else {
    int64_t keep = static_cast<int64_t>(digits.size()) + shift;
    bool roundUp = false;
    if (keep >= 0) {
      roundUp = keep < static_cast<int64_t>(digits.size()) && digits[keep] >= '5';
      digits.resize(static_cast<size_t>(keep));
    } else {
      digits.clear();  // below half of the last kept digit
    }
    if (digits.empty()) digits = "0";
    if (roundUp) {
      int64_t i = static_cast<int64_t>(digits.size()) - 1;
      while (i >= 0 && digits[i] == '9') digits[i--] = '0';
      if (i < 0) {
        digits.insert(digits.begin(), '1');
      } else {
        ++digits[i];
      }
    }
    while (digits.size() > 1 && digits.front() == '0') digits.erase(digits.begin());
    if (static_cast<int64_t>(digits.size()) > precision && digits != "0") {
      return DecimalParseResult::kOutOfRange;
    }
  }
  __int128 value = 0;
  for (char c : digits) value = value * 10 + (c - '0');
  unscaled = negative ? -value : value;
  return DecimalParseResult::kOk;
}

bool parseDateText(std::string_view text, int32_t& epochDay) {
  size_t position = 0;
  int64_t days = 0;
  if (!readDate(text, position, days) || position != text.size()) return false;
  if (days < std::numeric_limits<int32_t>::min() || days > std::numeric_limits<int32_t>::max()) {
    return false;
  }
  epochDay = static_cast<int32_t>(days);
  return true;
}

bool parseTimeText(std::string_view text, int precision, int64_t& nanoOfDay) {
  size_t position = 0;
  return readTime(text, position, precision, nanoOfDay) && position == text.size();
}

bool parseTimestampText(std::string_view text, int precision, bool utcSuffix, int64_t& millisecond,
                        int32_t& nanoOfMillisecond) {
  size_t position = 0;
  int64_t epochDay = 0;
  int64_t nanoOfDay = 0;
  if (!readDate(text, position, epochDay)) return false;
  if (position >= text.size() || (text[position] != ' ' && text[position] != 'T')) return false;
  ++position;
  if (!readTime(text, position, precision, nanoOfDay)) return false;
  if (utcSuffix && position + 1 == text.size() && text[position] == 'Z') ++position;
  if (position != text.size()) return false;
  millisecond = epochDay * kMillisPerDay + nanoOfDay / kNanosPerMilli;
  nanoOfMillisecond = static_cast<int32_t>(nanoOfDay % kNanosPerMilli);
  return true;
}

bool decodeBase64(std::string_view text, std::string& bytes) {
  bytes.clear();
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return false;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    int value = base64Value(c);
    if (value < 0) return false;
    buffer = (buffer << 6) | static_cast<uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return true;
}

void appendDateText(int32_t epochDay, std::string& out) {
  types::CivilDate date = types::civilFromDays(epochDay);
  // As java.time's ISO_LOCAL_DATE: at least four year digits, '+' above 9999.
  int64_t year = date.year;
  if (year > 9999) out.push_back('+');
  if (year < 0) {
    out.push_back('-');
    year = -year;
  }
  std::string digits = std::to_string(year);
  if (digits.size() < 4) out.append(4 - digits.size(), '0');
  out += digits;
  out.push_back('-');
  appendTwoDigits(date.month, out);
  out.push_back('-');
  appendTwoDigits(date.day, out);
}

void appendTimeText(int64_t nanoOfDay, std::string& out) {
  int64_t seconds = nanoOfDay / kNanosPerSecond;
  appendTwoDigits(seconds / 3600, out);
  out.push_back(':');
  appendTwoDigits(seconds / 60 % 60, out);
  out.push_back(':');
  appendTwoDigits(seconds % 60, out);
  appendFraction(nanoOfDay % kNanosPerSecond, out);
}

void appendTimestampText(int64_t millisecond, int32_t nanoOfMillisecond, char separator,
                         std::string& out) {
  int64_t epochDay = types::floorDivide(millisecond, kMillisPerDay);
  int64_t millisOfDay = types::floorModulo(millisecond, kMillisPerDay);
  appendDateText(static_cast<int32_t>(epochDay), out);
  out.push_back(separator);
  appendTimeText(millisOfDay * kNanosPerMilli + nanoOfMillisecond, out);
}

void appendDecimalText(__int128 unscaled, int scale, DecimalNotation notation, std::string& out) {
  if (notation.stripTrailingZeros) {
    if (unscaled == 0) {
      scale = 0;  // BigDecimal.ZERO
    } else {
      while (unscaled % 10 == 0) {
        unscaled /= 10;
        --scale;
      }
    }
  }
  bool negative = unscaled < 0;
  std::string coefficient = types::int128ToString(negative ? -unscaled : unscaled);
  if (negative) out.push_back('-');
  int length = static_cast<int>(coefficient.size());
  if (notation.plain) {
    if (scale <= 0) {
      out += coefficient;
      if (unscaled != 0) out.append(static_cast<size_t>(-scale), '0');
    } else if (length > scale) {
      out.append(coefficient, 0, length - scale);
      out.push_back('.');
      out.append(coefficient, length - scale);
    } else {
      out += "0.";
      out.append(static_cast<size_t>(scale - length), '0');
      out += coefficient;
    }
    return;
  }
  // BigDecimal.toString: plain when scale >= 0 and the adjusted exponent >= -6.
  int64_t adjusted = -static_cast<int64_t>(scale) + length - 1;
  if (scale == 0) {
    out += coefficient;
    return;
  }
  if (scale > 0 && adjusted >= -6) {
    if (length > scale) {
      out.append(coefficient, 0, length - scale);
      out.push_back('.');
      out.append(coefficient, length - scale);
    } else {
      out += "0.";
      out.append(static_cast<size_t>(scale - length), '0');
      out += coefficient;
    }
    return;
  }
  out.push_back(coefficient[0]);
  if (length > 1) {
    out.push_back('.');
    out.append(coefficient, 1);
  }
  out.push_back('E');
  if (adjusted >= 0) out.push_back('+');
  out += std::to_string(adjusted);
}

void appendBase64(std::string_view bytes, std::string& out) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t group = (static_cast<uint8_t>(bytes[i]) << 16) |
                     (static_cast<uint8_t>(bytes[i + 1]) << 8) | static_cast<uint8_t>(bytes[i + 2]);
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out.push_back(kAlphabet[(group >> 6) & 63]);
    out.push_back(kAlphabet[group & 63]);
  }
  size_t rest = bytes.size() - i;
  if (rest == 1) {
    uint32_t group = static_cast<uint8_t>(bytes[i]) << 16;
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out += "==";
  } else if (rest == 2) {
    uint32_t group =
        (static_cast<uint8_t>(bytes[i]) << 16) | (static_cast<uint8_t>(bytes[i + 1]) << 8);
    out.push_back(kAlphabet[(group >> 18) & 63]);
    out.push_back(kAlphabet[(group >> 12) & 63]);
    out.push_back(kAlphabet[(group >> 6) & 63]);
    out.push_back('=');
  }
}

bool isTextScalarType(const LogicalType& type) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::FLOAT:
    case LogicalTypeRoot::DOUBLE:
    case LogicalTypeRoot::DECIMAL:
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
    case LogicalTypeRoot::DATE:
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
      return true;
    default:
      return false;
  }
}

bool hasNumberText(LogicalTypeRoot root) {
  switch (root) {
    case LogicalTypeRoot::TINYINT:
    case LogicalTypeRoot::SMALLINT:
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::FLOAT:
    case LogicalTypeRoot::DOUBLE:
    case LogicalTypeRoot::DECIMAL:
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
      return true;
    default:
      return false;
  }
}

namespace {

template <typename Integer>
TextParseResult appendInteger(vector::Vector& column, std::string_view text) {
  int64_t value = 0;
  if (!parseInt64Text(text, std::numeric_limits<Integer>::min(),
                      std::numeric_limits<Integer>::max(), value)) {
    return TextParseResult::kMalformed;
  }
  column.append(static_cast<Integer>(value));
  return TextParseResult::kOk;
}

}  // namespace

TextParseResult appendParsedText(vector::Vector& column, std::string_view text) {
  const LogicalType& type = *column.type();
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN: {
      bool value = false;
      if (!parseBooleanText(text, value)) return TextParseResult::kMalformed;
      column.append(value);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::TINYINT:
      return appendInteger<int8_t>(column, text);
    case LogicalTypeRoot::SMALLINT:
      return appendInteger<int16_t>(column, text);
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
      return appendInteger<int32_t>(column, text);
    case LogicalTypeRoot::BIGINT:
      return appendInteger<int64_t>(column, text);
    case LogicalTypeRoot::INTERVAL_DAY_TIME: {
      int64_t millis = 0;
      if (!parseInt64Text(text, std::numeric_limits<int64_t>::min(),
                          std::numeric_limits<int64_t>::max(), millis)) {
        return TextParseResult::kMalformed;
      }
      column.appendTimestamp(millis, 0);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::FLOAT: {
      float value = 0;
      if (!parseFloatText(text, value)) return TextParseResult::kMalformed;
      column.append(value);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::DOUBLE: {
      double value = 0;
      if (!parseDoubleText(text, value)) return TextParseResult::kMalformed;
      column.append(value);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::DECIMAL: {
      __int128 unscaled = 0;
      DecimalParseResult result =
          parseDecimalText(text, type.getPrecision(), type.getScale(), unscaled);
      if (result == DecimalParseResult::kMalformed) return TextParseResult::kMalformed;
      if (result == DecimalParseResult::kOutOfRange) return TextParseResult::kOutOfRange;
      column.append(unscaled);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      column.appendString(text);
      return TextParseResult::kOk;
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY: {
      std::string bytes;
      if (!decodeBase64(text, bytes)) return TextParseResult::kMalformed;
      column.appendString(bytes);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::DATE: {
      int32_t epochDay = 0;
      if (!parseDateText(text, epochDay)) return TextParseResult::kMalformed;
      column.append(epochDay);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE: {
      int64_t nanoOfDay = 0;
      if (!parseTimeText(text, type.getPrecision(), nanoOfDay)) return TextParseResult::kMalformed;
      column.append(nanoOfDay);
      return TextParseResult::kOk;
    }
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
      int64_t millisecond = 0;
      int32_t nanoOfMillisecond = 0;
      bool utcSuffix = type.getTypeRoot() == LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE;
      if (!parseTimestampText(text, type.getPrecision(), utcSuffix, millisecond,
                              nanoOfMillisecond)) {
        return TextParseResult::kMalformed;
      }
      column.appendTimestamp(millisecond, nanoOfMillisecond);
      return TextParseResult::kOk;
    }
    default:
      return TextParseResult::kMalformed;  // not a scalar type: the factories reject these
  }
}

void appendValueText(const vector::Vector& column, int64_t index, const TextWriteOptions& options,
                     std::string& out) {
  const LogicalType& type = *column.type();
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::BOOLEAN:
      out += column.data<bool>()[index] ? "true" : "false";
      return;
    case LogicalTypeRoot::TINYINT:
      out += std::to_string(column.data<int8_t>()[index]);
      return;
    case LogicalTypeRoot::SMALLINT:
      out += std::to_string(column.data<int16_t>()[index]);
      return;
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::INTERVAL_YEAR_MONTH:
      out += std::to_string(column.data<int32_t>()[index]);
      return;
    case LogicalTypeRoot::BIGINT:
      out += std::to_string(column.data<int64_t>()[index]);
      return;
    case LogicalTypeRoot::INTERVAL_DAY_TIME:
      out += std::to_string(column.data<int64_t>()[index]);
      return;
    case LogicalTypeRoot::FLOAT:
      appendFloat(column.data<float>()[index], out);
      return;
    case LogicalTypeRoot::DOUBLE:
      appendDouble(column.data<double>()[index], out);
      return;
    case LogicalTypeRoot::DECIMAL:
      appendDecimalText(column.data<__int128>()[index], type.getScale(), options.decimalNotation,
                        out);
      return;
    case LogicalTypeRoot::CHAR:
    case LogicalTypeRoot::VARCHAR:
      out += column.stringAt(index);
      return;
    case LogicalTypeRoot::BINARY:
    case LogicalTypeRoot::VARBINARY:
      appendBase64(column.stringAt(index), out);
      return;
    case LogicalTypeRoot::DATE:
      appendDateText(column.data<int32_t>()[index], out);
      return;
    case LogicalTypeRoot::TIME_WITHOUT_TIME_ZONE:
      appendTimeText(column.data<int64_t>()[index], out);
      return;
    case LogicalTypeRoot::TIMESTAMP_WITHOUT_TIME_ZONE:
      appendTimestampText(column.data<int64_t>()[index], column.nanosOfMillisecond()[index],
                          options.timestampSeparator, out);
      return;
    case LogicalTypeRoot::TIMESTAMP_WITH_LOCAL_TIME_ZONE:
      appendTimestampText(column.data<int64_t>()[index], column.nanosOfMillisecond()[index],
                          options.timestampSeparator, out);
      out.push_back('Z');
      return;
    default:
      return;  // not a scalar type: the factories reject these
  }
}

}  // namespace eddy::formats

// Java date-time patterns (see datetime_pattern.h): compiling, formatting and parsing.
#include "function/scalar/datetime_pattern.h"

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <tuple>

#include "eddy/clock.h"
#include "eddy/exceptions.h"
#include "function/scalar/calendar.h"

namespace eddy::function {
namespace {

using calendar::civilFromDays;
using calendar::daysFromCivil;
using calendar::floorDivide;
using calendar::floorModulo;
using Element = DateTimePattern::Element;

constexpr std::array<std::string_view, 12> kMonthNames{
    "January", "February", "March",     "April",   "May",      "June",
    "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<std::string_view, 7> kDayNames{"Monday", "Tuesday",  "Wednesday", "Thursday",
                                                    "Friday", "Saturday", "Sunday"};
constexpr std::array<std::string_view, 4> kQuarterNames{"1st quarter", "2nd quarter", "3rd quarter",
                                                        "4th quarter"};

[[noreturn]] void invalidPattern(const std::string& message) { throw TableException(message); }

// Monday = 1 .. Sunday = 7.
int isoDayOfWeek(int64_t epochDay) { return static_cast<int>(floorModulo(epochDay + 3, 7)) + 1; }
// Sunday = 0 .. Saturday = 6.
int sundayBasedDayOfWeek(int64_t epochDay) {
  return static_cast<int>(floorModulo(epochDay + 4, 7));
}

// Week of the year with weeks starting on Sunday and week 1 holding January 1st (the en-US
// rules of SimpleDateFormat and of DateTimeFormatter's localized week fields).
int usWeekOfYear(const DateTimeFields& fields) {
  int64_t nextJanuaryFirst = daysFromCivil(fields.year + 1, 1, 1);
  if (nextJanuaryFirst - fields.epochDay <= 6 - sundayBasedDayOfWeek(fields.epochDay)) return 1;
  int64_t januaryFirst = daysFromCivil(fields.year, 1, 1);
  return static_cast<int>(
      (fields.epochDay - januaryFirst + sundayBasedDayOfWeek(januaryFirst)) / 7 + 1);
}
int64_t usWeekYear(const DateTimeFields& fields) {
  return (usWeekOfYear(fields) == 1 && fields.month == 12) ? fields.year + 1 : fields.year;
}
int usWeekOfMonth(const DateTimeFields& fields) {
  int64_t firstOfMonth = fields.epochDay - (fields.day - 1);
  return (fields.day - 1 + sundayBasedDayOfWeek(firstOfMonth)) / 7 + 1;
}

void appendPadded(std::string& out, int64_t value, int width) {
  if (value < 0) {
    out.push_back('-');
    value = -value;
  }
  std::string digits = std::to_string(value);
  if (static_cast<int>(digits.size()) < width) out.append(width - digits.size(), '0');
  out.append(digits);
}

bool isPatternLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// --- Compiling. ---

int maxCountOf(char letter) {
  switch (letter) {
    case 'H':
    case 'h':
    case 'K':
    case 'k':
    case 'm':
    case 's':
    case 'd':
    case 'c':
    case 'F':
    case 'W':
      return 2;
    case 'a':
      return 1;
    case 'D':
      return 3;
    case 'S':
      return 9;
    case 'w':
      return 2;
    default:
      return 19;
  }
}

std::vector<Element> compileElements(std::string_view pattern, PatternDialect dialect) {
  bool javaTime = dialect == PatternDialect::kDateTimeFormatter;
  std::vector<Element> elements;
  std::vector<int> openSections;
  auto appendLiteral = [&](std::string_view text) {
    if (elements.empty() || elements.back().kind != Element::kLiteral) {
      elements.push_back(Element{Element::kLiteral, 0, 0, "", -1});
    }
    elements.back().literal.append(text);
  };
  for (size_t i = 0; i < pattern.size();) {
    char c = pattern[i];
    if (isPatternLetter(c)) {
      size_t end = i;
      while (end < pattern.size() && pattern[end] == c) ++end;
      int count = static_cast<int>(end - i);
      std::string_view known =
          javaTime ? "GuyYDMLdQqEecaHhKkmsSAnNwWFVzOXxZ" : "GyYMLwWDdFEuaHkKhmsSzZX";
      if (known.find(c) == std::string_view::npos) {
        invalidPattern(javaTime ? fmt::format("Unknown pattern letter: {}", c)
                                : fmt::format("Illegal pattern character '{}'", c));
      }
      if (javaTime) {
        if (count > maxCountOf(c) ||
            ((c == 'M' || c == 'L' || c == 'Q' || c == 'q' || c == 'E' || c == 'e' || c == 'G') &&
             count > 5)) {
          invalidPattern(fmt::format("Too many pattern letters: {}", c));
        }
        if (c == 'V' && count != 2) invalidPattern("Pattern letter count must be 2: V");
      }
      elements.push_back(Element{Element::kField, c, count, "", -1});
      i = end;
    } else if (c == '\'') {
      size_t end = i + 1;
      std::string literal;
      while (true) {
        if (end >= pattern.size()) {
          invalidPattern(
              javaTime ? fmt::format("Pattern ends with an incomplete string literal: {}", pattern)
                       : "Unterminated quote");
        }
        if (pattern[end] == '\'') {
          if (end + 1 < pattern.size() && pattern[end + 1] == '\'') {
            literal.push_back('\'');
            end += 2;
            continue;
          }
          break;
        }
        literal.push_back(pattern[end++]);
      }
      appendLiteral(end == i + 1 ? std::string_view("'") : std::string_view(literal));
      i = end + 1;
    } else if (javaTime && c == '[') {
      openSections.push_back(static_cast<int>(elements.size()));
      elements.push_back(Element{Element::kOptionalStart, 0, 0, "", -1});
      ++i;
    } else if (javaTime && c == ']') {
      if (openSections.empty()) {
        invalidPattern("Pattern invalid as it contains ] without previous [");
      }
      elements[openSections.back()].optionalEnd = static_cast<int>(elements.size());
      openSections.pop_back();
      elements.push_back(Element{Element::kOptionalEnd, 0, 0, "", -1});
      ++i;
    } else if (javaTime && (c == '{' || c == '}' || c == '#')) {
      invalidPattern(fmt::format("Pattern includes reserved character: '{}'", c));
    } else {
      appendLiteral(pattern.substr(i, 1));
      ++i;
    }
  }
  while (!openSections.empty()) {  // an unclosed [ runs to the end
    elements[openSections.back()].optionalEnd = static_cast<int>(elements.size());
    openSections.pop_back();
    elements.push_back(Element{Element::kOptionalEnd, 0, 0, "", -1});
  }
  return elements;
}

// --- Formatting. ---

// The fields both dialects print alike: day, week and clock numbers (padded to the letter
// count), and the AM/PM marker. False for the letters whose meaning depends on the dialect.
bool formatSharedField(const Element& element, const DateTimeFields& f, std::string& out) {
  auto number = [&](int64_t value) {
    appendPadded(out, value, element.count);
    return true;
  };
  switch (element.letter) {
    case 'd':
      return number(f.day);
    case 'D':
      return number(f.epochDay - daysFromCivil(f.year, 1, 1) + 1);
    case 'w':
      return number(usWeekOfYear(f));
    case 'W':
      return number(usWeekOfMonth(f));
    case 'F':
      return number((f.day - 1) / 7 + 1);
    case 'a':
      out.append(f.hour < 12 ? "AM" : "PM");
      return true;
    case 'H':
      return number(f.hour);
    case 'k':
      return number(f.hour == 0 ? 24 : f.hour);
    case 'K':
      return number(f.hour % 12);
    case 'h':
      return number(f.hour % 12 == 0 ? 12 : f.hour % 12);
    case 'm':
      return number(f.minute);
    case 's':
      return number(f.second);
    default:
      return false;
  }
}

void formatJavaTime(const Element& element, const DateTimeFields& f, std::string& out) {
  int count = element.count;
  int64_t yearOfEra = f.year > 0 ? f.year : 1 - f.year;
  auto number = [&](int64_t value) { appendPadded(out, value, count); };
  auto year = [&](int64_t value, bool signedYear) {
    if (count == 2) {
      appendPadded(out, floorModulo(value, 100), 2);
    } else if (count < 4) {
      appendPadded(out, value, count);
    } else {
      if (value > 0 && std::to_string(value).size() > static_cast<size_t>(count)) {
        out.push_back('+');
      }
      (void)signedYear;
      appendPadded(out, value, count);
    }
  };
  auto text = [&](std::string_view full, int shortLength) {
    if (count == 4) {
      out.append(full);
    } else if (count == 5) {
      out.append(full.substr(0, 1));
    } else {
      out.append(full.substr(0, static_cast<size_t>(shortLength)));
    }
  };
  switch (element.letter) {
    case 'G':
      if (count == 4) {
        out.append(f.year > 0 ? "Anno Domini" : "Before Christ");
      } else {
        out.append(count == 5 ? (f.year > 0 ? "A" : "B") : (f.year > 0 ? "AD" : "BC"));
      }
      return;
    case 'y':
      return year(yearOfEra, false);
    case 'u':
      return year(f.year, true);
    case 'Y':
      return year(usWeekYear(f), false);
    case 'M':
    case 'L':
      if (count <= 2) return number(f.month);
      return text(kMonthNames[f.month - 1], 3);
    case 'Q':
    case 'q': {
      int quarter = (f.month + 2) / 3;
      if (count <= 2) return number(quarter);
      if (count == 3) {
        out.append("Q" + std::to_string(quarter));
        return;
      }
      if (count == 4) {
        out.append(kQuarterNames[quarter - 1]);
        return;
      }
      out.append(std::to_string(quarter));
      return;
    }
    case 'E':
      return text(kDayNames[isoDayOfWeek(f.epochDay) - 1], 3);
    case 'e':
    case 'c':
      if (count <= 2) return number(sundayBasedDayOfWeek(f.epochDay) + 1);
      return text(kDayNames[isoDayOfWeek(f.epochDay) - 1], 3);
    case 'S':
      out.append(fmt::format("{:09d}", f.nanoOfSecond).substr(0, static_cast<size_t>(count)));
      return;
    case 'n':
      return number(f.nanoOfSecond);
    case 'A':
      return number((int64_t{f.hour} * 3600 + f.minute * 60 + f.second) * 1000 +
                    f.nanoOfSecond / 1'000'000);
    case 'N':
      return number((int64_t{f.hour} * 3600 + f.minute * 60 + f.second) * 1'000'000'000 +
                    f.nanoOfSecond);
    default:
      throw TableException(fmt::format(
          "Unsupported field: pattern letter '{}' needs a time zone, which a TIMESTAMP has not",
          element.letter));
  }
}

void formatSimpleDateFormat(const Element& element, const DateTimeFields& f, std::string& out) {
  int count = element.count;
  int64_t yearOfEra = f.year > 0 ? f.year : 1 - f.year;
  auto number = [&](int64_t value) { appendPadded(out, value, count); };
  auto text = [&](std::string_view full) { out.append(count >= 4 ? full : full.substr(0, 3)); };
  switch (element.letter) {
    case 'G':
      out.append(f.year > 0 ? "AD" : "BC");
      return;
    case 'y':
      return count == 2 ? appendPadded(out, yearOfEra % 100, 2) : number(yearOfEra);
    case 'Y': {
      int64_t weekYear = usWeekYear(f);
      return count == 2 ? appendPadded(out, weekYear % 100, 2) : number(weekYear);
    }
    case 'M':
    case 'L':
      if (count >= 3) return text(kMonthNames[f.month - 1]);
      return number(f.month);
    case 'E':
      return text(kDayNames[isoDayOfWeek(f.epochDay) - 1]);
    case 'u':
      return number(isoDayOfWeek(f.epochDay));
    case 'S':
      return number(f.nanoOfSecond / 1'000'000);
    case 'z':
      out.append(count >= 4 ? "Coordinated Universal Time" : "UTC");
      return;
    case 'Z':
      out.append("+0000");
      return;
    case 'X':
      out.append("Z");
      return;
    default:
      return;
  }
}

// --- Parsing. ---

// What a parse found; resolved into a timestamp at the end.
struct ParsedFields {
  std::optional<int64_t> year, yearOfEra, reducedYear, era, month, day, dayOfYear;
  std::optional<int64_t> hourOfDay, clockHourOfDay, hourOfAmPm, clockHourOfAmPm, amPm;
  std::optional<int64_t> minute, second, nanoOfSecond, milliOfSecond, milliOfDay;
  int64_t offsetMillis = 0;
};

bool isNumericElement(const Element& element, PatternDialect dialect) {
  if (element.kind != Element::kField) return false;
  char c = element.letter;
  if (dialect == PatternDialect::kDateTimeFormatter) {
    if (c == 'M' || c == 'L' || c == 'Q' || c == 'q' || c == 'e' || c == 'c') {
      return element.count <= 2;
    }
    return std::string_view("yuYdDHhKkmsSnNAwWF").find(c) != std::string_view::npos;
  }
  if (c == 'M' || c == 'L') return element.count <= 2;
  return std::string_view("yYwWDdFuHkKhmsS").find(c) != std::string_view::npos;
}

// Digits a DateTimeFormatter numeric element takes: [minimum, maximum].
std::pair<int, int> javaTimeWidth(const Element& element) {
  int count = element.count;
  switch (element.letter) {
    case 'y':
    case 'u':
    case 'Y':
      if (count == 2) return {2, 2};
      return {count, 19};
    case 'S':
      return {count, count};
    case 'D':
      if (count == 1) return {1, 3};
      return count == 2 ? std::pair{2, 3} : std::pair{3, 3};
    case 'n':
    case 'N':
    case 'A':
      return {count, 19};
    default:
      return count == 1 ? std::pair{1, 19} : std::pair{count, count};
  }
}

bool matchText(std::string_view text, size_t& position, std::string_view candidate,
               bool ignoreCase) {
  if (text.size() - position < candidate.size()) return false;
  for (size_t i = 0; i < candidate.size(); ++i) {
    char a = text[position + i];
    char b = candidate[i];
    if (ignoreCase ? std::tolower(static_cast<unsigned char>(a)) !=
                         std::tolower(static_cast<unsigned char>(b))
                   : a != b) {
      return false;
    }
  }
  position += candidate.size();
  return true;
}

// Matches one of `names` (full names, or their first `shortLength` characters); the index.
std::optional<int> matchName(std::string_view text, size_t& position, const std::string_view* names,
                             size_t nameCount, bool full, bool abbreviated, bool ignoreCase) {
  for (size_t i = 0; i < nameCount && full; ++i) {
    if (matchText(text, position, names[i], ignoreCase)) return static_cast<int>(i);
  }
  for (size_t i = 0; i < nameCount && abbreviated; ++i) {
    if (matchText(text, position, names[i].substr(0, 3), ignoreCase)) return static_cast<int>(i);
  }
  return std::nullopt;
}

// A zone offset: Z, +HH, +HHMM, +HH:MM, optionally after UTC / GMT.
bool parseOffset(std::string_view text, size_t& position, int64_t& offsetMillis) {
  if (matchText(text, position, "Z", false)) {
    offsetMillis = 0;
    return true;
  }
  bool named = matchText(text, position, "UTC", true) || matchText(text, position, "GMT", true);
  if (position >= text.size() || (text[position] != '+' && text[position] != '-')) {
    offsetMillis = 0;
    return named;
  }
  int sign = text[position] == '-' ? -1 : 1;
  ++position;
  auto twoDigits = [&](int64_t& value) {
    if (position + 2 > text.size() || !std::isdigit(static_cast<unsigned char>(text[position])) ||
        !std::isdigit(static_cast<unsigned char>(text[position + 1]))) {
      return false;
    }
    value = (text[position] - '0') * 10 + (text[position + 1] - '0');
    position += 2;
    return true;
  };
  int64_t hours = 0;
  int64_t minutes = 0;
  if (!twoDigits(hours)) return false;
  if (position < text.size() && text[position] == ':') ++position;
  twoDigits(minutes);
  offsetMillis = sign * (hours * 3600 + minutes * 60) * 1000;
  return true;
}

class PatternParser {
 public:
  PatternParser(const std::vector<Element>& elements, PatternDialect dialect)
      : elements_(elements), dialect_(dialect) {}

  // Parses elements [from, to) from text[position..]; false when they do not match.
  bool parseRange(int from, int to, std::string_view text, size_t& position,
                  ParsedFields& parsed) const {
    for (int index = from; index < to; ++index) {
      const Element& element = elements_[index];
      switch (element.kind) {
        case Element::kOptionalStart: {
          size_t saved = position;
          ParsedFields savedFields = parsed;
          if (!parseRange(index + 1, element.optionalEnd, text, position, parsed)) {
            position = saved;
            parsed = savedFields;
          }
          index = element.optionalEnd;
          break;
        }
        case Element::kOptionalEnd:
          break;
        case Element::kLiteral:
          if (!matchText(text, position, element.literal, false)) return false;
          break;
        case Element::kField:
          if (!parseField(index, text, position, parsed)) return false;
          break;
      }
    }
    return true;
  }

 private:
  bool javaTime() const { return dialect_ == PatternDialect::kDateTimeFormatter; }

  // The digits the numeric fields right after `index` need (DateTimeFormatter's adjacent
  // value parsing), so that "yyyyMMdd" splits 20240131.
  int reservedAfter(int index) const {
    int reserved = 0;
    for (size_t next = static_cast<size_t>(index) + 1; next < elements_.size(); ++next) {
      const Element& element = elements_[next];
      if (!isNumericElement(element, dialect_)) break;
      auto [minimum, maximum] = javaTimeWidth(element);
      if (minimum != maximum) break;
      reserved += minimum;
    }
    return reserved;
  }

  bool readNumber(int index, std::string_view text, size_t& position, int64_t& value,
                  int& digits) const {
    const Element& element = elements_[index];
    int minimum = 1;
    int maximum = 19;
    if (javaTime()) {
      std::tie(minimum, maximum) = javaTimeWidth(element);
      if (minimum != maximum) {
        int available = 0;
        while (position + available < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[position + available]))) {
          ++available;
        }
        maximum = std::min(maximum, available - reservedAfter(index));
      }
    } else {
      // SimpleDateFormat obeys the letter count only when another field follows directly.
      bool abutting = static_cast<size_t>(index) + 1 < elements_.size() &&
                      elements_[index + 1].kind == Element::kField;
      if (abutting) maximum = std::max(element.count, 1);
    }
    value = 0;
    digits = 0;
    while (digits < maximum && position < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[position]))) {
      value = value * 10 + (text[position] - '0');
      ++position;
      ++digits;
    }
    return digits >= minimum && digits > 0;
  }

  bool parseField(int index, std::string_view text, size_t& position, ParsedFields& parsed) const {
    const Element& element = elements_[index];
    char letter = element.letter;
    int count = element.count;
    if (!javaTime()) {
      while (position < text.size() && (text[position] == ' ' || text[position] == '\t')) {
        ++position;
      }
    }
    bool ignoreCase = !javaTime();
    if (!isNumericElement(element, dialect_)) {
      switch (letter) {
        case 'G': {
          static constexpr std::string_view kEras[] = {"BC", "AD"};
          auto era = matchName(text, position, kEras, 2, true, false, ignoreCase);
          if (!era) return false;
          parsed.era = *era;
          return true;
        }
        case 'M':
        case 'L': {
          bool full = javaTime() ? count == 4 : true;
          bool abbreviated = javaTime() ? count == 3 : true;
          auto month =
              matchName(text, position, kMonthNames.data(), 12, full, abbreviated, ignoreCase);
          if (!month) return false;
          parsed.month = *month + 1;
          return true;
        }
        case 'E':
        case 'e':
        case 'c': {
          bool full = javaTime() ? count == 4 : true;
          bool abbreviated = javaTime() ? count <= 3 : true;
          return matchName(text, position, kDayNames.data(), 7, full, abbreviated, ignoreCase)
              .has_value();
        }
        case 'a': {
          static constexpr std::string_view kAmPm[] = {"AM", "PM"};
          auto amPm = matchName(text, position, kAmPm, 2, true, false, ignoreCase);
          if (!amPm) return false;
          parsed.amPm = *amPm;
          return true;
        }
        case 'Q':
        case 'q':
          if (count == 3)
            return matchText(text, position, "Q", false) && position < text.size() &&
                   std::isdigit(static_cast<unsigned char>(text[position++]));
          return matchName(text, position, kQuarterNames.data(), 4, true, false, false).has_value();
        default:  // zones
          return parseOffset(text, position, parsed.offsetMillis);
      }
    }
    int64_t value = 0;
    int digits = 0;
    if (!readNumber(index, text, position, value, digits)) return false;
    switch (letter) {
      case 'y':
      case 'Y':
        if (count == 2 && (javaTime() || digits == 2)) {
          parsed.reducedYear = value;
        } else {
          parsed.yearOfEra = value;
        }
        return true;
      case 'u':
        if (!javaTime()) return true;  // SimpleDateFormat's day number of the week
        if (count == 2) {
          parsed.reducedYear = value;
        } else {
          parsed.year = value;
        }
        return true;
      case 'M':
      case 'L':
        parsed.month = value;
        return true;
      case 'd':
        parsed.day = value;
        return true;
      case 'D':
        parsed.dayOfYear = value;
        return true;
      case 'H':
        parsed.hourOfDay = value;
        return true;
      case 'k':
        parsed.clockHourOfDay = value;
        return true;
      case 'K':
        parsed.hourOfAmPm = value;
        return true;
      case 'h':
        parsed.clockHourOfAmPm = value;
        return true;
      case 'm':
        parsed.minute = value;
        return true;
      case 's':
        parsed.second = value;
        return true;
      case 'S':
        if (javaTime()) {
          int64_t nanos = value;
          for (int digit = digits; digit < 9; ++digit) nanos *= 10;
          parsed.nanoOfSecond = nanos;
        } else {
          parsed.milliOfSecond = value;
        }
        return true;
      case 'n':
        parsed.nanoOfSecond = value;
        return true;
      case 'A':
        parsed.milliOfDay = value;
        return true;
      default:  // week fields, quarter numbers, F: parsed, not used to resolve the date
        return true;
    }
  }

  const std::vector<Element>& elements_;
  PatternDialect dialect_;
};

// The current year, for SimpleDateFormat's two-digit years (within 80 years before and 20
// after now).
int64_t currentYear() {
  return civilFromDays(
             floorDivide(SystemClock::instance().currentTimeMillis(), calendar::kMillisPerDay))
      .year;
}

// DateTimeFormatter's SMART resolution; nullopt when a field is out of range.
std::optional<TimestampValue> resolveJavaTime(const ParsedFields& p) {
  auto inRange = [](const std::optional<int64_t>& value, int64_t low, int64_t high) {
    return !value || (*value >= low && *value <= high);
  };
  if (!inRange(p.month, 1, 12) || !inRange(p.day, 1, 31) || !inRange(p.dayOfYear, 1, 366) ||
      !inRange(p.hourOfDay, 0, 23) || !inRange(p.clockHourOfDay, 1, 24) ||
      !inRange(p.hourOfAmPm, 0, 11) || !inRange(p.clockHourOfAmPm, 1, 12) ||
      !inRange(p.minute, 0, 59) || !inRange(p.second, 0, 59) ||
      !inRange(p.milliOfDay, 0, 86399999)) {
    return std::nullopt;
  }
  int64_t year = 1970;
  bool hasYear = true;
  if (p.year) {
    year = *p.year;
  } else if (p.yearOfEra) {
    year = (p.era && *p.era == 0) ? 1 - *p.yearOfEra : *p.yearOfEra;
  } else if (p.reducedYear) {
    year = 2000 + *p.reducedYear;
  } else {
    hasYear = false;
  }
  int64_t month = p.month.value_or(1);
  int64_t day = p.day.value_or(1);
  int64_t epochDay;
  if (p.dayOfYear && !p.month && !p.day && hasYear) {
    if (*p.dayOfYear == 366 && !calendar::isLeapYear(year)) return std::nullopt;
    epochDay = daysFromCivil(year, 1, 1) + *p.dayOfYear - 1;
  } else {
    if (p.month && p.day && hasYear) {
      day = std::min<int64_t>(day, calendar::daysInMonth(year, static_cast<int>(month)));
    } else if (day > calendar::daysInMonth(year, static_cast<int>(month))) {
      day = calendar::daysInMonth(year, static_cast<int>(month));
    }
    epochDay = daysFromCivil(year, static_cast<int>(month), static_cast<int>(day));
  }
  int64_t hour = 0;
  if (p.hourOfDay) {
    hour = *p.hourOfDay;
  } else if (p.clockHourOfDay) {
    hour = *p.clockHourOfDay % 24;
  } else if (p.amPm && (p.hourOfAmPm || p.clockHourOfAmPm)) {
    hour = *p.amPm * 12 + (p.hourOfAmPm ? *p.hourOfAmPm : *p.clockHourOfAmPm % 12);
  }
  int64_t nanos = p.nanoOfSecond.value_or(0);
  int64_t millisOfDay =
      p.milliOfDay ? *p.milliOfDay
                   : (hour * 3600 + p.minute.value_or(0) * 60 + p.second.value_or(0)) * 1000;
  int64_t millis = epochDay * calendar::kMillisPerDay + millisOfDay + nanos / 1'000'000;
  return TimestampValue{millis, static_cast<int32_t>(nanos % 1'000'000)};
}

// SimpleDateFormat's lenient resolution: fields roll over.
TimestampValue resolveLenient(const ParsedFields& p) {
  int64_t year = 1970;
  if (p.yearOfEra) {
    year = (p.era && *p.era == 0) ? 1 - *p.yearOfEra : *p.yearOfEra;
  } else if (p.reducedYear) {
    int64_t start = currentYear() - 80;
    year = start - floorModulo(start, 100) + *p.reducedYear;
    if (year < start) year += 100;
  }
  int64_t epochDay;
  if (p.dayOfYear && !p.month && !p.day) {
    epochDay = daysFromCivil(year, 1, 1) + *p.dayOfYear - 1;
  } else {
    int64_t monthIndex = year * 12 + p.month.value_or(1) - 1;
    epochDay = daysFromCivil(floorDivide(monthIndex, 12),
                             static_cast<int>(floorModulo(monthIndex, 12)) + 1, 1) +
               p.day.value_or(1) - 1;
  }
  int64_t hour = 0;
  if (p.hourOfDay) {
    hour = *p.hourOfDay;
  } else if (p.clockHourOfDay) {
    hour = *p.clockHourOfDay == 24 ? 0 : *p.clockHourOfDay;
  } else if (p.hourOfAmPm || p.clockHourOfAmPm) {
    int64_t hourOfAmPm = p.hourOfAmPm ? *p.hourOfAmPm : *p.clockHourOfAmPm % 12;
    hour = p.amPm.value_or(0) * 12 + hourOfAmPm;
  }
  int64_t millis = epochDay * calendar::kMillisPerDay + hour * calendar::kMillisPerHour +
                   p.minute.value_or(0) * calendar::kMillisPerMinute +
                   p.second.value_or(0) * calendar::kMillisPerSecond + p.milliOfSecond.value_or(0) -
                   p.offsetMillis;
  return TimestampValue{millis, 0};
}

}  // namespace

DateTimeFields fieldsOfTimestamp(int64_t millis, int32_t nanoOfMillisecond) {
  DateTimeFields fields;
  fields.epochDay = floorDivide(millis, calendar::kMillisPerDay);
  calendar::CivilDate date = civilFromDays(fields.epochDay);
  fields.year = date.year;
  fields.month = date.month;
  fields.day = date.day;
  int64_t millisOfDay = floorModulo(millis, calendar::kMillisPerDay);
  fields.hour = static_cast<int>(millisOfDay / calendar::kMillisPerHour);
  fields.minute = static_cast<int>(millisOfDay / calendar::kMillisPerMinute % 60);
  fields.second = static_cast<int>(millisOfDay / 1000 % 60);
  fields.nanoOfSecond = static_cast<int>(millisOfDay % 1000 * 1'000'000 + nanoOfMillisecond);
  return fields;
}

DateTimePattern DateTimePattern::compile(std::string_view pattern, PatternDialect dialect) {
  return DateTimePattern(dialect, compileElements(pattern, dialect));
}

void DateTimePattern::format(const DateTimeFields& fields, std::string& out) const {
  for (const Element& element : elements_) {
    if (element.kind == Element::kLiteral) {
      out.append(element.literal);
    } else if (element.kind == Element::kField) {
      if (formatSharedField(element, fields, out)) continue;
      if (dialect_ == PatternDialect::kDateTimeFormatter) {
        formatJavaTime(element, fields, out);
      } else {
        formatSimpleDateFormat(element, fields, out);
      }
    }
  }
}

bool DateTimePattern::hasZone() const {
  for (const Element& element : elements_) {
    if (element.kind == Element::kField &&
        std::string_view("zZXxO").find(element.letter) != std::string_view::npos) {
      return true;
    }
  }
  return false;
}

std::optional<TimestampValue> DateTimePattern::parse(std::string_view text) const {
  PatternParser parser(elements_, dialect_);
  ParsedFields parsed;
  size_t position = 0;
  if (!parser.parseRange(0, static_cast<int>(elements_.size()), text, position, parsed)) {
    return std::nullopt;
  }
  if (dialect_ == PatternDialect::kDateTimeFormatter) {
    if (position != text.size()) return std::nullopt;
    return resolveJavaTime(parsed);
  }
  if (position == 0 && !text.empty()) return std::nullopt;
  return resolveLenient(parsed);
}

}  // namespace eddy::function

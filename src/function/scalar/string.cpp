// String functions over CHAR/VARCHAR (UTF-8): UPPER, LOWER, INITCAP, ASCII, CHR, LEFT, RIGHT,
// CHAR_LENGTH, SUBSTRING,
// TRIM/LTRIM/RTRIM, CONCAT, `||`, CONCAT_WS, REPLACE, LPAD/RPAD, POSITION, LOCATE, REVERSE,
// REPEAT, SPLIT_INDEX, LIKE. Positions and lengths count Unicode code points (Flink counts
// UTF-16 units; the two agree outside the supplementary planes). UPPER and LOWER map every
// Unicode letter; INITCAP, as Flink's (Calcite's SqlFunctions.initcap), only ASCII letters.
// Each follows the Java implementation Flink runs (SqlFunctionUtils, BinaryStringDataUtil);
// the differences are listed in docs/functions.md.
#include <fmt/format.h>

#include <utf8proc.h>

#include <algorithm>
#include <vector>

#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using std::string_view;

// --- UTF-8 code points. ---

int codePointWidth(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 1;  // a stray continuation byte counts as one
}

int64_t codePointCount(string_view text) {
  int64_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80;
  return count;
}

// Byte offset of code point `index` (clamped to the end).
size_t byteOffsetOf(string_view text, int64_t index) {
  size_t offset = 0;
  while (index > 0 && offset < text.size()) {
    offset += static_cast<size_t>(codePointWidth(static_cast<unsigned char>(text[offset])));
    --index;
  }
  return std::min(offset, text.size());
}

char asciiUpper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }
char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }
bool asciiAlphanumeric(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// --- Operations. ---

bool isAscii(string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

void appendCodePoint(utf8proc_int32_t codePoint, std::string& out) {
  utf8proc_uint8_t bytes[4];
  utf8proc_ssize_t length = utf8proc_encode_char(codePoint, bytes);
  out.append(reinterpret_cast<const char*>(bytes), static_cast<size_t>(length));
}

/// Calls `visit(codePoint, bytes)` for each code point of `text`; a byte that starts no valid
/// UTF-8 sequence is visited alone with code point -1 (and copied through unchanged).
template <typename Visit>
void forEachCodePoint(string_view text, Visit&& visit) {
  const auto* bytes = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  size_t offset = 0;
  while (offset < text.size()) {
    utf8proc_int32_t codePoint = -1;
    utf8proc_ssize_t length =
        utf8proc_iterate(bytes + offset, static_cast<utf8proc_ssize_t>(text.size() - offset),
                         &codePoint);
    if (length <= 0) {
      length = 1;
      codePoint = -1;
    }
    visit(codePoint, text.substr(offset, static_cast<size_t>(length)));
    offset += static_cast<size_t>(length);
  }
}

bool isLetter(utf8proc_int32_t codePoint) {
  if (codePoint < 0) return false;
  utf8proc_category_t category = utf8proc_category(codePoint);
  return category >= UTF8PROC_CATEGORY_LU && category <= UTF8PROC_CATEGORY_LO;
}

// UPPER and LOWER map every Unicode letter, as Flink's BinaryStringData.toUpperCase /
// toLowerCase do (ASCII in place, anything else through Java's String.toUpperCase /
// toLowerCase): Unicode's simple case mappings, plus the unconditional full mappings Java
// applies that change the length — `ß` to `SS`, the Latin ligatures `ﬀ`..`ﬆ` and `ŉ` upper
// case; `İ` to `i̇` lower case — and Greek capital sigma as final `ς` at a word's end.
struct UpperOperation {
  std::string operator()(string_view text) const {
    std::string result(text);
    if (isAscii(text)) {
      for (char& c : result) c = asciiUpper(c);
      return result;
    }
    result.clear();
    forEachCodePoint(text, [&](utf8proc_int32_t codePoint, string_view bytes) {
      switch (codePoint) {
        case -1:
          result += bytes;
          return;
        case 0x00DF:  // ß
          result += "SS";
          return;
        case 0x0149:  // ŉ
          result += "\u02BCN";
          return;
        case 0xFB00:
          result += "FF";
          return;
        case 0xFB01:
          result += "FI";
          return;
        case 0xFB02:
          result += "FL";
          return;
        case 0xFB03:
          result += "FFI";
          return;
        case 0xFB04:
          result += "FFL";
          return;
        case 0xFB05:
        case 0xFB06:
          result += "ST";
          return;
        default:
          appendCodePoint(utf8proc_toupper(codePoint), result);
      }
    });
    return result;
  }
};

struct LowerOperation {
  std::string operator()(string_view text) const {
    std::string result(text);
    if (isAscii(text)) {
      for (char& c : result) c = asciiLower(c);
      return result;
    }
    result.clear();
    std::vector<utf8proc_int32_t> codePoints;
    std::vector<string_view> pieces;
    forEachCodePoint(text, [&](utf8proc_int32_t codePoint, string_view bytes) {
      codePoints.push_back(codePoint);
      pieces.push_back(bytes);
    });
    for (size_t i = 0; i < codePoints.size(); ++i) {
      utf8proc_int32_t codePoint = codePoints[i];
      if (codePoint == -1) {
        result += pieces[i];
      } else if (codePoint == 0x0130) {  // İ: i and a combining dot above
        result += "i\u0307";
      } else if (codePoint == 0x03A3) {  // Σ: final ς after a letter, before none
        bool final = i > 0 && isLetter(codePoints[i - 1]) &&
                     (i + 1 == codePoints.size() || !isLetter(codePoints[i + 1]));
        appendCodePoint(final ? 0x03C2 : 0x03C3, result);
      } else {
        appendCodePoint(utf8proc_tolower(codePoint), result);
      }
    }
    return result;
  }
};

// First letter or digit of each alphanumeric run upper case, the rest lower case: ASCII only,
// as Calcite's SqlFunctions.initcap that Flink runs (any other character ends a word).
struct InitCapOperation {
  std::string operator()(string_view text) const {
    std::string result(text);
    bool capitalizeNext = true;
    for (char& c : result) {
      if (asciiAlphanumeric(c)) {
        c = capitalizeNext ? asciiUpper(c) : asciiLower(c);
        capitalizeNext = false;
      } else {
        capitalizeNext = true;
      }
    }
    return result;
  }
};

struct CharLengthOperation {
  int32_t operator()(string_view text) const { return static_cast<int32_t>(codePointCount(text)); }
};

// ASCII(s): the first character's UTF-16 code unit as Java's charAt(0) gives it (a code point
// above U+FFFF gives its high surrogate), 0 for ''.
struct AsciiOperation {
  int32_t operator()(string_view text) const {
    if (text.empty()) return 0;
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    uint32_t lead = bytes[0];
    int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    uint32_t codePoint = length == 1 ? lead : lead & (0xFFu >> (length + 1));
    for (int i = 1; i < length && static_cast<size_t>(i) < text.size(); ++i) {
      codePoint = (codePoint << 6) | (bytes[i] & 0x3F);
    }
    if (codePoint > 0xFFFF) return static_cast<int32_t>(0xD800 + ((codePoint - 0x10000) >> 10));
    return static_cast<int32_t>(codePoint);
  }
};

// CHR(n), Flink's SqlFunctionUtils.chr: '' for a negative n, else the character n & 0xFF
// (Latin-1, so 128..255 take two UTF-8 bytes); n & 0xFF = 0 gives the NUL character.
struct ChrOperation {
  std::string operator()(int32_t value) const {
    if (value < 0) return std::string();
    const auto code = static_cast<unsigned char>(value & 0xFF);
    if (code < 0x80) return std::string(1, static_cast<char>(code));
    return std::string{static_cast<char>(0xC0 | (code >> 6)), static_cast<char>(0x80 | (code & 0x3F))};
  }
};

// LEFT(s, n) / RIGHT(s, n): the first / last n characters; '' for n <= 0, all of s when n is
// longer.
struct LeftRightOperation {
  bool left;
  string_view operator()(string_view text, int32_t count) const {
    if (count <= 0) return string_view();
    const int64_t length = codePointCount(text);
    if (count >= length) return text;
    if (left) return text.substr(0, byteOffsetOf(text, count));
    return text.substr(byteOffsetOf(text, length - count));
  }
};

// SUBSTRING(s FROM start [FOR length]), Flink's substringSQL: start 1-based; 0 means 1; a
// negative start counts from the end; the range is clamped to the string.
struct SubstringOperation {
  string_view operator()(string_view text, int32_t start, int32_t length) const {
    int64_t count = codePointCount(text);
    int64_t from = start > 0 ? start - 1 : (start < 0 ? count + start : 0);
    int64_t to = length == INT32_MAX ? count : from + length;
    from = std::max<int64_t>(from, 0);
    to = std::min(to, count);
    if (to <= from) return string_view();
    size_t begin = byteOffsetOf(text, from);
    size_t end = begin + byteOffsetOf(text.substr(begin), to - from);
    return text.substr(begin, end - begin);
  }
};

enum class TrimSide { kBoth, kLeading, kTrailing };

struct TrimOperation {
  TrimSide side;
  string_view operator()(string_view text, string_view characters) const {
    auto removable = [&](char c) { return characters.find(c) != string_view::npos; };
    size_t begin = 0;
    size_t end = text.size();
    if (side != TrimSide::kTrailing) {
      while (begin < end && removable(text[begin])) ++begin;
    }
    if (side != TrimSide::kLeading) {
      while (end > begin && removable(text[end - 1])) --end;
    }
    return text.substr(begin, end - begin);
  }
};

struct ReplaceOperation {
  std::string operator()(string_view text, string_view search, string_view replacement) const {
    if (search.empty()) return std::string(text);
    std::string result;
    size_t position = 0;
    while (true) {
      size_t found = text.find(search, position);
      if (found == string_view::npos) break;
      result.append(text.substr(position, found - position));
      result.append(replacement);
      position = found + search.size();
    }
    result.append(text.substr(position));
    return result;
  }
};

// TRANSLATE(expr, fromStr, toStr) (Flink 2.0): each character of expr that occurs in fromStr
// becomes the character at the same position of toStr, or is removed where toStr is shorter; a
// character repeated in fromStr maps by its first occurrence. Characters are code points.
struct TranslateOperation {
  std::string operator()(string_view text, string_view from, string_view to) const {
    auto width = [](string_view s, size_t offset) {
      return std::min(static_cast<size_t>(codePointWidth(static_cast<unsigned char>(s[offset]))),
                      s.size() - offset);
    };
    std::string result;
    result.reserve(text.size());
    for (size_t offset = 0; offset < text.size();) {
      const string_view character = text.substr(offset, width(text, offset));
      offset += character.size();
      int64_t index = 0;
      size_t at = 0;
      while (at < from.size() && from.substr(at, width(from, at)) != character) {
        at += width(from, at);
        ++index;
      }
      if (at >= from.size()) {
        result.append(character);
        continue;
      }
      const size_t replacement = byteOffsetOf(to, index);
      if (replacement < to.size()) result.append(to.substr(replacement, width(to, replacement)));
    }
    return result;
  }
};

// LPAD/RPAD, Flink's SqlFunctionUtils.lpad/rpad: NULL for a negative length or an empty pad.
struct PadOperation {
  bool left;
  std::optional<std::string> operator()(string_view text, int32_t length,
                                        string_view pad) const {
    if (length < 0 || pad.empty()) return std::nullopt;
    int64_t textLength = codePointCount(text);
    if (textLength >= length) return std::string(text.substr(0, byteOffsetOf(text, length)));
    int64_t padLength = codePointCount(pad);
    int64_t needed = length - textLength;
    std::string padding;
    for (int64_t done = 0; done < needed;) {
      int64_t take = std::min(padLength, needed - done);
      padding.append(pad.substr(0, byteOffsetOf(pad, take)));
      done += take;
    }
    return left ? padding + std::string(text) : std::string(text) + padding;
  }
};

// 1-based code point position of `needle` in `haystack` at or after code point `from` (1-based),
// 0 when absent.
int32_t locate(string_view needle, string_view haystack, int64_t from) {
  if (from < 1) return 0;
  size_t start = byteOffsetOf(haystack, from - 1);
  if (from - 1 > codePointCount(haystack)) return 0;
  size_t found = haystack.find(needle, start);
  if (found == string_view::npos) return 0;
  return static_cast<int32_t>(codePointCount(haystack.substr(0, found)) + 1);
}

struct ReverseOperation {
  std::string operator()(string_view text) const {
    std::string result;
    result.reserve(text.size());
    size_t end = text.size();
    while (end > 0) {
      size_t begin = end - 1;
      while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
      result.append(text.substr(begin, end - begin));
      end = begin;
    }
    return result;
  }
};

struct RepeatOperation {
  std::string operator()(string_view text, int32_t times) const {
    std::string result;
    if (times <= 0) return result;
    result.reserve(text.size() * static_cast<size_t>(times));
    for (int32_t i = 0; i < times; ++i) result.append(text);
    return result;
  }
};

// SPLIT_INDEX(s, separator, index): the index-th (0-based) token of s split by the whole
// separator, keeping empty tokens; NULL when the index is out of range or negative.
struct SplitIndexOperation {
  std::optional<string_view> operator()(string_view text, string_view separator,
                                        int32_t index) const {
    if (index < 0 || text.empty()) return std::nullopt;
    if (separator.empty()) {
      // Commons Lang splits on whitespace runs then.
      std::vector<string_view> tokens;
      size_t position = 0;
      while (position < text.size()) {
        while (position < text.size() && std::isspace(static_cast<unsigned char>(text[position])))
          ++position;
        size_t begin = position;
        while (position < text.size() && !std::isspace(static_cast<unsigned char>(text[position])))
          ++position;
        if (position > begin) tokens.push_back(text.substr(begin, position - begin));
      }
      if (index >= static_cast<int32_t>(tokens.size())) return std::nullopt;
      return tokens[static_cast<size_t>(index)];
    }
    size_t position = 0;
    for (int32_t token = 0;; ++token) {
      size_t found = text.find(separator, position);
      if (token == index) {
        return text.substr(position, found == string_view::npos ? string_view::npos
                                                                : found - position);
      }
      if (found == string_view::npos) return std::nullopt;
      position = found + separator.size();
    }
  }
};

// --- LIKE. ---

// One element of a compiled LIKE pattern: a literal code point sequence, `_` or `%`.
struct LikeToken {
  enum Kind { kLiteral, kAnyOne, kAnyMany } kind;
  std::string literal;
};

std::vector<LikeToken> compileLike(string_view pattern, std::optional<char> escape) {
  std::vector<LikeToken> tokens;
  auto appendLiteral = [&](string_view bytes) {
    if (tokens.empty() || tokens.back().kind != LikeToken::kLiteral) {
      tokens.push_back({LikeToken::kLiteral, ""});
    }
    tokens.back().literal.append(bytes);
  };
  for (size_t i = 0; i < pattern.size();) {
    char c = pattern[i];
    if (escape && c == *escape) {
      if (i + 1 >= pattern.size() ||
          (pattern[i + 1] != '%' && pattern[i + 1] != '_' && pattern[i + 1] != *escape)) {
        throw TableException(fmt::format("Invalid escape sequence '{}', in LIKE pattern '{}'.",
                                         pattern.substr(i, 2), pattern));
      }
      appendLiteral(pattern.substr(i + 1, 1));
      i += 2;
    } else if (c == '%') {
      if (tokens.empty() || tokens.back().kind != LikeToken::kAnyMany) {
        tokens.push_back({LikeToken::kAnyMany, ""});
      }
      ++i;
    } else if (c == '_') {
      tokens.push_back({LikeToken::kAnyOne, ""});
      ++i;
    } else {
      size_t width = static_cast<size_t>(codePointWidth(static_cast<unsigned char>(c)));
      appendLiteral(pattern.substr(i, width));
      i += width;
    }
  }
  return tokens;
}

// Matches tokens[t..] against text[position..], backtracking over `%`.
bool matchLike(const std::vector<LikeToken>& tokens, size_t t, string_view text, size_t position) {
  for (; t < tokens.size(); ++t) {
    const LikeToken& token = tokens[t];
    if (token.kind == LikeToken::kLiteral) {
      if (text.substr(position, token.literal.size()) != token.literal) return false;
      position += token.literal.size();
    } else if (token.kind == LikeToken::kAnyOne) {
      if (position >= text.size()) return false;
      position += static_cast<size_t>(codePointWidth(static_cast<unsigned char>(text[position])));
    } else {
      if (t + 1 == tokens.size()) return true;
      for (size_t start = position; start <= text.size(); ++start) {
        if (start < text.size() && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) {
          continue;
        }
        if (matchLike(tokens, t + 1, text, start)) return true;
      }
      return false;
    }
  }
  return position == text.size();
}

std::optional<char> escapeCharacter(string_view escape) {
  if (escape.size() != 1) {
    throw TableException(
        fmt::format("Invalid escape character '{}' in LIKE: it must be one character.", escape));
  }
  return escape[0];
}

KernelVector likeKernel(const std::vector<KernelVector>& arguments,
                        const LogicalTypePtr& resultType) {
  const KernelVector& text = arguments[0];
  const KernelVector& pattern = arguments[1];
  bool constantPattern = pattern.isConstant() &&
                         (arguments.size() < 3 || arguments[2].isConstant());
  if (constantPattern && !pattern.isNull(0) && (arguments.size() < 3 || !arguments[2].isNull(0))) {
    // The common case: compile once.
    std::optional<char> escape;
    if (arguments.size() == 3) escape = escapeCharacter(arguments[2].stringAt(0));
    std::vector<LikeToken> tokens = compileLike(pattern.stringAt(0), escape);
    return UnaryExecutor::execute<string_view, bool>(
        text, resultType, [&tokens](string_view value) { return matchLike(tokens, 0, value, 0); });
  }
  if (arguments.size() == 2) {
    return BinaryExecutor::execute<string_view, string_view, bool>(
        text, pattern, resultType, [](string_view value, string_view like) {
          return matchLike(compileLike(like, std::nullopt), 0, value, 0);
        });
  }
  return TernaryExecutor::execute<string_view, string_view, string_view, bool>(
      text, pattern, arguments[2], resultType,
      [](string_view value, string_view like, string_view escape) {
        return matchLike(compileLike(like, escapeCharacter(escape)), 0, value, 0);
      });
}

// --- Variadic concatenation (own loops: CONCAT_WS skips NULLs). ---

KernelVector concatKernel(const std::vector<KernelVector>& arguments,
                          const LogicalTypePtr& resultType, bool withSeparator) {
  int64_t size = arguments[0].size();
  bool allConstant = std::all_of(arguments.begin(), arguments.end(),
                                 [](const KernelVector& argument) { return argument.isConstant(); });
  KernelVector result(resultType, size, allConstant);
  std::string buffer;
  for (int64_t row = 0; row < result.physicalSize(); ++row) {
    buffer.clear();
    bool isNull = false;
    if (withSeparator) {
      isNull = arguments[0].isNull(row);
      bool first = true;
      for (size_t i = 1; i < arguments.size() && !isNull; ++i) {
        if (arguments[i].isNull(row)) continue;
        if (!first) buffer.append(arguments[0].stringAt(row));
        buffer.append(arguments[i].stringAt(row));
        first = false;
      }
    } else {
      for (const KernelVector& argument : arguments) {
        if (argument.isNull(row)) {
          isNull = true;
          break;
        }
        buffer.append(argument.stringAt(row));
      }
    }
    if (isNull) {
      result.appendString(string_view());
      result.setNull(row);
    } else {
      result.appendString(buffer);
    }
  }
  return result;
}

// --- Binders. ---

std::string formOf(const char* name, string_view shape) {
  std::vector<std::string> parts;
  for (char c : shape) parts.push_back(c == 'S' ? "<CHARACTER>" : "<INTEGER>");
  return fmt::format("'{}({})'", name, fmt::join(parts, ", "));
}

// Registers a function of fixed shape whose kernel is built by `makeKernel`, returning
// `resultOf(argument types)`.
void addShaped(FunctionRegistry& registry, const char* name, std::vector<std::string> shapes,
               std::function<LogicalTypePtr(const std::vector<LogicalTypePtr>&)> resultOf,
               std::function<ScalarKernel(size_t shapeIndex)> makeKernel) {
  std::vector<std::string> forms;
  for (const std::string& shape : shapes) forms.push_back(formOf(name, shape));
  registry.add(ScalarFunction(
      name, FunctionSyntax::kFunction, forms,
      [shapes, resultOf, makeKernel](
          const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        for (size_t index = 0; index < shapes.size(); ++index) {
          auto types = shapedArguments(arguments, shapes[index]);
          if (types) return BoundScalarFunction{*types, resultOf(*types), makeKernel(index)};
        }
        return std::nullopt;
      }));
}

LogicalTypePtr stringResult(const std::vector<LogicalTypePtr>& types) {
  return stringType(anyNullable(types));
}
LogicalTypePtr nullableStringResult(const std::vector<LogicalTypePtr>&) {
  return stringType(true);
}
LogicalTypePtr sameAsFirst(const std::vector<LogicalTypePtr>& types) {
  return types[0]->getTypeRoot() == LogicalTypeRoot::CHAR
             ? LogicalType::varchar(types[0]->getLength(), anyNullable(types))
             : types[0]->copy(anyNullable(types));
}
LogicalTypePtr intResult(const std::vector<LogicalTypePtr>& types) {
  return LogicalType::simple(LogicalTypeRoot::INTEGER, anyNullable(types));
}

// The VARCHAR type of a concatenation: the lengths add up (capped at STRING); all CHAR gives
// CHAR, as Calcite.
LogicalTypePtr concatenationType(const std::vector<LogicalTypePtr>& types, bool nullable) {
  int64_t length = 0;
  bool allChar = true;
  for (const LogicalTypePtr& type : types) {
    length += type->getLength();
    allChar = allChar && type->getTypeRoot() == LogicalTypeRoot::CHAR;
  }
  int capped = static_cast<int>(std::min<int64_t>(length, LogicalType::kMaxLength));
  if (allChar && capped <= 255) return LogicalType::charType(std::max(capped, 1), nullable);
  return LogicalType::varchar(std::max(capped, 1), nullable);
}

}  // namespace

void registerStringFunctions(FunctionRegistry& registry) {
  addShaped(registry, "UPPER", {"S"}, sameAsFirst,
            [](size_t) { return unaryKernel<string_view, string_view>(UpperOperation{}); });
  registry.addAlias("UCASE", "UPPER");
  addShaped(registry, "LOWER", {"S"}, sameAsFirst,
            [](size_t) { return unaryKernel<string_view, string_view>(LowerOperation{}); });
  registry.addAlias("LCASE", "LOWER");
  addShaped(registry, "INITCAP", {"S"}, sameAsFirst,
            [](size_t) { return unaryKernel<string_view, string_view>(InitCapOperation{}); });
  for (bool left : {true, false}) {
    addShaped(registry, left ? "LEFT" : "RIGHT", {"SI"}, sameAsFirst, [left](size_t) {
      return binaryKernel<string_view, int32_t, string_view>(LeftRightOperation{left});
    });
  }
  addShaped(registry, "ASCII", {"S"}, intResult,
            [](size_t) { return unaryKernel<string_view, int32_t>(AsciiOperation{}); });
  addShaped(registry, "CHR", {"I"}, stringResult,
            [](size_t) { return unaryKernel<int32_t, string_view>(ChrOperation{}); });
  addShaped(registry, "CHAR_LENGTH", {"S"}, intResult,
            [](size_t) { return unaryKernel<string_view, int32_t>(CharLengthOperation{}); });
  registry.addAlias("CHARACTER_LENGTH", "CHAR_LENGTH");
  addShaped(registry, "SUBSTRING", {"SI", "SII"}, sameAsFirst, [](size_t shape) -> ScalarKernel {
    if (shape == 0) {
      return binaryKernel<string_view, int32_t, string_view>(
          [](string_view text, int32_t start) {
            return SubstringOperation{}(text, start, INT32_MAX);
          });
    }
    return ternaryKernel<string_view, int32_t, int32_t, string_view>(SubstringOperation{});
  });
  registry.addAlias("SUBSTR", "SUBSTRING");
  for (auto [name, side] : {std::pair{"TRIM", TrimSide::kBoth},
                            std::pair{"LTRIM", TrimSide::kLeading},
                            std::pair{"RTRIM", TrimSide::kTrailing}}) {
    TrimSide trimSide = side;
    addShaped(registry, name, {"S", "SS"}, sameAsFirst, [trimSide](size_t shape) -> ScalarKernel {
      TrimOperation operation{trimSide};
      if (shape == 0) {
        return unaryKernel<string_view, string_view>(
            [operation](string_view text) { return operation(text, " "); });
      }
      return binaryKernel<string_view, string_view, string_view>(operation);
    });
  }
  addShaped(registry, "REPLACE", {"SSS"}, stringResult, [](size_t) {
    return ternaryKernel<string_view, string_view, string_view, string_view>(ReplaceOperation{});
  });
  addShaped(registry, "TRANSLATE", {"SSS"}, stringResult, [](size_t) {
    return ternaryKernel<string_view, string_view, string_view, string_view>(TranslateOperation{});
  });
  for (bool left : {true, false}) {
    addShaped(registry, left ? "LPAD" : "RPAD", {"SIS"}, nullableStringResult,
              [left](size_t) {
                return ternaryKernel<string_view, int32_t, string_view, string_view>(
                    PadOperation{left});
              });
  }
  addShaped(registry, "POSITION", {"SS"}, intResult, [](size_t) {
    return binaryKernel<string_view, string_view, int32_t>(
        [](string_view needle, string_view haystack) { return locate(needle, haystack, 1); });
  });
  addShaped(registry, "LOCATE", {"SS", "SSI"}, intResult, [](size_t shape) -> ScalarKernel {
    if (shape == 0) {
      return binaryKernel<string_view, string_view, int32_t>(
          [](string_view needle, string_view haystack) { return locate(needle, haystack, 1); });
    }
    return ternaryKernel<string_view, string_view, int32_t, int32_t>(
        [](string_view needle, string_view haystack, int32_t from) {
          return locate(needle, haystack, from);
        });
  });
  addShaped(registry, "REVERSE", {"S"}, sameAsFirst,
            [](size_t) { return unaryKernel<string_view, string_view>(ReverseOperation{}); });
  addShaped(registry, "REPEAT", {"SI"}, stringResult, [](size_t) {
    return binaryKernel<string_view, int32_t, string_view>(RepeatOperation{});
  });
  addShaped(registry, "SPLIT_INDEX", {"SSI"}, nullableStringResult, [](size_t) {
    return ternaryKernel<string_view, string_view, int32_t, string_view>(SplitIndexOperation{});
  });
  addShaped(registry, "LIKE", {"SS", "SSS"},
            [](const std::vector<LogicalTypePtr>& types) {
              return LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(types));
            },
            [](size_t) -> ScalarKernel { return likeKernel; });
  // CONCAT and `||`: NULL when any argument is NULL.
  for (const char* name : {"CONCAT", "||"}) {
    bool isOperator = std::string_view(name) == "||";
    registry.add(ScalarFunction(
        name, isOperator ? FunctionSyntax::kBinaryOperator : FunctionSyntax::kFunction,
        {isOperator ? "'<STRING> || <STRING>'" : "'CONCAT(<STRING>, ...)'"},
        [isOperator](
            const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
          if (arguments.empty() || (isOperator && arguments.size() != 2)) return std::nullopt;
          auto types = characterArguments(arguments);
          if (!types) return std::nullopt;
          return BoundScalarFunction{
              *types, concatenationType(*types, anyNullable(*types)),
              [](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
                return concatKernel(values, resultType, false);
              }};
        }));
  }
  // CONCAT_WS(separator, s...): NULL only when the separator is; NULL strings are skipped.
  registry.add(ScalarFunction(
      "CONCAT_WS", FunctionSyntax::kFunction, {"'CONCAT_WS(<STRING>, <STRING>, ...)'"},
      [](const std::vector<LogicalTypePtr>& arguments) -> std::optional<BoundScalarFunction> {
        if (arguments.size() < 2) return std::nullopt;
        auto types = characterArguments(arguments);
        if (!types) return std::nullopt;
        return BoundScalarFunction{
            *types, stringType((*types)[0]->isNullable()),
            [](const std::vector<KernelVector>& values, const LogicalTypePtr& resultType) {
              return concatKernel(values, resultType, true);
            }};
      }));
}

}  // namespace eddy::function

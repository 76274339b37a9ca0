// Regular expression functions with Flink's semantics (SqlFunctionUtils): REGEXP(s, regex)
// (a match anywhere, Java's Matcher.find), REGEXP_REPLACE(s, regex, replacement) (every match
// replaced by the replacement taken literally, Java's replaceAll with quoteReplacement), and
// REGEXP_EXTRACT(s, regex [, group]) (the group, default 0 = the whole match, of the first
// match; NULL when nothing matches, the group does not exist or did not take part). As in
// Flink, an invalid regular expression is not an error: REGEXP gives FALSE and the others
// NULL; REGEXP of an empty regex is FALSE. `s SIMILAR TO pattern [ESCAPE e]` (SQL's regular
// expressions, matched against the whole string) is translated to RE2 (similarToRegex).
//
// The engine is RE2, not java.util.regex: RE2 guarantees linear time and rejects what needs
// backtracking (backreferences \1, lookahead/lookbehind, possessive quantifiers, atomic
// groups), so such patterns count as invalid here; docs/functions.md lists the differences.
// A literal pattern is compiled once, when the call is bound; a pattern from a column is
// compiled once per distinct value within a chunk.
#include <re2/re2.h>

#include <memory>

#include "eddy/exceptions.h"
#include "function/scalar/scalar_function_builders.h"

namespace eddy::function {
namespace {

using std::string_view;
using RegexPtr = std::shared_ptr<const RE2>;

// The compiled regex, or nullptr when it is invalid.
RegexPtr compileRegex(string_view pattern) {
  RE2::Options options;
  options.set_log_errors(false);
  auto regex =
      std::make_shared<const RE2>(re2::StringPiece(pattern.data(), pattern.size()), options);
  return regex->ok() ? regex : nullptr;
}

// The compiled pattern of each row: the bound literal's, or compiled per distinct value.
class RegexCache {
 public:
  // `hasLiteral`: the pattern is the bound literal `literal` (nullptr when invalid).
  RegexCache(RegexPtr literal, bool hasLiteral)
      : literal_(std::move(literal)), hasLiteral_(hasLiteral) {}
  const RE2* get(string_view pattern) {
    if (hasLiteral_) return literal_.get();
    if (!compiled_ || pattern != text_) {
      compiled_ = true;
      text_.assign(pattern);
      current_ = compileRegex(pattern);
    }
    return current_.get();
  }

 private:
  RegexPtr literal_;
  bool hasLiteral_;
  bool compiled_ = false;
  std::string text_;
  RegexPtr current_;
};

// The pattern of a literal argument, compiled at bind time.
struct LiteralRegex {
  bool present = false;  // the pattern argument is a (non-NULL) literal
  RegexPtr regex;        // nullptr when that literal is invalid
};

LiteralRegex literalRegex(const std::optional<Value>& literal) {
  LiteralRegex result;
  if (literal && literal->is<std::string>()) {
    result.present = true;
    result.regex = compileRegex(literal->get<std::string>());
  }
  return result;
}

bool regexMatches(const RE2* regex, string_view pattern, string_view text) {
  if (pattern.empty() || regex == nullptr) return false;
  return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *regex);
}

std::optional<std::string> regexReplace(const RE2* regex, string_view text,
                                        string_view replacement) {
  if (regex == nullptr) return std::nullopt;
  // RE2's rewrite strings treat '\' as an escape: double it to insert the text literally.
  std::string rewrite;
  for (char c : replacement) {
    if (c == '\\') rewrite.push_back('\\');
    rewrite.push_back(c);
  }
  std::string result(text);
  RE2::GlobalReplace(&result, *regex, rewrite);
  return result;
}

std::optional<string_view> regexExtract(const RE2* regex, string_view text, int64_t group) {
  if (regex == nullptr || group < 0 || group > regex->NumberOfCapturingGroups()) {
    return std::nullopt;
  }
  std::vector<re2::StringPiece> groups(static_cast<size_t>(group) + 1);
  re2::StringPiece input(text.data(), text.size());
  if (!regex->Match(input, 0, input.size(), RE2::UNANCHORED, groups.data(),
                    static_cast<int>(groups.size()))) {
    return std::nullopt;
  }
  const re2::StringPiece& found = groups[static_cast<size_t>(group)];
  if (found.data() == nullptr) return std::nullopt;  // the group took no part
  return string_view(found.data(), found.size());
}

// Character arguments (an untyped NULL as STRING), integers as INT; nullopt otherwise.
std::optional<std::vector<LogicalTypePtr>> regexArguments(
    const std::vector<LogicalTypePtr>& arguments, size_t strings, size_t integers) {
  if (arguments.size() < strings || arguments.size() > strings + integers) return std::nullopt;
  return shapedArguments(arguments,
                         std::string(strings, 'S') + std::string(arguments.size() - strings, 'I'));
}

std::optional<BoundScalarFunction> bindRegexp(const std::vector<LogicalTypePtr>& arguments,
                                              const LiteralArguments& literals) {
  auto types = regexArguments(arguments, 2, 0);
  if (!types) return std::nullopt;
  LiteralRegex literal = literalRegex(literals[1]);
  return BoundScalarFunction{
      *types, LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(*types)),
      [literal](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        RegexCache cache(literal.regex, literal.present);
        return BinaryExecutor::execute<string_view, string_view, bool>(
            values[0], values[1], type, [&](string_view text, string_view pattern) {
              return regexMatches(cache.get(pattern), pattern, text);
            });
      }};
}

std::optional<BoundScalarFunction> bindRegexpReplace(const std::vector<LogicalTypePtr>& arguments,
                                                     const LiteralArguments& literals) {
  auto types = regexArguments(arguments, 3, 0);
  if (!types) return std::nullopt;
  LiteralRegex literal = literalRegex(literals[1]);
  return BoundScalarFunction{
      *types, stringType(true),
      [literal](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        RegexCache cache(literal.regex, literal.present);
        return TernaryExecutor::execute<string_view, string_view, string_view, string_view>(
            values[0], values[1], values[2], type,
            [&](string_view text, string_view pattern, string_view replacement) {
              return regexReplace(cache.get(pattern), text, replacement);
            });
      }};
}

std::optional<BoundScalarFunction> bindRegexpExtract(const std::vector<LogicalTypePtr>& arguments,
                                                     const LiteralArguments& literals) {
  auto types = regexArguments(arguments, 2, 1);
  if (!types) return std::nullopt;
  LiteralRegex literal = literalRegex(literals[1]);
  if (types->size() == 2) {
    return BoundScalarFunction{
        *types, stringType(true),
        [literal](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
          RegexCache cache(literal.regex, literal.present);
          return BinaryExecutor::execute<string_view, string_view, string_view>(
              values[0], values[1], type, [&](string_view text, string_view pattern) {
                return regexExtract(cache.get(pattern), text, 0);
              });
        }};
  }
  return BoundScalarFunction{
      *types, stringType(true),
      [literal](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        RegexCache cache(literal.regex, literal.present);
        return TernaryExecutor::execute<string_view, string_view, int32_t, string_view>(
            values[0], values[1], values[2], type,
            [&](string_view text, string_view pattern, int32_t group) {
              return regexExtract(cache.get(pattern), text, group);
            });
      }};
}

// SIMILAR TO: the SQL pattern as an anchored RE2 expression. `%` is any string and `_` any
// character (newlines included); | * + ? {m,n} ( ) and [..] classes keep their regex meaning;
// every other character is literal, as is a character after the escape character.
std::string similarToRegex(string_view pattern, std::optional<char> escape) {
  std::string regex = "(?s)";
  bool inClass = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (escape && c == *escape) {
      if (i + 1 == pattern.size()) {
        throw TableException("Invalid escape sequence at the end of the SIMILAR TO pattern '" +
                             std::string(pattern) + "'");
      }
      regex += RE2::QuoteMeta(re2::StringPiece(&pattern[++i], 1));
      continue;
    }
    if (inClass) {
      if (c == ']') inClass = false;
      if (c == '\\') regex += '\\';
      regex += c;
      continue;
    }
    switch (c) {
      case '%':
        regex += ".*";
        break;
      case '_':
        regex += '.';
        break;
      case '[':
        inClass = true;
        regex += c;
        break;
      case '|': case '*': case '+': case '?': case '{': case '}': case '(': case ')': case ',':
        regex += c;
        break;
      default:
        if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            static_cast<unsigned char>(c) >= 0x80) {
          regex += c;
        } else {
          regex += RE2::QuoteMeta(re2::StringPiece(&c, 1));
        }
    }
  }
  return regex;
}

std::optional<BoundScalarFunction> bindSimilarTo(const std::vector<LogicalTypePtr>& arguments) {
  auto types = regexArguments(arguments, arguments.size() == 3 ? 3 : 2, 0);
  if (!types || types->size() < 2) return std::nullopt;
  auto matcher = [](string_view text, string_view pattern, std::optional<string_view> escape,
                    std::string& cachedPattern, std::string& cachedEscape, RegexPtr& compiled) {
    if (!compiled || pattern != cachedPattern || escape.value_or("") != cachedEscape) {
      if (escape && escape->size() != 1) {
        throw TableException("Invalid escape character '" + std::string(*escape) +
                             "' of SIMILAR TO: it must be one character");
      }
      cachedPattern.assign(pattern);
      cachedEscape.assign(escape.value_or(""));
      compiled = compileRegex(similarToRegex(
          pattern, escape ? std::optional<char>((*escape)[0]) : std::nullopt));
      if (!compiled) {
        throw TableException("Invalid SIMILAR TO pattern '" + std::string(pattern) + "'");
      }
    }
    return RE2::FullMatch(re2::StringPiece(text.data(), text.size()), *compiled);
  };
  LogicalTypePtr result = LogicalType::simple(LogicalTypeRoot::BOOLEAN, anyNullable(*types));
  if (types->size() == 2) {
    return BoundScalarFunction{
        *types, result, [matcher](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
          std::string pattern, escape;
          RegexPtr compiled;
          return BinaryExecutor::execute<string_view, string_view, bool>(
              values[0], values[1], type, [&](string_view text, string_view like) {
                return matcher(text, like, std::nullopt, pattern, escape, compiled);
              });
        }};
  }
  return BoundScalarFunction{
      *types, result, [matcher](const std::vector<KernelVector>& values, const LogicalTypePtr& type) {
        std::string pattern, escape;
        RegexPtr compiled;
        return TernaryExecutor::execute<string_view, string_view, string_view, bool>(
            values[0], values[1], values[2], type,
            [&](string_view text, string_view like, string_view escapeCharacter) {
              return matcher(text, like, escapeCharacter, pattern, escape, compiled);
            });
      }};
}

}  // namespace

void registerRegularExpressionFunctions(FunctionRegistry& registry) {
  registry.add(ScalarFunction("SIMILAR TO", FunctionSyntax::kBinaryOperator,
                              {"'<CHARACTER> SIMILAR TO <CHARACTER>'",
                               "'<CHARACTER> SIMILAR TO <CHARACTER> ESCAPE <CHARACTER>'"},
                              bindSimilarTo));
  registry.add(ScalarFunction("REGEXP", FunctionSyntax::kFunction,
                              {"'REGEXP(<CHARACTER>, <CHARACTER>)'"}, bindRegexp));
  registry.add(ScalarFunction("REGEXP_REPLACE", FunctionSyntax::kFunction,
                              {"'REGEXP_REPLACE(<CHARACTER>, <CHARACTER>, <CHARACTER>)'"},
                              bindRegexpReplace));
  registry.add(ScalarFunction("REGEXP_EXTRACT", FunctionSyntax::kFunction,
                              {"'REGEXP_EXTRACT(<CHARACTER>, <CHARACTER>)'",
                               "'REGEXP_EXTRACT(<CHARACTER>, <CHARACTER>, <INTEGER>)'"},
                              bindRegexpExtract));
}

}  // namespace eddy::function

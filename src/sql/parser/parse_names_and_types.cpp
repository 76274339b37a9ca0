// The leaves of the grammar (recursive_descent_parser.h): identifiers and qualified names,
// string and integer literals, a WITH clause's options, and types. A type's extent is found
// here; its spelling is parsed by the types module's parseLogicalType, whose error column is
// mapped back onto the SQL text.
#include <cstdlib>

#include "eddy/exceptions.h"
#include "sql/parser/recursive_descent_parser.h"

namespace eddy::sql::detail {

std::string Parser::parseIdentifier() {
  if (!isIdentifier()) failExpected({"<identifier>"});
  return next().text;
}

QualifiedName Parser::parseQualifiedName() {
  QualifiedName name{parseIdentifier()};
  while (isSymbol(".") &&
         (peek(1).kind == TokenKind::kIdentifier || peek(1).kind == TokenKind::kQuotedIdentifier)) {
    next();
    name.push_back(parseIdentifier());
  }
  return name;
}

std::vector<std::string> Parser::parseParenthesizedIdentifiers() {
  expectSymbol("(");
  std::vector<std::string> names;
  do {
    names.push_back(parseIdentifier());
  } while (acceptSymbol(","));
  expectSymbol(")");
  return names;
}

std::string Parser::parseStringLiteral() {
  if (peek().kind != TokenKind::kString) failExpected({"<string literal>"});
  return next().text;
}

int Parser::parseUnsignedInteger() {
  const Token& token = peek();
  if (token.kind != TokenKind::kExactNumber || token.text.find('.') != std::string::npos ||
      token.text.size() > 9) {
    failExpected({"<unsigned integer>"});
  }
  next();
  return std::atoi(token.text.c_str());
}

// `(` 'key' = 'value', .. `)`
std::vector<TableOption> Parser::parseOptions() {
  std::vector<TableOption> options;
  expectSymbol("(");
  if (acceptSymbol(")")) return options;
  do {
    TableOption option;
    option.position = peek().position;
    option.key = parseStringLiteral();
    expectSymbol("=");
    option.value = parseStringLiteral();
    options.push_back(std::move(option));
  } while (acceptSymbol(","));
  expectSymbol(")");
  return options;
}

// --- Types -------------------------------------------------------------------------------

// Skips a balanced group opened by the current token (`(` or `<`).
void Parser::skipTypeGroup(std::string_view open, std::string_view close) {
  int depth = 0;
  do {
    if (atEnd()) {
      note(fmt::format("\"{}\"", close));
      failExpected();
    }
    if (isSymbol(open)) {
      ++depth;
    } else if (isSymbol(close)) {
      --depth;
    }
    next();
  } while (depth > 0);
}

// A type in SQL syntax. The parser finds the type's extent and hands its tokens to the types
// module's parseLogicalType, which knows every type spelling Flink accepts.
LogicalTypePtr Parser::parseType() {
  size_t first = position_;
  if (peek().kind != TokenKind::kIdentifier) failExpected({"<type>"});
  std::string name = next().keyword;
  if ((name == "CHAR" || name == "CHARACTER" || name == "BINARY") && isKeyword("VARYING")) {
    next();
  }
  if (name == "DOUBLE" && isKeyword("PRECISION")) next();
  if (name == "INTERVAL") {
    if (peek().kind == TokenKind::kIdentifier) next();
    if (isSymbol("(")) skipTypeGroup("(", ")");
    if (isKeyword("TO")) {
      next();
      if (peek().kind == TokenKind::kIdentifier) next();
      if (isSymbol("(")) skipTypeGroup("(", ")");
    }
  } else if (isSymbol("(")) {
    skipTypeGroup("(", ")");
  } else if (isSymbol("<>")) {
    next();
  } else if (isSymbol("<")) {
    // `<>` inside counts as an opening and a closing bracket (ROW<a ROW<>>).
    int depth = 0;
    do {
      if (atEnd()) {
        note("\">\"");
        failExpected();
      }
      if (isSymbol("<")) ++depth;
      if (isSymbol(">")) --depth;
      next();
    } while (depth > 0);
  }
  if (name == "TIME" || name == "TIMESTAMP") {
    if (isKeyword("WITHOUT") && isKeyword("TIME", 1) && isKeyword("ZONE", 2)) {
      position_ += 3;
    } else if (isKeyword("WITH") && isKeyword("LOCAL", 1) && isKeyword("TIME", 2) &&
               isKeyword("ZONE", 3)) {
      position_ += 4;
    } else if (isKeyword("WITH") && isKeyword("TIME", 1) && isKeyword("ZONE", 2)) {
      position_ += 3;
    }
  }
  while (true) {
    if (isKeyword("NOT") && isKeyword("NULL", 1)) {
      position_ += 2;
    } else if ((isKeyword("NULL") && !isKeyword("ON", 1)) || isKeyword("ARRAY") ||
               isKeyword("MULTISET")) {
      // `NULL ON EMPTY` after JSON_VALUE's RETURNING type is a behaviour, not nullability.
      next();
    } else {
      break;
    }
  }
  return buildType(first, position_);
}

LogicalTypePtr Parser::buildType(size_t first, size_t last) {
  // The type text is the tokens as written, with one space wherever the source had
  // whitespace or comments between two tokens; `starts` maps text offsets back to tokens.
  std::string text;
  std::vector<size_t> starts;
  for (size_t i = first; i < last; ++i) {
    if (i > first && tokens_[i].begin > tokens_[i - 1].end) text.push_back(' ');
    starts.push_back(text.size());
    text += sql_.substr(tokens_[i].begin, tokens_[i].end - tokens_[i].begin);
  }
  try {
    return parseLogicalType(text);
  } catch (const ValidationException& error) {
    std::string message = error.what();
    std::string prefix = fmt::format("Could not parse type '{}' at column ", text);
    SourcePosition position = tokens_[first].position;
    std::string detail = message;
    if (message.starts_with(prefix)) {
      size_t colon = message.find(": ", prefix.size());
      if (colon != std::string::npos) {
        size_t offset = std::strtoul(message.c_str() + prefix.size(), nullptr, 10);
        offset = offset == 0 ? 0 : offset - 1;
        size_t index = 0;
        while (index + 1 < starts.size() && starts[index + 1] <= offset) ++index;
        position = tokens_[first + index].position;
        position.column += static_cast<int>(std::min(
            offset - starts[index], tokens_[first + index].end - tokens_[first + index].begin));
        detail = message.substr(colon + 2);
      }
    }
    failAt(position, fmt::format("Invalid type \"{}\" at line {}, column {}: {}", text,
                                 position.line, position.column, detail));
  }
}

}  // namespace eddy::sql::detail

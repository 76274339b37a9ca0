// The SQL lexer: turns a SQL text into tokens for the parser (parser.cpp). It knows Flink's
// lexical rules: unquoted identifiers (keywords are recognized case-insensitively by the
// parser, the spelling is kept), backquoted identifiers with `` for a backquote, string
// literals with '' for a quote, X'..' binary strings, exact and approximate numbers, `--` and
// `/* */` comments, hints `/*+ .. */` (kept with the token they follow, see Token::hint, for
// the parser to read where a hint may stand, e.g. `FROM t /*+ OPTIONS(..) */`), and the operators
// `= <> != < <= > >= + - * / % || . , ( ) [ ] ; :: ? =>`. A `<` or `>` is always its own token
// unless followed by `=` or (for `<`) `>`, so `ARRAY<ARRAY<INT>>` needs no special case.
//
// Every token knows its 1-based line and column and its byte range in the text. Lexical
// errors throw SqlParseException at the position where the faulty token starts.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "sql/parser/ast.h"

namespace eddy::sql {

enum class TokenKind {
  kIdentifier,         // text: as written; keyword: upper case
  kQuotedIdentifier,   // text: unescaped, without the backquotes
  kString,             // text: unescaped, without the quotes
  kBinaryString,       // X'..': text is the hex digits
  kExactNumber,        // 12, 12.50, .5
  kApproximateNumber,  // 1.5E3 (text with an upper-case E)
  kSymbol,             // text: the operator or punctuation
  kParameter,          // ?
  kEnd,                // end of input
};

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;
  std::string keyword;  // upper-case text of kIdentifier tokens, empty otherwise
  SourcePosition position;
  size_t begin = 0;  // byte offsets of the token in the text, [begin, end)
  size_t end = 0;
  /// The text inside a hint comment `/*+ .. */` between this token and the next (several
  /// hints joined by ", "), and where it starts; empty when there is none.
  std::string hint;
  SourcePosition hintPosition;
};

/// Splits `sql` into tokens, ending with one kEnd token positioned just after the last
/// character. Throws SqlParseException on unterminated strings, quoted identifiers and
/// comments, and on characters that start no token.
std::vector<Token> tokenize(std::string_view sql);

/// The 1-based line and column of byte `offset` in `sql`.
SourcePosition positionAt(std::string_view sql, size_t offset);

}  // namespace eddy::sql

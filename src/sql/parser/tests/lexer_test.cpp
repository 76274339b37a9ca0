// The lexer: token kinds, spellings, unescaping, positions and byte ranges.
#include "sql/parser/lexer.h"

#include <gtest/gtest.h>

namespace eddy::sql {
namespace {

std::string kinds(std::string_view sql) {
  std::string result;
  for (const Token& token : tokenize(sql)) {
    switch (token.kind) {
      case TokenKind::kIdentifier:
        result += "I";
        break;
      case TokenKind::kQuotedIdentifier:
        result += "Q";
        break;
      case TokenKind::kString:
        result += "S";
        break;
      case TokenKind::kBinaryString:
        result += "B";
        break;
      case TokenKind::kExactNumber:
        result += "N";
        break;
      case TokenKind::kApproximateNumber:
        result += "F";
        break;
      case TokenKind::kSymbol:
        result += "[" + token.text + "]";
        break;
      case TokenKind::kParameter:
        result += "?";
        break;
      case TokenKind::kEnd:
        result += "$";
        break;
    }
  }
  return result;
}

TEST(LexerTest, RecognizesEveryTokenKind) {
  EXPECT_EQ(kinds("select `a b`, 'x', X'0F', 12, 12.5, .5, 1.5e3, 2E-3, ?"),
            "IQ[,]S[,]B[,]N[,]N[,]N[,]F[,]F[,]?$");
}

TEST(LexerTest, RecognizesEveryOperator) {
  EXPECT_EQ(kinds("= <> != < <= > >= + - * / % || . , ( ) [ ] ; :: =>"),
            "[=][<>][!=][<][<=][>][>=][+][-][*][/][%][||][.][,][(][)][[][]][;][::][=>]$");
  // Angle brackets of types are separate tokens: `>>` is not an operator.
  EXPECT_EQ(kinds("ARRAY<ARRAY<INT>>"), "I[<]I[<]I[>][>]$");
}

TEST(LexerTest, SkipsCommentsAndHints) {
  EXPECT_EQ(kinds("a -- line comment\n/* block\ncomment */ b /*+ OPTIONS('k'='v') */ c"), "III$");
  EXPECT_EQ(kinds("a--b"), "I$");
}

// A hint's text goes with the token before it, for the parser to read (FROM t /*+ .. */).
TEST(LexerTest, KeepsHintsWithThePrecedingToken) {
  std::vector<Token> tokens =
      tokenize("FROM t /*+ OPTIONS('k'='v') */ /* not a hint */ /*+ X */ WHERE U&'\\0041' /*+ Y */");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].hint, "");
  EXPECT_EQ(tokens[1].hint, " OPTIONS('k'='v') ,  X ");
  EXPECT_EQ(tokens[1].hintPosition.column, 8);
  EXPECT_EQ(tokens[2].hint, "");
  EXPECT_EQ(tokens[3].text, "A");
  EXPECT_EQ(tokens[3].hint, " Y ");
}

TEST(LexerTest, KeepsSpellingAndUpperCasesKeywords) {
  std::vector<Token> tokens = tokenize("SeLeCt MyCol");
  EXPECT_EQ(tokens[0].text, "SeLeCt");
  EXPECT_EQ(tokens[0].keyword, "SELECT");
  EXPECT_EQ(tokens[1].text, "MyCol");
}

TEST(LexerTest, UnescapesQuotesAndBackquotes) {
  std::vector<Token> tokens = tokenize("'it''s' `a``b`");
  EXPECT_EQ(tokens[0].text, "it's");
  EXPECT_EQ(tokens[1].text, "a`b");
  EXPECT_EQ(tokens[1].keyword, "");
}

TEST(LexerTest, PositionsAreOneBasedLinesAndColumns) {
  std::vector<Token> tokens = tokenize("a\n  bb 'x\ny' c\n");
  ASSERT_EQ(tokens.size(), 5u);
  EXPECT_EQ(tokens[0].position, (SourcePosition{1, 1}));
  EXPECT_EQ(tokens[1].position, (SourcePosition{2, 3}));
  EXPECT_EQ(tokens[2].position, (SourcePosition{2, 6}));
  EXPECT_EQ(tokens[3].position, (SourcePosition{3, 4}));
  EXPECT_EQ(tokens[3].begin, 13u);
  EXPECT_EQ(tokens[3].end, 14u);
  // <EOF> sits just after the last token.
  EXPECT_EQ(tokens[4].kind, TokenKind::kEnd);
  EXPECT_EQ(tokens[4].position, (SourcePosition{3, 5}));
}

TEST(LexerTest, NumbersFollowedByLettersAreTwoTokens) {
  EXPECT_EQ(kinds("12abc"), "NI$");
  EXPECT_EQ(kinds("1e"), "NI$");
}

TEST(LexerTest, PositionAtCountsCodePoints) {
  EXPECT_EQ(positionAt("ä\nöx", 5), (SourcePosition{2, 2}));
}

}  // namespace
}  // namespace eddy::sql

// String functions over chunks with NULLs, Flink's edge cases (SUBSTRING positions, LPAD with
// an empty pad, SPLIT_INDEX out of range, CONCAT_WS skipping NULLs) and LIKE with ESCAPE.
#include "expression_test_base.h"

namespace eddy::expression::testing {
namespace {

vector::Chunk words() {
  return chunkOf("ROW<s STRING, t STRING>", {Row::of("Hello World", "o"), Row::of(nullptr, "x"),
                                             Row::of("  ab  ", nullptr), Row::of("ünï", "ï")});
}

TEST(StringFunctionTest, CaseAndLength) {
  auto chunk = words();
  auto s = col(chunk, 0);
  // Case mapping covers every Unicode letter, as Java's (docs/functions.md).
  EXPECT_EQ(evaluate(fn("UPPER", {s}), chunk), "[HELLO WORLD, null,   AB  , ÜNÏ]");
  EXPECT_EQ(evaluate(fn("lower", {s}), chunk), "[hello world, null,   ab  , ünï]");
  EXPECT_EQ(evaluate(fn("CHAR_LENGTH", {s}), chunk), "[11, null, 6, 3]");
  EXPECT_EQ(evaluate(fn("CHARACTER_LENGTH", {s}), chunk), "[11, null, 6, 3]");
  EXPECT_EQ(evaluateScalar(fn("INITCAP", {lit("hello wORLD-foo bar1x")})),
            "Hello World-Foo Bar1x");
  EXPECT_EQ(evaluate(fn("REVERSE", {s}), chunk), "[dlroW olleH, null,   ba  , ïnü]");
  EXPECT_EQ(fn("UPPER", {s})->type()->asSummaryString(), "STRING");
}

TEST(StringFunctionTest, SubstringFollowsFlink) {
  auto hello = lit("Hello");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(2)})), "ello");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(2), lit(3)})), "ell");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(0), lit(2)})), "He");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(-3)})), "llo");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(-7), lit(3)})), "H");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(4), lit(100)})), "lo");
  EXPECT_EQ(evaluateScalar(fn("SUBSTRING", {hello, lit(9)})), "");
  EXPECT_EQ(evaluateScalar(fn("SUBSTR", {lit("ünïcode"), lit(2), lit(2)})), "nï");
  auto chunk = words();
  EXPECT_EQ(evaluate(fn("SUBSTRING", {col(chunk, 0), lit(1), lit(3)}), chunk),
            "[Hel, null,   a, ünï]");
}

TEST(StringFunctionTest, TrimReplacePad) {
  auto chunk = words();
  auto s = col(chunk, 0);
  EXPECT_EQ(evaluate(fn("TRIM", {s}), chunk), "[Hello World, null, ab, ünï]");
  EXPECT_EQ(evaluate(fn("LTRIM", {s}), chunk), "[Hello World, null, ab  , ünï]");
  EXPECT_EQ(evaluate(fn("RTRIM", {s}), chunk), "[Hello World, null,   ab, ünï]");
  EXPECT_EQ(evaluateScalar(fn("TRIM", {lit("xxhixx"), lit("x")})), "hi");
  EXPECT_EQ(evaluate(fn("REPLACE", {s, col(chunk, 1), lit("0")}), chunk),
            "[Hell0 W0rld, null, null, ün0]");
  EXPECT_EQ(evaluateScalar(fn("LPAD", {lit("hi"), lit(5), lit("ab")})), "abahi");
  EXPECT_EQ(evaluateScalar(fn("RPAD", {lit("hi"), lit(5), lit("ab")})), "hiaba");
  EXPECT_EQ(evaluateScalar(fn("LPAD", {lit("hello"), lit(2), lit("?")})), "he");
  EXPECT_EQ(evaluateScalar(fn("LPAD", {lit("hi"), lit(5), lit("")})), "null");
  EXPECT_EQ(evaluateScalar(fn("RPAD", {lit("hi"), lit(-1), lit("x")})), "null");
  EXPECT_EQ(evaluateScalar(fn("REPEAT", {lit("ab"), lit(3)})), "ababab");
  EXPECT_EQ(evaluateScalar(fn("REPEAT", {lit("ab"), lit(-1)})), "");
}

TEST(StringFunctionTest, PositionAndSplit) {
  auto chunk = words();
  EXPECT_EQ(evaluate(fn("POSITION", {col(chunk, 1), col(chunk, 0)}), chunk),
            "[5, null, null, 3]");
  EXPECT_EQ(evaluateScalar(fn("LOCATE", {lit("o"), lit("Hello World")})), "5");
  EXPECT_EQ(evaluateScalar(fn("LOCATE", {lit("o"), lit("Hello World"), lit(6)})), "8");
  EXPECT_EQ(evaluateScalar(fn("LOCATE", {lit("z"), lit("Hello")})), "0");
  EXPECT_EQ(evaluateScalar(fn("SPLIT_INDEX", {lit("a,b,,c"), lit(","), lit(2)})), "");
  EXPECT_EQ(evaluateScalar(fn("SPLIT_INDEX", {lit("a,b,,c"), lit(","), lit(3)})), "c");
  EXPECT_EQ(evaluateScalar(fn("SPLIT_INDEX", {lit("a,b,,c"), lit(","), lit(4)})), "null");
  EXPECT_EQ(evaluateScalar(fn("SPLIT_INDEX", {lit("a::b"), lit("::"), lit(1)})), "b");
  EXPECT_EQ(evaluateScalar(fn("SPLIT_INDEX", {lit("a,b"), lit(","), lit(-1)})), "null");
}

TEST(StringFunctionTest, Concatenation) {
  auto chunk = words();
  auto s = col(chunk, 0), t = col(chunk, 1);
  auto pipes = fn("||", {s, t});
  EXPECT_EQ(pipes->toString(), "||($0, $1)");
  EXPECT_EQ(evaluate(pipes, chunk), "[Hello Worldo, null, null, ünïï]");
  EXPECT_EQ(evaluate(fn("CONCAT", {s, lit("-"), t}), chunk), "[Hello World-o, null, null, ünï-ï]");
  EXPECT_EQ(evaluate(fn("CONCAT_WS", {lit("|"), s, t}), chunk),
            "[Hello World|o, x,   ab  , ünï|ï]");
  EXPECT_EQ(evaluateScalar(fn("CONCAT_WS", {nullLiteral(), lit("a")})), "null");
  EXPECT_EQ(fn("||", {lit("ab"), lit("cde")})->type()->asSummaryString(), "CHAR(5) NOT NULL");
  EXPECT_EQ(fn("CONCAT", {literal(Value("a"), type("VARCHAR(3)")), lit("cd")})
                ->type()
                ->asSummaryString(),
            "VARCHAR(5)");
  EXPECT_EQ(messageOf([&] { fn("||", {s, lit(1)}); }),
            "Cannot apply '||' to arguments of type '<VARCHAR(2147483647)> || <INT>'. Supported "
            "form(s): '<STRING> || <STRING>'");
}

TEST(StringFunctionTest, LikeWithWildcardsAndEscape) {
  auto chunk = chunkOf("ROW<s STRING>", {Row::of("abc"), Row::of("a_c"), Row::of("ab"),
                                         Row::of(nullptr), Row::of("xüz"), Row::of("100%")});
  auto s = col(chunk, 0);
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("a%")}), chunk), "[true, true, true, null, false, false]");
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("a_c")}), chunk),
            "[true, true, false, null, false, false]");
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("a\\_c"), lit("\\")}), chunk),
            "[false, true, false, null, false, false]");
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("x_z")}), chunk),
            "[false, false, false, null, true, false]");
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("%!%"), lit("!")}), chunk),
            "[false, false, false, null, false, true]");
  EXPECT_EQ(evaluate(fn("LIKE", {s, lit("%")}), chunk), "[true, true, true, null, true, true]");
  EXPECT_EQ(messageOf([&] { evaluate(fn("LIKE", {s, lit("a!b"), lit("!")}), chunk); }),
            "Invalid escape sequence '!b', in LIKE pattern 'a!b'.");
  auto patterns = chunkOf("ROW<s STRING, p STRING>",
                          {Row::of("abc", "%c"), Row::of("abc", "b%"), Row::of("abc", nullptr)});
  EXPECT_EQ(evaluate(fn("LIKE", {col(patterns, 0), col(patterns, 1)}), patterns),
            "[true, false, null]");
}

}  // namespace
}  // namespace eddy::expression::testing

// libFuzzer target for the SQL parser (src/sql/parser/parser.h). Each input is handed, as SQL
// text, to all three entry points — parseScript, parseStatement and parseExpression — and the
// only acceptable outcomes are a tree or eddy::SqlParseException, the parser's documented
// error (parser.h). Anything else is a finding: another exception (a ValidationException or
// InternalError escaping the parser, std::out_of_range from a library call), a crash or a
// sanitizer report (the target is built with ASan and UBSan), or a hang (libFuzzer's
// -timeout).
//
// Whatever parses must also round-trip, as unparse.h promises: printing the tree with unparse()
// and parsing the printed text must succeed and print the same text again. Set
// EDDY_FUZZ_ROUND_TRIP=0 in the environment to check only the outcomes above.
//
// Built with clang by tests/fuzz/CMakeLists.txt and run by scripts/fuzz.sh. libFuzzer calls
// LLVMFuzzerTestOneInput from one thread; the parser keeps no state between calls.
#include <cxxabi.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

#include "eddy/exceptions.h"
#include "sql/parser/parser.h"
#include "sql/parser/unparse.h"

namespace {

bool checkRoundTrip = true;

[[noreturn]] void fail(std::string_view what, std::string_view sql, const std::string& detail) {
  std::fprintf(stderr, "\n==== eddy SQL parser fuzzer: %.*s\n---- input (%zu bytes):\n%.*s\n",
               static_cast<int>(what.size()), what.data(), sql.size(), static_cast<int>(sql.size()),
               sql.data());
  std::fprintf(stderr, "---- detail:\n%s\n====\n", detail.c_str());
  std::abort();  // libFuzzer reports the abort as a crash and saves the input
}

// The exception's dynamic type, demangled, and its message.
std::string describe(const std::exception& error) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(typeid(error).name(), nullptr, nullptr, &status);
  std::string type = status == 0 ? demangled : typeid(error).name();
  std::free(demangled);
  return type + ": " + error.what();
}

// Runs `parse` on `sql`: returns its result, or an empty value on SqlParseException; any other
// exception is a finding.
template <typename Parse>
auto parseOrEmpty(std::string_view entryPoint, std::string_view sql, Parse&& parse)
    -> decltype(parse(sql)) {
  try {
    return parse(sql);
  } catch (const eddy::SqlParseException&) {
    return {};
  } catch (const std::exception& error) {
    fail(std::string(entryPoint) + " threw an exception other than SqlParseException", sql,
         describe(error));
  } catch (...) {
    fail(std::string(entryPoint) + " threw a non-std exception", sql, "");
  }
}

// unparse(node) must parse again with `parse` (the entry point for that kind of node) and
// print the same text.
template <typename Node, typename Parse>
void checkPrintedFormParses(std::string_view entryPoint, std::string_view sql, const Node& node,
                            Parse&& parse) {
  std::string printed;
  try {
    printed = eddy::sql::unparse(node);
  } catch (const std::exception& error) {
    fail("unparse threw", sql, describe(error));
  }
  std::string reprinted;
  try {
    reprinted = eddy::sql::unparse(*parse(printed));
  } catch (const std::exception& error) {
    fail(std::string("round trip: the printed form does not parse with ") + std::string(entryPoint),
         sql, "printed: " + printed + "\nerror: " + describe(error));
  }
  if (reprinted != printed) {
    fail("round trip: printing the reparsed tree gives another text", sql,
         "printed:   " + printed + "\nreprinted: " + reprinted);
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  const char* roundTrip = std::getenv("EDDY_FUZZ_ROUND_TRIP");
  checkRoundTrip = roundTrip == nullptr || std::strcmp(roundTrip, "0") != 0;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view sql(reinterpret_cast<const char*>(data), size);
  auto parseScript = [](std::string_view text) { return eddy::sql::parseScript(text); };
  auto parseStatement = [](std::string_view text) { return eddy::sql::parseStatement(text); };
  auto parseExpression = [](std::string_view text) { return eddy::sql::parseExpression(text); };

  std::vector<eddy::sql::StatementPtr> statements = parseOrEmpty("parseScript", sql, parseScript);
  eddy::sql::StatementPtr statement = parseOrEmpty("parseStatement", sql, parseStatement);
  eddy::sql::ExpressionPtr expression = parseOrEmpty("parseExpression", sql, parseExpression);
  if (!checkRoundTrip) return 0;

  for (const eddy::sql::StatementPtr& each : statements) {
    checkPrintedFormParses("parseStatement", sql, *each, parseStatement);
  }
  if (statement) checkPrintedFormParses("parseStatement", sql, *statement, parseStatement);
  if (expression) checkPrintedFormParses("parseExpression", sql, *expression, parseExpression);
  return 0;
}

// FormatOptions: typed reading of a format's options ('csv.field-delimiter', ...) from a
// table's WITH options, with the messages of connectors::TableOptions (the formats module
// comes before the connectors module, so it has its own reader):
//   Could not parse value 'yes' for key 'csv.allow-comments' of table 't': expected 'true' or
//   'false'.
//   Invalid value 'ab' for key 'csv.field-delimiter' of table 't': expected a single ASCII
//   character.
// Every error is a ValidationException. A FormatOptions borrows its context (which must
// outlive it) and is used by the planning thread while a format factory validates.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "formats/format_factory.h"

namespace eddy::formats {

/// Reads the options of one format of one table. Keys are given without the format prefix.
class FormatOptions {
 public:
  explicit FormatOptions(const FormatContext& context) : context_(context) {}

  /// The raw value, or nullopt when absent.
  std::optional<std::string> getString(std::string_view option) const;
  /// 'true' or 'false' (any case, surrounding blanks allowed).
  std::optional<bool> getBoolean(std::string_view option) const;
  /// A single ASCII character. With `unescapeJava`, Java escapes are resolved first, as Flink
  /// does for 'csv.field-delimiter' ('\t', '\u0001').
  std::optional<char> getCharacter(std::string_view option, bool unescapeJava = false) const;

  [[noreturn]] void throwUnparsable(std::string_view option, std::string_view value,
                                    std::string_view allowed) const;
  [[noreturn]] void throwInvalid(std::string_view option, std::string_view value,
                                 std::string_view allowed) const;

 private:
  const FormatContext& context_;
};

/// Java's StringEscapeUtils.unescapeJava: \t \b \n \r \f \' \" \\ \uXXXX and octal escapes
/// (\0 .. \377), encoded as UTF-8. A lone or unknown escape keeps the backslash.
std::string unescapeJava(std::string_view text);

}  // namespace eddy::formats

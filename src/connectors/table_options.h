// TableOptions: typed reading of a table's WITH options for a connector factory, with Flink's
// value syntax (integers, decimals, booleans 'true'/'false', durations like '5 s' or
// '1 min'). Every error is a ValidationException that names the option key, the table, the
// value and what is allowed:
//   Could not parse value 'abc' for key 'fields.id.min' of table 't': expected an integer
//   between -2147483648 and 2147483647.
//   Invalid value '-1' for key 'rows-per-second' of table 't': expected an integer between 1
//   and 9223372036854775807.
//
// A TableOptions borrows the context it reads (the context must outlive it) and is used by
// one thread, the planner's, while a factory validates options or builds a source or sink.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include <string_view>

#include "connectors/dynamic_table_factory.h"

namespace eddy::connectors {

/// Reads the options of one table. See the file comment.
class TableOptions {
 public:
  explicit TableOptions(const ConnectorContext& context) : context_(context) {}

  bool contains(const std::string& key) const { return context_.options.count(key) > 0; }
  /// The raw value, or nullopt when the key is absent.
  std::optional<std::string> getString(const std::string& key) const;
  /// An integer in [min, max].
  std::optional<int64_t> getLong(const std::string& key, int64_t min, int64_t max) const;
  /// A floating-point number in [min, max].
  std::optional<double> getDouble(const std::string& key, double min, double max) const;
  /// 'true' or 'false' (any case).
  std::optional<bool> getBoolean(const std::string& key) const;
  /// A non-negative duration such as '500 ms', '5 s', '1 min', '2 h', '1 d' (no unit:
  /// milliseconds), in milliseconds.
  std::optional<int64_t> getDurationMillis(const std::string& key) const;

  /// Throws "Could not parse value '<value>' for key '<key>' of table '<table>': expected
  /// <allowed>."
  [[noreturn]] void throwUnparsable(const std::string& key, std::string_view value,
                                    std::string_view allowed) const;
  /// Throws "Invalid value '<value>' for key '<key>' of table '<table>': expected <allowed>."
  [[noreturn]] void throwInvalid(const std::string& key, std::string_view value,
                                 std::string_view allowed) const;

  const ConnectorContext& context() const { return context_; }

 private:
  const ConnectorContext& context_;
};

/// Parses a whole decimal integer (optional sign, surrounding blanks allowed).
std::optional<int64_t> parseInteger(std::string_view text);

/// Throws ValidationException "Option 'x' of table 't' is not supported yet by <by>." (or
/// "Options 'x', 'y' of table 't' are ...") for options eddy knows but does not support yet.
[[noreturn]] void throwNotSupportedYet(const std::vector<std::string>& keys,
                                       const std::string& tableName, const std::string& by);

}  // namespace eddy::connectors

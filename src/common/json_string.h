// A string as a JSON string literal, escaped as Jackson escapes it (Flink writes JSON with
// Jackson): shared by the json format (formats/json) and the JSON functions and aggregates
// (function/).
#pragma once

#include <string>
#include <string_view>

namespace eddy::common {

/// Appends `text` quoted, with `"`, `\` and the control characters escaped (\b \t \n \f \r, the
/// others as \u00XX in upper-case hex); other bytes (UTF-8 included) as they are.
void appendJsonString(std::string_view text, std::string& out);

}  // namespace eddy::common

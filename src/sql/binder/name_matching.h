// How the binder compares and suggests names: function and keyword names are matched in upper
// case (SQL's names are case-insensitive, Flink's catalog names are not), and an unknown column
// gets a "did you mean" suggestion by edit distance. Private to the binder's files.
#pragma once

#include <string>
#include <cstddef>

namespace eddy::sql {

/// `text` in upper case (ASCII).
std::string upper(std::string text);

/// Levenshtein distance, ignoring ASCII case, for "did you mean" suggestions.
size_t editDistance(const std::string& a, const std::string& b);

}  // namespace eddy::sql

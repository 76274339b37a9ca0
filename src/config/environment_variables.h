// `${NAME}` substitution in SQL scripts and configuration files: each `${NAME}` is replaced
// by the value of the environment variable NAME before the text is parsed. An unset variable
// is an error naming it and where it is referenced. Reads the process environment; call it
// while no other thread changes the environment.
#pragma once

#include <string>

namespace eddy::config {

/// `text` with each ${NAME} replaced. `sourceName` (a file name) and `firstLine` (the line
/// of `text`'s first character in that file) place the reference in the error:
/// ValidationException "Environment variable 'NAME' is not set (referenced at line L of
/// FILE)". With `sqlComments`, SQL comments (`-- ...` to the end of the line, `/* ... */`
/// outside string literals and quoted identifiers) are left as they are, so a comment may
/// mention `${NAME}`.
std::string substituteEnvironmentVariables(const std::string& text, const std::string& sourceName,
                                           int firstLine = 1, bool sqlComments = false);

}  // namespace eddy::config

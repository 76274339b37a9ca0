// Partition directories of the filesystem connector, as Flink (and Hive) lay them out: a table
// PARTITIONED BY (dt, hm) keeps the rows of dt = '2026-11-30', hm = '10:00' under
//
//   <path>/dt=2026-11-30/hm=10%3A00/part-...
//
// one `key=value` directory per partition key, in the order of PARTITIONED BY. A value is the
// key's text form (formats/text_value_codec.h: what the csv format writes) with the characters
// that cannot appear in a path segment escaped as `%XX` (two upper-case hex digits; Flink's
// PartitionPathUtils.escapePathName: the controls 0x01..0x1F and 0x7F, `"`, `#`, `%`, `'`, `*`,
// `/`, `:`, `=`, `?`, `\`, `{`, `[`, `]`, `^`; eddy also escapes 0x00). A NULL, empty or
// whitespace-only value is the table's default partition name ('partition.default-name',
// `__DEFAULT_PARTITION__` unless set; escaped the same way), read back as NULL (Flink's
// RowDataPartitionComputer and PartitionPathUtils). The files of a partition hold only the
// table's other columns. Pure functions.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "connectors/dynamic_table_factory.h"
#include "eddy/types/logical_type.h"

namespace eddy::connectors {

/// Flink's default for 'partition.default-name'.
inline constexpr const char* kDefaultPartitionName = "__DEFAULT_PARTITION__";

/// Whether `value` is empty or only whitespace (such a key value goes to the default partition).
bool isBlank(std::string_view value);

std::string escapePartitionValue(std::string_view value);
/// Appends escapePartitionValue(value) to `out`.
void appendEscapedPartitionValue(std::string_view value, std::string& out);
/// The text a partition directory holds for `value`: `defaultName` for nullopt (NULL) and blank
/// values, else the value.
std::string_view partitionValueOrDefault(std::optional<std::string_view> value,
                                         const std::string& defaultName);
/// The inverse of escapePartitionValue; a `%` not followed by two hex digits stays as it is.
std::string unescapePartitionValue(std::string_view escaped);

/// The relative directory `k1=v1/k2=v2` of `spec` for the keys `keyNames` (a nullopt or blank
/// value as `defaultName`).
std::filesystem::path partitionDirectory(const std::vector<std::string>& keyNames,
                                         const PartitionSpec& spec,
                                         const std::string& defaultName);

/// The values of the leading `k1=..`, `k2=..` directories of `directory` (relative to the
/// table's), in key order, at most one per key (deeper directories are inside a partition):
/// as many as it has, so shorter than `keyNames` above a partition; nullopt when one of them
/// is not the next key's directory.
std::optional<PartitionSpec> partitionPrefixOf(const std::filesystem::path& directory,
                                               const std::vector<std::string>& keyNames,
                                               const std::string& defaultName);

/// The partition of a file at `relative` (its path under the table's directory): its first
/// directories must be `k1=..`, `k2=..`, .. for the keys `keyNames` in order, each value
/// unescaped (nullopt when it is `defaultName`); nullopt for a file outside such a directory
/// (which a partitioned table does not read).
std::optional<PartitionSpec> partitionOfFile(const std::filesystem::path& relative,
                                             const std::vector<std::string>& keyNames,
                                             const std::string& defaultName);

}  // namespace eddy::connectors

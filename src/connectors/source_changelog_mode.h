// SourceChangelogMode: what a table source produces, the planner's and the connectors' shared
// word for it (its own header, so the planner's nodes need not include the connector SPI).
#pragma once

namespace eddy::connectors {

/// The kinds of rows a table source produces (Flink's ScanTableSource#getChangelogMode).
enum class SourceChangelogMode {
  /// +I only.
  kInsertOnly,
  /// +I/+U by the table's primary key and -D of a key (whose non-key columns may be NULL),
  /// no -U (Flink's ChangelogMode.upsert()): the planner adds a ChangelogNormalize.
  kUpsert,
  /// +I/-U/+U/-D (Flink's ChangelogMode.all(): a CDC format's changelog).
  kAll,
};

}  // namespace eddy::connectors

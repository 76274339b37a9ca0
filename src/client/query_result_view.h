// QueryResultView: shows a query's TableResult in the SQL client's result mode
// (`sql-client.execution.result-mode`), as Flink's SQL client does:
//
// - tableau: the rows in the tableau form as they come (with an `op` column in STREAMING
//   mode; BATCH results once complete). Cancelled: "Query terminated, received a total of N
//   rows".
// - table: "SQL Query Result (Table)" and the materialized result — the changelog applied
//   (+I/+U add a row, -U/-D remove it), at most `sql-client.execution.max-table-result.rows`
//   rows, the oldest dropped first — redrawn in place as changes arrive when the output is a
//   terminal, ending with "Table program finished." or "[INFO] Result retrieval cancelled.".
// - changelog: "SQL Query Result (Changelog)" and every change with its op (+I/-U/+U/-D),
//   in BATCH mode too, ending like the streaming tableau or with "[INFO] Result retrieval
//   cancelled.".
//
// Flink's table and changelog views are full-screen pagers; eddy's draw below the prompt and
// return to it when the query ends or is cancelled (Ctrl-C, or Q, by QueryInterruption).
// Scripts (`-f`) only show tableau results: SqlScriptRunner refuses the other modes there, as
// Flink does. Used from the client's thread; the rows are read with TableResult::next(), whose
// end after a cancel() tells a cancelled query from a finished one.
#pragma once

#include <cstdint>
#include <ostream>

#include "common/session_time_zone.h"
#include "eddy/table/table_config.h"
#include "eddy/table/table_result.h"

namespace eddy::client {

class ProgressLine;

enum class ResultMode { kTable, kChangelog, kTableau };

/// The mode `sql-client.execution.result-mode` names in `config` (any case); tableau when unset.
ResultMode resultModeOf(const TableConfig& config);

struct ResultViewSettings {
  ResultMode mode = ResultMode::kTableau;
  /// `sql-client.execution.max-table-result.rows`: the table mode's capacity.
  int64_t maxTableRows = 1000000;
  /// `sql-client.display.max-column-width`: longer values are cut with "..." (at least 4, so
  /// a cut value keeps one character).
  int maxColumnWidth = 30;
  /// TIMESTAMP_LTZ values show in this zone (`table.local-time-zone`).
  common::SessionTimeZone zone;
  /// The output is a terminal of this size: the table mode redraws in place.
  bool terminal = false;
  int terminalRows = 24;
  int terminalColumns = 80;
  /// Erased around each write and told the rows written (`eddy sql -f` on a terminal), or null.
  ProgressLine* progress = nullptr;
};

/// The settings the options in `config` give (mode, table capacity, zone); the terminal and
/// progress fields are left for the caller.
ResultViewSettings resultViewSettingsOf(const TableConfig& config);

/// Shows `result`'s rows on `out` in `settings.mode` until they end or the result is cancelled.
/// A failure of the job (an exception from next()) propagates.
void showQueryResult(TableResult& result, std::ostream& out, const ResultViewSettings& settings);

/// The result of SHOW, DESCRIBE or `SET;` in the tableau form, no value cut whatever
/// `sql-client.display.max-column-width` says (Flink's CliClient prints these tables with
/// Integer.MAX_VALUE columns); the zone of `settings` applies.
void showListing(TableResult& result, std::ostream& out, const ResultViewSettings& settings);

/// The first column of each row, one per line, as Flink's client prints EXPLAIN and SHOW
/// CREATE TABLE / VIEW (printRawContent).
void showRawContent(TableResult& result, std::ostream& out);

}  // namespace eddy::client

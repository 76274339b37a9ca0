// TableauPrinter: prints query results as Flink's tableau form (TableResult.print(), the SQL
// client's tableau mode):
//
//   +----+-------+-------------+
//   | op |  name |       score |
//   +----+-------+-------------+
//   | +I | Alice |          12 |
//   +----+-------+-------------+
//   Received a total of 1 row
//
// BATCH results are printed once complete, with column widths from the content and a final
// "N rows in set" (or "Empty set"). STREAMING results are printed row by row as they come,
// with an `op` column and widths derived from the column types, ending with "Received a total
// of N rows". Values print as Flink 1.15+'s tableau prints them, as their CAST to STRING:
// NULL as <NULL>, TRUE/FALSE, timestamps as `2021-08-21 13:00:00.000` with exactly the type's
// fractional digits, intervals as `+1 00:00:00.000` / `+1-00`, right-aligned, cut
// with "..." past the maximum column width (`sql-client.display.max-column-width`, 30 by
// default; display width counts East Asian wide characters twice).
// TIMESTAMP_LTZ values show their wall-clock time in the session time zone
// (`table.local-time-zone`) of the statement that produced them, as Flink's tableau does.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/session_time_zone.h"
#include "eddy/row.h"
#include "eddy/table/table_result.h"
#include "eddy/types/logical_type.h"

namespace eddy::table {

struct TableauColumn {
  std::string name;
  LogicalTypePtr type;
};

/// The rows of a query's job, which know the session time zone the query ran in (so that
/// TableResult::print() can show TIMESTAMP_LTZ values in it). Implemented by the
/// TableEnvironment's job results; any other RowSource prints in UTC.
class SessionRowSource : public RowSource {
 public:
  virtual const common::SessionTimeZone& sessionTimeZone() const = 0;
};

class TableauPrinter {
 public:
  static constexpr int kMaxColumnWidth = 30;

  /// The text of one field as the tableau shows it (function::castToStringText);
  /// TIMESTAMP_LTZ values in `zone`. Nested values as Flink's casts to STRING write them:
  /// ARRAY `[1, NULL]`, MAP `{a=1}`, MULTISET `{a=2}` (value=count), ROW `(1, abc)`.
  static std::string formatField(const Value& value, const LogicalType& type,
                                 const common::SessionTimeZone& zone = {});
  /// Terminal columns a string takes.
  static int displayWidth(std::string_view text);

  /// A complete (BATCH) result.
  static void printBatch(const std::vector<TableauColumn>& columns, const std::vector<Row>& rows,
                         std::ostream& out, const common::SessionTimeZone& zone = {},
                         int maxColumnWidth = kMaxColumnWidth);

  /// A STREAMING result, row by row: begin(), printRow() per change, end().
  TableauPrinter(std::vector<TableauColumn> columns, std::ostream& out,
                 common::SessionTimeZone zone = {}, int maxColumnWidth = kMaxColumnWidth);
  void begin();
  void printRow(const Row& row);
  void end();

 private:
  static std::string borderLine(const std::vector<int>& widths);
  static std::string line(const std::vector<int>& widths, const std::vector<std::string>& cells);
  std::vector<std::string> cellsOf(const Row& row) const;

  std::vector<TableauColumn> columns_;
  std::ostream& out_;
  common::SessionTimeZone zone_;
  std::vector<int> widths_;
  int64_t rowCount_ = 0;
};

}  // namespace eddy::table

#include "client/query_result_view.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <limits>
#include <mutex>
#include <sstream>

#include "client/progress_line.h"
#include "config/configuration_view.h"
#include "table/tableau_printer.h"

namespace eddy::client {

namespace {

constexpr std::chrono::milliseconds kRedrawInterval{100};
// Lines of the table view besides its rows: the title, three borders, "N rows in set", the
// status line and the line the cursor rests on.
constexpr int kTableViewFrameLines = 7;

std::vector<table::TableauColumn> tableauColumns(const ResolvedSchema& schema) {
  std::vector<table::TableauColumn> columns;
  for (const auto& column : schema.getColumns()) {
    columns.push_back(table::TableauColumn{column.name, column.dataType.getLogicalType()});
  }
  return columns;
}

/// Holds the progress line off stdout while `out` is written (no lock without a progress line).
std::unique_lock<std::mutex> pauseProgress(ProgressLine* progress) {
  return progress == nullptr ? std::unique_lock<std::mutex>() : progress->pause();
}

void countWritten(ProgressLine* progress, int64_t rows) {
  if (progress != nullptr) progress->addRowsWritten(rows);
}

std::string terminatedMessage(int64_t received) {
  // Flink's CliTableauResultView says "row" for 0 and 1.
  return "Query terminated, received a total of " + std::to_string(received) +
         (received > 1 ? " rows" : " row") + "\n";
}

void showTableau(TableResult& result, std::ostream& out, const ResultViewSettings& settings) {
  std::vector<table::TableauColumn> columns = tableauColumns(result.getResolvedSchema());
  int64_t received = 0;
  if (!result.isStreaming()) {
    std::vector<Row> rows;
    while (auto row = result.next()) {
      rows.push_back(std::move(*row));
      ++received;
    }
    auto paused = pauseProgress(settings.progress);
    if (result.isCancelled()) {
      out << terminatedMessage(received) << std::flush;
      return;
    }
    table::TableauPrinter::printBatch(columns, rows, out, settings.zone, settings.maxColumnWidth);
    out.flush();
    countWritten(settings.progress, received);
    return;
  }
  table::TableauPrinter printer(columns, out, settings.zone, settings.maxColumnWidth);
  {
    auto paused = pauseProgress(settings.progress);
    printer.begin();
  }
  while (auto row = result.next()) {
    auto paused = pauseProgress(settings.progress);
    printer.printRow(*row);
    ++received;
    countWritten(settings.progress, 1);
  }
  auto paused = pauseProgress(settings.progress);
  if (result.isCancelled()) {
    out << terminatedMessage(received) << std::flush;
  } else {
    printer.end();
  }
}

void showChangelog(TableResult& result, std::ostream& out, const ResultViewSettings& settings) {
  out << "SQL Query Result (Changelog)\n";
  table::TableauPrinter printer(tableauColumns(result.getResolvedSchema()), out, settings.zone,
                                settings.maxColumnWidth);
  printer.begin();
  while (auto row = result.next()) printer.printRow(*row);
  if (result.isCancelled()) {
    out << "[INFO] Result retrieval cancelled.\n" << std::flush;
  } else {
    printer.end();
  }
}

/// The table mode: the materialized result, drawn below its title and redrawn in place.
class MaterializedTableView {
 public:
  MaterializedTableView(const ResolvedSchema& schema, std::ostream& out,
                        const ResultViewSettings& settings)
      : columns_(tableauColumns(schema)), out_(out), settings_(settings) {}

  void show(TableResult& result) {
    out_ << "SQL Query Result (Table)\n";
    if (settings_.terminal) draw("Waiting for changes. Press Q or Ctrl-C to stop.", true);
    auto lastDraw = std::chrono::steady_clock::now();
    while (auto row = result.next()) {
      apply(std::move(*row));
      auto now = std::chrono::steady_clock::now();
      if (settings_.terminal && now - lastDraw >= kRedrawInterval) {
        draw("Refreshing: " + std::to_string(changes_) +
                 " changes received. Press Q or Ctrl-C to stop.",
             true);
        lastDraw = now;
      }
    }
    draw(result.isCancelled() ? "[INFO] Result retrieval cancelled." : "Table program finished.",
         false);
  }

 private:
  void apply(Row row) {
    ++changes_;
    RowKind kind = row.getKind();
    row.setKind(RowKind::INSERT);
    if (kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER) {
      if (static_cast<int64_t>(rows_.size()) >= settings_.maxTableRows) rows_.pop_front();
      rows_.push_back(std::move(row));
      return;
    }
    // -U/-D retract the newest equal row, as Flink's MaterializedCollectStreamResult.
    auto found = std::find(rows_.rbegin(), rows_.rend(), row);
    if (found != rows_.rend()) rows_.erase(std::next(found).base());
  }

  /// Draws the table and `status` over the previous drawing. While `fitScreen`, only the newest
  /// rows that fit the terminal are shown (moving the cursor up cannot pass the screen's top).
  void draw(const std::string& status, bool fitScreen) {
    size_t visible = rows_.size();
    std::string statusLine = status;
    if (fitScreen) {
      visible = std::min(
          visible, static_cast<size_t>(std::max(1, settings_.terminalRows - kTableViewFrameLines)));
      if (visible < rows_.size()) {
        statusLine = "Showing the newest " + std::to_string(visible) + " of " +
                     std::to_string(rows_.size()) + " rows. " + status;
      }
    }
    std::vector<Row> shown(rows_.end() - static_cast<std::ptrdiff_t>(visible), rows_.end());
    std::ostringstream block;
    table::TableauPrinter::printBatch(columns_, shown, block, settings_.zone,
                                      settings_.maxColumnWidth);
    block << statusLine << "\n";
    std::string text = block.str();
    if (drawnLines_ > 0) out_ << "\x1b[" << drawnLines_ << "A\r\x1b[J";
    out_ << text << std::flush;
    drawnLines_ = settings_.terminal ? screenLines(text) : 0;
  }

  /// Terminal lines `text` takes, long lines wrapping.
  int screenLines(const std::string& text) const {
    int lines = 0;
    std::istringstream input(text);
    for (std::string line; std::getline(input, line);) {
      int width = table::TableauPrinter::displayWidth(line);
      lines += std::max(1, (width + settings_.terminalColumns - 1) / settings_.terminalColumns);
    }
    return lines;
  }

  std::vector<table::TableauColumn> columns_;
  std::ostream& out_;
  const ResultViewSettings& settings_;
  std::deque<Row> rows_;
  int64_t changes_ = 0;
  int drawnLines_ = 0;
};

}  // namespace

ResultMode resultModeOf(const TableConfig& config) {
  std::optional<std::string> mode =
      config::ConfigurationView(config.toMap()).getEnum("sql-client.execution.result-mode");
  if (mode == "TABLE") return ResultMode::kTable;
  if (mode == "CHANGELOG") return ResultMode::kChangelog;
  return ResultMode::kTableau;
}

ResultViewSettings resultViewSettingsOf(const TableConfig& config) {
  ResultViewSettings settings;
  settings.mode = resultModeOf(config);
  config::ConfigurationView view(config.toMap());
  if (auto rows = view.getInteger("sql-client.execution.max-table-result.rows")) {
    settings.maxTableRows = std::max<int64_t>(1, *rows);
  }
  if (auto zone = config.get("table.local-time-zone")) {
    settings.zone = common::SessionTimeZone::of(*zone);
  }
  if (auto width = view.getInteger("sql-client.display.max-column-width")) {
    settings.maxColumnWidth = static_cast<int>(std::max<int64_t>(4, *width));
  }
  return settings;
}

void showQueryResult(TableResult& result, std::ostream& out, const ResultViewSettings& settings) {
  switch (settings.mode) {
    case ResultMode::kTableau:
      showTableau(result, out, settings);
      return;
    case ResultMode::kChangelog:
      showChangelog(result, out, settings);
      return;
    case ResultMode::kTable:
      MaterializedTableView(result.getResolvedSchema(), out, settings).show(result);
      return;
  }
}

void showListing(TableResult& result, std::ostream& out, const ResultViewSettings& settings) {
  table::TableauPrinter::printBatch(tableauColumns(result.getResolvedSchema()),
                                    result.collectAll(), out, settings.zone,
                                    std::numeric_limits<int>::max());
}

void showRawContent(TableResult& result, std::ostream& out) {
  for (std::optional<Row> row = result.next(); row; row = result.next()) {
    out << row->getField(0).toString() << "\n";
  }
}

}  // namespace eddy::client

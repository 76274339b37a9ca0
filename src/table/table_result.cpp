#include "eddy/table/table_result.h"

#include <iostream>

#include "table/tableau_printer.h"

namespace eddy {

namespace {

class VectorRowSource final : public RowSource {
 public:
  explicit VectorRowSource(std::vector<Row> rows) : rows_(std::move(rows)) {}
  std::optional<Row> next() override {
    if (next_ >= rows_.size()) return std::nullopt;
    return std::move(rows_[next_++]);
  }

 private:
  std::vector<Row> rows_;
  size_t next_ = 0;
};

std::vector<table::TableauColumn> tableauColumns(const ResolvedSchema& schema) {
  std::vector<table::TableauColumn> columns;
  for (const auto& column : schema.getColumns()) {
    columns.push_back(table::TableauColumn{column.name, column.dataType.getLogicalType()});
  }
  return columns;
}

}  // namespace

TableResult::TableResult(ResultKind kind, ResolvedSchema schema, std::unique_ptr<RowSource> rows,
                         bool streaming)
    : kind_(kind), schema_(std::move(schema)), rows_(std::move(rows)), streaming_(streaming) {}

TableResult::TableResult(TableResult&&) noexcept = default;
TableResult& TableResult::operator=(TableResult&&) noexcept = default;

TableResult::~TableResult() {
  if (rows_) rows_->close();
}

TableResult TableResult::ok() {
  ResolvedSchema schema({ResolvedSchema::Column{"result", DataTypes::STRING(), std::nullopt}});
  std::vector<Row> rows{Row::of("OK")};
  return TableResult(ResultKind::SUCCESS, std::move(schema),
                     std::make_unique<VectorRowSource>(std::move(rows)), false);
}

TableResult TableResult::ofRows(ResolvedSchema schema, std::vector<Row> rows) {
  return TableResult(ResultKind::SUCCESS_WITH_CONTENT, std::move(schema),
                     std::make_unique<VectorRowSource>(std::move(rows)), false);
}

std::optional<Row> TableResult::next() {
  if (!rows_ || closedByCancel_) return std::nullopt;
  std::optional<Row> row = cancelled_->load() ? std::nullopt : rows_->next();
  if (cancelled_->load()) {
    // The rows stay owned (a concurrent cancel() may still reach them); the job stops here.
    closedByCancel_ = true;
    rows_->close();
    return std::nullopt;
  }
  return row;
}

void TableResult::cancel() {
  cancelled_->store(true);
  if (rows_) rows_->cancel();
}

std::vector<Row> TableResult::collectAll() {
  std::vector<Row> rows;
  while (auto row = next()) rows.push_back(std::move(*row));
  return rows;
}

void TableResult::await() {
  while (next()) {
  }
}

int64_t TableResult::getNumLateRecordsDropped() const {
  return rows_ ? rows_->numLateRecordsDropped() : 0;
}

int64_t TableResult::getNumNotNullRowsDropped() const {
  return rows_ ? rows_->numNotNullRowsDropped() : 0;
}

JobProgress TableResult::getJobProgress() const { return rows_ ? rows_->progress() : JobProgress{}; }

void TableResult::print() { print(std::cout); }

void TableResult::print(std::ostream& out) {
  // TIMESTAMP_LTZ values show in the session time zone of the query (UTC for other results).
  common::SessionTimeZone zone;
  if (const auto* session = dynamic_cast<const table::SessionRowSource*>(rows_.get())) {
    zone = session->sessionTimeZone();
  }
  if (!streaming_) {
    table::TableauPrinter::printBatch(tableauColumns(schema_), collectAll(), out, zone);
    return;
  }
  table::TableauPrinter printer(tableauColumns(schema_), out, zone);
  printer.begin();
  while (auto row = next()) printer.printRow(*row);
  printer.end();
}

}  // namespace eddy

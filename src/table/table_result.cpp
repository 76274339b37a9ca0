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

std::optional<Row> TableResult::next() { return rows_ ? rows_->next() : std::nullopt; }

std::vector<Row> TableResult::collectAll() {
  std::vector<Row> rows;
  while (auto row = next()) rows.push_back(std::move(*row));
  return rows;
}

void TableResult::await() {
  while (next()) {
  }
}

void TableResult::print() { print(std::cout); }

void TableResult::print(std::ostream& out) {
  if (!streaming_) {
    table::TableauPrinter::printBatch(tableauColumns(schema_), collectAll(), out);
    return;
  }
  table::TableauPrinter printer(tableauColumns(schema_), out);
  printer.begin();
  while (auto row = next()) printer.printRow(*row);
  printer.end();
}

}  // namespace eddy

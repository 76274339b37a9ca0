// Chunk: row ↔ column conversion with all-or-nothing appends and error messages that name the
// row and the column.
#include "vector/chunk.h"

#include <fmt/format.h>

namespace eddy::vector {

Chunk::Chunk(LogicalTypePtr rowType) : rowType_(std::move(rowType)) {
  if (rowType_ == nullptr || rowType_->getTypeRoot() != LogicalTypeRoot::ROW) {
    throw ValidationException(fmt::format("A chunk needs a ROW type, not {}.",
                                          rowType_ ? rowType_->asSummaryString() : "null"));
  }
  fieldNames_ = std::make_shared<const std::vector<std::string>>(rowType_->getFieldNames());
  columns_.reserve(rowType_->getFields().size());
  for (const RowField& field : rowType_->getFields()) columns_.emplace_back(field.type);
}

void Chunk::reserve(int64_t capacity) {
  rowKinds_.reserve(static_cast<size_t>(capacity));
  for (Vector& column : columns_) column.reserve(capacity);
}

void Chunk::reserveLike(const Chunk& model) {
  reserve(model.size());
  for (int c = 0; c < columnCount() && c < model.columnCount(); ++c) {
    const Vector& column = model.column(c);
    if (column.layout() != PhysicalLayout::kVariableWidth || column.size() == 0) continue;
    columns_[static_cast<size_t>(c)].reserveBytes(column.offsets()[column.size()]);
  }
}

void Chunk::appendRow(const Row& row) {
  int64_t index = size();
  auto fail = [&](const std::string& what) {
    throw ValidationException(fmt::format("Cannot convert the row at index {} to {}: {}.", index,
                                          rowType_->asSummaryString(), what));
  };
  if (!row.isNameBased() && row.getArity() != columnCount()) {
    fail(fmt::format("it has {} fields but the row type has {}", row.getArity(), columnCount()));
  }
  int column = 0;
  try {
    for (; column < columnCount(); ++column) {
      const Value& value =
          row.isNameBased() ? row.getField((*fieldNames_)[column]) : row.getField(column);
      columns_[column].appendValue(value);
    }
  } catch (const ValidationException& error) {
    for (int appended = 0; appended < column; ++appended) columns_[appended].resize(index);
    fail(fmt::format("field '{}' (position {}) {}", (*fieldNames_)[column], column, error.what()));
  }
  rowKinds_.push_back(row.getKind());
}

Row Chunk::rowAt(int64_t index) const {
  Row row = Row::withNamedPositions(fieldNames_, rowKinds_.at(index));
  for (int column = 0; column < columnCount(); ++column) {
    row.setField(column, columns_[column].valueAt(index));
  }
  return row;
}

Chunk rowsToChunk(const std::vector<Row>& rows, const LogicalTypePtr& rowType) {
  Chunk chunk(rowType);
  chunk.reserve(static_cast<int64_t>(rows.size()));
  for (const Row& row : rows) chunk.appendRow(row);
  return chunk;
}

std::vector<Row> chunkToRows(const Chunk& chunk) {
  std::vector<Row> rows;
  rows.reserve(static_cast<size_t>(chunk.size()));
  for (int64_t index = 0; index < chunk.size(); ++index) rows.push_back(chunk.rowAt(index));
  return rows;
}

}  // namespace eddy::vector

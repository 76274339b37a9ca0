// Chunk: the unit in which the Table runtime moves data (DESIGN §2): N rows held as one Vector
// per column of a ROW type, plus one RowKind per row, so a changelog travels columnar too.
// Operators receive and produce chunks; single rows exist only at the edges, where
// rowsToChunk / chunkToRows convert between the user's Rows and chunks.
//
// A chunk is built by one thread (appendRow, mutableColumn) and may then be read by many; it
// is not synchronized. It owns its vectors.
#pragma once

#include <cstdint>
#include <vector>

#include "eddy/row.h"
#include "eddy/row_kind.h"
#include "eddy/types/logical_type.h"
#include "vector/vector.h"

namespace eddy::vector {

/// Rows of one ROW type in columnar form, with their kinds.
class Chunk {
 public:
  /// An empty chunk of `rowType`, which must be a ROW type (one vector per field).
  explicit Chunk(LogicalTypePtr rowType);

  const LogicalTypePtr& rowType() const { return rowType_; }
  int64_t size() const { return static_cast<int64_t>(rowKinds_.size()); }
  /// The rows, for RecordBatch::rowCount (a batch of chunks counts rows, not chunks).
  int64_t rowCount() const { return size(); }
  int columnCount() const { return static_cast<int>(columns_.size()); }
  const Vector& column(int index) const { return columns_.at(index); }
  /// For kernels that fill columns directly; they must keep all columns and the kinds at the
  /// same size.
  Vector& mutableColumn(int index) { return columns_.at(index); }
  const std::vector<RowKind>& rowKinds() const { return rowKinds_; }
  std::vector<RowKind>& mutableRowKinds() { return rowKinds_; }
  RowKind rowKind(int64_t index) const { return rowKinds_.at(index); }

  void reserve(int64_t capacity);
  /// Reserves room for as many rows and string bytes as `model` (of the same row type) holds:
  /// an operator appending row by row sizes its next output chunk by the one it just emitted.
  void reserveLike(const Chunk& model);
  /// Appends one row converted by the column types (see Vector::appendValue). A positioned row
  /// must have one field per column; a name-based row is matched by field name (absent names
  /// are null). Throws ValidationException naming the row index and the column; the chunk is
  /// unchanged then.
  void appendRow(const Row& row);
  /// Row `index` as a hybrid row carrying the row type's field names and the row's kind.
  Row rowAt(int64_t index) const;

 private:
  LogicalTypePtr rowType_;
  Row::FieldNames fieldNames_;  // shared by all rows produced by rowAt
  std::vector<Vector> columns_;
  std::vector<RowKind> rowKinds_;
};

/// Converts `rows` into one chunk of `rowType` (a ROW type). Throws ValidationException
/// "Cannot convert the row at index 2 to ROW<...>: field 'score' (position 1) expects INT but
/// got STRING value 'abc'" when a field does not fit.
Chunk rowsToChunk(const std::vector<Row>& rows, const LogicalTypePtr& rowType);
/// The rows of a chunk, in order, as hybrid rows with the row type's field names.
std::vector<Row> chunkToRows(const Chunk& chunk);

}  // namespace eddy::vector

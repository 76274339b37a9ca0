// RowSorter: puts the rows of stored chunks in the order of some of their columns, for the
// BATCH sort (ORDER BY) and the sort-merge join.
//
// Each row's sort key is encoded once into order-preserving bytes (vector::appendSortKeyBytes,
// all keys back to back in one buffer); the rows are then sorted as small fixed-size entries
// (the key's first eight bytes as an integer, where the key is in the buffer, the row's
// RowRef), comparing the integers first and the remaining bytes only on a tie. Equal keys keep
// the order in which their rows were added (the sort is stable). No row becomes a Value; the
// sorted rows are gathered back into chunks a column at a time (RowStore::gather).
//
// Threading: owned and used by one operator subtask's task thread; not synchronized.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/operators/stored_rows/row_store.h"
#include "vector/chunk.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

/// One row of a RowSorter: its sort key (the first eight bytes big-endian in `prefix`, zero
/// padded; all of it at `offset` in the sorter's buffer) and where the row is.
struct SortedRow {
  uint64_t prefix = 0;
  uint64_t offset = 0;
  uint32_t length = 0;
  uint32_t sequence = 0;  // the order of adding, which breaks ties
  RowRef row;
};

class RowSorter {
 public:
  /// Orders rows by `columns`. With `groupColumns`, rows are first grouped by those columns
  /// (encoded as key bytes, vector::appendKeyBytes: equal values adjacent, the groups in
  /// key-byte order, any type — also the nested ones, which have no order) and ordered by
  /// `columns` within a group.
  explicit RowSorter(std::vector<vector::SortColumn> columns, std::vector<int> groupColumns = {})
      : columns_(std::move(columns)), groupColumns_(std::move(groupColumns)) {}

  /// Adds row `position` of `chunk`, stored as segment `segment` of a RowStore.
  void add(const vector::Chunk& chunk, int32_t segment, int32_t position);
  /// Adds every row of `chunk` (segment `segment`).
  void addAll(const vector::Chunk& chunk, int32_t segment);
  /// Sorts the rows added (stable). With `limit` >= 0 only the first `limit` rows of the
  /// order are sorted into place (the others follow in no particular order).
  void sort(int64_t limit = -1);

  const std::vector<SortedRow>& rows() const { return rows_; }
  int64_t size() const { return static_cast<int64_t>(rows_.size()); }
  std::string_view key(const SortedRow& row) const {
    return std::string_view(keys_).substr(row.offset, row.length);
  }
  /// <0, 0 or >0 as the key of `a` (of this sorter) orders before, equal to or after the key
  /// of `b` (of `other`, a sorter over columns of the same types and order).
  int compareKeys(const SortedRow& a, const RowSorter& other, const SortedRow& b) const;

  /// Writes rows [begin, end) of the order as the chunk `out` (whose columns are the store's
  /// row type's), as +I rows.
  static void gather(const RowStore& store, const std::vector<SortedRow>& rows, int64_t begin,
                     int64_t end, vector::Chunk& out);

 private:
  std::vector<vector::SortColumn> columns_;
  std::vector<int> groupColumns_;
  std::string keys_;
  std::vector<SortedRow> rows_;
};

}  // namespace eddy::runtime::operators

// Whole-chunk operations shared by the Table runtime's operators: gathering rows into a new
// chunk (partitioning, filtering by a selection) and encoding a row's key columns into the
// binary key used for hashing and keyed state.
//
// Key bytes (written down here because keyed state is stored under them): for each key
// column, one flag byte (0 = NULL, 1 = value) followed, for a value, by its encoding —
// fixed-width numbers, dates and times as TypeSerializer<T> writes them (big-endian, sign
// flipped: byte order is value order), timestamps as milliseconds then nanoseconds of the
// millisecond, DECIMAL as its 128-bit unscaled value (two big-endian halves, high half sign
// flipped), strings and binaries as a varint length and the bytes, nested values as
// TypeSerializer<Value>. Equal keys give equal bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "vector/chunk.h"

namespace eddy::vector {

/// Rows `rows[0..count)` of `chunk`, in that order, as a new chunk of the same row type. With
/// `onlyColumns`, the columns c without (*onlyColumns)[c] are left empty (for a reader that
/// never looks at them).
Chunk gather(const Chunk& chunk, const int32_t* rows, int64_t count,
             const std::vector<bool>* onlyColumns = nullptr);

/// Appends the key bytes of row `row` over `keyColumns` to `out` (see the file comment).
void appendKeyBytes(const Chunk& chunk, const std::vector<int>& keyColumns, int64_t row,
                    std::string& out);

/// One column of a sort order: ascending or descending, NULLs first or last. `withoutNulls`:
/// the caller knows the column holds no NULL in the rows encoded (the sort-merge join sets
/// rows with a NULL key aside), so no marker byte is written and a one-column BIGINT key fits
/// the sorter's eight-byte prefix; encoding a NULL then is an internal error.
struct SortColumn {
  int column = 0;
  bool ascending = true;
  bool nullsFirst = true;
  bool withoutNulls = false;
};

/// Appends the sort key bytes of row `row` over `columns` to `out`: bytes whose memcmp order
/// is the rows' order by those columns (Flink's normalized keys, made exact), so sorting and
/// merging compare bytes only. Per column: a marker byte (NULL: 0 when NULLs come first, 2
/// when last; a value: 1; none when `withoutNulls`), then for a value its order-preserving encoding, every byte
/// inverted when descending — integers, dates and times big-endian with the sign bit
/// flipped; FLOAT/DOUBLE as Java's Double.compare orders them (-0.0 before 0.0, NaN after
/// everything); DECIMAL as its unscaled 128-bit value (one scale per column); timestamps as
/// milliseconds then nanoseconds; strings and binaries by their bytes, 0x00 escaped as 0x00
/// 0xFF and ended by 0x00 0x00 (so no encoding is a prefix of another). A nested value (the
/// boxed layout) has no order: ValidationException "Values of kind .. are not comparable".
void appendSortKeyBytes(const Chunk& chunk, const std::vector<SortColumn>& columns, int64_t row,
                        std::string& out);

}  // namespace eddy::vector

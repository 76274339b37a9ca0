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

}  // namespace eddy::vector

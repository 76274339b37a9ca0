// StoredRowCodec: writing stored rows into checkpoint block bodies and staging them back (see
// the header).
#include "runtime/operators/stored_rows/stored_row_codec.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <utility>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "eddy/types/value.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

void sortSnapshotKeys(std::vector<SnapshotKey>& keys) {
  // Sorted through small entries with the keys' prefixes (whole key bytes compared on ties).
  struct Sortable {
    int keyGroup;
    KeyOrderPrefix prefix;
    std::string_view keyBytes;
    uint32_t index;
  };
  std::vector<Sortable> sortable;
  sortable.reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    sortable.push_back(Sortable{keys[i].keyGroup, keyOrderPrefix(keys[i].bytes), keys[i].bytes,
                                static_cast<uint32_t>(i)});
  }
  sortByKeyGroupAndKey(sortable, [](const Sortable&, const Sortable&) { return false; });
  std::vector<SnapshotKey> sorted;
  sorted.reserve(keys.size());
  for (const Sortable& entry : sortable) sorted.push_back(keys[entry.index]);
  keys = std::move(sorted);
}

void writeKeyBytes(std::string_view keyBytes, std::string& out) {
  state::writeLengthPrefixed(keyBytes, out);
}

void writeStoredRowColumns(const vector::Chunk& chunk, int64_t position, std::string& out) {
  const int columnCount = chunk.columnCount();
  serialization::writeVarint(static_cast<uint64_t>(columnCount), out);
  for (int column = 0; column < columnCount; ++column) {
    chunk.column(column).serializeValueAt(position, out);
  }
}

std::string_view readKeyOfKeyGroup(std::string_view& body, int keyGroup, int maxParallelism) {
  const std::string_view keyBytes = state::readLengthPrefixed(body);
  const int written = assignToKeyGroup(keyBytes, maxParallelism);
  if (written != keyGroup) {
    throw InternalError(fmt::format(
        "a key of key group {} (maximum parallelism {}) is in the block of key group {}", written,
        maxParallelism, keyGroup));
  }
  return keyBytes;
}

uint64_t readCount(std::string_view& in) {
  const uint64_t count = serialization::readVarint(in);
  if (count > in.size()) {
    throw InternalError(fmt::format("a count of {} with {} bytes left", count, in.size()));
  }
  return count;
}

std::string_view readElement(std::string_view& in) { return state::readLengthPrefixed(in); }

void throwKeyWithoutElements() { throw InternalError("a key without entries"); }

uint8_t readByte(std::string_view& in) {
  if (in.empty()) throw InternalError("truncated state snapshot");
  const auto byte = static_cast<uint8_t>(in.front());
  in.remove_prefix(1);
  return byte;
}

void checkFullyRead(std::string_view rest, std::string_view what) {
  if (!rest.empty()) throw InternalError(fmt::format("trailing bytes after {}", what));
}

void throwUnrestorableState(std::string_view stateName, std::string_view operatorName, int keyGroup,
                            std::string_view cause) {
  throw InternalError(fmt::format("Cannot restore state '{}' of operator '{}' in key group {}: {}",
                                  stateName, operatorName, keyGroup, cause));
}

FrozenStoredRows::FrozenStoredRows(const RowStore& store, KeyGroupRange range, int maxParallelism)
    : store_(store), range_(range), maxParallelism_(maxParallelism) {}

void FrozenStoredRows::addKey(std::string_view keyBytes) {
  keys_.push_back(Key{0, static_cast<uint32_t>(keyBytes.size()), keyBytes_.size(), rows_.size()});
  keyBytes_.append(keyBytes);
}

std::string& FrozenStoredRows::addRow(RowRef row) {
  const auto segment = static_cast<size_t>(row.segment);
  if (segment >= chunks_.size()) chunks_.resize(segment + 1);
  if (chunks_[segment] == nullptr) chunks_[segment] = store_.shareChunk(row.segment);
  rows_.push_back(Row{row, headers_.size()});
  return headers_;
}

std::string_view FrozenStoredRows::bytesOf(const Key& key) const {
  return std::string_view(keyBytes_).substr(key.bytesBegin, key.bytesSize);
}

void FrozenStoredRows::sortKeys() {
  std::vector<KeyOrderPrefix> prefixes(keys_.size());
  order_.reserve(keys_.size());
  for (size_t k = 0; k < keys_.size(); ++k) {
    Key& key = keys_[k];
    key.keyGroup = assignToKeyGroup(bytesOf(key), maxParallelism_);
    prefixes[k] = keyOrderPrefix(bytesOf(key));
    if (range_.contains(key.keyGroup)) order_.push_back(static_cast<uint32_t>(k));
  }
  std::sort(order_.begin(), order_.end(), [&](uint32_t left, uint32_t right) {
    const Key& l = keys_[left];
    const Key& r = keys_[right];
    if (l.keyGroup != r.keyGroup) return l.keyGroup < r.keyGroup;
    return compareKeys(prefixes[left], bytesOf(l), prefixes[right], bytesOf(r)) < 0;
  });
  sorted_ = true;
}

void FrozenStoredRows::writeKeyGroup(int keyGroup, std::string& body) {
  if (!sorted_) sortKeys();
  // Keys of key groups the caller skipped are left out.
  while (next_ < order_.size() && keys_[order_[next_]].keyGroup < keyGroup) ++next_;
  size_t end = next_;
  while (end < order_.size() && keys_[order_[end]].keyGroup == keyGroup) ++end;
  if (end > next_) {
    serialization::writeVarint(end - next_, body);
    std::string element;
    for (size_t k = next_; k < end; ++k) {
      const uint32_t index = order_[k];
      const Key& key = keys_[index];
      const size_t firstRow = key.firstRow;
      const size_t lastRow = index + 1 < keys_.size() ? keys_[index + 1].firstRow : rows_.size();
      writeKeyBytes(bytesOf(key), body);
      serialization::writeVarint(lastRow - firstRow, body);
      for (size_t r = firstRow; r < lastRow; ++r) {
        const size_t headerBegin = rows_[r].headerBegin;
        const size_t headerEnd = r + 1 < rows_.size() ? rows_[r + 1].headerBegin : headers_.size();
        element.assign(headers_, headerBegin, headerEnd - headerBegin);
        const RowRef row = rows_[r].row;
        writeStoredRowColumns(*chunks_[static_cast<size_t>(row.segment)], row.position, element);
        state::writeLengthPrefixed(element, body);
      }
    }
    next_ = end;
  }
  if (next_ == order_.size() || keyGroup >= range_.endKeyGroup) {
    // Everything is written: what the freeze shared is let go of here, on the writer's thread.
    chunks_ = {};
    keys_ = {};
    rows_ = {};
    order_ = {};
    std::string().swap(keyBytes_);
    std::string().swap(headers_);
  }
}

RestoredRowChunk::RestoredRowChunk(LogicalTypePtr rowType) : chunk_(std::move(rowType)) {}

void RestoredRowChunk::readRow(std::string_view& in, RowKind kind) {
  const int columnCount = chunk_.columnCount();
  const uint64_t columns = serialization::readVarint(in);
  if (columns != static_cast<uint64_t>(columnCount)) {
    throw InternalError(
        fmt::format("a row of {} columns where the input has {}", columns, columnCount));
  }
  const int64_t before = chunk_.size();
  int column = 0;
  try {
    for (; column < columnCount; ++column) {
      chunk_.mutableColumn(column).appendValue(TypeSerializer<Value>::deserialize(in));
    }
  } catch (const std::exception& error) {
    // A value that does not decode, one the column's type does not take, or a corrupted count
    // inside a value that it reserved for (std::length_error, std::bad_alloc).
    for (int appended = 0; appended < column; ++appended) {
      chunk_.mutableColumn(appended).resize(before);
    }
    throw InternalError(fmt::format("column {} of a row: {}", column, error.what()));
  }
  chunk_.mutableRowKinds().push_back(kind);
}

void RestoredRowChunk::truncate(int64_t size) {
  if (size >= chunk_.size()) return;
  for (int column = 0; column < chunk_.columnCount(); ++column) {
    if (chunk_.column(column).size() > size) chunk_.mutableColumn(column).resize(size);
  }
  chunk_.mutableRowKinds().resize(static_cast<size_t>(size));
}

std::vector<RowRef> RestoredRowChunk::moveInto(RowStore& store) {
  const int64_t rowCount = chunk_.size();
  std::vector<RowRef> refs;
  refs.reserve(static_cast<size_t>(rowCount));
  const auto batch = static_cast<int64_t>(kDefaultBatchSize);
  if (rowCount <= batch) {
    if (rowCount > 0) {
      const int32_t segment = store.add(std::exchange(chunk_, vector::Chunk(chunk_.rowType())));
      for (int64_t row = 0; row < rowCount; ++row) {
        refs.push_back(RowRef{segment, static_cast<int32_t>(row)});
      }
    }
    return refs;
  }
  // One key group may hold many more rows than a chunk.
  std::vector<int32_t> selection;
  for (int64_t begin = 0; begin < rowCount; begin += batch) {
    const int64_t end = std::min(rowCount, begin + batch);
    selection.resize(static_cast<size_t>(end - begin));
    for (int64_t row = begin; row < end; ++row) {
      selection[static_cast<size_t>(row - begin)] = static_cast<int32_t>(row);
    }
    const int32_t segment = store.add(vector::gather(chunk_, selection.data(), end - begin));
    for (int64_t row = begin; row < end; ++row) {
      refs.push_back(RowRef{segment, static_cast<int32_t>(row - begin)});
    }
  }
  chunk_ = vector::Chunk(chunk_.rowType());
  return refs;
}

}  // namespace eddy::runtime::operators

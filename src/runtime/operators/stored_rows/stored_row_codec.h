// StoredRowCodec: the pieces every operator that keeps rows in a RowStore under a KeyTable uses
// to write those rows into the key-group sections of a checkpoint and to read them back — the
// regular, interval and temporal joins, and the other RowStore operators as they become
// checkpointable (docs/state_format.md, "Stored rows").
//
// Such an operator registers its rows as state::RawKeyedState. A snapshot visits its keys in
// the requested key-group range, sorted by key group then key bytes (snapshotKeysOf), so equal
// state gives equal bytes, and writes each key group's block body as keyCount:varint then, per
// key, keyBytes:bytes and what the operator writes for the key (writeKeyGroupBodies); a stored
// row's columns are `row := columnCount:varint TypeSerializer<Value>{columnCount}`
// (writeStoredRowColumns). A restore reads a key and checks that it belongs to the key group
// whose block holds it (readKeyOfKeyGroup; readKeyedListBody walks a whole body of the
// ListState shape, as the joins write them), decodes each row's columns into a staging chunk
// (RestoredRowChunk), and finally moves the staged rows into the RowStore as chunks of at most
// kDefaultBatchSize rows, learning each row's RowRef. Converting rows to Values happens only
// here, in snapshots and restores, never on the record path.
//
// Asynchronous snapshots: FrozenStoredRows takes, on the task thread, the keys and their rows'
// places and per-row headers (what an element holds before its columns) and shares the chunks
// the rows are in; written later on the async writer, it produces the ListState-shaped bodies
// the operator's snapshotKeyGroups writes, byte for byte. An operator's snapshotKeyGroups and
// freezeKeyGroups then share one freeze function (snapshotKeyGroups = freeze, then write).
//
// Errors: everything that does not decode throws InternalError with a short cause; the
// operator rethrows it naming its state, itself and the key group (throwUnrestorableState).
//
// Threading: pure functions and a staging object owned by one operator subtask's task thread.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/row_kind.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/types/logical_type.h"
#include "eddy/types/type_serializer.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// The first 16 bytes of `keyBytes` as two big-endian numbers, zero-padded: where two keys'
/// prefixes differ, they order the keys as comparing their bytes does (std::string_view's
/// order), so a snapshot's sort compares whole key bytes only between keys of equal prefixes
/// (16 bytes: a BIGINT key is a NULL marker and 8 bytes, the low ones telling keys apart).
struct KeyOrderPrefix {
  uint64_t high = 0;
  uint64_t low = 0;
  auto operator<=>(const KeyOrderPrefix&) const = default;
};
/// Orders two keys as comparing their bytes does (<0, 0, >0), given their prefixes; reads the
/// bytes only when the prefixes are equal and a key is longer than them.
inline int compareKeys(KeyOrderPrefix leftPrefix, std::string_view left, KeyOrderPrefix rightPrefix,
                       std::string_view right) {
  if (leftPrefix != rightPrefix) return leftPrefix < rightPrefix ? -1 : 1;
  // Equal prefixes of keys of at most 16 bytes: one is the other padded with zero bytes.
  if (left.size() <= 16 && right.size() <= 16) {
    return left.size() == right.size() ? 0 : (left.size() < right.size() ? -1 : 1);
  }
  return left.compare(right);
}
inline KeyOrderPrefix keyOrderPrefix(std::string_view keyBytes) {
  KeyOrderPrefix prefix;
  const size_t size = std::min<size_t>(keyBytes.size(), 16);
  for (size_t i = 0; i < size; ++i) {
    uint64_t& word = i < 8 ? prefix.high : prefix.low;
    word |= uint64_t{static_cast<uint8_t>(keyBytes[i])} << (56 - 8 * (i % 8));
  }
  return prefix;
}

/// Sorts snapshot entries — each with `keyGroup`, `keyBytes` and `prefix` (keyOrderPrefix of
/// the bytes) — by key group, then key bytes, then `before(left, right)` among entries of one
/// key (a strict order, or always false).
template <typename Entry, typename Before>
void sortByKeyGroupAndKey(std::vector<Entry>& entries, Before&& before) {
  std::sort(entries.begin(), entries.end(), [&](const Entry& left, const Entry& right) {
    if (left.keyGroup != right.keyGroup) return left.keyGroup < right.keyGroup;
    const int order = compareKeys(left.prefix, left.keyBytes, right.prefix, right.keyBytes);
    return order != 0 ? order < 0 : before(left, right);
  });
}

/// Whether two such entries are of the same key.
template <typename Entry>
bool sameKey(const Entry& left, const Entry& right) {
  return compareKeys(left.prefix, left.keyBytes, right.prefix, right.keyBytes) == 0;
}

/// A key of an operator's KeyTable as a snapshot visits it.
struct SnapshotKey {
  int keyGroup = 0;
  std::string_view bytes;  // the KeyTable's key bytes (valid while the table is unchanged)
  int32_t slot = 0;        // the key's slot in the KeyTable
};

/// Sorts keys by key group, then key bytes.
void sortSnapshotKeys(std::vector<SnapshotKey>& keys);

/// Appends keyBytes:bytes (varint length, then the bytes).
void writeKeyBytes(std::string_view keyBytes, std::string& out);

/// The keys of `keys` whose key group (of their bytes, as the exchange routes them) is in
/// `range` and for which `include(state)` holds, sorted by key group, then key bytes.
template <typename State, typename Include>
std::vector<SnapshotKey> snapshotKeysOf(KeyTable<State>& keys, KeyGroupRange range,
                                        int maxParallelism, Include&& include) {
  std::vector<SnapshotKey> result;
  keys.forEach([&](int32_t slot, State& state) {
    if (!include(static_cast<const State&>(state))) return;
    const int keyGroup = assignToKeyGroup(state.bytes, maxParallelism);
    if (range.contains(keyGroup)) result.push_back(SnapshotKey{keyGroup, state.bytes, slot});
  });
  sortSnapshotKeys(result);
  return result;
}

/// Writes the block bodies of `keys` (sorted as snapshotKeysOf returns them) into
/// `bodies[keyGroup - range.startKeyGroup]` (as RawKeyedState::snapshotKeyGroups gets them):
/// per key group keyCount:varint, then per key keyBytes:bytes followed by what
/// `writeKey(const SnapshotKey&, std::string& body)` appends.
template <typename WriteKey>
void writeKeyGroupBodies(const std::vector<SnapshotKey>& keys, KeyGroupRange range,
                         std::vector<std::string>& bodies, WriteKey&& writeKey) {
  for (size_t begin = 0; begin < keys.size();) {
    const int keyGroup = keys[begin].keyGroup;
    size_t end = begin;
    while (end < keys.size() && keys[end].keyGroup == keyGroup) ++end;
    std::string& body = bodies[static_cast<size_t>(keyGroup - range.startKeyGroup)];
    serialization::writeVarint(end - begin, body);
    for (size_t k = begin; k < end; ++k) {
      writeKeyBytes(keys[k].bytes, body);
      writeKey(keys[k], body);
    }
    begin = end;
  }
}

/// Appends row position `position` of `chunk` as columnCount:varint then each column's value
/// as TypeSerializer<Value> writes it.
void writeStoredRowColumns(const vector::Chunk& chunk, int64_t position, std::string& out);

/// Reads keyBytes:bytes from the front of `body`; throws InternalError when the bytes are
/// truncated or the key belongs to another key group than `keyGroup`.
std::string_view readKeyOfKeyGroup(std::string_view& body, int keyGroup, int maxParallelism);

/// Reads a count (varint) of things each taking at least one byte of `in`; throws
/// InternalError when `in` cannot hold that many (so a corrupted count never sizes a loop or
/// an allocation).
uint64_t readCount(std::string_view& in);

/// Reads one byte; throws InternalError when `in` is empty.
uint8_t readByte(std::string_view& in);

/// Throws InternalError("trailing bytes after <what>") when `rest` is not empty.
void checkFullyRead(std::string_view rest, std::string_view what);

/// Throws InternalError "Cannot restore state '<stateName>' of operator '<operatorName>' in
/// key group <keyGroup>: <cause>".
[[noreturn]] void throwUnrestorableState(std::string_view stateName, std::string_view operatorName,
                                         int keyGroup, std::string_view cause);

/// Reads element:bytes (a varint length, then that many bytes) from the front of `in`.
std::string_view readElement(std::string_view& in);

/// Throws InternalError("a key without entries").
[[noreturn]] void throwKeyWithoutElements();

/// Reads a block body of `keyGroup` in the ListState payload shape — keyCount:varint, then per
/// key keyBytes:bytes count:varint element:bytes{count} — and calls
/// `visit(std::string_view keyBytes, uint64_t index, std::string_view element)` for each
/// element, `index` counting a key's elements from 0. Throws InternalError when the bytes are
/// truncated, a key belongs to another key group or has no element, or bytes trail.
template <typename Visit>
void readKeyedListBody(std::string_view body, int keyGroup, int maxParallelism, Visit&& visit) {
  const uint64_t keyCount = readCount(body);
  for (uint64_t k = 0; k < keyCount; ++k) {
    const std::string_view keyBytes = readKeyOfKeyGroup(body, keyGroup, maxParallelism);
    const uint64_t count = readCount(body);
    if (count == 0) throwKeyWithoutElements();
    for (uint64_t index = 0; index < count; ++index) {
      visit(keyBytes, index, readElement(body));
    }
  }
  checkFullyRead(body, "the last key");
}

/// Reads a block body of the ValueState shape holding one TypeSerializer<int64_t> per key —
/// keyCount:varint, then per key keyBytes:bytes value:bytes; the last writes of a state TTL
/// ("_rank/last-writes", "_over_aggregate/last-writes") — and calls
/// `visit(std::string_view keyBytes, int64_t value)` for each key. Throws InternalError when the
/// bytes are truncated, a key belongs to another key group, or bytes trail.
template <typename Visit>
void readKeyedInt64Body(std::string_view body, int keyGroup, int maxParallelism, Visit&& visit) {
  const uint64_t keyCount = readCount(body);
  for (uint64_t k = 0; k < keyCount; ++k) {
    const std::string_view keyBytes = readKeyOfKeyGroup(body, keyGroup, maxParallelism);
    visit(keyBytes, state::readSerializedValue<int64_t, TypeSerializer<int64_t>>(
                        state::readLengthPrefixed(body)));
  }
  checkFullyRead(body, "the last key");
}

/// Keys with their stored rows as they were at a freeze, written into ListState-shaped block
/// bodies (keyCount:varint, then per key keyBytes:bytes count:varint element:bytes{count},
/// element := header then writeStoredRowColumns) later, on any thread; see the file comment.
/// Keys are written sorted by key group, then key bytes; keys outside the range are left out.
class FrozenStoredRows final : public state::FrozenKeyGroups {
 public:
  FrozenStoredRows(const RowStore& store, KeyGroupRange range, int maxParallelism);

  /// Starts the next key; every key gets at least one row.
  void addKey(std::string_view keyBytes);
  /// Adds stored row `row` to the key added last and returns the string its element's header
  /// is appended to (the bytes before the row's columns).
  std::string& addRow(RowRef row);

  void writeKeyGroup(int keyGroup, std::string& body) override;

 private:
  /// Orders the keys of the range by key group, then key bytes (at the first writeKeyGroup).
  void sortKeys();

  struct Key {
    int keyGroup = 0;
    uint32_t bytesSize = 0;
    size_t bytesBegin = 0;  // in keyBytes_
    size_t firstRow = 0;    // rows [firstRow, the next key's firstRow)
  };
  std::string_view bytesOf(const Key& key) const;

  struct Row {
    RowRef row;
    size_t headerBegin = 0;  // headers_[headerBegin, the next row's headerBegin)
  };

  const RowStore& store_;  // only read while freezing (addRow shares the row's chunk)
  const KeyGroupRange range_;
  const int maxParallelism_;
  std::vector<Key> keys_;
  std::string keyBytes_;
  std::vector<Row> rows_;
  std::string headers_;
  std::vector<std::shared_ptr<const vector::Chunk>> chunks_;  // by segment, those rows are in
  bool sorted_ = false;
  std::vector<uint32_t> order_;  // indexes into keys_, sorted (sortKeys)
  size_t next_ = 0;              // the first entry of order_ not written yet
};

/// Rows decoded from a snapshot, staged in one chunk of the store's row type until they are
/// moved into the RowStore.
class RestoredRowChunk {
 public:
  explicit RestoredRowChunk(LogicalTypePtr rowType);

  int64_t size() const { return chunk_.size(); }
  bool empty() const { return chunk_.size() == 0; }

  /// Reads one row as writeStoredRowColumns wrote it from the front of `in` and stages it with
  /// row kind `kind`. Throws InternalError when the bytes do not decode or do not fit the row
  /// type (column count, a value of another type, NULL in a NOT NULL column); the staged rows
  /// are then as before the call.
  void readRow(std::string_view& in, RowKind kind = RowKind::INSERT);

  /// Drops the staged rows from `size` on (undoing a block that did not decode).
  void truncate(int64_t size);

  /// Adds the staged rows to `store` (none retained) as chunks of at most kDefaultBatchSize
  /// rows and returns each row's RowRef, in staging order; leaves nothing staged.
  std::vector<RowRef> moveInto(RowStore& store);

 private:
  vector::Chunk chunk_;
};

}  // namespace eddy::runtime::operators

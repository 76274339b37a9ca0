// The building blocks of a key group snapshot section, shared by the backends' typed state
// code (which is templated, hence in a header) and by docs/state_format.md, which is the
// normative description of the bytes. A section holds every state's entries of one key group;
// each value is the bytes its TypeSerializer writes, length-prefixed so a section can be kept
// or copied without knowing the value types (restores are decoded lazily, once the user
// function registers the state with its serializers).
//
// Everything here is a pure function over strings; callers own the buffers.
//
// Internal (eddy/detail/): installed only because the heap backend's typed states
// (heap_keyed_state.h) are templates instantiated in user code.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "eddy/exceptions.h"
#include "eddy/types/type_serializer.h"

namespace eddy::state {

/// The first byte of every key group section.
inline constexpr uint8_t kKeyGroupSnapshotVersion = 1;

/// Bit of a state block's flags byte: every value in the block is preceded by its TTL
/// last-access timestamp.
inline constexpr uint8_t kEntriesHaveTimestamps = 0x01;

/// Appends varint(length) then the bytes.
inline void writeLengthPrefixed(std::string_view bytes, std::string& out) {
  serialization::writeVarint(bytes.size(), out);
  out.append(bytes);
}

/// Consumes a varint length and that many bytes from the front of `in`.
inline std::string_view readLengthPrefixed(std::string_view& in) {
  uint64_t size = serialization::readVarint(in);
  if (in.size() < size) throw InternalError("truncated byte string in a state snapshot");
  std::string_view bytes = in.substr(0, size);
  in.remove_prefix(size);
  return bytes;
}

/// Appends varint(length) then `value` as written by `Serializer`, without a scratch buffer.
template <typename T, typename Serializer>
void writeSerializedValue(const T& value, std::string& out) {
  size_t start = out.size();
  Serializer::serialize(value, out);
  std::string length;
  serialization::writeVarint(out.size() - start, length);
  out.insert(start, length);
}

/// Decodes one value that must span all of `bytes`.
template <typename T, typename Serializer>
T readSerializedValue(std::string_view bytes) {
  T value = Serializer::deserialize(bytes);
  if (!bytes.empty()) throw InternalError("trailing bytes after a value in a state snapshot");
  return value;
}

/// A TTL timestamp: eight bytes as TypeSerializer<int64_t> writes them.
inline void writeTimestamp(int64_t millis, std::string& out) {
  TypeSerializer<int64_t>::serialize(millis, out);
}

inline int64_t readTimestamp(std::string_view& in) {
  return TypeSerializer<int64_t>::deserialize(in);
}

}  // namespace eddy::state

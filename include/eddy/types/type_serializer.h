// TypeSerializer<T>: the binary encoding of a C++ value, used for state keys, state values,
// snapshots and key hashing. Keys are never strings: a key is the bytes its serializer
// writes, and two keys are equal exactly when their bytes are equal.
//
// A specialization provides
//   static void serialize(const T& value, std::string& out);   // appends to `out`
//   static T deserialize(std::string_view& in);                // consumes from the front
//
// Byte format (written down here, next to the code, as it is part of snapshots):
//   bool            1 byte, 0 or 1
//   integers        fixed width, big-endian, sign bit flipped (so bytes sort as numbers)
//   float/double    IEEE bits, big-endian, transformed so that bytes sort as numbers
//   std::string     varint length, then the bytes
//   std::pair/tuple the fields one after another
//   std::vector     varint count, then the elements
//   std::optional   1 byte presence flag, then the value when present
// Other types (Row, Value, user structs) specialize TypeSerializer next to their definition.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/exceptions.h"

namespace eddy {

template <typename T, typename Enable = void>
struct TypeSerializer;  // Specialize for your type; see the file comment for the contract.

namespace serialization {

inline void writeVarint(uint64_t value, std::string& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

inline uint64_t readVarint(std::string_view& in) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (in.empty()) throw InternalError("truncated varint in serialized data");
    auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  throw InternalError("malformed varint in serialized data");
}

inline void writeBigEndian(uint64_t bits, int width, std::string& out) {
  // One append of the whole word: keys are hashed right after being written, and a hash
  // that reads a word stored byte by byte stalls on store-to-load forwarding.
  uint64_t bigEndian = __builtin_bswap64(bits << (8 * (8 - width)));
  out.append(reinterpret_cast<const char*>(&bigEndian), width);
}

inline uint64_t readBigEndian(int width, std::string_view& in) {
  if (in.size() < static_cast<size_t>(width)) {
    throw InternalError("truncated fixed-width value in serialized data");
  }
  uint64_t bits = 0;
  for (int i = 0; i < width; ++i) bits = (bits << 8) | static_cast<uint8_t>(in[i]);
  in.remove_prefix(width);
  return bits;
}

}  // namespace serialization

template <>
struct TypeSerializer<bool> {
  static void serialize(bool value, std::string& out) { out.push_back(value ? 1 : 0); }
  static bool deserialize(std::string_view& in) {
    return serialization::readBigEndian(1, in) != 0;
  }
};

template <typename T>
struct TypeSerializer<T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>> {
  static constexpr int kWidth = sizeof(T);
  static void serialize(T value, std::string& out) {
    using Unsigned = std::make_unsigned_t<T>;
    uint64_t bits = static_cast<Unsigned>(value);
    if constexpr (std::is_signed_v<T>) bits ^= uint64_t{1} << (8 * kWidth - 1);
    serialization::writeBigEndian(bits, kWidth, out);
  }
  static T deserialize(std::string_view& in) {
    uint64_t bits = serialization::readBigEndian(kWidth, in);
    if constexpr (std::is_signed_v<T>) bits ^= uint64_t{1} << (8 * kWidth - 1);
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(bits));
  }
};

template <typename T>
struct TypeSerializer<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  static constexpr int kWidth = sizeof(T);
  static constexpr Bits kSign = Bits{1} << (8 * kWidth - 1);
  static void serialize(T value, std::string& out) {
    Bits bits;
    std::memcpy(&bits, &value, sizeof(T));
    bits = (bits & kSign) ? ~bits : (bits | kSign);  // order-preserving transform
    serialization::writeBigEndian(bits, kWidth, out);
  }
  static T deserialize(std::string_view& in) {
    auto bits = static_cast<Bits>(serialization::readBigEndian(kWidth, in));
    bits = (bits & kSign) ? (bits & ~kSign) : ~bits;
    T value;
    std::memcpy(&value, &bits, sizeof(T));
    return value;
  }
};

template <>
struct TypeSerializer<std::string> {
  static void serialize(const std::string& value, std::string& out) {
    serialization::writeVarint(value.size(), out);
    out.append(value);
  }
  static std::string deserialize(std::string_view& in) {
    uint64_t size = serialization::readVarint(in);
    if (in.size() < size) throw InternalError("truncated string in serialized data");
    std::string value(in.substr(0, size));
    in.remove_prefix(size);
    return value;
  }
};

template <typename A, typename B>
struct TypeSerializer<std::pair<A, B>> {
  static void serialize(const std::pair<A, B>& value, std::string& out) {
    TypeSerializer<A>::serialize(value.first, out);
    TypeSerializer<B>::serialize(value.second, out);
  }
  static std::pair<A, B> deserialize(std::string_view& in) {
    A first = TypeSerializer<A>::deserialize(in);
    B second = TypeSerializer<B>::deserialize(in);
    return {std::move(first), std::move(second)};
  }
};

template <typename... Fields>
struct TypeSerializer<std::tuple<Fields...>> {
  static void serialize(const std::tuple<Fields...>& value, std::string& out) {
    std::apply([&out](const auto&... field) {
      (TypeSerializer<std::decay_t<decltype(field)>>::serialize(field, out), ...);
    }, value);
  }
  static std::tuple<Fields...> deserialize(std::string_view& in) {
    // Braced initialization evaluates left to right, matching the written order.
    return std::tuple<Fields...>{TypeSerializer<Fields>::deserialize(in)...};
  }
};

template <typename T>
struct TypeSerializer<std::vector<T>> {
  static void serialize(const std::vector<T>& value, std::string& out) {
    serialization::writeVarint(value.size(), out);
    for (const auto& element : value) TypeSerializer<T>::serialize(element, out);
  }
  static std::vector<T> deserialize(std::string_view& in) {
    uint64_t count = serialization::readVarint(in);
    std::vector<T> value;
    value.reserve(count);
    for (uint64_t i = 0; i < count; ++i) value.push_back(TypeSerializer<T>::deserialize(in));
    return value;
  }
};

template <typename T>
struct TypeSerializer<std::optional<T>> {
  static void serialize(const std::optional<T>& value, std::string& out) {
    out.push_back(value.has_value() ? 1 : 0);
    if (value) TypeSerializer<T>::serialize(*value, out);
  }
  static std::optional<T> deserialize(std::string_view& in) {
    if (!TypeSerializer<bool>::deserialize(in)) return std::nullopt;
    return TypeSerializer<T>::deserialize(in);
  }
};

/// Serializes `value` into a fresh string (convenience for tests and cold paths).
template <typename T>
std::string serializeToString(const T& value) {
  std::string out;
  TypeSerializer<T>::serialize(value, out);
  return out;
}

/// Reads back a value written by serializeToString; the whole input must be consumed.
template <typename T>
T deserializeFromString(std::string_view bytes) {
  T value = TypeSerializer<T>::deserialize(bytes);
  if (!bytes.empty()) throw InternalError("trailing bytes after a serialized value");
  return value;
}

}  // namespace eddy

// JsonMemberReader: the members of a JSON object, or the elements of a JSON array, as texts —
// what the changelog JSON formats (changelog_json_formats.h) need to read an envelope such as
// Debezium's {"before":{..},"after":{..},"op":"u"} before the rows inside it are decoded as
// JSON rows. Implemented in json_row_deserializer.cpp, the one file that includes simdjson.h.
//
// The texts are views into the reader's buffers, valid until its next call of the same
// method (readObject and readArray keep separate buffers, so an array member of an object
// read by readObject can be read with readArray).
//
// One instance per subtask; its task thread only.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace eddy::formats {

/// What kind of JSON value a member holds.
enum class JsonKind { kMissing, kNull, kString, kNumber, kBoolean, kArray, kObject };

/// A member's value: a string's unescaped text, else the value's JSON text ("null", "12",
/// "true", "[..]", "{..}").
struct JsonMember {
  JsonKind kind = JsonKind::kMissing;
  std::string_view text;
};

class JsonMemberReader {
 public:
  JsonMemberReader();
  ~JsonMemberReader();

  /// Reads the members `names` of the JSON object `json` into `members` (one per name, kMissing
  /// where there is none; of repeated members the first counts). Returns what is wrong when
  /// `json` is not one JSON object ("invalid JSON (...): <text>", "expected a JSON object but
  /// got an array: <text>"), else an empty string.
  std::string readObject(std::string_view json, const std::vector<std::string>& names,
                         std::vector<JsonMember>& members);
  /// Reads the elements of the JSON array `json` into `elements` (each a JsonMember). Returns
  /// what is wrong when `json` is not one JSON array, else an empty string.
  std::string readArray(std::string_view json, std::vector<JsonMember>& elements);

 private:
  class Parsers;  // simdjson's parsers and buffers
  std::unique_ptr<Parsers> parsers_;
};

}  // namespace eddy::formats

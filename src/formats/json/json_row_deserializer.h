// JsonRowDeserializer: reads one JSON object per line into a row (Flink's JSON format), with
// simdjson's On-Demand parser (simdjson.h is included by the .cpp only: it is a large header).
//
// Members are matched to columns by exact name; unknown members are ignored, and of repeated
// members the first counts. A missing member is null, or fails the record with
// 'json.fail-on-missing-field'. Values convert as Flink's JsonToRowDataConverters do: numbers
// (and numeric strings) into numeric columns, strings into string, binary (base64), temporal
// and numeric columns, JSON true/false (or 'true'/'false' strings) into BOOLEAN, any value into
// STRING (containers as their JSON text), arrays into ARRAY, objects into ROW, MAP and MULTISET.
// DECIMAL is read from the number's text, so no precision is lost. Blank lines give no row.
//
// Malformed records (invalid JSON, not an object, a value of the wrong kind, null in a NOT NULL
// column) throw ConnectorException naming the row, source, column and value. With
// 'json.ignore-parse-errors' a bad member becomes null (as in Flink) and records that cannot
// give a row are skipped; both are counted.
//
// One instance per subtask; its task thread only.
#pragma once

#include <memory>

#include "formats/format_factory.h"
#include "formats/json/json_format_factory.h"

namespace eddy::formats {

class JsonRowDeserializer final : public RowDeserializer {
 public:
  JsonRowDeserializer(LogicalTypePtr rowType, JsonFormatOptions options);
  ~JsonRowDeserializer() override;

  size_t recordLength(std::string_view bytes, bool endOfInput) const override;
  bool deserialize(std::string_view record, const RecordLocation& location,
                   vector::Chunk& rows) override;

 private:
  class Decoder;  // the simdjson parsers and the per-record state
  std::unique_ptr<Decoder> decoder_;
};

}  // namespace eddy::formats

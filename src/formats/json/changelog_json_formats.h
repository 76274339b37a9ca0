// The changelog JSON formats (Flink's CDC formats): records that are changes of a database
// table, as the CDC tools write them, each an envelope around the changed rows in Flink's JSON
// encoding (json_row_deserializer.h / json_row_serializer.h decode and encode those rows).
//
//   debezium-json  {"before":{..},"after":{..},"op":"c"|"r"|"u"|"d", ..}: c and r give +I of
//                  "after", u gives -U of "before" and +U of "after", d gives -D of "before";
//                  with 'debezium-json.schema-include' the envelope is the "payload" member of
//                  {"schema":{..},"payload":{..}}. An update or delete without "before" fails
//                  with Flink's REPLICA IDENTITY hint. Written as {"before":null,"after":{..},
//                  "op":"c"} for +I/+U and {"before":{..},"after":null,"op":"d"} for -U/-D.
//   canal-json     {"data":[{..},..],"old":[{..},..],"type":"INSERT"|"UPDATE"|"DELETE"|"CREATE",
//                  "database":"..","table":"..", ..}: a row per element of "data"; an update's
//                  -U row takes each column from the same element of "old" where that is not
//                  NULL, else from "data" (Flink's); CREATE (DDL) gives no row;
//                  'canal-json.database.include' / '.table.include' keep only the records whose
//                  database / table match the regular expression. Written as {"data":[{..}],
//                  "type":"INSERT"} for +I/+U and "DELETE" for -U/-D.
//   maxwell-json   {"data":{..},"old":{..},"type":"insert"|"update"|"delete", ..}: an update's
//                  -U row takes the members "old" has, the others from "data" (Flink's).
//                  Written as {"data":{..},"type":"insert"} for +I/+U and "delete" for -U/-D.
//
// Options (each prefixed with the format's identifier): ignore-parse-errors,
// timestamp-format.standard, map-null-key.mode, map-null-key.literal,
// encode.decimal-as-plain-number (as the json format's), and the ones named above. Members
// other than those named are ignored; an empty record (a Kafka tombstone) gives no row.
//
// Errors: a record that is not such an envelope fails naming the format, the record's row (a
// Kafka record's offset) and source, and Flink's text ("Unknown \"op\" value \"x\". The
// Debezium JSON message is '..'", "Corrupt Canal JSON message '..'"); a malformed row inside
// names its part ("the \"after\" row of its Debezium JSON message") and the column. With
// ignore-parse-errors the record is skipped and counted instead. Stateless factories; see
// format_factory.h for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "formats/format_factory.h"

namespace eddy::formats {

/// The envelope a changelog JSON format reads and writes.
enum class ChangelogEnvelope { kDebezium, kCanal, kMaxwell };

class ChangelogJsonFormatFactory final : public FormatFactory {
 public:
  explicit ChangelogJsonFormatFactory(ChangelogEnvelope envelope) : envelope_(envelope) {}
  /// "debezium-json", "canal-json" or "maxwell-json".
  std::string factoryIdentifier() const override;
  std::set<std::string> optionalOptions() const override;
  void validate(const FormatContext& context) const override;
  std::shared_ptr<const DecodingFormat> createDecodingFormat(
      const FormatContext& context) const override;
  /// debezium-json with 'schema-include' cannot write (Flink's message).
  std::shared_ptr<const EncodingFormat> createEncodingFormat(
      const FormatContext& context) const override;

 private:
  ChangelogEnvelope envelope_;
};

}  // namespace eddy::formats

// RawFormatFactory: the 'raw' format (Flink's RawFormatFactory): a record is the bytes of a
// table's single physical column. Strings are the text in 'raw.charset' (UTF-8, the default,
// or ISO-8859-1), BINARY/VARBINARY the bytes themselves, BOOLEAN one byte (0: false), TINYINT
// one byte, SMALLINT/INT/BIGINT/FLOAT/DOUBLE their 2/4/8/4/8 bytes in 'raw.endianness'
// (big-endian, the default, or little-endian); a record of another size fails with Flink's
// "Size of data received for deserializing INT type is not 4.". A Kafka record without a value
// is a row with NULL (Flink's). In files a record is a line (as Flink's filesystem connector
// reads DeserializationSchema formats), so a file holds text; a Kafka record is read whole.
//
// Writing: the column's bytes; NULL is written as no bytes (Flink writes a record without a
// value, which eddy's sinks do not, see docs/connectors.md "raw").
//
// Column: exactly one physical column of CHAR, VARCHAR, BINARY, VARBINARY, BOOLEAN, TINYINT,
// SMALLINT, INT, BIGINT, FLOAT or DOUBLE (Flink's messages otherwise). Stateless; see
// format_factory.h for the threading contract.
#pragma once

#include <memory>
#include <set>
#include <string>

#include "formats/format_factory.h"

namespace eddy::formats {

class RawFormatFactory final : public FormatFactory {
 public:
  std::string factoryIdentifier() const override { return "raw"; }
  std::set<std::string> optionalOptions() const override { return {"charset", "endianness"}; }
  void validate(const FormatContext& context) const override;
  std::shared_ptr<const DecodingFormat> createDecodingFormat(
      const FormatContext& context) const override;
  std::shared_ptr<const EncodingFormat> createEncodingFormat(
      const FormatContext& context) const override;
};

}  // namespace eddy::formats

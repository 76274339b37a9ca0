#include "formats/raw/raw_format_factory.h"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "common/text.h"
#include "eddy/exceptions.h"
#include "formats/format_options.h"
#include "vector/vector.h"

namespace eddy::formats {

namespace {

/// The parsed options and column of one raw table.
struct RawOptions {
  LogicalTypePtr columnType;
  bool latin1 = false;  // 'raw.charset' = ISO-8859-1 (else UTF-8)
  bool bigEndian = true;
};

/// Bytes of a fixed-width number, BOOLEAN and TINYINT included; 0 for other types.
size_t fixedWidthOf(LogicalTypeRoot root) {
  switch (root) {
    case LogicalTypeRoot::BOOLEAN:
    case LogicalTypeRoot::TINYINT:
      return 1;
    case LogicalTypeRoot::SMALLINT:
      return 2;
    case LogicalTypeRoot::INTEGER:
    case LogicalTypeRoot::FLOAT:
      return 4;
    case LogicalTypeRoot::BIGINT:
    case LogicalTypeRoot::DOUBLE:
      return 8;
    default:
      return 0;
  }
}

/// Flink's name of a fixed-width type in its size message ("INT", not "INTEGER").
const char* fixedWidthName(LogicalTypeRoot root) {
  switch (root) {
    case LogicalTypeRoot::BOOLEAN:
      return "BOOLEAN";
    case LogicalTypeRoot::TINYINT:
      return "TINYINT";
    case LogicalTypeRoot::SMALLINT:
      return "SMALLINT";
    case LogicalTypeRoot::INTEGER:
      return "INT";
    case LogicalTypeRoot::BIGINT:
      return "BIGINT";
    case LogicalTypeRoot::FLOAT:
      return "FLOAT";
    default:
      return "DOUBLE";
  }
}

RawOptions parseRawOptions(const FormatContext& context) {
  const LogicalType& row = *context.physicalRowType;
  if (row.getFieldCount() != 1) {
    std::string columns;
    for (const RowField& field : row.getFields()) {
      columns +=
          (columns.empty() ? "" : ", ") + ("`" + field.name + "` " + field.type->asSummaryString());
    }
    throw ValidationException(fmt::format(
        "The 'raw' format only supports single physical column. However the defined schema "
        "contains multiple physical columns: [{}]",
        columns));
  }
  RawOptions parsed;
  parsed.columnType = row.getFields()[0].type;
  const LogicalType& type = *parsed.columnType;
  if (!type.isCharacterString() && !type.isBinaryString() &&
      fixedWidthOf(type.getTypeRoot()) == 0) {
    throw ValidationException(fmt::format("The 'raw' format doesn't supports '{}' as column type.",
                                          type.asSummaryString()));
  }
  FormatOptions options(context);
  if (std::optional<std::string> charset = options.getString("charset")) {
    const std::string name = common::asciiLowerCase(*charset);
    if (name == "iso-8859-1" || name == "latin1" || name == "iso8859_1") {
      parsed.latin1 = true;
    } else if (name != "utf-8" && name != "utf8") {
      throw ValidationException(
          fmt::format("Unsupported '{}' name: {}. (eddy reads and writes UTF-8 and ISO-8859-1.)",
                      context.key("charset"), *charset));
    }
  }
  if (std::optional<std::string> endianness = options.getString("endianness")) {
    const std::string name = common::asciiLowerCase(*endianness);
    if (name != "big-endian" && name != "little-endian") {
      throw ValidationException(fmt::format(
          "Unsupported endianness name: {}. Valid values of '{}' option are 'big-endian' and "
          "'little-endian'.",
          *endianness, context.key("endianness")));
    }
    parsed.bigEndian = name == "big-endian";
  }
  return parsed;
}

/// `bytes` (`width` of them) in the machine's order, from or to the format's order.
void reorder(char* bytes, size_t width, bool bigEndian) {
  if ((std::endian::native == std::endian::big) != bigEndian) {
    for (size_t i = 0; i < width / 2; ++i) std::swap(bytes[i], bytes[width - 1 - i]);
  }
}

class RawRowDeserializer final : public RowDeserializer {
 public:
  explicit RawRowDeserializer(RawOptions options) : options_(std::move(options)) {}

  size_t recordLength(std::string_view bytes, bool endOfInput) const override {
    size_t end = bytes.find('\n');
    if (end != std::string_view::npos) return end + 1;
    return endOfInput ? bytes.size() : 0;
  }

  bool deserialize(std::string_view record, const RecordLocation& location,
                   vector::Chunk& rows) override {
    if (!location.wholeMessage) {  // a line of a file
      if (!record.empty() && record.back() == '\n') record.remove_suffix(1);
      if (!record.empty() && record.back() == '\r') record.remove_suffix(1);
    }
    vector::Vector& column = rows.mutableColumn(0);
    const LogicalTypeRoot root = options_.columnType->getTypeRoot();
    if (options_.columnType->isCharacterString() && options_.latin1) {
      text_.clear();
      for (unsigned char c : record) {  // ISO-8859-1 to UTF-8
        if (c < 0x80) {
          text_.push_back(static_cast<char>(c));
        } else {
          text_.push_back(static_cast<char>(0xC0 | (c >> 6)));
          text_.push_back(static_cast<char>(0x80 | (c & 0x3F)));
        }
      }
      column.appendString(text_);
    } else if (options_.columnType->isCharacterString() || options_.columnType->isBinaryString()) {
      column.appendString(record);
    } else {
      const size_t width = fixedWidthOf(root);
      if (record.size() != width) {
        throw ConnectorException(fmt::format(
            "Failed to deserialize raw row {} of {}: Size of data received for deserializing {} "
            "type is not {}.",
            location.row, location.source, fixedWidthName(root), width));
      }
      char bytes[8];
      std::memcpy(bytes, record.data(), width);
      reorder(bytes, width, options_.bigEndian);
      appendNumber(column, root, bytes);
    }
    rows.mutableRowKinds().push_back(RowKind::INSERT);
    return true;
  }

  bool deserializeNull(const RecordLocation&, vector::Chunk& rows) override {
    rows.mutableColumn(0).appendNull();
    rows.mutableRowKinds().push_back(RowKind::INSERT);
    return true;
  }

 private:
  static void appendNumber(vector::Vector& column, LogicalTypeRoot root, const char* bytes) {
    switch (root) {
      case LogicalTypeRoot::BOOLEAN:
        column.append<bool>(bytes[0] != 0);
        return;
      case LogicalTypeRoot::TINYINT:
        column.append<int8_t>(static_cast<int8_t>(bytes[0]));
        return;
      case LogicalTypeRoot::SMALLINT:
        column.append<int16_t>(load<int16_t>(bytes));
        return;
      case LogicalTypeRoot::INTEGER:
        column.append<int32_t>(load<int32_t>(bytes));
        return;
      case LogicalTypeRoot::BIGINT:
        column.append<int64_t>(load<int64_t>(bytes));
        return;
      case LogicalTypeRoot::FLOAT:
        column.append<float>(load<float>(bytes));
        return;
      default:
        column.append<double>(load<double>(bytes));
    }
  }

  template <typename T>
  static T load(const char* bytes) {
    T value;
    std::memcpy(&value, bytes, sizeof(T));
    return value;
  }

  RawOptions options_;
  std::string text_;  // a decoded ISO-8859-1 string
};

class RawRowSerializer final : public RowSerializer {
 public:
  explicit RawRowSerializer(RawOptions options) : options_(std::move(options)) {}

  void serialize(const vector::Chunk& chunk, int64_t row, std::string& out) override {
    const vector::Vector& column = chunk.column(0);
    if (column.isNull(row)) return;  // no bytes (see the header)
    const LogicalType& type = *options_.columnType;
    if (type.isCharacterString() || type.isBinaryString()) {
      const std::string_view value = column.stringAt(row);
      if (!type.isCharacterString() || !options_.latin1) {
        out.append(value);
        return;
      }
      // UTF-8 to ISO-8859-1; characters it has not become '?', as Java's encoder writes them.
      for (size_t i = 0; i < value.size();) {
        const auto c = static_cast<unsigned char>(value[i]);
        const size_t length = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (length == 2 && i + 1 < value.size()) {
          const unsigned code =
              ((c & 0x1Fu) << 6) | (static_cast<unsigned char>(value[i + 1]) & 0x3Fu);
          out.push_back(code <= 0xFF ? static_cast<char>(code) : '?');
        } else {
          out.push_back(length == 1 ? static_cast<char>(c) : '?');
        }
        i += length;
      }
      return;
    }
    const LogicalTypeRoot root = type.getTypeRoot();
    char bytes[8];
    switch (root) {
      case LogicalTypeRoot::BOOLEAN:
        bytes[0] = column.data<bool>()[row] ? 1 : 0;
        break;
      case LogicalTypeRoot::TINYINT:
        bytes[0] = static_cast<char>(column.data<int8_t>()[row]);
        break;
      case LogicalTypeRoot::SMALLINT:
        store(column.data<int16_t>()[row], bytes);
        break;
      case LogicalTypeRoot::INTEGER:
        store(column.data<int32_t>()[row], bytes);
        break;
      case LogicalTypeRoot::BIGINT:
        store(column.data<int64_t>()[row], bytes);
        break;
      case LogicalTypeRoot::FLOAT:
        store(column.data<float>()[row], bytes);
        break;
      default:
        store(column.data<double>()[row], bytes);
    }
    const size_t width = fixedWidthOf(root);
    reorder(bytes, width, options_.bigEndian);
    out.append(bytes, width);
  }

 private:
  template <typename T>
  static void store(T value, char* bytes) {
    std::memcpy(bytes, &value, sizeof(T));
  }

  RawOptions options_;
};

class RawDecodingFormat final : public DecodingFormat {
 public:
  explicit RawDecodingFormat(RawOptions options) : options_(std::move(options)) {}
  std::unique_ptr<RowDeserializer> createDeserializer() const override {
    return std::make_unique<RawRowDeserializer>(options_);
  }

 private:
  RawOptions options_;
};

class RawEncodingFormat final : public EncodingFormat {
 public:
  explicit RawEncodingFormat(RawOptions options) : options_(std::move(options)) {}
  std::unique_ptr<RowSerializer> createSerializer() const override {
    return std::make_unique<RawRowSerializer>(options_);
  }

 private:
  RawOptions options_;
};

}  // namespace

void RawFormatFactory::validate(const FormatContext& context) const { parseRawOptions(context); }

std::shared_ptr<const DecodingFormat> RawFormatFactory::createDecodingFormat(
    const FormatContext& context) const {
  return std::make_shared<RawDecodingFormat>(parseRawOptions(context));
}

std::shared_ptr<const EncodingFormat> RawFormatFactory::createEncodingFormat(
    const FormatContext& context) const {
  return std::make_shared<RawEncodingFormat>(parseRawOptions(context));
}

}  // namespace eddy::formats

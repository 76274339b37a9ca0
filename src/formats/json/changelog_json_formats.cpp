#include "formats/json/changelog_json_formats.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <optional>

#include "eddy/exceptions.h"
#include "formats/format_options.h"
#include "formats/json/json_format_factory.h"
#include "formats/json/json_member_reader.h"
#include "formats/json/json_row_deserializer.h"
#include "formats/json/json_row_serializer.h"

namespace eddy::formats {

namespace {

/// Flink's name of each envelope in its messages ("Corrupt Debezium JSON message '..'").
const char* envelopeName(ChangelogEnvelope envelope) {
  switch (envelope) {
    case ChangelogEnvelope::kDebezium:
      return "Debezium JSON";
    case ChangelogEnvelope::kCanal:
      return "Canal JSON";
    case ChangelogEnvelope::kMaxwell:
      return "Maxwell JSON";
  }
  return "";
}

/// The parsed options of one table in a changelog JSON format.
struct ChangelogJsonOptions {
  ChangelogEnvelope envelope = ChangelogEnvelope::kDebezium;
  JsonFormatOptions json;
  bool schemaInclude = false;                 // debezium-json
  // canal-json (RE2: linear time and no recursion, whatever the name).
  std::shared_ptr<const re2::RE2> databaseInclude;
  std::shared_ptr<const re2::RE2> tableInclude;
};

ChangelogJsonOptions parseOptions(ChangelogEnvelope envelope, const FormatContext& context) {
  ChangelogJsonOptions parsed;
  parsed.envelope = envelope;
  parsed.json = parseJsonFormatOptions(context);  // the shared json options, with this prefix
  FormatOptions options(context);
  if (envelope == ChangelogEnvelope::kDebezium) {
    parsed.schemaInclude = options.getBoolean("schema-include").value_or(false);
  }
  if (envelope == ChangelogEnvelope::kCanal) {
    for (auto [option, pattern] : {std::pair{"database.include", &parsed.databaseInclude},
                                   std::pair{"table.include", &parsed.tableInclude}}) {
      std::optional<std::string> value = options.getString(option);
      if (!value) continue;
      re2::RE2::Options quiet;
      quiet.set_log_errors(false);
      auto compiled = std::make_shared<const re2::RE2>(*value, quiet);
      if (!compiled->ok()) options.throwInvalid(option, *value, "a regular expression");
      *pattern = std::move(compiled);
    }
  }
  return parsed;
}

/// The JSON text inside an object's braces ("" for {}).
std::string_view objectMembers(std::string_view object) {
  while (!object.empty() && object.back() != '}') object.remove_suffix(1);
  while (!object.empty() && object.front() != '{') object.remove_prefix(1);
  if (object.size() < 2) return {};
  object = object.substr(1, object.size() - 2);
  while (!object.empty() && (object.front() == ' ' || object.front() == '\n' ||
                             object.front() == '\t' || object.front() == '\r')) {
    object.remove_prefix(1);
  }
  return object;
}

/// `chunk` cut back to its first `size` rows.
void truncateRows(vector::Chunk& chunk, int64_t size) {
  // Columns too: a row may be appended to them before its kind.
  for (int c = 0; c < chunk.columnCount(); ++c) chunk.mutableColumn(c).resize(size);
  chunk.mutableRowKinds().resize(static_cast<size_t>(size));
}

/// A record's envelope is not what the format expects (Flink's "Corrupt .. message", or its
/// "Unknown .. value" text).
struct CorruptRecord {
  std::string what;
};

class ChangelogJsonDeserializer final : public RowDeserializer {
 public:
  ChangelogJsonDeserializer(LogicalTypePtr rowType, ChangelogJsonOptions options)
      : options_(std::move(options)),
        rows_(rowType, innerOptions(options_.json)),
        oldRows_(nullableRowType(*rowType), innerOptions(options_.json)),
        rowType_(rowType),
        oldRowType_(nullableRowType(*rowType)),
        after_(rowType_),
        before_(oldRowType_) {}

  size_t recordLength(std::string_view bytes, bool endOfInput) const override {
    return rows_.recordLength(bytes, endOfInput);
  }

  bool deserialize(std::string_view record, const RecordLocation& location,
                   vector::Chunk& rows) override {
    while (!record.empty() && (record.back() == '\n' || record.back() == '\r' ||
                               record.back() == ' ' || record.back() == '\t')) {
      record.remove_suffix(1);
    }
    if (record.empty()) return false;  // a tombstone (Flink skips empty messages)
    const int64_t start = rows.size();
    record_ = record;
    location_ = &location;
    bool appended = false;
    try {
      appended = decode(rows);
    } catch (const CorruptRecord& corrupt) {
      truncateRows(rows, start);
      if (!options_.json.ignoreParseErrors) {
        throw ConnectorException(fmt::format("Failed to deserialize {} row {} of {}: {}",
                                             envelopeName(options_.envelope), location.row,
                                             location.source, corrupt.what));
      }
      ++ownMalformed_;
      ++ownSkipped_;
      appended = false;
    } catch (...) {
      truncateRows(rows, start);
      syncCounts();
      throw;
    }
    if (!appended) truncateRows(rows, start);
    syncCounts();
    return appended;
  }

 private:
  static JsonFormatOptions innerOptions(JsonFormatOptions options) {
    options.failOnMissingField = false;  // Flink's: ignore-parse-errors covers it
    return options;
  }

  static LogicalTypePtr nullableRowType(const LogicalType& rowType) {
    std::vector<RowField> fields = rowType.getFields();
    for (RowField& field : fields) field.type = field.type->copy(true);
    return LogicalType::row(std::move(fields), false);
  }

  void syncCounts() {
    malformedRecords_ =
        ownMalformed_ + rows_.malformedRecordCount() + oldRows_.malformedRecordCount();
    skippedRecords_ = ownSkipped_ + rows_.skippedRecordCount() + oldRows_.skippedRecordCount();
  }

  [[noreturn]] void corrupt(const std::string& why) const {
    throw CorruptRecord{
        fmt::format("Corrupt {} message '{}': {}", envelopeName(options_.envelope), record_, why)};
  }
  [[noreturn]] void unknown(const char* member, std::string_view value) const {
    throw CorruptRecord{fmt::format("Unknown \"{}\" value \"{}\". The {} message is '{}'", member,
                                    value, envelopeName(options_.envelope), record_)};
  }

  /// The members `names` of the JSON object `json` (the record or a part of it).
  void readMembers(std::string_view json, const std::vector<std::string>& names) {
    std::string error = reader_.readObject(json, names, members_);
    if (!error.empty()) corrupt(error);
  }

  /// The string member `index` of members_ (named `name`); fails when it is not a string.
  std::string_view stringMember(size_t index, const char* name) const {
    const JsonMember& member = members_[index];
    if (member.kind != JsonKind::kString) {
      corrupt(fmt::format("\"{}\" is {}", name,
                          member.kind == JsonKind::kMissing ? "missing" : "not a string"));
    }
    return member.text;
  }

  /// Decodes the row `object` (the JSON text of part `part` of the record) into `rows` with
  /// `kind`; false when the row decoder skipped it (ignore-parse-errors).
  bool appendRow(std::string_view object, const char* part, RowKind kind, vector::Chunk& rows,
                 JsonRowDeserializer& decoder) {
    partSource_ = fmt::format("{} (the \"{}\" row of its {} message)", location_->source, part,
                              envelopeName(options_.envelope));
    if (!decoder.deserialize(
            object, RecordLocation{partSource_, location_->row, location_->wholeMessage}, rows)) {
      return false;
    }
    rows.mutableRowKinds().back() = kind;
    return true;
  }

  /// The JSON text of object member `index` (named `name`), a view into the reader's buffer
  /// valid until the next readMembers; fails when the member is not an object.
  std::string_view objectMember(size_t index, const char* name, const char* requirement = nullptr) {
    const JsonMember& member = members_[index];
    if (member.kind != JsonKind::kObject) {
      if (requirement != nullptr &&
          (member.kind == JsonKind::kNull || member.kind == JsonKind::kMissing)) {
        throw CorruptRecord{fmt::format(
            "The \"before\" field of {} message is null, if you are using Debezium Postgres "
            "Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL "
            "level.",
            requirement)};
      }
      corrupt(fmt::format("\"{}\" is {}", name,
                          member.kind == JsonKind::kMissing ? "missing" : "not an object"));
    }
    return member.text;
  }

  bool decode(vector::Chunk& rows) {
    switch (options_.envelope) {
      case ChangelogEnvelope::kDebezium:
        return decodeDebezium(rows);
      case ChangelogEnvelope::kCanal:
        return decodeCanal(rows);
      case ChangelogEnvelope::kMaxwell:
        return decodeMaxwell(rows);
    }
    return false;
  }

  bool decodeDebezium(vector::Chunk& rows) {
    std::string_view envelope = record_;
    if (options_.schemaInclude) {
      readMembers(record_, {"payload"});
      payload_ = std::string(objectMember(0, "payload"));  // read again below
      envelope = payload_;
    }
    readMembers(envelope, {"before", "after", "op"});
    const std::string op(stringMember(2, "op"));
    if (op == "c" || op == "r") {
      return appendRow(objectMember(1, "after"), "after", RowKind::INSERT, rows, rows_);
    }
    if (op == "u") {
      const std::string_view before = objectMember(0, "before", "UPDATE");
      const std::string_view after = objectMember(1, "after");
      return appendRow(before, "before", RowKind::UPDATE_BEFORE, rows, rows_) &&
             appendRow(after, "after", RowKind::UPDATE_AFTER, rows, rows_);
    }
    if (op == "d") {
      return appendRow(objectMember(0, "before", "DELETE"), "before", RowKind::DELETE, rows, rows_);
    }
    unknown("op", op);
  }

  /// The elements of array member `index` (named `name`) as texts.
  std::vector<std::string> arrayMember(size_t index, const char* name) {
    const JsonMember& member = members_[index];
    if (member.kind != JsonKind::kArray) {
      corrupt(fmt::format("\"{}\" is {}", name,
                          member.kind == JsonKind::kMissing ? "missing" : "not an array"));
    }
    std::string error = reader_.readArray(member.text, elements_);
    if (!error.empty()) corrupt(error);
    std::vector<std::string> texts;
    for (const JsonMember& element : elements_) {
      if (element.kind != JsonKind::kObject)
        corrupt(fmt::format("an element of \"{}\" is not an object", name));
      texts.emplace_back(element.text);
    }
    return texts;
  }

  bool decodeCanal(vector::Chunk& rows) {
    readMembers(record_, {"data", "old", "type", "database", "table"});
    if (options_.databaseInclude &&
        !re2::RE2::FullMatch(stringMember(3, "database"), *options_.databaseInclude)) {
      return false;
    }
    if (options_.tableInclude &&
        !re2::RE2::FullMatch(stringMember(4, "table"), *options_.tableInclude)) {
      return false;
    }
    const std::string type(stringMember(2, "type"));
    if (type == "CREATE") return false;  // a DDL change
    RowKind kind = RowKind::INSERT;
    if (type == "INSERT") {
      kind = RowKind::INSERT;
    } else if (type == "DELETE") {
      kind = RowKind::DELETE;
    } else if (type == "UPDATE") {
      return decodeCanalUpdate(rows);
    } else {
      unknown("type", type);
    }
    const std::vector<std::string> data = arrayMember(0, "data");
    for (const std::string& row : data) {
      if (!appendRow(row, "data", kind, rows, rows_)) return false;
    }
    return !data.empty();
  }

  /// An UPDATE: for each element of "data" a -U row (its columns from the same element of
  /// "old" where those are not NULL, else from "data") and a +U row.
  bool decodeCanalUpdate(vector::Chunk& rows) {
    const std::vector<std::string> data = arrayMember(0, "data");
    const std::vector<std::string> old = arrayMember(1, "old");
    if (old.size() < data.size()) corrupt("\"old\" has fewer elements than \"data\"");
    for (size_t i = 0; i < data.size(); ++i) {
      after_ = vector::Chunk(rowType_);
      before_ = vector::Chunk(oldRowType_);
      if (!appendRow(data[i], "data", RowKind::UPDATE_AFTER, after_, rows_) ||
          !appendRow(old[i], "old", RowKind::UPDATE_BEFORE, before_, oldRows_)) {
        return false;
      }
      for (int c = 0; c < rows.columnCount(); ++c) {
        const vector::Vector& changed = before_.column(c);
        rows.mutableColumn(c).appendFrom(changed.isNull(0) ? after_.column(c) : changed, 0);
      }
      rows.mutableRowKinds().push_back(RowKind::UPDATE_BEFORE);
      for (int c = 0; c < rows.columnCount(); ++c)
        rows.mutableColumn(c).appendFrom(after_.column(c), 0);
      rows.mutableRowKinds().push_back(RowKind::UPDATE_AFTER);
    }
    return !data.empty();
  }

  bool decodeMaxwell(vector::Chunk& rows) {
    readMembers(record_, {"data", "old", "type"});
    const std::string type(stringMember(2, "type"));
    if (type == "insert")
      return appendRow(objectMember(0, "data"), "data", RowKind::INSERT, rows, rows_);
    if (type == "delete")
      return appendRow(objectMember(0, "data"), "data", RowKind::DELETE, rows, rows_);
    if (type != "update") unknown("type", type);
    const std::string_view data = objectMember(0, "data");
    if (members_[1].kind != JsonKind::kObject) objectMember(1, "old");  // fails: Flink's too
    // The -U row: the members "old" has (the changed columns' old values), then the others of
    // "data" (the first of repeated members counts).
    std::string before = "{";
    before += objectMembers(members_[1].text);
    const std::string_view unchanged = objectMembers(data);
    if (before.size() > 1 && !unchanged.empty()) before += ',';
    before += unchanged;
    before += '}';
    return appendRow(before, "old", RowKind::UPDATE_BEFORE, rows, rows_) &&
           appendRow(data, "data", RowKind::UPDATE_AFTER, rows, rows_);
  }

  ChangelogJsonOptions options_;
  JsonRowDeserializer rows_;     // rows of the physical row type
  JsonRowDeserializer oldRows_;  // canal's "old" rows: every column nullable
  LogicalTypePtr rowType_;
  LogicalTypePtr oldRowType_;
  vector::Chunk after_;   // canal updates: the "data" row
  vector::Chunk before_;  // canal updates: the "old" row
  JsonMemberReader reader_;
  std::vector<JsonMember> members_;
  std::vector<JsonMember> elements_;
  std::string payload_;
  std::string partSource_;
  std::string_view record_;
  const RecordLocation* location_ = nullptr;
  int64_t ownMalformed_ = 0;
  int64_t ownSkipped_ = 0;
};

class ChangelogJsonSerializer final : public RowSerializer {
 public:
  ChangelogJsonSerializer(LogicalTypePtr rowType, ChangelogJsonOptions options)
      : envelope_(options.envelope), rows_(std::move(rowType), options.json) {}

  void serialize(const vector::Chunk& chunk, int64_t row, std::string& out) override {
    const RowKind kind = chunk.rowKind(row);
    const bool added = kind == RowKind::INSERT || kind == RowKind::UPDATE_AFTER;
    switch (envelope_) {
      case ChangelogEnvelope::kDebezium:
        out += added ? R"({"before":null,"after":)" : R"({"before":)";
        rows_.serialize(chunk, row, out);
        out += added ? R"(,"op":"c"})" : R"(,"after":null,"op":"d"})";
        return;
      case ChangelogEnvelope::kCanal:
        out += R"({"data":[)";
        rows_.serialize(chunk, row, out);
        out += added ? R"(],"type":"INSERT"})" : R"(],"type":"DELETE"})";
        return;
      case ChangelogEnvelope::kMaxwell:
        out += R"({"data":)";
        rows_.serialize(chunk, row, out);
        out += added ? R"(,"type":"insert"})" : R"(,"type":"delete"})";
        return;
    }
  }

 private:
  ChangelogEnvelope envelope_;
  JsonRowSerializer rows_;
};

class ChangelogJsonDecodingFormat final : public DecodingFormat {
 public:
  ChangelogJsonDecodingFormat(LogicalTypePtr rowType, ChangelogJsonOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowDeserializer> createDeserializer() const override {
    return std::make_unique<ChangelogJsonDeserializer>(rowType_, options_);
  }
  bool producesChanges() const override { return true; }

 private:
  LogicalTypePtr rowType_;
  ChangelogJsonOptions options_;
};

class ChangelogJsonEncodingFormat final : public EncodingFormat {
 public:
  ChangelogJsonEncodingFormat(LogicalTypePtr rowType, ChangelogJsonOptions options)
      : rowType_(std::move(rowType)), options_(std::move(options)) {}
  std::unique_ptr<RowSerializer> createSerializer() const override {
    return std::make_unique<ChangelogJsonSerializer>(rowType_, options_);
  }
  bool consumesChanges() const override { return true; }

 private:
  LogicalTypePtr rowType_;
  ChangelogJsonOptions options_;
};

}  // namespace

std::string ChangelogJsonFormatFactory::factoryIdentifier() const {
  switch (envelope_) {
    case ChangelogEnvelope::kDebezium:
      return "debezium-json";
    case ChangelogEnvelope::kCanal:
      return "canal-json";
    case ChangelogEnvelope::kMaxwell:
      return "maxwell-json";
  }
  return "";
}

std::set<std::string> ChangelogJsonFormatFactory::optionalOptions() const {
  std::set<std::string> options = {"ignore-parse-errors", "timestamp-format.standard",
                                   "map-null-key.mode", "map-null-key.literal",
                                   "encode.decimal-as-plain-number"};
  if (envelope_ == ChangelogEnvelope::kDebezium) options.insert("schema-include");
  if (envelope_ == ChangelogEnvelope::kCanal) {
    options.insert("database.include");
    options.insert("table.include");
  }
  return options;
}

void ChangelogJsonFormatFactory::validate(const FormatContext& context) const {
  parseOptions(envelope_, context);
}

std::shared_ptr<const DecodingFormat> ChangelogJsonFormatFactory::createDecodingFormat(
    const FormatContext& context) const {
  return std::make_shared<ChangelogJsonDecodingFormat>(context.physicalRowType,
                                                       parseOptions(envelope_, context));
}

std::shared_ptr<const EncodingFormat> ChangelogJsonFormatFactory::createEncodingFormat(
    const FormatContext& context) const {
  ChangelogJsonOptions options = parseOptions(envelope_, context);
  if (options.schemaInclude) {
    throw ValidationException(
        fmt::format("Debezium JSON serialization doesn't support '{}' option been set to true.",
                    context.key("schema-include")));
  }
  return std::make_shared<ChangelogJsonEncodingFormat>(context.physicalRowType, std::move(options));
}

}  // namespace eddy::formats

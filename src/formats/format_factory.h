// FormatFactory: how a table's 'format' option becomes the code that turns bytes into rows and
// rows into bytes (DESIGN §5), after Flink's DeserializationFormatFactory and
// SerializationFormatFactory. Formats are shared by connectors: the filesystem connector reads
// and writes files of records; a message queue connector decodes one record per message.
//
// A connector looks the factory up by identifier (FormatFactoryRegistry::builtIn()), describes
// the table to it (FormatContext: name, physical row type, the table's options and the prefix of
// the format's own options, "csv." for 'format' = 'csv'), lets it validate, then asks it for a
// DecodingFormat (to read) or an EncodingFormat (to write).
//
// Threading and ownership: factories, the registry and the Decoding/EncodingFormats are
// immutable and may be used from any thread; the formats are shared by the subtasks of a job.
// Each subtask makes its own RowDeserializer / RowSerializer, which hold that subtask's buffers
// and counters and are used by its task thread only.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/exceptions.h"
#include "eddy/types/logical_type.h"
#include "vector/chunk.h"

namespace eddy::formats {

/// What a format factory is told about the table it reads or writes.
struct FormatContext {
  /// The table's full name (for messages).
  std::string tableName;
  /// ROW<...> of the table's physical columns: the rows a format reads and writes.
  LogicalTypePtr physicalRowType;
  /// All of the table's WITH options; the format reads those starting with optionPrefix.
  std::map<std::string, std::string> options;
  /// The prefix of the format's options: "<format identifier>.", e.g. "csv.".
  std::string optionPrefix;

  /// The full key of a format option: key("field-delimiter") is "csv.field-delimiter".
  std::string key(std::string_view option) const { return optionPrefix + std::string(option); }
};

/// Where a record came from, for the messages of malformed records.
struct RecordLocation {
  /// E.g. "file '/tmp/orders/a.csv'".
  std::string_view source;
  /// The 1-based line of `source` on which the record starts.
  int64_t row = 0;
  /// The record is a whole message (a Kafka record's value or key), not a line of a file: a
  /// format that takes bytes as they are (raw) keeps a trailing line terminator then.
  bool wholeMessage = false;
};

/// Turns records (a CSV line, a JSON object) into rows of the physical row type. One instance
/// per subtask, used by its task thread only.
class RowDeserializer {
 public:
  virtual ~RowDeserializer() = default;

  /// The length of the first record of `bytes`, its line terminator included; 0 when `bytes`
  /// does not hold a whole record yet and more input follows (`endOfInput` false). At the end
  /// of input everything left is one record.
  virtual size_t recordLength(std::string_view bytes, bool endOfInput) const = 0;

  /// Decodes one record (as delimited by recordLength; a trailing line terminator is ignored)
  /// and appends its row, kind +I, to `rows` (a chunk of the physical row type); a changelog
  /// format (DecodingFormat::producesChanges) appends the record's rows with their kinds, none
  /// or several (an update: -U then +U). Returns false when the record gives no row: a blank
  /// line, a comment, or a malformed record skipped because of '<format>.ignore-parse-errors'.
  /// A malformed record otherwise throws ConnectorException "Failed to deserialize CSV row 3
  /// of file '...': column 'score' (position 2) expects INT but got 'abc'"; `rows` is
  /// unchanged then.
  virtual bool deserialize(std::string_view record, const RecordLocation& location,
                           vector::Chunk& rows) = 0;
  /// A message without a value (a Kafka tombstone): no row (the default; Flink's text formats
  /// give none), or raw's row with NULL.
  virtual bool deserializeNull(const RecordLocation& location, vector::Chunk& rows) {
    (void)location;
    (void)rows;
    return false;
  }

  /// Records with parse errors that were tolerated because of '<format>.ignore-parse-errors':
  /// skipped records plus records whose bad fields were set to null.
  int64_t malformedRecordCount() const { return malformedRecords_; }
  /// The malformed records that gave no row.
  int64_t skippedRecordCount() const { return skippedRecords_; }

 protected:
  int64_t malformedRecords_ = 0;
  int64_t skippedRecords_ = 0;
};

/// Turns rows into records. One instance per subtask, used by its task thread only.
class RowSerializer {
 public:
  virtual ~RowSerializer() = default;
  /// Appends row `row` of `chunk` (a chunk of the physical row type) as one record, without a
  /// line terminator, to `out`. The row kind is written by changelog formats only
  /// (EncodingFormat::consumesChanges); the others take +I rows.
  virtual void serialize(const vector::Chunk& chunk, int64_t row, std::string& out) = 0;
};

/// A validated format for reading one table; shared by the job's subtasks.
class DecodingFormat {
 public:
  virtual ~DecodingFormat() = default;
  virtual std::unique_ptr<RowDeserializer> createDeserializer() const = 0;
  /// Whether records decode into rows of any kind (+I/-U/+U/-D: Flink's format changelog mode
  /// ChangelogMode.all(), the CDC formats) rather than +I rows only.
  virtual bool producesChanges() const { return false; }
  /// Whether createProjectedDeserializer may be called (projection push-down).
  virtual bool supportsProjection() const { return false; }
  /// A deserializer appending only the physical columns `columns` (in that order; repeats
  /// allowed; none: chunks without columns) to chunks of that projected row type. Records are
  /// still split into all their fields and checked for their field count, but the fields not
  /// read are not decoded, so a malformed value in one goes unnoticed (as with Flink's
  /// projectable formats).
  virtual std::unique_ptr<RowDeserializer> createProjectedDeserializer(
      const std::vector<int>& columns) const {
    (void)columns;
    throw InternalError("This format does not support projection push-down.");
  }
};

/// A validated format for writing one table; shared by the job's subtasks.
class EncodingFormat {
 public:
  virtual ~EncodingFormat() = default;
  virtual std::unique_ptr<RowSerializer> createSerializer() const = 0;
  /// Whether rows of any kind can be written (the record says the kind: the CDC formats);
  /// otherwise +I rows only.
  virtual bool consumesChanges() const { return false; }
};

/// A format: names itself, declares its options and builds decoding and encoding formats.
/// Stateless and immutable; one instance serves every table of its format.
class FormatFactory {
 public:
  virtual ~FormatFactory() = default;
  /// The value of 'format' that selects this factory, e.g. "csv".
  virtual std::string factoryIdentifier() const = 0;
  /// The options the format supports, without the prefix ("field-delimiter").
  virtual std::set<std::string> optionalOptions() const = 0;
  /// Flink options of this format that eddy knows but does not support yet (without prefix);
  /// a table that sets one is rejected with a message naming it.
  virtual std::set<std::string> notSupportedYetOptions() const { return {}; }
  /// Checks the values of the format's options and whether the format can hold every column
  /// type. Throws ValidationException naming the key or the column. Unknown keys are the
  /// connector's to reject (see supportedOptionKeys).
  virtual void validate(const FormatContext& context) const = 0;
  /// Validates, then builds the format that reads `context`'s table.
  virtual std::shared_ptr<const DecodingFormat> createDecodingFormat(
      const FormatContext& context) const = 0;
  /// Validates, then builds the format that writes `context`'s table.
  virtual std::shared_ptr<const EncodingFormat> createEncodingFormat(
      const FormatContext& context) const = 0;

  /// The prefixed keys of optionalOptions(): "csv.field-delimiter", ...
  std::set<std::string> supportedOptionKeys(const FormatContext& context) const;
  /// The prefixed keys of notSupportedYetOptions() that `context`'s options set, sorted.
  std::vector<std::string> notSupportedYetKeysIn(const FormatContext& context) const;
};

/// The formats known by identifier.
class FormatFactoryRegistry {
 public:
  /// The built-in formats: csv, json, raw, and the changelog formats debezium-json, canal-json
  /// and maxwell-json.
  static const FormatFactoryRegistry& builtIn();

  FormatFactoryRegistry() = default;
  /// Adds a factory; a second factory with the same identifier is an InternalError.
  void add(std::unique_ptr<FormatFactory> factory);
  /// The factory called `identifier`. Throws ValidationException "Could not find any factory
  /// for identifier 'xml' that implements 'FormatFactory' in the classpath.\n\nAvailable
  /// factory identifiers are:\n\ncanal-json\ncsv\n...".
  const FormatFactory& factoryFor(const std::string& identifier) const;
  /// The identifiers of all factories, sorted.
  std::vector<std::string> identifiers() const;

 private:
  std::map<std::string, std::unique_ptr<FormatFactory>> factories_;
};

}  // namespace eddy::formats

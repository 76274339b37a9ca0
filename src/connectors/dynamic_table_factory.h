// DynamicTableFactory: how a table's `'connector'` option becomes a source or a sink (DESIGN
// §5), after Flink's org.apache.flink.table.factories.DynamicTableFactory and FactoryUtil.
//
// The planner, while it translates a `CREATE TABLE ... WITH ('connector' = 'datagen', ...)`
// table that a query reads or writes, asks the FactoryRegistry for the factory named by the
// 'connector' option (factoryFor validates the option keys first: unknown, missing and
// invalid options are ValidationExceptions in Flink's wording that name the option), then
// asks that factory for a DynamicTableSource or DynamicTableSink for this one job. The source
// hands out a DataStream Source of vector::Chunk (the Table runtime's records); the sink
// hands out the OperatorFactory of the operator that consumes chunks.
//
// Threading and ownership: factories and the registry are immutable after construction and
// may be used from any thread; the built-in registry lives for the whole process. A
// DynamicTableSource / DynamicTableSink is owned by the planner (unique_ptr) and used from the
// planning thread; what they create (the Source, the OperatorFactory) is shared and immutable
// and outlives them inside the job graph.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "connectors/source_changelog_mode.h"
#include "eddy/datastream/source.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/types/logical_type.h"
#include "vector/chunk.h"

namespace eddy::connectors {

/// The option every table names its connector with.
inline constexpr const char* kConnectorOption = "connector";

/// What a factory is told about the table it builds a source or sink for.
struct ConnectorContext {
  /// The table's full name, e.g. "default_catalog.default_database.orders" (for messages).
  std::string tableName;
  /// ROW<...> of the table's physical columns.
  LogicalTypePtr physicalRowType;
  /// The WITH options, 'connector' included.
  std::map<std::string, std::string> options;
  /// The job's runtime mode: true for STREAMING, false for BATCH.
  bool streaming = true;
  /// PARTITIONED BY columns (connectors that cannot partition reject them).
  std::vector<std::string> partitionKeys;
  /// The PRIMARY KEY columns in the key's order; empty without one (Flink's
  /// Context#getPrimaryKeyIndexes, by name).
  std::vector<std::string> primaryKey;
};

/// One partition of a partitioned table: the text of each partition key's value, in
/// PARTITIONED BY order; nullopt for NULL (the filesystem connector's default partition).
using PartitionSpec = std::vector<std::optional<std::string>>;

/// The values of `spec` as a Row of the partition keys' types `keys` (NULL for nullopt), as
/// Flink's PartitionPathUtils.convertStringToInternalValue: each text parsed as the csv format
/// reads a field. Throws ConnectorException naming `tableName`, the key and the text when a
/// value is not of its key's type (`dt=abc` for a DATE key).
Row partitionRow(const PartitionSpec& spec, const std::vector<RowField>& keys,
                 const std::string& tableName);

/// Looks rows of a table up by key, for a processing-time lookup join (Flink's LookupFunction
/// of a LookupTableSource). One instance per subtask, used by its task thread only.
class LookupFunction {
 public:
  virtual ~LookupFunction() = default;
  /// For each row i of `keys` (the lookup key columns, in the order the function was created
  /// for, of the table's column types; no key is NULL), appends the rows of the table whose key
  /// columns equal row i to `matches` (the table's physical row type, all +I) and i to
  /// `keyRows` once per appended row, keys in order (so `keyRows` ascends). Throws
  /// ConnectorException when the table cannot be read.
  virtual void lookup(const vector::Chunk& keys, vector::Chunk& matches,
                      std::vector<int32_t>& keyRows) = 0;
};

/// Creates the lookup function of one subtask (shared by the subtasks; any thread).
using LookupFunctionFactory = std::function<std::unique_ptr<LookupFunction>()>;

/// A table read by one job: created per job by the planner, from the planning thread.
class DynamicTableSource {
 public:
  virtual ~DynamicTableSource() = default;
  /// True when the source ends by itself (a BATCH job may read only bounded sources).
  virtual bool isBounded() const = 0;
  /// A DataStream source of chunks of the physical row type (all rows +I), or of the
  /// projected row type after applyProjection. The source is shared by the job's subtasks and
  /// outlives this object.
  virtual std::shared_ptr<Source<vector::Chunk>> createSource() const = 0;
  /// The kinds of rows createSource() produces (insert-only by default). A source that is not
  /// insert-only cannot be read in BATCH.
  virtual SourceChangelogMode changelogMode() const { return SourceChangelogMode::kInsertOnly; }

  // --- Metadata (Flink's SupportsReadingMetadata): values a source knows about each row besides
  // its physical columns, read into a table's METADATA columns. ---

  /// The metadata keys the source can read, with their types (none by default).
  virtual std::map<std::string, LogicalTypePtr> listReadableMetadata() const { return {}; }
  /// Makes createSource() append the values of `keys` (listed keys, in this order) after the
  /// physical, or projected, columns. Called from the planning thread before createSource().
  virtual void applyReadableMetadata(const std::vector<std::string>& keys) {
    if (!keys.empty()) throw InternalError("This table source reads no metadata.");
  }

  // --- Projection push-down (Flink's SupportsProjectionPushDown). The planner, when a query
  // reads only some (nested) fields of the table, may ask the source to produce just those,
  // so that it skips their generation or decoding and never builds the ROW values around
  // them. ---

  /// Whether applyProjection may be called.
  virtual bool supportsProjection() const { return false; }
  /// Whether applyProjection accepts paths into ROW columns (paths longer than one index).
  virtual bool supportsNestedProjection() const { return false; }
  /// Makes createSource() produce chunks whose columns are `paths`, in order. A path is a list
  /// of field indices into the physical row type: {2} is the third physical column, {3, 2}
  /// field 2 of the ROW column 3 (only when supportsNestedProjection()). Paths may repeat; no
  /// paths at all gives chunks without columns (rows are still counted). Returns the produced
  /// ROW type: one field per path, of the addressed field's type (nullable when the path goes
  /// through a ROW, whose NULL makes its fields NULL), named by the path's field names joined
  /// with '_' ("bid_price"; a repeated name gets "$1", "$2", ... appended). Paths always
  /// index the physical row type, also when applied a second time. Called from the planning
  /// thread, before createSource(). An index out of range, or a call the source does not
  /// support, is the planner's bug: InternalError (also the default).
  virtual LogicalTypePtr applyProjection(const std::vector<std::vector<int>>& paths) {
    (void)paths;
    throw InternalError("This table source does not support projection push-down.");
  }

  // --- Watermark push-down (Flink's SupportsWatermarkPushDown). A source whose reader emits
  // each split's records through the split's own output (ReaderOutput::createOutputForSplit)
  // lets the planner generate a table's declared watermark inside the source operator, per
  // split: the source's watermark is the lowest of its splits' (idle splits left out), so one
  // split ahead of another does not make the other's rows late. ---

  /// Whether the planner may push the table's watermark into the source's operator.
  virtual bool supportsWatermarkPushDown() const { return false; }

  // --- Partition push-down (Flink's SupportsPartitionPushDown). For a partitioned table the
  // planner evaluates the query's predicates on the partition keys over the listed partitions
  // and tells the source which ones to read, so that it never opens the others. ---

  /// Whether listPartitions and applyPartitions may be called.
  virtual bool supportsPartitionPushDown() const { return false; }
  /// The partitions the table holds now, each with the text of its partition keys' values in
  /// PARTITIONED BY order (see filesystem/partition_path.h). Called from the planning thread;
  /// throws ConnectorException when they cannot be listed.
  virtual std::vector<PartitionSpec> listPartitions() const {
    throw InternalError("This table source does not support partition push-down.");
  }
  /// Makes createSource() read only `partitions` (some of listPartitions()).
  virtual void applyPartitions(const std::vector<PartitionSpec>& partitions) {
    (void)partitions;
    throw InternalError("This table source does not support partition push-down.");
  }

  // --- Lookup (Flink's LookupTableSource): a processing-time lookup join
  // (`JOIN t FOR SYSTEM_TIME AS OF o.proctime ON t.k = o.k`) probes the table by key as rows
  // arrive instead of reading it as a stream. ---

  /// Whether createLookupFunction may be called.
  virtual bool supportsLookup() const { return false; }
  /// The factory of the functions that look rows up by the physical columns `keyColumns`
  /// (indices into the physical row type, in the order the keys are given). Called from the
  /// planning thread; a call the source does not support is the planner's bug (InternalError).
  virtual LookupFunctionFactory createLookupFunction(const std::vector<int>& keyColumns) const {
    (void)keyColumns;
    throw InternalError("This table source does not support lookups.");
  }
};

/// A table written by one job: created per job by the planner, from the planning thread.
class DynamicTableSink {
 public:
  virtual ~DynamicTableSink() = default;
  /// The operator that consumes TypedBatch<vector::Chunk> (rows of the physical row type,
  /// any RowKind) and writes them; one instance per subtask.
  virtual std::shared_ptr<const runtime::OperatorFactory> createSinkOperator() const = 0;
  /// The parallelism the table asks for (Flink's 'sink.parallelism'); unset: the job's.
  virtual std::optional<int> sinkParallelism() const { return std::nullopt; }
  /// Whether the sink consumes updates and deletes (-U, +U, -D rows), i.e. Flink's
  /// DynamicTableSink.getChangelogMode is more than insert-only. The planner rejects a query
  /// whose result is updating into a sink that returns false (Flink: "Table sink '<table>'
  /// doesn't support consuming update changes which is produced by node ..."); such a sink's
  /// operator also fails the job on the first row that is not +I.
  virtual bool acceptsUpdates() const { return true; }
  /// Whether the sink consumes -U rows (Flink: its getChangelogMode contains UPDATE_BEFORE).
  /// One that does not (blackhole) lets the planner drop them where the query's updates allow:
  /// the updating aggregate then emits +U alone; with a primary key on the table only when the
  /// updates are upserts by exactly that key.
  virtual bool consumesUpdateBefore() const { return true; }
  /// The metadata keys the sink can write into what it writes, with their types (Flink's
  /// SupportsWritingMetadata#listWritableMetadata), in the order their columns follow the
  /// physical ones; none by default.
  virtual std::vector<std::pair<std::string, LogicalTypePtr>> listWritableMetadata() const {
    return {};
  }
  /// Makes the sink's operator take the values of `keys` (listed keys, in the listed order)
  /// after the physical columns of its rows. Called from the planning thread before
  /// createSinkOperator().
  virtual void applyWritableMetadata(const std::vector<std::string>& keys) {
    if (!keys.empty()) throw InternalError("This table sink writes no metadata.");
  }
  /// Whether the sink can replace the table's data (Flink's SupportsOverwrite): INSERT
  /// OVERWRITE into a sink that cannot fails planning.
  virtual bool supportsOverwrite() const { return false; }
  /// INSERT OVERWRITE: the job's rows replace what the table held (only where
  /// supportsOverwrite()). May throw when the job cannot overwrite (e.g. in STREAMING).
  virtual void applyOverwrite(bool) {}
  /// Whether the sink writes a partitioned table (Flink's SupportsPartitioning).
  virtual bool supportsPartitioning() const { return false; }
  /// The static partition of `INSERT INTO t PARTITION (k = 'v', ..)`: the keys given, each with
  /// the text of its value (only where supportsPartitioning()). The rows carry these values
  /// too; a sink uses them to know the whole partition before any row (INSERT OVERWRITE of a
  /// partition the query has no rows for).
  virtual void applyStaticPartition(const std::map<std::string, std::string>& partition) {
    (void)partition;
  }
};

/// A connector: names itself, declares its options and builds sources and sinks. Stateless
/// and immutable; one instance serves every table of its connector.
class DynamicTableFactory {
 public:
  virtual ~DynamicTableFactory() = default;
  /// The value of 'connector' that selects this factory, e.g. "datagen".
  virtual std::string factoryIdentifier() const = 0;
  /// Options that must be present, besides 'connector'.
  virtual std::set<std::string> requiredOptions() const = 0;
  /// Options that may be present. A '#' stands for one field name of the physical row type
  /// ("fields.#.kind" allows "fields.id.kind" when the table has a column `id`).
  virtual std::set<std::string> optionalOptions() const = 0;

  /// The option keys `context`'s table may carry: 'connector', the required and the optional
  /// options with every '#' expanded over the physical field names. A factory whose options
  /// depend on the columns' types or on other options narrows this (datagen does).
  virtual std::set<std::string> supportedOptionKeys(const ConnectorContext& context) const;
  /// Checks the options of `context` before anything is built: required options first, then
  /// unsupported keys (both in Flink's wording, see FactoryRegistry). Factories that parse
  /// values extend this to reject invalid values, naming the key, the value and what is
  /// allowed. Throws ValidationException.
  virtual void validateOptions(const ConnectorContext& context) const;

  /// Throws ValidationException for a table that cannot be a source (the default: "Connector
  /// 'print' can only be used as a sink. It cannot be used as a source.").
  virtual std::unique_ptr<DynamicTableSource> createDynamicTableSource(
      const ConnectorContext& context) const;
  /// Throws ValidationException for a table that cannot be a sink.
  virtual std::unique_ptr<DynamicTableSink> createDynamicTableSink(
      const ConnectorContext& context) const;
};

/// The connectors known by identifier (Flink's factory discovery, without a classpath).
class FactoryRegistry {
 public:
  /// The built-in connectors: datagen, print, blackhole, filesystem, nexmark, kafka,
  /// upsert-kafka.
  static const FactoryRegistry& builtIn();

  FactoryRegistry() = default;
  /// Adds a factory; a second factory with the same identifier is an InternalError.
  void add(std::unique_ptr<DynamicTableFactory> factory);

  /// The factory named by options.at("connector"); validates the options first. Throws
  /// ValidationException in Flink's wording:
  ///   - no 'connector': "Table options do not contain an option key 'connector' for
  ///     discovering a connector. Table: <name>"
  ///   - unknown identifier: "Could not find any factory for identifier 'kafkaa' that
  ///     implements 'DynamicTableFactory' in the classpath.\n\nAvailable factory identifiers
  ///     are:\n\n<sorted, one per line>"
  ///   - "One or more required options are missing.\n\nMissing required options are:\n\n..."
  ///   - "Unsupported options found for 'datagen'.\n\nUnsupported options:\n\n...\n\n
  ///     Supported options:\n\n..."
  ///   - invalid values: a message naming the key, the value and what is allowed.
  const DynamicTableFactory& factoryFor(const ConnectorContext& context) const;

  /// The identifiers of all factories, sorted.
  std::vector<std::string> identifiers() const;

 private:
  std::map<std::string, std::unique_ptr<DynamicTableFactory>> factories_;
};

}  // namespace eddy::connectors

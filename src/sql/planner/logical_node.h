// The logical plan: relational algebra over rows, built by the binder from SQL (and later by
// the Table API), read by the translator that turns it into runtime transformations.
// Nodes are immutable and shared (std::shared_ptr<const LogicalNode>); each knows its output
// row type (field names and types) and its changelog mode — whether it emits only inserts or
// also updates and deletes — derived from its inputs when it is built.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "connectors/source_changelog_mode.h"
#include "eddy/row.h"
#include "eddy/types/logical_type.h"
#include "expression/bound_expression.h"
#include "function/aggregate/aggregate_call.h"
#include "relational/join_type.h"
#include "relational/ordering.h"
#include "relational/unnest_fields.h"
#include "relational/window.h"

namespace eddy {
class StreamExecutionEnvironment;
namespace runtime {
struct Transformation;
}
namespace connectors {
class DynamicTableSink;
}
}  // namespace eddy

namespace eddy::sql {

enum class LogicalNodeKind {
  kValues,
  kTableScan,
  kProject,
  kFilter,
  kAggregate,
  kUnion,
  kSort,
  kJoin,
  kRank,
  kDataStreamScan,
  kWatermarkAssigner,
  kWindowTableFunction,
  kWindowAggregate,
  kOverAggregate,
  kUnnest,
  kLookupJoin,
  kSink
};

/// What a node's output stream may contain (Flink's ChangelogMode, simplified until upsert
/// keys are tracked): only +I, or +I/-U/+U/-D.
enum class ChangelogMode { kInsertOnly, kRetract };

struct LogicalNode;
/// The node of an updating plan that first produces updates (the deepest one whose
/// changelog is not insert-only), which Flink names in "doesn't support consuming update
/// changes" errors.
const LogicalNode& updateProducer(const LogicalNode& plan);

struct LogicalNode {
  LogicalNode(LogicalNodeKind nodeKind, LogicalTypePtr outputRowType,
              std::vector<std::shared_ptr<const LogicalNode>> nodeInputs, ChangelogMode mode)
      : kind(nodeKind),
        rowType(std::move(outputRowType)),
        inputs(std::move(nodeInputs)),
        changelogMode(mode) {}
  virtual ~LogicalNode() = default;

  const LogicalNodeKind kind;
  const LogicalTypePtr rowType;  // ROW<...> of the output
  const std::vector<std::shared_ptr<const LogicalNode>> inputs;
  const ChangelogMode changelogMode;

  /// One line, as EXPLAIN shows the node: `LogicalAggregate(group=[{0}], score=[SUM($1)])`.
  virtual std::string describe() const = 0;
};

using LogicalNodePtr = std::shared_ptr<const LogicalNode>;

struct LogicalValues final : LogicalNode {
  LogicalValues(LogicalTypePtr rowType, std::vector<Row> rows);
  std::string describe() const override;
  const std::vector<Row> rows;
};

/// Reads a catalog table through its connector (the `'connector'` option picks the factory).
/// With a projection (pushed down by the optimizer into a source that supports it) the scan
/// produces only the projected (nested) fields, as flat columns.
struct LogicalTableScan final : LogicalNode {
  /// `metadata`: the METADATA columns the scan appends after the physical columns (their
  /// column names and the connector's metadata types), read by key (`metadataKeys`).
  LogicalTableScan(
      std::string tableName, LogicalTypePtr physicalRowType,
      std::map<std::string, std::string> options, std::vector<std::string> partitionKeys = {},
      std::vector<RowField> metadata = {}, std::vector<std::string> metadataKeys = {},
      std::vector<int> primaryKey = {},
      connectors::SourceChangelogMode changes = connectors::SourceChangelogMode::kInsertOnly);
  /// The same table producing `projection` (paths of field indices into the physical row
  /// type, see DynamicTableSource::applyProjection) as `producedRowType`.
  LogicalTableScan(const LogicalTableScan& table, std::vector<std::vector<int>> projection,
                   LogicalTypePtr producedRowType);
  /// The same table reading only `partitions` (partition push-down; each the text of its
  /// partition keys' values in PARTITIONED BY order, nullopt for NULL, see
  /// connectors::DynamicTableSource::applyPartitions).
  LogicalTableScan(const LogicalTableScan& table,
                   std::vector<std::vector<std::optional<std::string>>> partitions);
  /// The same table generating the watermark `watermark` (over its output columns) in its
  /// source, per split (watermark push-down).
  LogicalTableScan(const LogicalTableScan& table, expression::ExpressionPtr watermark);
  /// The same upsert table whose ChangelogNormalize sends updates as +U alone, without the -U
  /// of the old row (see withoutUpdateBefore).
  LogicalTableScan(const LogicalTableScan& table, bool generateUpdateBefore);
  std::string describe() const override;
  const std::string tableName;  // catalog.database.table
  const LogicalTypePtr physicalRowType;
  const std::map<std::string, std::string> options;
  const std::vector<std::string> partitionKeys;
  /// The table's PRIMARY KEY columns (indices into physicalRowType); empty without one.
  const std::vector<int> primaryKey;
  /// What the source produces. Not insert-only: the scan's changelog is a retract one (an
  /// upsert source's rows go through a ChangelogNormalize by the primary key).
  const connectors::SourceChangelogMode changes;
  /// Whether an upsert table's ChangelogNormalize sends the -U of an updated row (false where
  /// the consumer takes upserts by the primary key, see withoutUpdateBefore).
  const bool generateUpdateBefore = true;
  const std::optional<std::vector<std::vector<int>>> projection;
  /// Metadata keys read after the physical columns (Flink's SupportsReadingMetadata); a scan
  /// with metadata is not projected.
  const std::vector<std::string> metadataKeys;
  /// The partitions read when the optimizer pruned them; nullopt: all.
  const std::optional<std::vector<std::vector<std::optional<std::string>>>> partitions;
  /// The watermark pushed into the source (see WatermarkPushDown); null when none was.
  const expression::ExpressionPtr watermark;
  /// Flink's text of the partitions read: `partitions=[{dt=2026-11-30, hm=10:00}, ..]`; empty
  /// when not pruned.
  std::string describePartitions() const;

 private:
  /// `table` with the given derived parts, the table's own copied (the others delegate here).
  LogicalTableScan(const LogicalTableScan& table, LogicalTypePtr producedRowType,
                   std::optional<std::vector<std::vector<int>>> projection,
                   std::optional<std::vector<std::vector<std::optional<std::string>>>> partitions,
                   expression::ExpressionPtr watermark, bool generateUpdateBefore);
};

/// The DataStream<Row> a StreamTableEnvironment reads (fromDataStream, fromChangelogStream):
/// which transformation of which environment produces it and how its Rows become the scan's
/// columns. Shared by every plan that reads the stream; immutable.
struct DataStreamSource {
  /// Which row kinds the stream may carry (the ChangelogMode given to fromChangelogStream).
  enum class Kinds { kInsertOnly, kAll, kUpsert };

  StreamExecutionEnvironment* environment = nullptr;
  /// Produces the Rows (a transformation of `environment`; owned by it).
  runtime::Transformation* transformation = nullptr;
  /// `*anonymous_datastream_source$N*`, as Flink names the virtual table.
  std::string name;
  Kinds kinds = Kinds::kInsertOnly;
  /// kUpsert: the primary key columns (of the scan's row type).
  std::vector<int> upsertKey;
  /// Each Row's fields, by position, are the scan's first `fieldCount` columns.
  int fieldCount = 0;
  /// The scan's last column holds the stream record's timestamp (the `rowtime` METADATA
  /// column): TIMESTAMP_LTZ(3), null for records without one.
  bool rowtimeColumn = false;
  /// Non-empty when the records are of a C++ type the Table runtime cannot read (a RAW
  /// column): the plan can be shown but not run.
  std::string unreadableType;
};

/// Reads a DataStream<Row> (see DataStreamSource): a leaf, insert-only unless the source is a
/// changelog stream.
struct LogicalDataStreamScan final : LogicalNode {
  LogicalDataStreamScan(std::shared_ptr<const DataStreamSource> source, LogicalTypePtr rowType);
  std::string describe() const override;
  const std::shared_ptr<const DataStreamSource> source;
};

struct LogicalProject final : LogicalNode {
  LogicalProject(LogicalNodePtr input, std::vector<expression::ExpressionPtr> expressions,
                 std::vector<std::string> names);
  std::string describe() const override;
  const std::vector<expression::ExpressionPtr> expressions;
};

struct LogicalFilter final : LogicalNode {
  LogicalFilter(LogicalNodePtr input, expression::ExpressionPtr condition);
  std::string describe() const override;
  const expression::ExpressionPtr condition;
};

/// `input [CROSS|LEFT] JOIN UNNEST(collection) [WITH ORDINALITY]`: each input row joined with
/// the elements of a collection computed from it (Flink's LogicalCorrelate over an Uncollect).
/// Output: the input's columns, the element's columns (relational::unnestedFields,
/// nullable for a LEFT join), then ORDINALITY. The changelog mode is the input's. With a
/// BIGINT `collection` (planned by INTERSECT/EXCEPT ALL) each row is repeated that often.
struct LogicalUnnest final : LogicalNode {
  LogicalUnnest(LogicalNodePtr input, expression::ExpressionPtr collection, bool withOrdinality,
                bool leftOuter);
  std::string describe() const override;
  const expression::ExpressionPtr collection;
  const bool withOrdinality;
  const bool leftOuter;
};

struct LogicalAggregate final : LogicalNode {
  /// Output: the grouping columns (in order) then one column per call, named `names`; with
  /// grouping sets, then one GROUPING flag per grouping column ($g0, $g1, ...: 1 in the rows
  /// of a set without it, whose value there is NULL).
  LogicalAggregate(LogicalNodePtr input, std::vector<int> groupingColumns,
                   std::vector<function::AggregateCall> calls,
                   std::vector<std::string> names, bool generateUpdateBefore = true,
                   std::vector<std::vector<int>> groupingSets = {}, bool windowed = false);
  std::string describe() const override;
  const std::vector<int> groupingColumns;
  const std::vector<function::AggregateCall> calls;
  /// False when the rows go to a consumer that takes upserts by the grouping columns (see
  /// withoutUpdateBefore): an update is a +U alone, without the -U of the old row.
  const bool generateUpdateBefore;
  /// GROUPING SETS, ROLLUP, CUBE: the sets (positions in groupingColumns), which the optimizer
  /// pass GroupingSetsExpansion plans as one aggregation per set; empty: one set of all.
  const std::vector<std::vector<int>> groupingSets;
  /// Grouped by the window of a window TVF (window_grouping.h), which the optimizer pass
  /// WindowAggregateDetection plans as a LogicalWindowAggregate: insert-only, window_time kept
  /// as a time attribute (the types Flink gives it before time indicators are materialized).
  const bool windowed;
};

/// UNION ALL of inputs that all have the union's row type (the binder casts them).
struct LogicalUnion final : LogicalNode {
  LogicalUnion(std::vector<LogicalNodePtr> inputs, LogicalTypePtr rowType);
  std::string describe() const override;
};

/// ORDER BY and/or LIMIT/OFFSET: rows in key order (arrival order without keys), `offset`
/// skipped, at most `fetch` kept (-1: all).
struct LogicalSort final : LogicalNode {
  LogicalSort(LogicalNodePtr input, std::vector<relational::SortKey> keys, int64_t offset,
              int64_t fetch);
  std::string describe() const override;
  const std::vector<relational::SortKey> keys;
  const int64_t offset;
  const int64_t fetch;
};

/// The time bounds of an interval join (Flink's IntervalJoin): a conjunct of the join
/// condition bounds `rightTime - leftTime` from below and one from above, both times being
/// time attributes of the same kind (rowtime or proctime) of insert-only inputs.
struct IntervalJoinBounds {
  int leftTimeColumn = -1;   // of the left input
  int rightTimeColumn = -1;  // of the right input
  /// rightTime - leftTime must lie in [lowerBound, upperBound] (milliseconds, inclusive).
  int64_t lowerBound = 0;
  int64_t upperBound = 0;
  bool processingTime = false;
  /// The join's residual condition without the bounds; null when nothing is left.
  expression::ExpressionPtr residual;
  /// A window join (Flink's WindowJoin): the times are the two inputs' window_end columns, equal
  /// (bounds [0, 0]); window_start and window_end are among the equi keys.
  bool windowJoin = false;
  /// A window join of windows on a TIMESTAMP_LTZ rowtime: the window ends are wall-clock times
  /// of this zone (the windows' `table.local-time-zone`), compared with the watermark as the
  /// instants they name.
  std::optional<common::SessionTimeZone> windowTimeZone;
};

/// The interval bounds of a join of `left` and `right` whose residual condition (over the
/// concatenated row) is `condition`; nullopt when the join is not an interval join.
std::optional<IntervalJoinBounds> intervalJoinBoundsOf(const LogicalNode& left,
                                                       const LogicalNode& right,
                                                       const expression::ExpressionPtr& condition);

/// A window join: both inputs insert-only windowed relations on event time (a window TVF or
/// window aggregation over a TIMESTAMP rowtime, window columns passed through projections and
/// filters) and the equi keys pair window_start with window_start and window_end with
/// window_end. It runs as an interval join on the window ends with bounds [0, 0]: rows are
/// joined as they arrive, an outer row that joined nothing is emitted padded once the
/// watermark passes its window's end, and a window's rows are released then (Flink's
/// WindowJoin emits all of a window's rows at its end: the same rows, some earlier).
std::optional<IntervalJoinBounds> windowJoinBoundsOf(const LogicalNode& left,
                                                     const LogicalNode& right,
                                                     const std::vector<int>& leftKeys,
                                                     const std::vector<int>& rightKeys,
                                                     const expression::ExpressionPtr& condition);

/// The times of an event-time temporal join (`right FOR SYSTEM_TIME AS OF left.time`): each
/// left row joins the right version valid at its time (see TemporalJoinOperator).
struct TemporalJoinTime {
  int leftTimeColumn = -1;   // the left's rowtime attribute named by FOR SYSTEM_TIME AS OF
  int rightTimeColumn = -1;  // the versioned side's rowtime attribute
};

/// A regular (unwindowed) join. Output: the left input's columns then the right's (names made
/// unique as Calcite does: a repeated `name` becomes `name0`, `name1`, ...), the null-padded
/// side's columns nullable for outer joins. Rows pair when the equi keys are equal (pairwise of
/// identical types; a NULL key never matches) and `condition` (the residual predicate over the
/// concatenated row, null for none) is TRUE.
struct LogicalJoin final : LogicalNode {
  LogicalJoin(LogicalNodePtr left, LogicalNodePtr right, relational::JoinType joinType,
              std::vector<int> leftKeys, std::vector<int> rightKeys,
              expression::ExpressionPtr condition);
  /// An event-time temporal join (INNER or LEFT, insert-only output, the left's time
  /// attributes kept, the right's materialized).
  LogicalJoin(LogicalNodePtr left, LogicalNodePtr right, relational::JoinType joinType,
              std::vector<int> leftKeys, std::vector<int> rightKeys,
              expression::ExpressionPtr condition, TemporalJoinTime temporal);
  /// This join over other inputs (of the same row types) with another residual condition; a
  /// temporal join stays one, an interval join is detected anew.
  std::shared_ptr<const LogicalJoin> with(LogicalNodePtr left, LogicalNodePtr right,
                                          expression::ExpressionPtr condition) const;
  std::string describe() const override;
  /// The whole join condition: the key equalities AND the residual (TRUE without either).
  expression::ExpressionPtr fullCondition() const;
  const relational::JoinType joinType;
  const std::vector<int> leftKeys;
  const std::vector<int> rightKeys;
  const expression::ExpressionPtr condition;
  /// Set for an interval join or a window join (see IntervalJoinBounds), whose output keeps the
  /// inputs' time attributes and is insert-only, outer joins too; a regular join materializes
  /// time attributes into plain timestamps, as Flink does.
  const std::optional<IntervalJoinBounds> interval;
  /// Set for an event-time temporal join.
  const std::optional<TemporalJoinTime> temporal;

 private:
  LogicalJoin(LogicalNodePtr left, LogicalNodePtr right, relational::JoinType joinType,
              std::vector<int> leftKeys, std::vector<int> rightKeys,
              expression::ExpressionPtr condition, std::optional<IntervalJoinBounds> interval,
              std::optional<TemporalJoinTime> temporal);
};

/// A processing-time lookup join (`JOIN t FOR SYSTEM_TIME AS OF o.proctime ON t.k = o.x`,
/// Flink's LookupJoin): each input row probes `table` (a connector table that supports lookups)
/// by the values of `inputKeys` (expressions over the input, of the types of the table's
/// `lookupKeys` columns) when it arrives; `condition` (over the input's columns then the table's,
/// null for none) filters the pairs. Output: the input's columns (time attributes kept), then
/// the table's physical columns (nullable for a LEFT join); each row keeps its input row's kind.
struct LogicalLookupJoin final : LogicalNode {
  LogicalLookupJoin(LogicalNodePtr input, std::shared_ptr<const LogicalTableScan> table,
                    relational::JoinType joinType,
                    std::vector<expression::ExpressionPtr> inputKeys, std::vector<int> lookupKeys,
                    expression::ExpressionPtr condition);
  std::string describe() const override;
  const std::shared_ptr<const LogicalTableScan> table;
  const relational::JoinType joinType;
  const std::vector<expression::ExpressionPtr> inputKeys;
  const std::vector<int> lookupKeys;
  const expression::ExpressionPtr condition;
};

/// Top-N: the rows of each partition (partitionKeys) ranked by sortKeys, kept when their rank
/// is in [rankStart, rankEnd]; with outputRankNumber the rank is appended as a BIGINT column
/// named `rankName`.
struct LogicalRank final : LogicalNode {
  LogicalRank(LogicalNodePtr input, std::vector<int> partitionKeys,
              std::vector<relational::SortKey> sortKeys,
              relational::RankKind rankKind, int64_t rankStart, int64_t rankEnd,
              bool outputRankNumber, std::string rankName, bool generateUpdateBefore = true);
  std::string describe() const override;
  /// This rank with other bounds or without the rank column.
  std::shared_ptr<const LogicalRank> with(int64_t start, int64_t end, bool rankNumber) const;
  const std::vector<int> partitionKeys;
  const std::vector<relational::SortKey> sortKeys;
  const relational::RankKind rankKind;
  const int64_t rankStart;
  const int64_t rankEnd;
  const bool outputRankNumber;
  const std::string rankName;
  /// False where the consumer takes updates without -U (withoutUpdateBefore): a deduplication
  /// then sends a replacing row as +U alone (EXPLAIN CHANGELOG_MODE `[I,UA]`).
  const bool generateUpdateBefore;
};

/// Generates the watermarks of a table with `WATERMARK FOR rowtime AS expression`: the rows
/// pass unchanged; the watermark is the largest value of `watermark` (an expression over the
/// row, of a TIMESTAMP type) seen so far (Flink's WatermarkAssigner).
struct LogicalWatermarkAssigner final : LogicalNode {
  LogicalWatermarkAssigner(LogicalNodePtr input, int rowtimeColumn,
                           expression::ExpressionPtr watermark);
  std::string describe() const override;
  const int rowtimeColumn;
  const expression::ExpressionPtr watermark;
};

/// A window table-valued function (TUMBLE, HOP, CUMULATE; SESSION only under a window
/// aggregation): the input's columns, then window_start, window_end and window_time, one row
/// per window that contains the row's time.
struct LogicalWindowTableFunction final : LogicalNode {
  LogicalWindowTableFunction(LogicalNodePtr input, relational::WindowSpec window);
  std::string describe() const override;
  const relational::WindowSpec window;
};

/// The window properties' types for a time column of type `timeType`: window_start and
/// window_end are TIMESTAMP(3) NOT NULL; window_time is the time attribute of the window
/// (TIMESTAMP(3) *ROWTIME*, TIMESTAMP_LTZ(3) *ROWTIME* for an LTZ rowtime, TIMESTAMP_LTZ(3)
/// *PROCTIME* for processing time).
LogicalTypePtr windowStartType();
LogicalTypePtr windowTimeType(const LogicalType& timeType);
/// "TUMBLE(time_col=[ts], size=[10 min])", as Flink's EXPLAIN names a window; `columns`
/// replaces `time_col=[ts]` where the window is known by other columns (Flink's
/// "win_start=[..], win_end=[..]" of a window attached to window_start/window_end).
std::string describeWindow(const relational::WindowSpec& window, const std::string& timeColumn);
std::string describeWindowWith(const relational::WindowSpec& window,
                               const std::string& columns);

/// A window aggregation (Flink's WindowAggregate): GROUP BY window_start, window_end [, keys]
/// over a window TVF, insert-only, each window's rows emitted once the watermark passes its
/// end. Output: `outputColumns` (keys, window properties, aggregate results) in order.
struct LogicalWindowAggregate final : LogicalNode {
  LogicalWindowAggregate(
      LogicalNodePtr input, relational::WindowSpec window, std::vector<int> keyColumns,
      std::vector<function::AggregateCall> calls,
      std::vector<relational::WindowOutputColumn> outputColumns,
      std::vector<std::string> names);
  std::string describe() const override;
  const relational::WindowSpec window;
  const std::vector<int> keyColumns;
  const std::vector<function::AggregateCall> calls;
  const std::vector<relational::WindowOutputColumn> outputColumns;
};

/// OVER aggregation (Flink's OverAggregate): every input row, followed by aggregates over its
/// frame — the rows of its partition ordered by a time attribute, from `preceding` rows (ROWS)
/// or milliseconds (RANGE) before it (UNBOUNDED without) to the current row. Insert-only.
/// BATCH only: ordered by any columns instead (`orderKeys`, orderColumn -1; RANGE frames then
/// UNBOUNDED or CURRENT ROW), or not ordered at all (every row of a partition a peer).
struct LogicalOverAggregate final : LogicalNode {
  LogicalOverAggregate(LogicalNodePtr input, std::vector<int> partitionKeys, int orderColumn,
                       relational::OverFrameUnit unit, std::optional<int64_t> preceding,
                       std::vector<function::AggregateCall> calls,
                       std::vector<std::string> names,
                       std::vector<relational::SortKey> orderKeys = {});
  std::string describe() const override;
  const std::vector<int> partitionKeys;
  const int orderColumn;
  /// With orderColumn -1: the ORDER BY keys (empty: no ORDER BY).
  const std::vector<relational::SortKey> orderKeys;
  const bool processingTime;
  const relational::OverFrameUnit unit;
  const std::optional<int64_t> preceding;
  const std::vector<function::AggregateCall> calls;
};

/// The sink of an INSERT (Flink's LogicalSink): its input's rows, cast to the table's columns,
/// written by the table's connector, with what planSink (plan_sink.h) decided about how the
/// sink consumes them. The root of an INSERT's plan; EXPLAIN prints it without a changelog mode
/// or cost.
struct LogicalSink final : LogicalNode {
  LogicalSink(LogicalNodePtr input, std::string tableName,
              std::shared_ptr<const connectors::DynamicTableSink> sink, bool overwrite,
              std::vector<int> notNullColumns, std::vector<int> primaryKey,
              bool upsertMaterialize);
  std::string describe() const override;
  const std::string tableName;  // catalog.database.table
  const std::shared_ptr<const connectors::DynamicTableSink> sink;
  const bool overwrite;
  /// The sink's NOT NULL columns the query may fill with NULL (Flink's ConstraintEnforcer
  /// checks them before the sink).
  const std::vector<int> notNullColumns;
  /// The table's PRIMARY KEY columns among the rows written (empty: none).
  const std::vector<int> primaryKey;
  /// Flink's SinkUpsertMaterializer goes before the sink.
  const bool upsertMaterialize;
};

/// A window property column: which property, of which window.
struct WindowProperty {
  relational::WindowOutputColumn::Kind kind;  // WINDOW_START/_END/_TIME
  relational::WindowSpec window;
};
/// What column `column` of `node` is when it is a window's window_start, window_end or
/// window_time (produced by a window TVF or a window aggregation, passed on unchanged by
/// projections and filters); nullopt otherwise.
std::optional<WindowProperty> windowPropertyOf(const LogicalNode& node, int column);

/// Deduplication keeping the first row on processing time (Flink's Deduplicate with
/// keepLastRow = false on a proctime): ROW_NUMBER() OVER (PARTITION BY .. ORDER BY proctime ASC)
/// = 1, the rank number not selected, over insert-only input. Insert-only: the first row of
/// each key is emitted, later ones are dropped.
bool isProcTimeKeepFirst(const LogicalNode& input, relational::RankKind kind,
                         int64_t rankStart, int64_t rankEnd, bool outputRankNumber,
                         const std::vector<relational::SortKey>& sortKeys);
/// Whether a rank is Flink's Deduplicate: `ROW_NUMBER() OVER (PARTITION BY .. ORDER BY
/// time_attr [ASC|DESC]) = 1` over an insert-only input, the rank number not selected. It keeps
/// the first or last row of each key by the time attribute (processing or event time); a
/// replaced row is retracted with -U and its successor sent as +U (EXPLAIN CHANGELOG_MODE
/// `[I,UB,UA]`), except for keep-first on processing time, which is insert-only.
bool isDeduplicate(const LogicalNode& input, relational::RankKind kind, int64_t rankStart,
                   int64_t rankEnd, bool outputRankNumber,
                   const std::vector<relational::SortKey>& sortKeys);

/// Window Top-N (Flink's WindowRank): the partition key that is window_end when a rank over
/// `input` partitioned by `partitionKeys` ranks the rows of each window (the keys include a
/// window's window_start and window_end, the input is insert-only); -1 otherwise.
int windowRankEndColumn(const LogicalNode& input, const std::vector<int>& partitionKeys);

/// `names` made unique as Calcite makes a row type's field names unique: a repeated `name`
/// becomes `name0`, then `name1`, ... (skipping names already taken).
std::vector<std::string> uniquifyNames(const std::vector<std::string>& names);

/// The plan as an indented tree, one node per line (EXPLAIN's logical section); with
/// `withChangelogMode` each node's changelog mode, with `withCost` its estimated row count and
/// cumulative cost (EXPLAIN ESTIMATED_COST, sql/planner/cost_model.h).
std::string explainPlan(const LogicalNode& root, bool withChangelogMode = false,
                        bool withCost = false);

/// Columns of `node`'s output that no two rows of its (materialized) result share, as far as
/// the plan shows: the partition keys of a deduplicating Rank (ROW_NUMBER = 1), the grouping
/// columns of an aggregation, an upsert stream's key, followed through projections and filters.
/// Flink derives the primary key of a versioned view this way. nullopt when none is known.
std::optional<std::vector<int>> uniqueKeyOf(const LogicalNode& node);

/// Flink's upsert keys (FlinkRelMdUpsertKeys): the sets of `node`'s output columns (each
/// sorted) by which its changes are upserts — no two rows it currently holds share the values
/// of one, and every change of a row keeps them, so a consumer may apply +U/-D by them. An
/// insert-only scan's primary key; an aggregation's grouping columns (the empty set without
/// GROUP BY: one row); a Rank's partition keys (a deduplication), the partition keys and the
/// rank number (ROW_NUMBER with the number selected), or, without the number, its input's keys
/// that hold the partition keys; an upsert stream's key; followed through projections (plain column
/// references and casts that keep values apart), filters, watermark assigners, sorts and OVER
/// aggregations; for a join, a key of each side that holds the side's join keys, combined, or
/// one side's key alone where the other side's join keys hold one of its keys and the join
/// pads no NULLs on the first side (a SEMI or ANTI join: the left side's). Empty when none is
/// known (VALUES, UNION ALL, ...).
std::vector<std::vector<int>> upsertKeysOf(const LogicalNode& node);

/// The row kinds `node` emits, as Flink's EXPLAIN CHANGELOG_MODE prints them: `[I]` for an
/// insert-only node; a GroupAggregate `[I,UB,UA]`, without UB when it does not generate -U
/// rows and with D when its input retracts; projections and filters their input's; any other
/// updating node `[I,UB,UA,D]`.
std::string changelogKindsOf(const LogicalNode& node);

/// `plan` rebuilt so that its updates come as +U rows without the -U before them (Flink's
/// ONLY_UPDATE_AFTER), for a consumer that does not need -U: through projections down to a
/// GroupAggregate or a deduplication (isDeduplicate), which then generates no -U. With `key`
/// (columns of the plan's output; the consumer's primary key) only when the updates are upserts
/// by exactly that key: the projections keep the key columns as they are (or cast them without
/// merging values: a wider integer, a longer string) and the aggregate groups (the
/// deduplication partitions) by exactly those columns. Null when the
/// plan is insert-only or cannot drop -U (a filter on the way, another updating node, a
/// different key): the consumer then gets -U and +U.
std::shared_ptr<const LogicalNode> withoutUpdateBefore(
    const std::shared_ptr<const LogicalNode>& plan, const std::optional<std::vector<int>>& key);

}  // namespace eddy::sql

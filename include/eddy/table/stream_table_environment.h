// StreamTableEnvironment: the bridge between the DataStream API and the Table API, as Flink's
// org.apache.flink.table.api.bridge.java.StreamTableEnvironment. It is a TableEnvironment
// bound to one StreamExecutionEnvironment:
//   - fromDataStream / createTemporaryView / fromChangelogStream read a DataStream as a table;
//     its columns come from the stream's TypeInformation (an atomic type is column `f0`, a
//     tuple `f0, f1, ...`, a Row with named type information or a struct registered with
//     EDDY_STRUCT its fields by name) or from a Schema;
//   - toDataStream / toChangelogStream / toRetractStream turn a table into a DataStream<Row>
//     of the environment: the table's pipeline joins the DataStream program and runs at
//     env.execute() (or executeAndCollect()), like any other DataStream transformation;
//   - execute(), executeSql("INSERT ..."), statement sets run their own jobs, as in Flink;
//     a DataStream read by such a job is part of that job (its operators run once per job).
// The runtime mode is the environment's (EnvironmentSettings::inBatchMode() given to create
// sets the environment to BATCH); the environment's parallelism applies to table jobs unless
// 'table.exec.resource.default-parallelism' or 'parallelism.default' is set.
//
// The environment must outlive the StreamTableEnvironment, its Tables and DataStreams.
#pragma once

#include <memory>
#include <string>
#include <tuple>
#include <type_traits>

#include "eddy/datastream/data_stream.h"
#include "eddy/datastream/execution_environment.h"
#include "eddy/table/changelog_mode.h"
#include "eddy/table/schema.h"
#include "eddy/table/struct_type.h"
#include "eddy/table/table_environment.h"

namespace eddy {

namespace table_detail {

/// The Row of a record of a DataStream<T> (see the file comment for the column rules).
template <typename T>
Row toRow(const T& record) {
  if constexpr (std::is_same_v<T, Row>) {
    return record;
  } else if constexpr (IsRegisteredStruct<T>::value) {
    return StructFields<T>::toRow(record);
  } else if constexpr (IsTuple<T>::value) {
    return std::apply([](const auto&... fields) { return Row::of(Value(fields)...); }, record);
  } else if constexpr (std::is_constructible_v<Value, const T&>) {
    return Row::of(Value(record));
  } else {
    // A RAW column: its values cannot be read by the Table runtime (the planner rejects
    // such a pipeline before it runs, see StreamTableEnvironment::fromDataStream).
    return Row::of(Value());
  }
}

}  // namespace table_detail

class StreamTableEnvironment;

/// A StatementSet of a StreamTableEnvironment (Flink's StreamStatementSet): besides running
/// its inserts as a job of their own (execute()), it can attach them to the DataStream program
/// of the environment (attachAsDataStream()), to run with env.execute().
class StreamStatementSet : public StatementSet {
 public:
  StreamStatementSet& add(const TablePipeline& pipeline) {
    StatementSet::add(pipeline);
    return *this;
  }
  StreamStatementSet& addInsert(const std::string& targetPath, const Table& table) {
    StatementSet::addInsert(targetPath, table);
    return *this;
  }
  StreamStatementSet& addInsertSql(const std::string& statement) {
    StatementSet::addInsertSql(statement);
    return *this;
  }
  /// Adds the inserts' pipelines to the StreamExecutionEnvironment and empties the set; they
  /// run with the environment's next execute(). Throws TableException when the set is empty.
  void attachAsDataStream();

 private:
  friend class StreamTableEnvironment;
  explicit StreamStatementSet(StreamTableEnvironment* environment);
  StreamTableEnvironment* streamEnvironment_;
};

class StreamTableEnvironment : public TableEnvironment {
 public:
  /// A table environment for `environment`, in its runtime mode.
  static std::unique_ptr<StreamTableEnvironment> create(StreamExecutionEnvironment& environment);
  /// As create(environment); an explicit batch mode in `settings` sets the environment to
  /// BATCH, as Flink does.
  static std::unique_ptr<StreamTableEnvironment> create(StreamExecutionEnvironment& environment,
                                                        const EnvironmentSettings& settings);

  StreamTableEnvironment(StreamExecutionEnvironment& environment,
                         const EnvironmentSettings& settings);

  StreamExecutionEnvironment& getExecutionEnvironment() const { return environment_; }

  /// A statement set whose inserts can also join the DataStream program.
  StreamStatementSet createStatementSet() { return StreamStatementSet(this); }

  // --- DataStream → Table ---

  /// An insert-only table of the stream's records, columns derived from its type.
  template <typename T>
  Table fromDataStream(const DataStream<T>& stream) {
    return fromRows(rowsOf(stream), stream.getType(), nullptr, ChangelogMode::insertOnly(),
                    rawTypeNameOf<T>());
  }
  /// As fromDataStream(stream), with the columns the schema declares: physical columns (a
  /// subset of the stream's fields, in any order, with their types), computed columns
  /// (`PROCTIME()`, `CAST(...)`), the `rowtime` METADATA column (the record timestamp) and
  /// a watermark (`SOURCE_WATERMARK()` keeps the DataStream's watermarks).
  template <typename T>
  Table fromDataStream(const DataStream<T>& stream, const Schema& schema) {
    return fromRows(rowsOf(stream), stream.getType(), &schema, ChangelogMode::insertOnly(),
                    rawTypeNameOf<T>());
  }
  /// Registers fromDataStream(stream[, schema]) as the temporary view `path`.
  template <typename T>
  void createTemporaryView(const std::string& path, const DataStream<T>& stream) {
    TableEnvironment::createTemporaryView(path, fromDataStream(stream));
  }
  template <typename T>
  void createTemporaryView(const std::string& path, const DataStream<T>& stream,
                           const Schema& schema) {
    TableEnvironment::createTemporaryView(path, fromDataStream(stream, schema));
  }
  using TableEnvironment::createTemporaryView;

  /// A table of a stream of changes: each Row's kind (+I, -U, +U, -D) is kept. With
  /// ChangelogMode::upsert() the schema needs a primary key; updates and deletes are
  /// normalized per key into a retract changelog.
  Table fromChangelogStream(const DataStream<Row>& stream);
  Table fromChangelogStream(const DataStream<Row>& stream, const Schema& schema);
  Table fromChangelogStream(const DataStream<Row>& stream, const Schema& schema,
                            const ChangelogMode& mode);

  // --- Table → DataStream ---

  /// The rows of an insert-only table as a DataStream<Row> (named fields, kind +I). A single
  /// rowtime attribute becomes the records' timestamp. An updating table is an error that
  /// points to toChangelogStream.
  DataStream<Row> toDataStream(const Table& table);
  /// The rows of an insert-only table as records of a C++ type (Flink's
  /// toDataStream(table, User.class)): a struct registered with EDDY_STRUCT takes the columns
  /// of its field names (a NULL leaves the member default-initialized), an atomic type the
  /// table's only column. A field without a column of its name is an error.
  template <typename T>
  DataStream<T> toDataStream(const Table& table) {
    if constexpr (std::is_same_v<T, Row>) {
      return toDataStream(table);
    } else {
      static_assert(table_detail::IsRegisteredStruct<T>::value || std::is_constructible_v<Value, T>,
                    "toDataStream<T>: register the struct's fields with EDDY_STRUCT or use an "
                    "atomic type");
      if constexpr (table_detail::IsRegisteredStruct<T>::value) {
        checkTargetColumns(table, table_detail::structFieldNames<T>(),
                           StructFields<T>::className());
      } else {
        checkTargetColumns(table, {}, types::demangledTypeName(typeid(T)));
      }
      DataStream<Row> rows = toDataStream(table);
      const int parallelism = rows.getParallelism();
      DataStream<T> records = rows.map([](const Row& row) {
        if constexpr (table_detail::IsRegisteredStruct<T>::value) {
          return table_detail::structFromRow<T>(row);
        } else {
          return row.getField(0).isNull() ? T{} : row.template getFieldAs<T>(0);
        }
      });
      records.name("ToTargetType").setParallelism(parallelism);
      return records;
    }
  }

  /// The changelog of the table: Rows whose getKind() is +I, -U, +U or -D.
  DataStream<Row> toChangelogStream(const Table& table);
  /// As toChangelogStream(table); the schema's physical columns (names and types) must match
  /// the table's.
  DataStream<Row> toChangelogStream(const Table& table, const Schema& targetSchema);
  /// As above; with ChangelogMode::upsert() the -U rows are left out (the schema needs a
  /// primary key); insertOnly() fails for an updating table.
  DataStream<Row> toChangelogStream(const Table& table, const Schema& targetSchema,
                                    const ChangelogMode& mode);
  /// Deprecated in Flink: (true, row) for +I/+U, (false, row) for -U/-D; rows are +I.
  DataStream<std::tuple<bool, Row>> toRetractStream(const Table& table);

 private:
  friend class StreamStatementSet;
  template <typename T>
  static std::string rawTypeNameOf() {
    if constexpr (std::is_constructible_v<Value, const T&> || std::is_same_v<T, Row> ||
                  table_detail::IsRegisteredStruct<T>::value || table_detail::IsTuple<T>::value) {
      return "";
    } else {
      return types::demangledTypeName(typeid(T));
    }
  }
  template <typename T>
  static DataStream<Row> rowsOf(const DataStream<T>& stream) {
    if constexpr (std::is_same_v<T, Row>) {
      return stream;
    } else {
      DataStream<T> input = stream;
      return input.map([](const T& record) { return table_detail::toRow(record); })
          .name("ToRow")
          .setParallelism(stream.getParallelism());
    }
  }
  /// The table over `rows`; `rawTypeName` is non-empty when the records are of a C++ type the
  /// Table runtime cannot look into (its values are RAW and cannot be read).
  Table fromRows(const DataStream<Row>& rows, const TypeInformation& type, const Schema* schema,
                 const ChangelogMode& mode, const std::string& rawTypeName);
  /// Checks that the table has a column for each of `fieldNames` (an atomic target type, no
  /// names: that the table has one column).
  void checkTargetColumns(const Table& table, const std::vector<std::string>& fieldNames,
                          const std::string& typeName) const;
  /// The table's rows (with their kinds) in the environment; `upsert` drops -U rows. With
  /// `primaryKey` (the target schema's, columns of the table) the changes go through Flink's
  /// SinkUpsertMaterializer where table.exec.sink.upsert-materialize asks for it.
  DataStream<Row> toRows(const Table& table, bool upsert,
                         const std::vector<int>* primaryKey = nullptr);

  StreamExecutionEnvironment& environment_;
  int anonymousStreams_ = 0;
  int anonymousSinks_ = 0;
};

}  // namespace eddy

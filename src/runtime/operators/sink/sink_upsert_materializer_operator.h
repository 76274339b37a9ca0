// SinkUpsertMaterializerOperator: Flink's SinkUpsertMaterializer, placed before a sink with a
// PRIMARY KEY that receives an updating changelog whose upsert key is not the sink's key
// (`table.exec.sink.upsert-materialize`, AUTO by default; see docs/features.md). The changes
// of one primary key may then come from several rows of the query (a join producing two rows
// of one key, or an update moving a row from one key to another), so the sink cannot apply
// them one by one; the materializer keeps, per primary key, the list of the query's rows that
// currently hold that key, in arrival order, and tells the sink which one holds it:
//   +I / +U row: the row is added to its key's list (with an input upsert key, it replaces the
//     listed row of the same upsert key in its place) and emitted as +I when the list was
//     empty, else +U.
//   -U / -D row: the first listed row equal to it (by the input upsert key, else by every
//     column) is removed; if the list is now empty the key is deleted (-D, the retracted row);
//     if the removed row was the last one listed, the row now last is emitted as +U; otherwise
//     the sink's row does not change and nothing is emitted. A retraction of a row not listed
//     is ignored (Flink logs it; the state was cleared).
// The output therefore holds +I, +U and -D, never -U.
//
// Rows stay in the input chunks that brought them (a RowStore); per key a list of RowRefs.
// One operator per subtask, input partitioned by the primary key; called only by its task
// thread.
//
// Checkpoints (STREAMING): the lists are raw keyed state of the task's keyed backend,
// "_sink_upsert_materializer/rows" (docs/state_format.md, "Sink upsert materializer"): per
// primary key its listed rows in arrival order, each row's columns as Values, so a snapshot is
// written by key group and a restore at another parallelism reads the keys of its key groups.
// A restore (in open(), before any record) stages the rows of all its key groups, moves them
// into the store as fresh chunks and lists them under their keys again; the match hashes are
// recomputed. Bytes that do not decode throw InternalError naming the state, the operator and
// the key group. Nothing is buffered between batches, so there is nothing to flush before a
// barrier. Like Flink's, the operator keeps no watermark or timer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_ref_output_queue.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

struct SinkUpsertMaterializerSpec {
  LogicalTypePtr rowType;
  /// The sink's primary key columns: the rows of one key are materialized together.
  std::vector<int> primaryKey;
  /// The input's upsert key (the smallest one), by which a row replaces or retracts a listed
  /// row; empty: rows are matched by all their columns.
  std::vector<int> upsertKey;
};

class SinkUpsertMaterializerOperator final : public StreamOperator {
 public:
  explicit SinkUpsertMaterializerOperator(std::shared_ptr<const SinkUpsertMaterializerSpec> spec);
  /// STREAMING: registers the listed rows as raw keyed state, restoring those of the
  /// subtask's key groups (see the file comment).
  void open(OperatorContext& context) override;
  void processBatch(int inputIndex, BatchPtr batch) override;

  /// The rows listed over all keys; for tests.
  int64_t storedRows() const { return store_.keptRows(); }

  /// The name of the raw keyed state holding the listed rows (see the file comment).
  static constexpr const char* kRowsStateName = "_sink_upsert_materializer/rows";

 private:
  struct Listed {
    RowRef row;
    uint64_t hash = 0;  // of the matched columns
  };
  struct KeyState {
    std::string bytes;
    std::vector<Listed> rows;  // in arrival order
  };

  void processRow(int32_t segment, int64_t row);
  /// The position in `rows` of the first row whose matched columns encode as matchBytes_ did
  /// (hash `hash`), or -1.
  int64_t findFirst(const std::vector<Listed>& rows, uint64_t hash);
  void compactIfSparse();

  /// The listed rows as raw keyed state: written from and restored into keys_ and store_.
  class ListedRowsState final : public state::RawKeyedState {
   public:
    explicit ListedRowsState(SinkUpsertMaterializerOperator* materializer)
        : materializer_(materializer) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    SinkUpsertMaterializerOperator* materializer_;
  };
  /// Checkpoints: appends the listed rows of the keys of `range`'s key groups to their block
  /// bodies (docs/state_format.md).
  void snapshotListedRows(KeyGroupRange range, int maxParallelism,
                          std::vector<std::string>& bodies);
  /// Checkpoints: stages the rows of one block body (all of it or, when it does not decode,
  /// nothing: InternalError naming the state), and lists them unless open() is restoring.
  void restoreListedRows(int keyGroup, std::string_view body);
  /// Checkpoints: moves the staged rows into the store and appends them to their keys' lists.
  void listRestoredRows();

  std::shared_ptr<const SinkUpsertMaterializerSpec> spec_;
  std::vector<int> matchColumns_;
  RowStore store_;
  KeyTable<KeyState> keys_;
  std::string keyBytes_, matchBytes_, listedBytes_;
  RowRefOutputQueue pending_;  // the output of the current batch

  // Checkpoints: the raw keyed state, and the rows restored in open() (with each row's key)
  // before they are listed.
  ListedRowsState rowsState_{this};
  RestoredRowChunk restoredRows_;
  std::vector<std::string> restoredKeys_;
  bool restoringInOpen_ = false;
};

}  // namespace eddy::runtime::operators

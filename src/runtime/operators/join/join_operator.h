// JoinOperator: the regular (unwindowed) JOIN of two chunk streams, in both runtime modes, as
// Flink's StreamingJoinOperator (STREAMING) and its batch hash join (BATCH).
//
// Input 0 is the LEFT side, input 1 the RIGHT side (DataStream::transformTwoInput). A pair of
// rows joins when their equi-join keys are equal (a key holding a NULL never matches) and the
// residual condition, evaluated over the joined row, is TRUE. A joined row is the left row's
// columns followed by the right row's, whichever side arrived last; the outer side's rows
// without a partner are padded with NULLs for the other side's columns.
//
// STREAMING: both inputs may carry +I/-U/+U/-D and are partitioned by their key columns, so
// matching rows always meet here. Without equi keys every row is stored under the empty key,
// whose key group only a subtask owning all key groups has: such a join runs at parallelism 1. Each
// side keeps its rows in keyed state under the equi-key bytes, as distinct rows with a multiplicity
// and, for an outer side, the number of rows of the other side each one currently matches (its
// associations; a row with none is visible downstream null-padded). An input row is matched
// against the other side's stored rows and emitted as Flink emits it: a joined row is +I (or
// the input's +U) for an accumulating input and -D (or the input's -U) for a retracting one;
// the input kind is forwarded only where Flink forwards it (the input side is not outer, and,
// when accumulating, neither is the other side). The null-padded row of an outer row is
// retracted (-D) when its first partner arrives and re-inserted (+I) when its last partner
// leaves.
//
// BATCH: both inputs are insert-only and bounded. Chunks are buffered; at finish() a hash table
// is built on the right input and probed with the left input in arrival order, each left row
// emitting its matches in right-side arrival order (or, for LEFT/FULL, its null-padded row
// right after, when it has none), followed, for RIGHT/FULL, by the unmatched right rows in
// arrival order. Output rows are +I, in chunks of at most kDefaultBatchSize rows.
//
// Threading and ownership: one JoinOperator per subtask, called only by its task thread (see
// StreamOperator). The JoinSpec is the shared immutable definition; the operator owns its
// state backend and buffers.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/state.h"
#include "eddy/types/value.h"
#include "expression/bound_expression.h"
#include "expression/expression_evaluator.h"
#include "function/kernel_vector.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

enum class JoinType { INNER, LEFT, RIGHT, FULL };

/// Flink's EXPLAIN names: "InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin".
std::string joinTypeName(JoinType type);

/// Whether input `side` (0 left, 1 right) of a `type` join is an outer side: its rows without
/// a partner are emitted padded with NULLs.
bool isOuterSide(JoinType type, int side);

/// Sets `columns[i]` for every column `expression` reads (the residual condition's columns,
/// which the joins gather from both sides before evaluating it).
void markReadColumns(const expression::BoundExpression& expression, std::vector<bool>& columns);

/// Whether row `row` of `chunk` has a NULL in one of `keyColumns` (such a key matches nothing).
bool keyHasNull(const vector::Chunk& chunk, const std::vector<int>& keyColumns, int64_t row);

/// Checks (EDDY_CHECK) that `column` of `rowType` is a time the joins read as epoch
/// milliseconds: a TIMESTAMP / TIMESTAMP_LTZ or a BIGINT.
void checkTimeColumn(const LogicalTypePtr& rowType, int column);

/// The definition of one regular join (built by the planner, shared by all subtasks).
struct JoinSpec {
  JoinType joinType = JoinType::INNER;
  LogicalTypePtr leftRowType;   // ROW<...> of input 0
  LogicalTypePtr rightRowType;  // ROW<...> of input 1
  std::vector<int> leftKeys;    // equi-join key columns of the left input ...
  std::vector<int> rightKeys;   // ... and of the right input, pairwise of identical types (may
                                // both be empty: no equi keys)
  /// Optional residual (non-equi) condition over the joined row: columns 0..L-1 are the left
  /// row's, L..L+R-1 the right row's. nullptr = none. A pair joins when the keys are equal (a
  /// NULL key never matches) AND the condition is TRUE.
  expression::ExpressionPtr condition;
  LogicalTypePtr outputRowType;  // left fields then right fields (the padded side's fields
                                 // nullable for outer joins)
  /// table.exec.state.ttl (ms; 0: never): a key's stored rows of one side expire when that
  /// side's rows of the key were not written for this long (processing time). Flink expires
  /// each row on its own; here the rows of a key and side expire together.
  int64_t stateTtlMillis = 0;
  /// Whether input 0 / 1 is insert-only: its rows are then never retracted, so a new row is
  /// stored as a record of its own without looking for an equal one (which made a key with n
  /// rows cost O(n²)); equal rows simply stay separate records of count 1.
  bool insertOnlyInput[2] = {false, false};
};

/// One distinct row of one join input in STREAMING keyed state. A key's state is the list of
/// its distinct rows in first-arrival order.
///
/// Byte format (TypeSerializer<JoinRecord>, part of checkpoints): the fields as
/// TypeSerializer<std::vector<Value>> (varint count, then each Value), then `count` and
/// `associations` as TypeSerializer<int64_t>. The states are named "left-records" and
/// "right-records" (Flink's names).
struct JoinRecord {
  std::vector<Value> fields;
  /// How many times the row is present (its multiplicity).
  int64_t count = 0;
  /// Outer side only: the number of rows of the other side that currently match this row
  /// (multiplicities included); 0 means its null-padded row is what downstream sees.
  int64_t associations = 0;

  bool operator==(const JoinRecord& other) const = default;
};

/// The regular join of input 0 (left) and input 1 (right); see the file comment.
class JoinOperator final : public StreamOperator {
 public:
  explicit JoinOperator(std::shared_ptr<const JoinSpec> spec);
  ~JoinOperator() override;

  void open(OperatorContext& context) override;
  /// `inputIndex` 0 is the left input, 1 the right input.
  void processBatch(int inputIndex, BatchPtr batch) override;
  void finish() override;

 private:
  using RecordState = ValueState<std::vector<JoinRecord>>;

  /// Where the rows of a joined chunk come from: row i's left half is row leftPositionOf[i]
  /// of left source chunk leftSourceOf[i] (NULLs where leftSourceOf[i] is -1; see
  /// setSources), likewise its right half; its kind is kinds[i].
  struct JoinedRows {
    std::vector<int32_t> leftSourceOf;
    std::vector<int32_t> leftPositionOf;
    std::vector<int32_t> rightSourceOf;
    std::vector<int32_t> rightPositionOf;
    std::vector<RowKind> kinds;

    int64_t size() const { return static_cast<int64_t>(kinds.size()); }
    void add(RowKind kind, int32_t leftSource, int32_t leftPosition, int32_t rightSource,
             int32_t rightPosition);
    void clear();
  };

  bool isOuter(int side) const;
  void processChunkInStreamingMode(int inputSide, const vector::Chunk& input);
  void finishInBatchMode();
  /// Makes `chunks` the source chunks of `side` (0 left, 1 right) that JoinedRows point into.
  /// The chunks must stay alive and unchanged until the sources are set again.
  void setSources(int side, const std::vector<const vector::Chunk*>& chunks);
  /// For every candidate pair of `candidates`, whether the residual condition holds (all true
  /// without a condition). Evaluated once over all pairs.
  std::vector<uint8_t> evaluateCondition(const JoinedRows& candidates) const;
  /// The joined chunk described by `rows` over the current sources. With `onlyConditionColumns`
  /// only the columns the condition reads are filled (the others stay empty).
  vector::Chunk assemble(const JoinedRows& rows, bool onlyConditionColumns) const;
  /// Queues one output row; emits a chunk when kDefaultBatchSize rows are queued.
  void appendOutput(RowKind kind, int32_t leftSource, int32_t leftPosition, int32_t rightSource,
                    int32_t rightPosition);
  /// Emits the queued output rows (to be called before the current sources change).
  void flushOutput();

  std::shared_ptr<const JoinSpec> spec_;
  expression::ExpressionEvaluator evaluator_;
  int leftColumnCount_ = 0;
  int rightColumnCount_ = 0;
  std::vector<bool> conditionColumns_;  // joined columns the condition reads
  bool batchMode_ = false;

  // The source chunks of each side (see setSources), as borrowed views per column:
  // sourceViews_[side][column][source], and pointers to them for KernelVector::interleave.
  std::vector<std::vector<function::KernelVector>> sourceViews_[2];
  std::vector<std::vector<const function::KernelVector*>> sourcePointers_[2];
  JoinedRows pendingOutput_;

  // STREAMING
  std::unique_ptr<HeapKeyedStateBackend> stateBackend_;
  RecordState* recordState_[2] = {nullptr, nullptr};  // left, right
  std::string keyBytes_;

  // BATCH: the inputs as they arrived.
  std::vector<vector::Chunk> bufferedChunks_[2];  // left, right
};

}  // namespace eddy::runtime::operators

namespace eddy {

template <>
struct TypeSerializer<runtime::operators::JoinRecord> {
  static void serialize(const runtime::operators::JoinRecord& record, std::string& out);
  static runtime::operators::JoinRecord deserialize(std::string_view& in);
};

}  // namespace eddy

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
// matching rows always meet here. Without equi keys every row is stored under the empty key
// (the planner runs such a join at parallelism 1). Each side keeps its rows under the equi-key
// bytes, as rows with a multiplicity and, for an outer side, the number of rows of the other
// side each one currently matches (its associations; a row with none is visible downstream
// null-padded). A side whose input retracts keeps distinct rows (a retraction finds its row by
// its fields); an insert-only side keeps every row as it came. An input row is matched
// against the other side's stored rows and emitted as Flink emits it: a joined row is +I (or
// the input's +U) for an accumulating input and -D (or the input's -U) for a retracting one;
// the input kind is forwarded only where Flink forwards it (the input side is not outer, and,
// when accumulating, neither is the other side). The null-padded row of an outer row is
// retracted (-D) when its first partner arrives and re-inserted (+I) when its last partner
// leaves. SEMI and ANTI joins (Flink's StreamingSemiAntiJoinOperator) emit left rows only: a
// left row with its own kind when it has partners (SEMI) or none (ANTI); a right row that
// gives a left row its first partner emits it with the right row's kind (SEMI: +I or +U) or
// -D (ANTI), one that takes its last partner away with the right row's kind (SEMI: -D or -U)
// or +I (ANTI).
//
// BATCH: both inputs are insert-only and bounded. Chunks are buffered; at finish() the rows of
// equal keys meet in one of two ways (JoinSpec::batchAlgorithm; AUTO picks by the inputs'
// sizes). HASH: a hash table is built
// on the right input and probed with the left input in arrival order, each left row emitting
// its matches in right-side arrival order (or, for LEFT/FULL, its null-padded row right
// after, when it has none; SEMI: the left row once if it has a match, ANTI: if it has none),
// followed, for RIGHT/FULL, by the unmatched right rows in arrival order. SORT_MERGE: both
// sides are sorted by their key bytes (RowSorter) and merged: the rows with a NULL key first
// (they join nothing), then the keys in byte order, each left row of a key with the right rows
// of that key in arrival order, a right row that joined nothing after its key's left rows.
// Output rows are +I, in chunks of at most kDefaultBatchSize rows.
//
// State (both modes): a RowStore per side holds the input chunks as they arrived, and a stored
// row is a RowRef into them (row_store.h): storing a row copies nothing and no row becomes a
// Value; output rows are gathered a column at a time. STREAMING keeps, per equi key (a
// KeyTable), the list of each side's stored rows in first-arrival order.
//
// State TTL (STREAMING, JoinSpec::stateTtlMillis): a key side idle for the TTL is released when
// the key is next seen, and in the background by an incremental cleanup as the heap state
// backend's (Flink's default for the join's TTL state): each input chunk first advances a
// cursor over the key slots by kTtlCleanupKeysPerRow per row, releasing the idle sides of the
// keys it passes and removing keys left without rows, so the keys and the RowStore chunks of
// keys never seen again are freed (RowStore::freeEmpty, compact) although no row finds them.
// Output is the same as without it: a side the cursor releases is one its next row would.
//
// Checkpoints (STREAMING): each side's stored rows are raw keyed state of the task's keyed state
// backend (OperatorContext::keyedStateBackend, registered in open()), "_join/left-rows" and
// "_join/right-rows", so every snapshot of the backend holds them by key group (the key group
// of the equi key bytes, as the exchange routes them; the empty key without equi keys) and a
// restore at another parallelism reads exactly the keys of its key groups. Per key, the side's
// rows in first-arrival order, each with its multiplicity, for an outer side (and SEMI/ANTI's
// left side) its number of associations, and with a state TTL the key side's last write
// (docs/state_format.md, "Regular join"), so padded rows are retracted and re-inserted after a
// restore exactly as without one, and expiry goes on from the original writes (rows already
// expired at the snapshot are left out). A restore (in open(), before any record) appends the
// rows of its key groups to the stores as fresh chunks; the row hashes a retracting side finds
// rows by are recomputed. Bytes that do not decode throw InternalError naming the state, the
// operator and the key group. The watermark that CURRENT_WATERMARK in the condition reads is
// written too, as union operator list state "_join/watermark" (the lowest of the old
// subtasks' values comes back). BATCH keeps nothing across a checkpoint and registers no state.
//
// Threading and ownership: one JoinOperator per subtask, called only by its task thread (see
// StreamOperator). The JoinSpec is the shared immutable definition; the operator owns its
// state and buffers.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eddy/runtime/stream_operator.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state_backend.h"
#include "expression/bound_expression.h"
#include "relational/join_type.h"
#include "runtime/operators/join/join_condition.h"
#include "runtime/operators/stored_rows/joined_row_emitter.h"
#include "runtime/operators/stored_rows/key_table.h"
#include "runtime/operators/stored_rows/row_store.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk.h"

namespace eddy::runtime::operators {

/// Whether row `row` of `chunk` has a NULL in one of `keyColumns` (such a key matches nothing).
bool keyHasNull(const vector::Chunk& chunk, const std::vector<int>& keyColumns, int64_t row);

/// How a BATCH join meets the rows of equal keys: a hash table built on the right input and
/// probed with the left input (Flink's HashJoin), both inputs sorted by their keys and merged
/// (Flink's SortMergeJoin), or (AUTO) whichever of the two suits the inputs' sizes, decided
/// per subtask once both inputs are complete: sort-merge when the right input has at least
/// kSortMergeMinimumBuildRows rows and at least a quarter as many as the left one (a hash
/// table that large misses the caches on most probes; bench/batch_sort_join), else hash.
enum class BatchJoinAlgorithm { AUTO, HASH, SORT_MERGE };

/// AUTO's smallest right input for the sort-merge join.
inline constexpr int64_t kSortMergeMinimumBuildRows = 256 * 1024;

struct JoinSpec;
/// Whether a join of `spec` can sort and merge: it has equi keys and none is of a nested type
/// (ARRAY, MAP, ROW, MULTISET, RAW: equal or not, but without an order); else it hashes,
/// whatever its batchAlgorithm says.
bool keysSortable(const JoinSpec& spec);

/// The operator's name in EXPLAIN: Flink's "HashJoin" and "SortMergeJoin"; AUTO, decided at
/// run time, "Join" (as the STREAMING join).
std::string batchJoinAlgorithmName(BatchJoinAlgorithm algorithm);

/// Checks (EDDY_CHECK) that the equi-join keys `leftKeys` of `leftRowType` and `rightKeys` of
/// `rightRowType` pair up and give equal key bytes for equal values (the same physical layout,
/// a DECIMAL the same scale).
void checkJoinKeyTypes(const LogicalTypePtr& leftRowType, const std::vector<int>& leftKeys,
                       const LogicalTypePtr& rightRowType, const std::vector<int>& rightKeys);

/// Checks (EDDY_CHECK) that `column` of `rowType` is a time the joins read as epoch
/// milliseconds: a TIMESTAMP / TIMESTAMP_LTZ or a BIGINT.
void checkTimeColumn(const LogicalTypePtr& rowType, int column);

/// The definition of one regular join (built by the planner, shared by all subtasks).
struct JoinSpec {
  relational::JoinType joinType = relational::JoinType::INNER;
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
                                 // nullable for outer joins); SEMI/ANTI: the left fields
  /// table.exec.state.ttl (ms; 0: never): a key's stored rows of one side expire when that
  /// side's rows of the key were not written (added, retracted or, for an outer side, their
  /// associations changed) for this long (processing time). Flink expires each row on its
  /// own; here the rows of a key and side expire together. Expired rows are released in the
  /// background too (see the file comment), so state holds about one TTL's worth of keys.
  int64_t stateTtlMillis = 0;
  /// Whether input 0 / 1 is insert-only: its rows are then never retracted, so a new row is
  /// stored as a record of its own without looking for an equal one (which made a key with n
  /// rows cost O(n²)); equal rows simply stay separate records of count 1.
  bool insertOnlyInput[2] = {false, false};
  /// BATCH: how rows of equal keys meet (see BatchJoinAlgorithm; a join without equi keys
  /// always hashes: every pair is a candidate). Ignored in STREAMING.
  BatchJoinAlgorithm batchAlgorithm = BatchJoinAlgorithm::AUTO;
};

/// The regular join of input 0 (left) and input 1 (right); see the file comment.
class JoinOperator final : public StreamOperator {
 public:
  explicit JoinOperator(std::shared_ptr<const JoinSpec> spec);
  ~JoinOperator() override;

  void open(OperatorContext& context) override;
  /// `inputIndex` 0 is the left input, 1 the right input.
  void processBatch(int inputIndex, BatchPtr batch) override;
  /// Keeps the watermark for CURRENT_WATERMARK in its expressions, then forwards it.
  void processWatermark(Watermark watermark) override;
  void finish() override;
  /// Writes the watermark into its operator list state (the stored rows are written by the
  /// keyed state backend, see the file comment).
  void snapshotState(StateSnapshotContext& context) override;

  /// The names of the raw keyed states holding each side's stored rows (see the file comment).
  static constexpr const char* kLeftRowsStateName = "_join/left-rows";
  static constexpr const char* kRightRowsStateName = "_join/right-rows";
  /// The union operator list state holding each subtask's watermark.
  static constexpr const char* kWatermarkStateName = "_join/watermark";

  /// The rows kept in state (STREAMING), both sides; for tests.
  int64_t storedRows() const { return stores_[0].keptRows() + stores_[1].keptRows(); }
  /// The rows of the chunks held to keep them (kept ones and the others of their chunks).
  int64_t heldRows() const { return stores_[0].heldRows() + stores_[1].heldRows(); }
  /// The equi keys with stored rows (STREAMING), idle ones not yet released included; for tests.
  size_t keysInState() const { return keys_.size(); }

  /// With a state TTL, the key slots the incremental cleanup visits per input row (Flink's
  /// default incremental cleanup size of its heap backend).
  static constexpr int64_t kTtlCleanupKeysPerRow = 5;

 private:
  /// A stored row of one side under one key: where it is, how many times it is present (its
  /// multiplicity), for an outer side the number of rows of the other side that currently
  /// match it (multiplicities included; 0 means its null-padded row is what downstream sees),
  /// and for a side that retracts the hash of its fields (to find it again).
  struct StoredRow {
    RowRef row;
    int64_t count = 0;
    int64_t associations = 0;
    uint64_t hash = 0;
  };
  struct KeyState {
    std::string bytes;
    std::vector<StoredRow> rows[2];       // left, right; in first-arrival order
    int64_t lastWrite[2] = {0, 0};        // processing time, for the state TTL
    // The chunk serial that last read the key; kRestoredKey for a key only restored so far,
    // 0 for a free slot (KeyTable resets a removed key's state), which the TTL cleanup skips.
    uint64_t touchedBy = 0;
  };
  static constexpr uint64_t kRestoredKey = std::numeric_limits<uint64_t>::max();

  /// BATCH: left rows (in order) to probe, probe row i's candidate pairs being candidates
  /// [firstCandidateOfRow[i], firstCandidateOfRow[i + 1] or the end), candidate c pairing it
  /// with the right row numbered rightOfCandidate[c] (in the algorithm's numbering of right
  /// rows). Filled a probe row at a time while it has room (under
  /// kMaxCandidatesPerEvaluation candidates; a single row's candidates are never split).
  struct ProbeWindow {
    std::vector<RowRef> probeRows;
    JoinedRowRefs candidates;
    std::vector<int64_t> firstCandidateOfRow;
    std::vector<int32_t> rightOfCandidate;
    void clear();
    bool hasRoom() const;
    void addProbeRow(RowRef row);
    /// A candidate pair of the last probe row added and right row `right` (numbered
    /// `rightNumber`).
    void addCandidate(RowRef right, int32_t rightNumber);
  };

  /// One side's stored rows as raw keyed state (see the file comment): written from and
  /// restored into the operator's keys_ and stores_.
  class StoredRowsState final : public state::RawKeyedState {
   public:
    StoredRowsState(JoinOperator* join, int side) : join_(join), side_(side) {}
    void snapshotKeyGroups(KeyGroupRange range, int maxParallelism,
                           std::vector<std::string>& bodies) const override;
    std::unique_ptr<state::FrozenKeyGroups> freezeKeyGroups(KeyGroupRange range,
                                                            int maxParallelism) const override;
    void restoreKeyGroup(int keyGroup, std::string_view body) override;

   private:
    JoinOperator* join_;
    int side_;
  };

  /// Rows of one side decoded from a snapshot and not yet in the store: their values, and per
  /// row its key, multiplicity, associations and last write (kNoLastWrite: not written).
  struct RestoredRows {
    static constexpr int64_t kNoLastWrite = std::numeric_limits<int64_t>::min();
    std::optional<RestoredRowChunk> chunk;
    std::vector<std::string> keys;
    std::vector<int64_t> counts;
    std::vector<int64_t> associations;
    std::vector<int64_t> lastWrites;
    size_t size() const { return counts.size(); }
    void truncate(size_t size);
  };

  bool isOuter(int side) const;
  /// Checkpoints: the name of `side`'s raw keyed state.
  static const char* rowsStateName(int side);
  /// Checkpoints: `side`'s stored rows of the keys of `range`'s key groups as they are now, to
  /// be written into their block bodies (docs/state_format.md) now or on the async writer,
  /// leaving out key sides the state TTL has expired.
  std::unique_ptr<FrozenStoredRows> freezeStoredRows(int side, KeyGroupRange range,
                                                     int maxParallelism) const;
  /// Checkpoints: decodes the block body of `side`'s rows of `keyGroup` into restored_[side]
  /// (all of it or, when it does not decode, nothing: InternalError naming the state), and
  /// stores them unless open() is still restoring.
  void restoreStoredRows(int side, int keyGroup, std::string_view body);
  /// Checkpoints: decodes one block body into `rows` (throws on bytes that do not decode).
  void decodeStoredRows(int side, int keyGroup, std::string_view body, RestoredRows& rows) const;
  /// Checkpoints: adds restored_[side]'s rows to the store, in chunks of at most
  /// kDefaultBatchSize rows, under their keys, after the rows the keys already have.
  void storeRestoredRows(int side);
  void processChunkInStreamingMode(int inputSide, vector::Chunk chunk);
  /// STREAMING: the key slot of every row of `input` (-1: a NULL in its key), added where
  /// missing; appends the keys first touched by this chunk to `touched`, with the rows of
  /// theirs the state TTL expired released.
  std::vector<int32_t> findKeysInStreamingMode(int inputSide, const vector::Chunk& input,
                                               int64_t now, std::vector<int32_t>& touched);
  /// STREAMING: the candidate pairs of the rows of input chunk `slot` from `windowBegin` on
  /// (each row with every stored row of the other side under its key, in stored order), as
  /// many rows as fit under kMaxCandidatesPerEvaluation pairs (one at least); returns the end
  /// of those rows. Row i's pairs start at firstCandidateOfRow[i - windowBegin].
  int64_t collectCandidatesInStreamingMode(int inputSide, int32_t slot, int64_t windowBegin,
                                           const std::vector<int32_t>& keyOfRow,
                                           JoinedRowRefs& candidates,
                                           std::vector<int64_t>& firstCandidateOfRow) const;
  /// STREAMING: one input row of key `keyIndex` (-1: none) that matches the other side's rows
  /// `matchedRows` (indexes into its key's rows; `matchCount` with multiplicities): emits what
  /// it changes downstream and updates the state, as the file comment of the header says.
  void processRowInStreamingMode(int inputSide, RowRef inputRow, int32_t keyIndex,
                                 const std::vector<size_t>& matchedRows, int64_t matchCount,
                                 int64_t now);
  /// SEMI/ANTI: the left rows whose visibility the input row changes.
  void emitLeftOnlyInStreamingMode(int inputSide, RowRef inputRow, RowKind kind, KeyState* key,
                                   const std::vector<size_t>& matchedRows, int64_t now);
  /// The other joins: the joined (or padded) rows of the input row, and the padded rows of the
  /// other side that appear or disappear with it.
  void emitJoinedInStreamingMode(int inputSide, RowRef inputRow, RowKind kind, KeyState* key,
                                 const std::vector<size_t>& matchedRows, int64_t now);
  /// Stores an accumulating input row under its key (merged with an equal one when the input
  /// retracts) / takes a retracted one away.
  void storeRowInStreamingMode(int inputSide, RowRef inputRow, KeyState& key, int64_t matchCount,
                               int64_t now);
  void removeRowInStreamingMode(int inputSide, RowRef inputRow, KeyState& key, int64_t now);
  /// Queues an output row of `inputRow` (of `inputSide`) and `otherRow` (of the other side);
  /// either may be RowRef{} (NULLs).
  void emitInStreamingMode(int inputSide, RowKind kind, RowRef inputRow, RowRef otherRow) {
    if (inputSide == 0) {
      emitter_.append(kind, inputRow, otherRow, output());
    } else {
      emitter_.append(kind, otherRow, inputRow, output());
    }
  }
  void finishInBatchMode();
  void hashJoinInBatchMode();
  void sortMergeJoinInBatchMode();
  /// BATCH: evaluates the condition over the window's candidates and emits each probe row's
  /// result as the join type says; sets rightMatched[n] for the right rows n that joined.
  void emitProbedRowsInBatchMode(const ProbeWindow& window, std::vector<uint8_t>& rightMatched);
  /// BATCH: emits row `row` of `side` (0 left, 1 right) that joined nothing, as the join type
  /// says (null-padded for an outer side, itself for ANTI's left side, else nothing).
  void emitUnmatchedInBatchMode(int side, RowRef row);
  /// Releases the rows of `side` of `key` when the state TTL has passed since they were written.
  void expireIfIdle(KeyState& key, int side, int64_t now);
  /// State TTL: visits the next `visits` key slots of the cleanup cursor (at most every slot
  /// once), releasing their idle sides and removing the keys left without rows. Called before
  /// a chunk is processed, when no output is queued and no key index is held.
  void expireIdleKeysIncrementally(int64_t visits, int64_t now);
  /// The hash of all fields of row `row` of `chunk` (of `side`'s row type); leaves the row's
  /// encoding in rowBytes_ for findEqual.
  uint64_t hashRow(int side, const vector::Chunk& chunk, int64_t row);
  /// The stored row of `side` in `rows` equal to the row hashRow encoded last (whose hash is
  /// `hash`), or rows.end().
  std::vector<StoredRow>::iterator findEqual(int side, std::vector<StoredRow>& rows,
                                             uint64_t hash);
  /// Compacts the stores that hold mostly released rows (STREAMING, no output queued).
  void compactIfSparse();
  std::shared_ptr<const JoinSpec> spec_;
  JoinCondition condition_;
  int leftColumnCount_ = 0;
  int rightColumnCount_ = 0;
  std::vector<int> allColumns_[2];      // 0..n-1 of each side, to encode a whole row
  bool batchMode_ = false;

  RowStore stores_[2];  // left, right: STREAMING's stored rows; BATCH's buffered chunks
  JoinedRowEmitter emitter_;

  // STREAMING
  KeyTable<KeyState> keys_;
  uint64_t chunkSerial_ = 0;
  // State TTL cleanup: the key slots ever used (KeyTable hands out 0.. densely, reusing freed
  // ones) and the cursor over them.
  int32_t keySlotCount_ = 0;
  int32_t ttlCleanupCursor_ = 0;
  std::string keyBytes_;
  std::string rowBytes_;
  std::string storedRowBytes_;

  // BATCH: the slots of the inputs' chunks, in arrival order.
  std::vector<int32_t> batchSlots_[2];  // left, right

  // Checkpoints (STREAMING): each side's raw keyed state, the rows restored in open() before
  // they are stored (gathered over all key groups into chunks of up to kDefaultBatchSize
  // rows), and the watermark CURRENT_WATERMARK reads.
  StoredRowsState rowsStates_[2] = {StoredRowsState(this, 0), StoredRowsState(this, 1)};
  RestoredRows restored_[2];
  bool restoringInOpen_ = false;
  int64_t currentWatermark_ = Watermark::kMin;
  ListState<int64_t>* watermarkState_ = nullptr;
};

}  // namespace eddy::runtime::operators

// The connector SPI, sink half: Flink's Sink V2 (FLIP-143, FLIP-191, FLIP-372;
// org.apache.flink.api.connector.sink2), the shape of every sink that writes to an outside
// system and, with checkpointing, writes exactly once. A sink is
// - a Sink<InputT>: the immutable definition, shared by the job's threads, that creates one
//   SinkWriter per parallel subtask (createWriter);
// - a SinkWriter: writes the subtask's records (write), hands what it buffers on (flush(false))
//   at every checkpoint and at the end of input (flush(true));
// - with SupportsCommitter<CommT>: the writer is a CommittingSinkWriter whose prepareCommit(),
//   called at every checkpoint after the flush, returns committables (Flink's committables: a
//   file to rename, a transaction to commit) for what it wrote since the last one, and the sink
//   creates a Committer that commits them (commit(requests)) once their checkpoint has
//   completed. A committable is serialized with the sink's SimpleVersionedSerializer into the
//   checkpoint until it is committed, and committed again after a restore: commit must be
//   idempotent (committing what was committed already succeeds, or signals
//   signalAlreadyCommitted);
// - with SupportsWriterState<InputT, WriterStateT>: the writer is a StatefulSinkWriter whose
//   snapshotState(checkpointId) returns its state (what it must know after a failure: the names
//   it writes under, a transaction id prefix), serialized into every checkpoint and given to
//   restoreWriter on a restore.
// Flink's global committer and pre/post-commit topologies (SupportsPreCommitTopology, ...) are
// not part of this shape; nor is TwoPhaseCommittingSink/StatefulSink (Flink 1.x's names for the
// same two mixins).
//
// How eddy runs it (SinkWriterOperator, at the end of this file): eddy has no separate
// committer operator; one operator per sink subtask runs the writer and the committer:
// - STREAMING with checkpointing: prepareSnapshotPreBarrier(n) flushes the writer and takes its
//   committables, now pending for checkpoint n; snapshotState(n) writes the writer's state and
//   every committable not yet committed (of n and of earlier checkpoints whose commit was not
//   done or asked to be retried) into even-split operator list state; notifyCheckpointComplete(n)
//   commits the committables of checkpoints <= n (an aborted checkpoint's wait for the next
//   completion). After the end of input (finish: flush(true), the last prepareCommit) the
//   operator needs the final checkpoint (needsFinalCheckpoint, Flink's FLIP-147): the last
//   committables go into its snapshot and are committed when it completes.
// - A restore: the committables in the restored state are committed at once, in
//   initializeState (as Flink's CommitterOperator); the writer is created with restoreWriter
//   from the writer states this subtask got. Both lists are even-split list state (Flink's
//   SinkWriterOperator keeps its writer state so): at the same parallelism a subtask gets its
//   own elements back; at another one every element goes to exactly one new subtask, so every
//   committable is committed again by exactly one subtask, which may not be the one whose
//   writer state names the same files (a writer must not remove files a committable names).
//   Chosen over union list state because nothing here needs every subtask to see every
//   element. The bytes are in docs/state_format.md "Sinks (Sink V2)".
// - STREAMING without checkpointing, and BATCH: everything is committed at the end of input
//   (finish), as the SQL filesystem sink does; a committable the committer asks to retry is
//   retried a few times, then the job fails.
// - Records reach the writer a batch at a time (writeBatch: one virtual call per batch; its
//   default calls write per record); watermarks reach it through writeWatermark.
// All calls on a writer and a committer come from the subtask's task thread, in the order the
// StreamOperator contract gives: createWriter/restoreWriter and createCommitter in
// initializeState (or open), then writes, flushes, prepareCommit, snapshotState, commits, and
// close (always, also after a failure).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/connector/source.h"
#include "eddy/datastream/runtime_execution_mode.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "eddy/runtime/stream_operator.h"
#include "eddy/state/operator_state_store.h"

namespace eddy::connector {

// ---- Contexts -----------------------------------------------------------------------------

/// What a writer or a committer knows about where it runs (Flink's InitContext, the base of
/// WriterInitContext and CommitterInitContext). Valid during the create call only.
class InitContext {
 public:
  InitContext(int subtaskId, int numberOfParallelSubtasks,
              std::optional<int64_t> restoredCheckpointId, std::string operatorName,
              runtime::ProcessingTimeService* processingTimeService = nullptr)
      : subtaskId_(subtaskId),
        numberOfParallelSubtasks_(numberOfParallelSubtasks),
        restoredCheckpointId_(restoredCheckpointId),
        operatorName_(std::move(operatorName)),
        processingTimeService_(processingTimeService) {}
  int getSubtaskId() const { return subtaskId_; }
  int getNumberOfParallelSubtasks() const { return numberOfParallelSubtasks_; }
  /// The checkpoint the subtask's sink state was restored from; nullopt on a fresh start, and
  /// for a subtask that got no sink state (a new one, restored at a higher parallelism).
  std::optional<int64_t> getRestoredCheckpointId() const { return restoredCheckpointId_; }
  /// The sink operator's name ("Sink: Writer"), for messages.
  const std::string& getOperatorName() const { return operatorName_; }
  /// The subtask's timers (Flink's WriterInitContext#getProcessingTimeService): a callback
  /// registered on it runs on the task thread, between the writer's other calls. Null where
  /// the writer runs outside a job (tests).
  runtime::ProcessingTimeService* getProcessingTimeService() const {
    return processingTimeService_;
  }

 private:
  int subtaskId_;
  int numberOfParallelSubtasks_;
  std::optional<int64_t> restoredCheckpointId_;
  std::string operatorName_;
  runtime::ProcessingTimeService* processingTimeService_;
};
using WriterInitContext = InitContext;
using CommitterInitContext = InitContext;

/// What a writer knows about the record it writes (Flink's SinkWriter.Context). Set by the
/// runtime before each write.
class SinkWriterContext {
 public:
  /// The watermark the sink has seen last (Watermark::kMin before the first).
  int64_t currentWatermark() const { return currentWatermark_; }
  /// The record's event timestamp, if it has one.
  std::optional<int64_t> timestamp() const {
    if (timestamp_ == runtime::kNoTimestamp) return std::nullopt;
    return timestamp_;
  }
  void setCurrentWatermark(int64_t watermark) { currentWatermark_ = watermark; }
  void setTimestamp(int64_t timestamp) { timestamp_ = timestamp; }

 private:
  int64_t currentWatermark_ = runtime::Watermark::kMin;
  int64_t timestamp_ = runtime::kNoTimestamp;
};

// ---- Writers ------------------------------------------------------------------------------

/// Writes one subtask's records (Flink's SinkWriter). Created by Sink::createWriter on the
/// task thread; every call comes from that thread (see the file comment).
template <typename InputT>
class SinkWriter {
 public:
  using InputType = InputT;
  virtual ~SinkWriter() = default;
  virtual void write(const InputT& element, const SinkWriterContext& context) = 0;
  /// The records of one batch with their timestamps (parallel spans), in order. The default
  /// writes them one by one; a writer whose per-record work is small overrides it to run
  /// without a virtual call per record (eddy's; Flink has only write).
  virtual void writeBatch(std::span<const InputT> elements, std::span<const int64_t> timestamps,
                          SinkWriterContext& context) {
    for (size_t i = 0; i < elements.size(); ++i) {
      context.setTimestamp(timestamps[i]);
      write(elements[i], context);
    }
  }
  /// Hands on what the writer buffers: at every checkpoint (before prepareCommit) with false,
  /// once at the end of input with true (nothing is written after that).
  virtual void flush(bool endOfInput) = 0;
  /// The sink's input watermark advanced.
  virtual void writeWatermark(int64_t /*watermark*/) {}
  /// Releases what the writer holds; after a failure, too. Must not remove what a committable
  /// it returned names.
  virtual void close() {}
};

/// A writer of a sink that SupportsCommitter (Flink's CommittingSinkWriter).
template <typename InputT, typename CommT>
class CommittingSinkWriter : public virtual SinkWriter<InputT> {
 public:
  /// After flush: the committables of what was written since the last call (at a checkpoint,
  /// and once after flush(true)). Each is committed once its checkpoint has completed.
  virtual std::vector<CommT> prepareCommit() = 0;
};

/// A writer of a sink that SupportsWriterState (Flink's StatefulSinkWriter).
template <typename InputT, typename WriterStateT>
class StatefulSinkWriter : public virtual SinkWriter<InputT> {
 public:
  /// The writer's state as of checkpoint `checkpointId`, after prepareCommit; must not write.
  virtual std::vector<WriterStateT> snapshotState(int64_t checkpointId) = 0;
};

// ---- Committers ---------------------------------------------------------------------------

/// One committable to commit, and what came of it (Flink's Committer.CommitRequest). Unless
/// the committer signals otherwise, the committable counts as committed when commit returns.
template <typename CommT>
class CommitRequest {
 public:
  enum class Outcome {
    kCommitted,
    kAlreadyCommitted,
    kRetryLater,
    kFailedWithKnownReason,
    kFailedWithUnknownReason,
  };

  CommitRequest(CommT committable, int numberOfRetries)
      : committable_(std::move(committable)), numberOfRetries_(numberOfRetries) {}

  const CommT& getCommittable() const { return committable_; }
  /// How often this committable was asked to be retried before.
  int getNumberOfRetries() const { return numberOfRetries_; }
  /// The commit failed and will never succeed; the committable is dropped (Flink: a
  /// transaction that timed out).
  void signalFailedWithKnownReason(std::string reason) {
    outcome_ = Outcome::kFailedWithKnownReason;
    reason_ = std::move(reason);
  }
  /// The commit failed for a reason the committer does not know: the job fails.
  void signalFailedWithUnknownReason(std::string reason) {
    outcome_ = Outcome::kFailedWithUnknownReason;
    reason_ = std::move(reason);
  }
  /// Commit it again later: at the next completed checkpoint (it stays in the snapshots until
  /// then), or shortly at the end of input without checkpoints.
  void retryLater() { outcome_ = Outcome::kRetryLater; }
  void updateAndRetryLater(CommT committable) {
    committable_ = std::move(committable);
    outcome_ = Outcome::kRetryLater;
  }
  /// It had been committed before (a restore commits again what its checkpoint holds).
  void signalAlreadyCommitted() { outcome_ = Outcome::kAlreadyCommitted; }

  Outcome outcome() const { return outcome_; }
  /// The reason given with a failure.
  const std::string& failureReason() const { return reason_; }
  CommT takeCommittable() && { return std::move(committable_); }

 private:
  CommT committable_;
  int numberOfRetries_;
  Outcome outcome_ = Outcome::kCommitted;
  std::string reason_;
};

/// Commits committables once their checkpoint has completed (Flink's Committer). Created by
/// SupportsCommitter::createCommitter on the task thread; called from it.
template <typename CommT>
class Committer {
 public:
  virtual ~Committer() = default;
  /// Commits every request, in order, each idempotently (see the file comment), and signals on
  /// a request what else came of it. Throwing fails the job (the restore commits again).
  virtual void commit(std::vector<CommitRequest<CommT>>& requests) = 0;
  virtual void close() {}
};

// ---- The sink -----------------------------------------------------------------------------

namespace detail {
/// Bases the runtime finds a sink's mixins by when it has only a Sink<InputT>.
class CommittingSinkMarker {
 public:
  virtual ~CommittingSinkMarker() = default;
};
class StatefulSinkMarker {
 public:
  virtual ~StatefulSinkMarker() = default;
};
}  // namespace detail

/// A sink (Flink's Sink): creates the writer of each subtask. Immutable, shared by the job's
/// threads. DataStream::sinkTo takes it with its own type, so that its mixins are seen.
template <typename InputT>
class Sink {
 public:
  using InputType = InputT;
  virtual ~Sink() = default;
  /// The writer of a fresh start (and of a restore when the sink keeps no writer state).
  virtual std::unique_ptr<SinkWriter<InputT>> createWriter(WriterInitContext& context) const = 0;
};

/// The sink's writer prepares committables and a committer commits them (Flink's
/// SupportsCommitter); its writer must be a CommittingSinkWriter<InputT, CommT>.
template <typename CommT>
class SupportsCommitter : public detail::CommittingSinkMarker {
 public:
  using CommittableType = CommT;
  virtual std::unique_ptr<Committer<CommT>> createCommitter(
      CommitterInitContext& context) const = 0;
  /// Valid as long as the sink.
  virtual const SimpleVersionedSerializer<CommT>& getCommittableSerializer() const = 0;
};

/// The sink's writer keeps state (Flink's SupportsWriterState); its writer must be a
/// StatefulSinkWriter<InputT, WriterStateT>.
template <typename InputT, typename WriterStateT>
class SupportsWriterState : public detail::StatefulSinkMarker {
 public:
  using WriterStateType = WriterStateT;
  /// The writer of a restored job, from the states this subtask got (possibly none, or those
  /// of several old subtasks).
  virtual std::unique_ptr<StatefulSinkWriter<InputT, WriterStateT>> restoreWriter(
      WriterInitContext& context, std::vector<WriterStateT> recoveredState) const = 0;
  /// Valid as long as the sink.
  virtual const SimpleVersionedSerializer<WriterStateT>& getWriterStateSerializer() const = 0;
};

/// The committable type of a sink that does not SupportsCommitter, and the writer state type
/// of one that does not SupportsWriterState.
struct NoCommittable {};
struct NoWriterState {};

namespace detail {
template <typename CommT>
CommT committableTypeOf(const SupportsCommitter<CommT>*);
NoCommittable committableTypeOf(const void*);
template <typename InputT, typename WriterStateT>
WriterStateT writerStateTypeOf(const SupportsWriterState<InputT, WriterStateT>*);
NoWriterState writerStateTypeOf(const void*);
}  // namespace detail

/// A sink type's committable type (NoCommittable without SupportsCommitter) and writer state
/// type (NoWriterState without SupportsWriterState).
template <typename SinkType>
using CommittableTypeOf =
    decltype(detail::committableTypeOf(static_cast<const SinkType*>(nullptr)));
template <typename SinkType>
using WriterStateTypeOf =
    decltype(detail::writerStateTypeOf(static_cast<const SinkType*>(nullptr)));

// ---- The runtime's side -------------------------------------------------------------------

namespace detail {

/// The operator list states of a sink subtask (even-split).
inline constexpr std::string_view kSinkWriterStateName = "SinkWriterState";
inline constexpr std::string_view kSinkCommittablesName = "SinkCommittables";
/// The first field of each element of both.
inline constexpr uint64_t kSinkStateElementVersion = 1;
/// The checkpoint of committables prepared at the end of input before a checkpoint took them.
inline constexpr int64_t kAwaitingCheckpoint = -1;
/// The checkpoint of committables committed at the end of input (no checkpoints).
inline constexpr int64_t kEndOfInput = std::numeric_limits<int64_t>::max();
/// Without checkpoints, a committable the committer asks to retry at the end of input is
/// retried this often, this long apart, before the job fails.
inline constexpr int kEndOfInputCommitAttempts = 10;
inline constexpr std::chrono::milliseconds kEndOfInputCommitRetryDelay{100};

/// `version:varint (1) checkpointId:i64 payload:bytes`, the payload a serializer's versioned
/// bytes (writeVersionAndSerialize).
inline std::string encodeSinkStateElement(int64_t checkpointId, std::string_view payload) {
  SerializedFieldWriter writer;
  writer.writeVarint(kSinkStateElementVersion);
  writer.writeInt64(checkpointId);
  writer.writeBytes(payload);
  return writer.take();
}

struct SinkStateElement {
  int64_t checkpointId = 0;
  std::string_view payload;  // into the element
};

/// Reads what encodeSinkStateElement wrote; `what` names the element in errors.
inline SinkStateElement decodeSinkStateElement(std::string_view element, std::string what) {
  SerializedFieldReader reader(element, what);
  const uint64_t version = reader.readVarint();
  if (version != kSinkStateElementVersion) {
    throw ValidationException("Cannot read " + what + ": it has format version " +
                              std::to_string(version) + ", and this eddy reads version " +
                              std::to_string(kSinkStateElementVersion));
  }
  SinkStateElement decoded;
  decoded.checkpointId = reader.readInt64();
  decoded.payload = reader.readBytes();
  reader.expectEnd();
  return decoded;
}

inline ListStateDescriptor<std::string, SplitStateBytes> sinkStateDescriptor(
    std::string_view name) {
  return ListStateDescriptor<std::string, SplitStateBytes>(std::string(name));
}

/// Runs a sink's writer and committer in one subtask (see the file comment). SinkType is the
/// sink's own type; its mixins decide what the operator keeps.
template <typename SinkType>
class SinkWriterOperator final : public runtime::StreamOperator {
 public:
  using InputT = typename SinkType::InputType;
  using CommT = CommittableTypeOf<SinkType>;
  using WriterStateT = WriterStateTypeOf<SinkType>;
  static constexpr bool kCommitting = !std::is_same_v<CommT, NoCommittable>;
  static constexpr bool kStateful = !std::is_same_v<WriterStateT, NoWriterState>;

  explicit SinkWriterOperator(std::shared_ptr<const SinkType> sink) : sink_(std::move(sink)) {}

  void initializeState(runtime::StateInitializationContext& context) override {
    if (context.operatorContext == nullptr) {
      throw InternalError("initializeState without an operator context");
    }
    start(*context.operatorContext, context.isRestored());
  }
  void open(runtime::OperatorContext& context) override {
    StreamOperator::open(context);
    start(context, /*restored=*/false);  // when initializeState did not run (driven by hand)
  }

  void processBatch(int, runtime::BatchPtr batch) override {
    auto& input = runtime::typedBatch<InputT>(*batch);
    if constexpr (std::is_same_v<InputT, bool>) {
      // std::vector<bool> is not contiguous: its records are written one by one.
      for (size_t i = 0; i < input.records.size(); ++i) {
        writerContext_.setTimestamp(input.timestamps[i]);
        writer_->write(input.records[i], writerContext_);
      }
    } else {
      writer_->writeBatch(std::span<const InputT>(input.records),
                          std::span<const int64_t>(input.timestamps), writerContext_);
    }
  }
  void processWatermark(runtime::Watermark watermark) override {
    writerContext_.setCurrentWatermark(watermark.timestamp);
    writer_->writeWatermark(watermark.timestamp);
    StreamOperator::processWatermark(watermark);
  }

  void prepareSnapshotPreBarrier(int64_t checkpointId) override { prepareCommit(checkpointId); }
  void snapshotState(runtime::StateSnapshotContext& context) override {
    const int64_t checkpointId = context.checkpointId;
    prepareCommit(checkpointId);  // when prepareSnapshotPreBarrier did not run for it
    if constexpr (kStateful) {
      std::vector<std::string> elements;
      for (const WriterStateT& state : statefulWriter_->snapshotState(checkpointId)) {
        elements.push_back(encodeSinkStateElement(
            checkpointId, writeVersionAndSerialize(sink_->getWriterStateSerializer(), state)));
      }
      writerState_->update(std::move(elements));
    }
    if constexpr (kCommitting) {
      std::vector<std::string> elements;
      elements.reserve(pending_.size());
      for (Pending& pending : pending_) {
        // The end of input's committables belong to the first checkpoint after it (the final).
        if (pending.checkpointId == kAwaitingCheckpoint) pending.checkpointId = checkpointId;
        elements.push_back(encodeSinkStateElement(
            pending.checkpointId,
            writeVersionAndSerialize(sink_->getCommittableSerializer(), pending.committable)));
      }
      committableState_->update(std::move(elements));
    }
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    if constexpr (kCommitting) {
      // After finish() this completion may be the last the task sees (its final checkpoint):
      // what the committer asks to retry is retried now, a bounded number of times, and fails
      // the job if it never commits, instead of being dropped when the task ends.
      if (finished_) {
        commitWithRetries(checkpointId, "after the final checkpoint");
      } else {
        commitUpTo(checkpointId);
      }
    }
  }
  /// Its committables stay pending: the next completed checkpoint commits them.
  void notifyCheckpointAborted(int64_t /*checkpointId*/) override {}

  void finish() override {
    finished_ = true;
    writer_->flush(true);
    if constexpr (kCommitting) {
      addPending(committingWriter_->prepareCommit(),
                 checkpointing_ ? kAwaitingCheckpoint : kEndOfInput);
      if (!checkpointing_) commitWithRetries(kEndOfInput, "at the end of input");
    }
  }
  /// With checkpoints, a committing sink's last committables wait for the final checkpoint.
  bool needsFinalCheckpoint() const override { return kCommitting && checkpointing_; }

  void close() override {
    std::exception_ptr failure;
    if (writer_) {
      try {
        writer_->close();
      } catch (...) {
        failure = std::current_exception();
      }
    }
    if constexpr (kCommitting) {
      if (committer_) {
        try {
          committer_->close();
        } catch (...) {
          if (!failure) failure = std::current_exception();
        }
      }
    }
    if (failure) std::rethrow_exception(failure);
  }

  /// The committables not committed yet (tests).
  size_t pendingCommittables() const { return pending_.size(); }

 private:
  struct Pending {
    int64_t checkpointId = 0;  // kAwaitingCheckpoint: not in a snapshot yet
    CommT committable;
    int retries = 0;
  };

  void start(runtime::OperatorContext& context, bool restored) {
    if (writer_) return;
    operatorName_ = context.operatorName;
    checkpointing_ =
        context.checkpointingEnabled && context.executionMode != RuntimeExecutionMode::BATCH;
    const std::string prefix = "Sink '" + operatorName_ + "' cannot read its ";
    std::optional<int64_t> restoredCheckpoint;
    auto noteCheckpoint = [&](int64_t checkpointId) {
      restoredCheckpoint = std::max(restoredCheckpoint.value_or(checkpointId), checkpointId);
    };

    if constexpr (kCommitting) {
      committableState_ =
          context.operatorStateStore().getListState(sinkStateDescriptor(kSinkCommittablesName));
      try {
        for (const std::string& element : committableState_->get()) {
          SinkStateElement decoded = decodeSinkStateElement(element, "a committable");
          noteCheckpoint(decoded.checkpointId);
          pending_.push_back(Pending{decoded.checkpointId,
                                     readVersionAndDeserialize(sink_->getCommittableSerializer(),
                                                               decoded.payload, "a committable"),
                                     0});
        }
      } catch (...) {
        rethrowWithPrefix(prefix + "committables: ");
      }
    }
    std::vector<WriterStateT> writerStates;
    if constexpr (kStateful) {
      writerState_ =
          context.operatorStateStore().getListState(sinkStateDescriptor(kSinkWriterStateName));
      try {
        for (const std::string& element : writerState_->get()) {
          SinkStateElement decoded = decodeSinkStateElement(element, "a writer state");
          noteCheckpoint(decoded.checkpointId);
          writerStates.push_back(readVersionAndDeserialize(sink_->getWriterStateSerializer(),
                                                           decoded.payload, "a writer state"));
        }
      } catch (...) {
        rethrowWithPrefix(prefix + "writer state: ");
      }
    }

    InitContext init(context.subtaskIndex, context.parallelism, restoredCheckpoint, operatorName_,
                     context.processingTimeService);
    if constexpr (kCommitting) {
      committer_ = sink_->createCommitter(init);
      if (!committer_) throw InternalError("Sink '" + operatorName_ + "' created no committer");
      // The restored checkpoint is complete: what it holds is committed now (Flink's
      // CommitterOperator re-commits in initializeState).
      commitUpTo(kEndOfInput);
    }
    if constexpr (kStateful) {
      if (restored) {
        writer_ = sink_->restoreWriter(init, std::move(writerStates));
      } else {
        writer_ = sink_->createWriter(init);
      }
      if (writer_) {
        statefulWriter_ = dynamic_cast<StatefulSinkWriter<InputT, WriterStateT>*>(writer_.get());
        if (statefulWriter_ == nullptr) {
          throw InternalError("Sink '" + operatorName_ +
                              "' keeps writer state, but its writer is not a StatefulSinkWriter");
        }
      }
    } else {
      writer_ = sink_->createWriter(init);
    }
    if (!writer_) throw InternalError("Sink '" + operatorName_ + "' created no writer");
    if constexpr (kCommitting) {
      committingWriter_ = dynamic_cast<CommittingSinkWriter<InputT, CommT>*>(writer_.get());
      if (committingWriter_ == nullptr) {
        throw InternalError("Sink '" + operatorName_ +
                            "' has a committer, but its writer is not a CommittingSinkWriter");
      }
    }
  }

  void prepareCommit(int64_t checkpointId) {
    // After the end of input nothing is written: the final checkpoint takes what finish()
    // prepared.
    if (finished_ || preparedCheckpoint_ == checkpointId) return;
    preparedCheckpoint_ = checkpointId;
    writer_->flush(false);
    if constexpr (kCommitting) addPending(committingWriter_->prepareCommit(), checkpointId);
  }

  void addPending(std::vector<CommT> committables, int64_t checkpointId) {
    for (CommT& committable : committables) {
      pending_.push_back(Pending{checkpointId, std::move(committable), 0});
    }
  }

  /// Commits the pending committables of checkpoints <= checkpointId.
  void commitUpTo(int64_t checkpointId) {
    std::vector<CommitRequest<CommT>> requests;
    std::vector<int64_t> requestCheckpoints;
    std::vector<Pending> later;
    for (Pending& pending : pending_) {
      if (pending.checkpointId != kAwaitingCheckpoint && pending.checkpointId <= checkpointId) {
        requestCheckpoints.push_back(pending.checkpointId);
        requests.emplace_back(std::move(pending.committable), pending.retries);
      } else {
        later.push_back(std::move(pending));
      }
    }
    if (requests.empty()) return;
    pending_.clear();
    committer_->commit(requests);
    for (size_t i = 0; i < requests.size(); ++i) {
      CommitRequest<CommT>& request = requests[i];
      switch (request.outcome()) {
        case CommitRequest<CommT>::Outcome::kCommitted:
        case CommitRequest<CommT>::Outcome::kAlreadyCommitted:
        case CommitRequest<CommT>::Outcome::kFailedWithKnownReason:
          break;
        case CommitRequest<CommT>::Outcome::kRetryLater: {
          const int retries = request.getNumberOfRetries() + 1;
          pending_.push_back(
              Pending{requestCheckpoints[i], std::move(request).takeCommittable(), retries});
          break;
        }
        case CommitRequest<CommT>::Outcome::kFailedWithUnknownReason:
          throw ConnectorException("Sink '" + operatorName_ +
                                   "' failed to commit: " + request.failureReason());
      }
    }
    for (Pending& pending : later) pending_.push_back(std::move(pending));
  }

  /// Commits the pending committables of checkpoints <= upTo, retrying those the committer
  /// asks to retry; throws after kEndOfInputCommitAttempts attempts.
  void commitWithRetries(int64_t upTo, const char* when) {
    for (int attempt = 1;; ++attempt) {
      commitUpTo(upTo);
      size_t left = 0;
      for (const Pending& pending : pending_) {
        left += pending.checkpointId != kAwaitingCheckpoint && pending.checkpointId <= upTo;
      }
      if (left == 0) return;
      if (attempt >= kEndOfInputCommitAttempts) {
        throw ConnectorException("Sink '" + operatorName_ + "' could not commit " +
                                 std::to_string(left) + " committables " + when +
                                 ": its committer asked to retry them " +
                                 std::to_string(attempt) + " times");
      }
      std::this_thread::sleep_for(kEndOfInputCommitRetryDelay);
    }
  }

  std::shared_ptr<const SinkType> sink_;
  std::string operatorName_;
  bool checkpointing_ = false;
  bool finished_ = false;
  int64_t preparedCheckpoint_ = kAwaitingCheckpoint;
  SinkWriterContext writerContext_;
  std::unique_ptr<SinkWriter<InputT>> writer_;
  CommittingSinkWriter<InputT, CommT>* committingWriter_ = nullptr;     // writer_, when kCommitting
  StatefulSinkWriter<InputT, WriterStateT>* statefulWriter_ = nullptr;  // writer_, when kStateful
  std::unique_ptr<Committer<CommT>> committer_;
  std::vector<Pending> pending_;                        // in the order they were prepared
  ListState<std::string>* committableState_ = nullptr;  // in the context's operator state store
  ListState<std::string>* writerState_ = nullptr;
};

/// The operator factory of DataStream::sinkTo(sink). Throws ValidationException for a sink
/// whose mixins its static type hides (a committing sink passed as a plain Sink<InputT>).
template <typename SinkType>
std::shared_ptr<const runtime::OperatorFactory> sinkWriterOperatorFactory(
    std::shared_ptr<const SinkType> sink) {
  if (!sink) throw ValidationException("The sink of sinkTo must not be null.");
  constexpr bool kCommitting = !std::is_same_v<CommittableTypeOf<SinkType>, NoCommittable>;
  constexpr bool kStateful = !std::is_same_v<WriterStateTypeOf<SinkType>, NoWriterState>;
  if ((!kCommitting && dynamic_cast<const CommittingSinkMarker*>(sink.get()) != nullptr) ||
      (!kStateful && dynamic_cast<const StatefulSinkMarker*>(sink.get()) != nullptr)) {
    throw ValidationException(
        "sinkTo got a sink whose committer or writer state its type hides; pass the sink as "
        "std::shared_ptr of its own class.");
  }
  return std::make_shared<runtime::LambdaOperatorFactory>(
      [sink]() -> std::unique_ptr<runtime::StreamOperator> {
        return std::make_unique<SinkWriterOperator<SinkType>>(sink);
      });
}

}  // namespace detail

}  // namespace eddy::connector

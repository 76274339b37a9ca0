// The connector SPI, source half: Flink's FLIP-27 source (org.apache.flink.api.connector.source),
// the shape of every replayable source. A source's input is cut into
// - splits (a file, a partition, a range of numbers), each carrying its own position;
// - one SplitEnumerator per source (not per subtask): it discovers the splits, assigns them to
//   the readers, and keeps the splits it has not assigned yet in its checkpointed state;
// - one SourceReader per parallel subtask: it reads the splits assigned to it and, in every
//   checkpoint, returns each of them with its current position (snapshotState).
// A Source<T, SplitT, EnumStateT> is the immutable definition that creates both, and names the
// serializers of its splits and of its enumerator's state (SimpleVersionedSerializer: a format
// version and bytes): those bytes are what a checkpoint keeps.
//
// How eddy runs it. eddy is one process, so Flink's JobManager side is a coordinator object per
// source vertex that the job owns (src/runtime/running_job.h):
// - The job creates the enumerator when it starts (createEnumerator, or restoreEnumerator from
//   the checkpoint it restores) and calls it under one lock, one call at a time, from task
//   threads and the checkpoint trigger; an enumerator calls its context only from within those
//   calls.
// - Each reader is created on its task thread in the source operator's open(), gets the splits
//   of its restored state (addSplits) before its first poll, registers with the enumerator
//   (addReader), and is then polled by its task thread; every call on a reader comes from that
//   thread. Assignments (assignSplit(s), signalNoMoreSplits) reach the reader as mail in its
//   task's mailbox, so they are ordered with checkpoint triggers: the job snapshots every
//   enumerator and enqueues the triggers while it holds the coordinators' lock, so a split
//   assigned after the enumerator's snapshot reaches its reader after the reader's own
//   snapshot of that checkpoint: every split is in exactly one of the two.
// - The reader's splits are kept as operator list state "SourceReaderState" (even-split
//   redistribution: restored at another parallelism, the splits are dealt out to the new
//   readers), the enumerator's state in the checkpoint under the source's uid; the bytes are in
//   docs/state_format.md "Source splits and split enumerators". A split a reader has finished
//   is no longer in its state.
// - Availability (Flink's isAvailable future): pollNext returns NOTHING_AVAILABLE when it has
//   nothing now. A reader whose signalsAvailability() is true then sleeps until it calls
//   SourceReaderContext::notifyAvailable() (any thread), until a split assignment arrives, or
//   until the time it asked for with requestWakeUpAt (a reader paced by time); any other reader
//   is polled again after a back-off of 1 ms doubling to 10 ms.
// - Failures: a failed task fails the whole job, which restarts (if at all) from its latest
//   checkpoint with every enumerator restored from it; addSplitsBack is part of the interface
//   for enumerators written against Flink's, but eddy's runtime does not call it.
//
// The legacy shape, eddy::Source<T> with createReader(subtaskIndex, parallelism)
// (eddy/datastream/source.h), stays for sources that keep no position: a restore starts them
// from the beginning. A connector::Source is an eddy::Source<T> too (what fromSource takes); its
// createReader(subtaskIndex, parallelism) gives the reader of that subtask on a fresh start.
//
// Built on this shape at the end of this file: NumberSequenceSource (fromSequence) and
// CollectionSource (fromElements, fromCollection), as Flink's connector.source.lib.
#pragma once

#include <algorithm>
#include <chrono>
#include <concepts>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "eddy/datastream/source.h"
#include "eddy/exceptions.h"
#include "eddy/runtime/record_batch.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/types/type_serializer.h"

namespace eddy::connector {

// ---- Serialization ------------------------------------------------------------------------

/// Flink's SimpleVersionedSerializer: bytes of a split or of an enumerator state, and the format
/// version they are written in, so that a newer serializer can still read older bytes (or
/// refuse them by version). Immutable; any thread.
template <typename T>
class SimpleVersionedSerializer {
 public:
  virtual ~SimpleVersionedSerializer() = default;
  /// The version serialize() writes.
  virtual int getVersion() const = 0;
  virtual std::string serialize(const T& value) const = 0;
  /// `serialized` was written by a serializer of `version`. Throws ValidationException for a
  /// version it cannot read and InternalError for bytes that do not decode (truncated,
  /// corrupted); both name the source.
  virtual T deserialize(int version, std::string_view serialized) const = 0;
};

/// `version:varint` then the serializer's bytes (Flink's
/// SimpleVersionedSerialization#writeVersionAndSerialize; the length is the container's).
template <typename T>
std::string writeVersionAndSerialize(const SimpleVersionedSerializer<T>& serializer,
                                     const T& value) {
  std::string bytes;
  serialization::writeVarint(static_cast<uint64_t>(serializer.getVersion()), bytes);
  bytes += serializer.serialize(value);
  return bytes;
}

/// Reads what writeVersionAndSerialize wrote; `what` names the bytes in errors.
template <typename T>
T readVersionAndDeserialize(const SimpleVersionedSerializer<T>& serializer,
                            std::string_view bytes, std::string_view what = "versioned bytes") {
  uint64_t version = 0;
  try {
    version = serialization::readVarint(bytes);
  } catch (const InternalError&) {
    throw InternalError("Cannot read " + std::string(what) +
                        ": they end before their format version (truncated or corrupted)");
  }
  if (version > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
    throw InternalError("Cannot read " + std::string(what) + ": format version " +
                        std::to_string(version) + " is out of range (corrupted)");
  }
  return serializer.deserialize(static_cast<int>(version), bytes);
}

/// Throws ValidationException unless `version` is `supported` (bytes of another eddy).
inline void checkSerializedVersion(int version, int supported, const std::string& what) {
  if (version == supported) return;
  throw ValidationException("Cannot read " + what + ": it has format version " +
                            std::to_string(version) + ", and this eddy reads version " +
                            std::to_string(supported));
}

/// Appends the fields of a split or an enumerator state in the encodings of
/// docs/state_format.md: varint, i64 (TypeSerializer<int64_t>: 8 bytes, big-endian, sign bit
/// flipped), bytes (a varint length, then the bytes).
class SerializedFieldWriter {
 public:
  void writeVarint(uint64_t value) { serialization::writeVarint(value, bytes_); }
  void writeInt64(int64_t value) { TypeSerializer<int64_t>::serialize(value, bytes_); }
  void writeBytes(std::string_view value) {
    serialization::writeVarint(value.size(), bytes_);
    bytes_.append(value);
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_;
};

/// Reads what a SerializedFieldWriter wrote. Every failure is an InternalError that names
/// `what` ("a NumberSequenceSource split"), so that bad bytes say whose they are.
class SerializedFieldReader {
 public:
  SerializedFieldReader(std::string_view bytes, std::string what)
      : in_(bytes), what_(std::move(what)) {}
  uint64_t readVarint() {
    return guarded([this] { return serialization::readVarint(in_); });
  }
  int64_t readInt64() {
    return guarded([this] { return TypeSerializer<int64_t>::deserialize(in_); });
  }
  /// A view into the bytes given to the constructor.
  std::string_view readBytes() {
    return guarded([this] {
      uint64_t size = serialization::readVarint(in_);
      if (in_.size() < size) throw InternalError("a byte string is cut off");
      std::string_view bytes = in_.substr(0, size);
      in_.remove_prefix(size);
      return bytes;
    });
  }
  size_t remaining() const { return in_.size(); }
  /// Throws unless every byte was read.
  void expectEnd() const {
    if (!in_.empty()) fail(std::to_string(in_.size()) + " bytes follow its last field");
  }
  [[noreturn]] void fail(const std::string& problem) const {
    throw InternalError("Cannot read " + what_ + ": " + problem + " (corrupted or truncated)");
  }

 private:
  template <typename Read>
  std::invoke_result_t<Read> guarded(Read read) {
    try {
      return read();
    } catch (const InternalError& error) {
      fail(error.what());
    }
  }

  std::string_view in_;
  std::string what_;
};

// ---- Readers ------------------------------------------------------------------------------

/// A split type: copyable, with a stable id unique within its source (Flink's SourceSplit).
template <typename SplitT>
concept SourceSplit = std::copy_constructible<SplitT> && requires(const SplitT& split) {
  { split.splitId() } -> std::convertible_to<std::string>;
};

/// What a reader knows of where it runs (Flink's SourceReaderContext). Owned by the runtime;
/// valid until the reader is closed. Task thread, except notifyAvailable.
class SourceReaderContext {
 public:
  virtual ~SourceReaderContext() = default;
  virtual int getIndexOfSubtask() const = 0;
  virtual int currentParallelism() const = 0;
  /// Asks the enumerator for a split (its handleSplitRequest); an answer comes as addSplits or
  /// notifyNoMoreSplits, on the task thread, later.
  virtual void sendSplitRequest() = 0;
  /// Any thread, until the reader is closed: after pollNext returned NOTHING_AVAILABLE, data is
  /// available again; the task polls the reader soon. Cheap; may be called spuriously.
  virtual void notifyAvailable() = 0;
  /// Within pollNext: poll the reader again at `time` at the latest (a reader paced by time);
  /// the earliest request of a poll counts, and each poll starts without one.
  virtual void requestWakeUpAt(std::chrono::steady_clock::time_point time) = 0;
};

/// Reads the splits assigned to one subtask (Flink's SourceReader). Created on the task thread
/// by Source::createReader; every call comes from that thread, in this order: addSplits with
/// the restored splits (if any), start, then any interleaving of pollNext, addSplits,
/// notifyNoMoreSplits and the checkpoint calls, then close (always).
template <typename T, SourceSplit SplitT>
class SourceReader {
 public:
  using SplitType = SplitT;
  virtual ~SourceReader() = default;
  virtual void start() {}
  /// Emits what is available now through `output` (ideally up to runtime::kDefaultBatchSize
  /// records per call) and says whether more is available at once (MORE_AVAILABLE), nothing is
  /// for now (NOTHING_AVAILABLE), or the input ended (END_OF_INPUT: only once
  /// notifyNoMoreSplits came and every split is read).
  virtual InputStatus pollNext(ReaderOutput<T>& output) = 0;
  /// Splits to read: assigned by the enumerator, or restored from a checkpoint (with their
  /// positions).
  virtual void addSplits(std::vector<SplitT> splits) = 0;
  /// The enumerator will assign this reader no more splits.
  virtual void notifyNoMoreSplits() = 0;
  /// Every split the reader has and has not finished, each with its current position (a
  /// restored reader continues from there). Must not emit.
  virtual std::vector<SplitT> snapshotState(int64_t checkpointId) = 0;
  /// Every task acknowledged checkpoint `checkpointId` (commit offsets to an outside system).
  virtual void notifyCheckpointComplete(int64_t /*checkpointId*/) {}
  virtual void notifyCheckpointAborted(int64_t /*checkpointId*/) {}
  /// Whether the reader signals availability (see the file comment): true promises that after
  /// NOTHING_AVAILABLE it calls SourceReaderContext::notifyAvailable() or requestWakeUpAt, or
  /// waits only for split assignments. false: the task polls it with a back-off.
  virtual bool signalsAvailability() const { return false; }
  /// Releases what the reader holds; stops any thread that calls notifyAvailable.
  virtual void close() {}
};

/// A reader of splits pushed by the enumerator, read one after another in the order they came
/// (Flink's IteratorSourceReaderBase, without split requests). A subclass says how to read from
/// one split. It has nothing only while it waits for splits, which arrive as mail, so it
/// signals availability.
template <typename T, SourceSplit SplitT>
class SequentialSplitReader : public SourceReader<T, SplitT> {
 public:
  InputStatus pollNext(ReaderOutput<T>& output) override {
    while (!splits_.empty() && output.pendingRecords() < runtime::kDefaultBatchSize) {
      if (readSplit(splits_.front(), runtime::kDefaultBatchSize - output.pendingRecords(),
                    output)) {
        splits_.pop_front();
      }
    }
    if (!splits_.empty()) return InputStatus::MORE_AVAILABLE;
    if (noMoreSplits_) return InputStatus::END_OF_INPUT;
    return output.pendingRecords() > 0 ? InputStatus::MORE_AVAILABLE
                                       : InputStatus::NOTHING_AVAILABLE;
  }
  void addSplits(std::vector<SplitT> splits) override {
    for (SplitT& split : splits) splits_.push_back(std::move(split));
  }
  void notifyNoMoreSplits() override { noMoreSplits_ = true; }
  std::vector<SplitT> snapshotState(int64_t /*checkpointId*/) override {
    return std::vector<SplitT>(splits_.begin(), splits_.end());
  }
  bool signalsAvailability() const override { return true; }

 protected:
  /// Emits up to `limit` (> 0) records of `split`, advancing its position; true once the split
  /// has nothing left (it then emitted its last records, or none). Emits at least one record
  /// when it returns false.
  virtual bool readSplit(SplitT& split, size_t limit, ReaderOutput<T>& output) = 0;

 private:
  std::deque<SplitT> splits_;
  bool noMoreSplits_ = false;
};

// ---- Enumerators --------------------------------------------------------------------------

/// What an enumerator reaches of the job (Flink's SplitEnumeratorContext). Owned by the
/// runtime; valid until the enumerator is closed; called only from within the enumerator's own
/// calls. Assignments go to the readers in the order they are made.
template <SourceSplit SplitT>
class SplitEnumeratorContext {
 public:
  virtual ~SplitEnumeratorContext() = default;
  /// The number of the source's readers (subtasks 0 .. currentParallelism() - 1).
  virtual int currentParallelism() const = 0;
  /// The subtasks whose reader registered (addReader), ascending.
  virtual std::vector<int> registeredReaders() const = 0;
  virtual void assignSplit(SplitT split, int subtask) = 0;
  /// Flink's SplitsAssignment: subtask → its new splits.
  virtual void assignSplits(std::map<int, std::vector<SplitT>> assignment) = 0;
  /// Subtask `subtask` gets no more splits; it ends once it has read the ones it has. Splits
  /// assigned to it after this may never be read.
  virtual void signalNoMoreSplits(int subtask) = 0;

  /// Flink's callAsync: runs `callable` on a thread of the job's, outside the enumerator's
  /// calls (it may wait for an outside system: a partition discovery), first after
  /// `initialDelay`, then every `period` (zero: once), and hands each result, or what the call
  /// threw, to `handler`, which runs like the enumerator's other calls (one at a time with
  /// them, under the same rules) until the enumerator is closed. A handler that throws fails
  /// the job. A call still running when the job ends is not waited for (its handler never
  /// runs), so `callable` must not use the enumerator: it gets what it needs by value. R must
  /// be default-constructible (the result given with an error) and copyable.
  template <typename R>
  void callAsync(std::function<R()> callable,
                 std::function<void(R result, std::exception_ptr error)> handler,
                 std::chrono::milliseconds initialDelay, std::chrono::milliseconds period) {
    runAsync(
        [callable = std::move(callable), handler = std::move(handler)]() -> std::function<void()> {
          try {
            return
                [handler, result = callable()]() mutable { handler(std::move(result), nullptr); };
          } catch (...) {
            return [handler, error = std::current_exception()] { handler(R{}, error); };
          }
        },
        initialDelay, period);
  }

 protected:
  /// callAsync without its types: `call` runs on the job's thread and returns what is to run
  /// within the enumerator's calls. The default (a context that runs nothing later) throws
  /// InternalError.
  virtual void runAsync(std::function<std::function<void()>()> call,
                        std::chrono::milliseconds initialDelay, std::chrono::milliseconds period) {
    (void)call;
    (void)initialDelay;
    (void)period;
    throw InternalError("This split enumerator context runs no asynchronous calls");
  }
};

/// Discovers and assigns a source's splits (Flink's SplitEnumerator). One per source; see the
/// file comment for how it is called.
template <SourceSplit SplitT, typename EnumStateT>
class SplitEnumerator {
 public:
  virtual ~SplitEnumerator() = default;
  virtual void start() {}
  /// Reader `subtask` asked for a split (SourceReaderContext::sendSplitRequest).
  virtual void handleSplitRequest(int subtask) = 0;
  /// Splits assigned to `subtask` after the last completed checkpoint come back, because the
  /// reader failed (not called by eddy's runtime: see the file comment).
  virtual void addSplitsBack(std::vector<SplitT> splits, int subtask) = 0;
  /// Reader `subtask` registered: on every start of the job, also after a restore (it then has
  /// its restored splits already).
  virtual void addReader(int subtask) = 0;
  /// The enumerator's state as of now: at least every split it has not assigned yet.
  virtual EnumStateT snapshotState(int64_t checkpointId) = 0;
  virtual void notifyCheckpointComplete(int64_t /*checkpointId*/) {}
  virtual void close() {}
};

/// An enumerator that knows all splits up front and which reader reads which (Flink's
/// StaticFileSplitEnumerator, with the assignment planned rather than pulled): when reader
/// `s` registers it gets the splits planned for it and no-more-splits at once. Its state is
/// the splits not assigned yet (of readers that had not registered); restored, those are dealt
/// out round robin over the readers of the new run.
template <SourceSplit SplitT>
class StaticSplitEnumerator final : public SplitEnumerator<SplitT, std::vector<SplitT>> {
 public:
  /// `plan[s]`: the splits of subtask s, in the order it reads them.
  StaticSplitEnumerator(SplitEnumeratorContext<SplitT>& context,
                        std::vector<std::vector<SplitT>> plan)
      : context_(context), plan_(std::move(plan)) {}

  /// From snapshotState's result, for context.currentParallelism() readers.
  static std::unique_ptr<StaticSplitEnumerator> restore(SplitEnumeratorContext<SplitT>& context,
                                                        std::vector<SplitT> unassigned) {
    std::vector<std::vector<SplitT>> plan(
        static_cast<size_t>(std::max(1, context.currentParallelism())));
    for (size_t i = 0; i < unassigned.size(); ++i) {
      plan[i % plan.size()].push_back(std::move(unassigned[i]));
    }
    return std::make_unique<StaticSplitEnumerator>(context, std::move(plan));
  }

  void addReader(int subtask) override {
    const auto index = static_cast<size_t>(subtask);
    if (index < plan_.size() && !plan_[index].empty()) {
      std::map<int, std::vector<SplitT>> assignment;
      assignment.emplace(subtask, std::exchange(plan_[index], {}));
      context_.assignSplits(std::move(assignment));
    }
    context_.signalNoMoreSplits(subtask);
  }
  /// Everything was assigned when the reader registered.
  void handleSplitRequest(int /*subtask*/) override {}
  /// Kept for the reader's next registration.
  void addSplitsBack(std::vector<SplitT> splits, int subtask) override {
    const auto index = static_cast<size_t>(subtask);
    if (plan_.size() <= index) plan_.resize(index + 1);
    for (SplitT& split : splits) plan_[index].push_back(std::move(split));
  }
  std::vector<SplitT> snapshotState(int64_t /*checkpointId*/) override {
    std::vector<SplitT> unassigned;
    for (const std::vector<SplitT>& splits : plan_) {
      unassigned.insert(unassigned.end(), splits.begin(), splits.end());
    }
    return unassigned;
  }

 private:
  SplitEnumeratorContext<SplitT>& context_;
  std::vector<std::vector<SplitT>> plan_;
};

/// The state of a StaticSplitEnumerator, version 1: `count:varint split:bytes{count}`, each
/// split in its serializer's versioned bytes (writeVersionAndSerialize).
template <SourceSplit SplitT>
class StaticSplitEnumeratorStateSerializer final
    : public SimpleVersionedSerializer<std::vector<SplitT>> {
 public:
  static constexpr int kVersion = 1;
  /// `sourceKind` names the source in errors ("NumberSequenceSource").
  StaticSplitEnumeratorStateSerializer(
      std::shared_ptr<const SimpleVersionedSerializer<SplitT>> splitSerializer,
      std::string sourceKind)
      : splitSerializer_(std::move(splitSerializer)), sourceKind_(std::move(sourceKind)) {}

  int getVersion() const override { return kVersion; }
  std::string serialize(const std::vector<SplitT>& splits) const override {
    SerializedFieldWriter writer;
    writer.writeVarint(splits.size());
    for (const SplitT& split : splits) {
      writer.writeBytes(writeVersionAndSerialize(*splitSerializer_, split));
    }
    return writer.take();
  }
  std::vector<SplitT> deserialize(int version, std::string_view serialized) const override {
    const std::string what = "the split enumerator state of a " + sourceKind_;
    checkSerializedVersion(version, kVersion, what);
    SerializedFieldReader reader(serialized, what);
    const uint64_t count = reader.readVarint();
    if (count > reader.remaining()) reader.fail("it claims " + std::to_string(count) + " splits");
    std::vector<SplitT> splits;
    splits.reserve(static_cast<size_t>(count));
    for (uint64_t i = 0; i < count; ++i) {
      splits.push_back(readVersionAndDeserialize(*splitSerializer_, reader.readBytes(),
                                                 "a " + sourceKind_ + " split"));
    }
    reader.expectEnd();
    return splits;
  }

 private:
  std::shared_ptr<const SimpleVersionedSerializer<SplitT>> splitSerializer_;
  std::string sourceKind_;
};

// ---- The runtime's side -------------------------------------------------------------------
// Interfaces between a connector::Source and eddy's runtime (the source operator, the task, the
// job). Connectors do not implement or call them.

namespace detail {

/// The operator list state that holds a reader's splits.
inline constexpr std::string_view kSourceReaderStateName = "SourceReaderState";
/// The first byte of a source coordinator's state (CompletedCheckpoint::sourceCoordinators).
inline constexpr uint8_t kSourceCoordinatorStateVersion = 1;

/// A list state element that is its bytes as they are (a versioned split).
struct SplitStateBytes {
  static void serialize(const std::string& value, std::string& out) { out.append(value); }
  static std::string deserialize(std::string_view& in) {
    std::string value(in);
    in = {};
    return value;
  }
};

inline ListStateDescriptor<std::string, SplitStateBytes> sourceReaderStateDescriptor() {
  return ListStateDescriptor<std::string, SplitStateBytes>(std::string(kSourceReaderStateName));
}

/// What a source's coordinator reaches of its job (implemented by the RunningJob, one per
/// source vertex). Called with the job's coordinator lock held.
class SourceCoordinatorContext {
 public:
  virtual ~SourceCoordinatorContext() = default;
  virtual int currentParallelism() const = 0;
  /// Puts the splits (versioned split bytes) into the mailbox of subtask `subtask`'s task.
  virtual void assignSplits(int subtask, std::vector<std::string> splits) = 0;
  virtual void signalNoMoreSplits(int subtask) = 0;
  /// SplitEnumeratorContext::callAsync without its types: `call` runs on a thread of the job's
  /// and returns what the job runs under its coordinator lock, until the coordinator is
  /// closed.
  virtual void runAsync(std::function<std::function<void()>()> call,
                        std::chrono::milliseconds initialDelay,
                        std::chrono::milliseconds period) = 0;
  /// The source operator's name ("Source: numbers"), for messages.
  virtual const std::string& sourceName() const = 0;
};

/// A source's enumerator with its serializers, as the job runs it (Flink's SourceCoordinator):
/// splits and state as bytes. Called under the job's coordinator lock.
class SourceCoordinator {
 public:
  virtual ~SourceCoordinator() = default;
  virtual void start() = 0;
  virtual void addReader(int subtask) = 0;
  virtual void handleSplitRequest(int subtask) = 0;
  virtual void addSplitsBack(const std::vector<std::string>& splits, int subtask) = 0;
  /// `kSourceCoordinatorStateVersion:u8` then the enumerator's state in its serializer's
  /// versioned bytes.
  virtual std::string snapshotState(int64_t checkpointId) = 0;
  virtual void notifyCheckpointComplete(int64_t checkpointId) = 0;
  virtual void close() = 0;
};

/// A source that has a coordinator (every connector::Source). Immutable.
class SourceCoordinatorProvider {
 public:
  virtual ~SourceCoordinatorProvider() = default;
  /// `restoredState`: what snapshotState wrote in the checkpoint the job restores, else null.
  /// Throws ValidationException (naming the source) for a state it cannot read.
  virtual std::unique_ptr<SourceCoordinator> createCoordinator(
      SourceCoordinatorContext& context, const std::string* restoredState) const = 0;
};

/// A split-reading source operator's way to its job (implemented by the task; Flink's
/// OperatorEventGateway). Outlives the operator.
class SourceReaderGateway {
 public:
  virtual ~SourceReaderGateway() = default;
  /// Task thread: the enumerator's addReader for this subtask.
  virtual void registerReader() = 0;
  /// Task thread: the enumerator's handleSplitRequest for this subtask.
  virtual void sendSplitRequest() = 0;
  /// Any thread: wakes the task if it waits after NOTHING_AVAILABLE.
  virtual void notifyAvailable() = 0;
};

/// A source operator that reads splits (the DataStream source operator); the task finds it by
/// dynamic_cast and calls it on its thread.
class SplitReadingOperator {
 public:
  virtual ~SplitReadingOperator() = default;
  /// The source's coordinator provider; null when the source has the legacy shape. The job
  /// graph asks an operator instance of the source vertex for it.
  virtual std::shared_ptr<const SourceCoordinatorProvider> sourceCoordinatorProvider() const = 0;
  /// Before initializeState; `gateway` outlives the operator.
  virtual void setReaderGateway(SourceReaderGateway& gateway) = 0;
  /// Mail from the enumerator: splits (versioned bytes) for the reader; no more splits.
  virtual void handleAddSplits(const std::vector<std::string>& splits) = 0;
  virtual void handleNoMoreSplits() = 0;
  /// After emitNext returned NOTHING_AVAILABLE: the latest time to poll again when the reader
  /// signals availability (time_point::max(): only when woken); nullopt: poll with the task's
  /// back-off.
  virtual std::optional<std::chrono::steady_clock::time_point> pollAgainBy() const = 0;
};

/// A reader with splits as bytes, as the source operator drives it (knows T only).
template <typename T>
class SplitReaderRuntime {
 public:
  virtual ~SplitReaderRuntime() = default;
  virtual void start() = 0;
  virtual InputStatus pollNext(ReaderOutput<T>& output) = 0;
  /// Throws ValidationException or InternalError naming the source for bytes it cannot read.
  virtual void addSerializedSplits(const std::vector<std::string>& splits) = 0;
  virtual void notifyNoMoreSplits() = 0;
  virtual std::vector<std::string> snapshotSerializedSplits(int64_t checkpointId) = 0;
  virtual void notifyCheckpointComplete(int64_t checkpointId) = 0;
  virtual void notifyCheckpointAborted(int64_t checkpointId) = 0;
  virtual bool signalsAvailability() const = 0;
  virtual void close() = 0;
};

/// Creates SplitReaderRuntimes (every connector::Source).
template <typename T>
class SplitReaderFactory {
 public:
  virtual ~SplitReaderFactory() = default;
  /// `sourceName` names the source in errors. The reader uses `context` until it is closed.
  virtual std::unique_ptr<SplitReaderRuntime<T>> createSplitReader(
      SourceReaderContext& context, const std::string& sourceName) const = 0;
};

/// The SourceReaderContext of a reader run by a task.
class TaskSourceReaderContext final : public SourceReaderContext {
 public:
  /// `gateway` may be null (an operator driven without a task: no coordinator).
  TaskSourceReaderContext(int subtaskIndex, int parallelism, SourceReaderGateway* gateway)
      : subtaskIndex_(subtaskIndex), parallelism_(parallelism), gateway_(gateway) {}
  int getIndexOfSubtask() const override { return subtaskIndex_; }
  int currentParallelism() const override { return parallelism_; }
  void sendSplitRequest() override {
    if (gateway_ != nullptr) gateway_->sendSplitRequest();
  }
  void notifyAvailable() override {
    if (gateway_ != nullptr) gateway_->notifyAvailable();
  }
  void requestWakeUpAt(std::chrono::steady_clock::time_point time) override {
    wakeUp_ = wakeUp_ ? std::min(*wakeUp_, time) : time;
  }
  /// The wake-up the last poll asked for.
  std::optional<std::chrono::steady_clock::time_point> requestedWakeUp() const { return wakeUp_; }
  void clearWakeUp() { wakeUp_.reset(); }

 private:
  const int subtaskIndex_;
  const int parallelism_;
  SourceReaderGateway* const gateway_;
  std::optional<std::chrono::steady_clock::time_point> wakeUp_;
};

template <typename T, SourceSplit SplitT, typename EnumStateT>
class SplitReaderAdapter;
template <typename T, SourceSplit SplitT, typename EnumStateT>
class SourceCoordinatorAdapter;
template <typename T, SourceSplit SplitT, typename EnumStateT>
class FreshStartReader;

}  // namespace detail

// ---- The source ---------------------------------------------------------------------------

/// A replayable source (Flink's Source): creates the readers and the enumerator, and names the
/// serializers of its splits and of its enumerator's state. Immutable, shared by the job's
/// threads. getBoundedness() comes from eddy::Source<T>.
template <typename T, SourceSplit SplitT, typename EnumStateT>
class Source : public eddy::Source<T>,
               public detail::SplitReaderFactory<T>,
               public detail::SourceCoordinatorProvider {
 public:
  using SplitType = SplitT;
  using EnumeratorStateType = EnumStateT;

  /// One reader per subtask, on its task thread.
  virtual std::unique_ptr<SourceReader<T, SplitT>> createReader(
      SourceReaderContext& context) const = 0;
  /// The enumerator of a fresh start.
  virtual std::unique_ptr<SplitEnumerator<SplitT, EnumStateT>> createEnumerator(
      SplitEnumeratorContext<SplitT>& context) const = 0;
  /// The enumerator of a restored job, from its state in the checkpoint (which does not hold
  /// the splits the readers had: those come back to the readers themselves).
  virtual std::unique_ptr<SplitEnumerator<SplitT, EnumStateT>> restoreEnumerator(
      SplitEnumeratorContext<SplitT>& context, EnumStateT checkpoint) const = 0;
  /// Both valid as long as the source.
  virtual const SimpleVersionedSerializer<SplitT>& getSplitSerializer() const = 0;
  virtual const SimpleVersionedSerializer<EnumStateT>& getEnumeratorCheckpointSerializer()
      const = 0;

  /// The legacy shape: the reader of subtask `subtaskIndex` of `parallelism` on a fresh start
  /// (an enumerator of its own assigns it what it would get in a job). Valid while the source
  /// lives; it keeps no position.
  std::unique_ptr<eddy::SourceReader<T>> createReader(int subtaskIndex,
                                                      int parallelism) const final;

  std::unique_ptr<detail::SplitReaderRuntime<T>> createSplitReader(
      SourceReaderContext& context, const std::string& sourceName) const final;
  std::unique_ptr<detail::SourceCoordinator> createCoordinator(
      detail::SourceCoordinatorContext& context, const std::string* restoredState) const final;
};

namespace detail {

/// Rethrows the exception being handled with `prefix` before its message: a
/// ValidationException stays one, anything else becomes an InternalError.
[[noreturn]] inline void rethrowWithPrefix(const std::string& prefix) {
  try {
    throw;
  } catch (const ValidationException& error) {
    throw ValidationException(prefix + error.what());
  } catch (const std::exception& error) {
    throw InternalError(prefix + error.what());
  }
}

template <typename T, SourceSplit SplitT, typename EnumStateT>
class SplitReaderAdapter final : public SplitReaderRuntime<T> {
 public:
  SplitReaderAdapter(const connector::Source<T, SplitT, EnumStateT>& source,
                     SourceReaderContext& context, std::string sourceName)
      : reader_(source.createReader(context)),
        serializer_(source.getSplitSerializer()),
        sourceName_(std::move(sourceName)) {
    if (!reader_) throw InternalError("Source '" + sourceName_ + "' created no reader");
  }

  void start() override { reader_->start(); }
  InputStatus pollNext(ReaderOutput<T>& output) override { return reader_->pollNext(output); }
  void addSerializedSplits(const std::vector<std::string>& splits) override {
    std::vector<SplitT> decoded;
    decoded.reserve(splits.size());
    try {
      for (const std::string& bytes : splits) {
        decoded.push_back(readVersionAndDeserialize(serializer_, bytes, "a split"));
      }
    } catch (...) {
      rethrowWithPrefix("Source '" + sourceName_ + "' cannot read a split: ");
    }
    reader_->addSplits(std::move(decoded));
  }
  void notifyNoMoreSplits() override { reader_->notifyNoMoreSplits(); }
  std::vector<std::string> snapshotSerializedSplits(int64_t checkpointId) override {
    std::vector<SplitT> splits = reader_->snapshotState(checkpointId);
    std::vector<std::string> bytes;
    bytes.reserve(splits.size());
    for (const SplitT& split : splits) {
      bytes.push_back(writeVersionAndSerialize(serializer_, split));
    }
    return bytes;
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    reader_->notifyCheckpointComplete(checkpointId);
  }
  void notifyCheckpointAborted(int64_t checkpointId) override {
    reader_->notifyCheckpointAborted(checkpointId);
  }
  bool signalsAvailability() const override { return reader_->signalsAvailability(); }
  void close() override { reader_->close(); }

 private:
  std::unique_ptr<SourceReader<T, SplitT>> reader_;
  const SimpleVersionedSerializer<SplitT>& serializer_;
  std::string sourceName_;
};

template <typename T, SourceSplit SplitT, typename EnumStateT>
class SourceCoordinatorAdapter final : public SourceCoordinator,
                                       private SplitEnumeratorContext<SplitT> {
 public:
  SourceCoordinatorAdapter(const connector::Source<T, SplitT, EnumStateT>& source,
                           SourceCoordinatorContext& context, const std::string* restoredState)
      : source_(source), context_(context) {
    SplitEnumeratorContext<SplitT>& enumeratorContext = *this;
    if (restoredState != nullptr) {
      enumerator_ = source_.restoreEnumerator(enumeratorContext, decodeState(*restoredState));
    } else {
      enumerator_ = source_.createEnumerator(enumeratorContext);
    }
    if (!enumerator_) {
      throw InternalError("Source '" + context_.sourceName() + "' created no split enumerator");
    }
  }

  void start() override { enumerator_->start(); }
  void addReader(int subtask) override {
    registered_.insert(subtask);
    enumerator_->addReader(subtask);
  }
  void handleSplitRequest(int subtask) override { enumerator_->handleSplitRequest(subtask); }
  void addSplitsBack(const std::vector<std::string>& splits, int subtask) override {
    std::vector<SplitT> decoded;
    try {
      for (const std::string& bytes : splits) {
        decoded.push_back(
            readVersionAndDeserialize(source_.getSplitSerializer(), bytes, "a split"));
      }
    } catch (...) {
      rethrowWithPrefix("Source '" + context_.sourceName() + "' cannot read a split: ");
    }
    enumerator_->addSplitsBack(std::move(decoded), subtask);
  }
  std::string snapshotState(int64_t checkpointId) override {
    std::string bytes(1, static_cast<char>(kSourceCoordinatorStateVersion));
    bytes += writeVersionAndSerialize(source_.getEnumeratorCheckpointSerializer(),
                                      enumerator_->snapshotState(checkpointId));
    return bytes;
  }
  void notifyCheckpointComplete(int64_t checkpointId) override {
    enumerator_->notifyCheckpointComplete(checkpointId);
  }
  void close() override { enumerator_->close(); }

 private:
  EnumStateT decodeState(const std::string& state) const {
    const std::string prefix =
        "Cannot restore the split enumerator of source '" + context_.sourceName() + "': ";
    if (state.empty() || static_cast<uint8_t>(state[0]) != kSourceCoordinatorStateVersion) {
      throw ValidationException(prefix + "its state has an unknown format " +
                                (state.empty() ? std::string("(no bytes)")
                                               : std::to_string(static_cast<uint8_t>(state[0]))));
    }
    try {
      return readVersionAndDeserialize(source_.getEnumeratorCheckpointSerializer(),
                                       std::string_view(state).substr(1), "its state");
    } catch (...) {
      rethrowWithPrefix(prefix);
    }
  }

  // SplitEnumeratorContext
  int currentParallelism() const override { return context_.currentParallelism(); }
  std::vector<int> registeredReaders() const override {
    return std::vector<int>(registered_.begin(), registered_.end());
  }
  void assignSplit(SplitT split, int subtask) override {
    std::vector<std::string> bytes;
    bytes.push_back(writeVersionAndSerialize(source_.getSplitSerializer(), split));
    context_.assignSplits(subtask, std::move(bytes));
  }
  void assignSplits(std::map<int, std::vector<SplitT>> assignment) override {
    for (const auto& [subtask, splits] : assignment) {
      std::vector<std::string> bytes;
      bytes.reserve(splits.size());
      for (const SplitT& split : splits) {
        bytes.push_back(writeVersionAndSerialize(source_.getSplitSerializer(), split));
      }
      context_.assignSplits(subtask, std::move(bytes));
    }
  }
  void signalNoMoreSplits(int subtask) override { context_.signalNoMoreSplits(subtask); }
  void runAsync(std::function<std::function<void()>()> call, std::chrono::milliseconds initialDelay,
                std::chrono::milliseconds period) override {
    context_.runAsync(std::move(call), initialDelay, period);
  }

  const connector::Source<T, SplitT, EnumStateT>& source_;
  SourceCoordinatorContext& context_;
  std::unique_ptr<SplitEnumerator<SplitT, EnumStateT>> enumerator_;
  std::set<int> registered_;
};

/// The legacy shape of a connector::Source: one subtask's reader on a fresh start, fed by an
/// enumerator of its own (assignments to other subtasks are dropped). Not thread-safe, like
/// any legacy reader. When the reader has nothing until a time it asked for, pollNext sleeps
/// towards it (at most 20 ms), as the legacy shape's readers do.
template <typename T, SourceSplit SplitT, typename EnumStateT>
class FreshStartReader final : public eddy::SourceReader<T>,
                               private SourceReaderContext,
                               private SplitEnumeratorContext<SplitT> {
 public:
  FreshStartReader(const connector::Source<T, SplitT, EnumStateT>& source, int subtaskIndex,
                   int parallelism)
      : subtaskIndex_(subtaskIndex), parallelism_(parallelism) {
    SourceReaderContext& readerContext = *this;
    SplitEnumeratorContext<SplitT>& enumeratorContext = *this;
    reader_ = source.createReader(readerContext);
    enumerator_ = source.createEnumerator(enumeratorContext);
    if (!reader_ || !enumerator_) throw InternalError("A source created no reader or enumerator");
    enumerator_->start();
    enumerator_->addReader(subtaskIndex_);
    deliverAssignments();
    reader_->start();
  }
  ~FreshStartReader() override {
    try {
      reader_->close();
      enumerator_->close();
    } catch (...) {
      // Nothing to report a failure of closing to.
    }
  }

  InputStatus pollNext(ReaderOutput<T>& output) override {
    runDueCalls();
    deliverAssignments();
    wakeUp_.reset();
    InputStatus status = reader_->pollNext(output);
    if (status == InputStatus::NOTHING_AVAILABLE && wakeUp_) {
      std::this_thread::sleep_until(
          std::min(*wakeUp_, std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
    }
    return status;
  }

 private:
  void deliverAssignments() {
    if (!assigned_.empty()) reader_->addSplits(std::exchange(assigned_, {}));
    if (noMoreSplits_ && !noMoreSplitsDelivered_) {
      noMoreSplitsDelivered_ = true;
      reader_->notifyNoMoreSplits();
    }
  }

  // Both contexts.
  int currentParallelism() const override { return parallelism_; }
  // SourceReaderContext
  int getIndexOfSubtask() const override { return subtaskIndex_; }
  void sendSplitRequest() override { enumerator_->handleSplitRequest(subtaskIndex_); }
  void notifyAvailable() override {}
  void requestWakeUpAt(std::chrono::steady_clock::time_point time) override {
    wakeUp_ = wakeUp_ ? std::min(*wakeUp_, time) : time;
  }
  // SplitEnumeratorContext
  std::vector<int> registeredReaders() const override { return {subtaskIndex_}; }
  void assignSplit(SplitT split, int subtask) override {
    if (subtask == subtaskIndex_) assigned_.push_back(std::move(split));
  }
  void assignSplits(std::map<int, std::vector<SplitT>> assignment) override {
    auto mine = assignment.find(subtaskIndex_);
    if (mine == assignment.end()) return;
    for (SplitT& split : mine->second) assigned_.push_back(std::move(split));
  }
  void signalNoMoreSplits(int subtask) override {
    if (subtask == subtaskIndex_) noMoreSplits_ = true;
  }
  // The legacy shape has no thread of its own: the enumerator's asynchronous calls run on the
  // reader's thread, in pollNext, once due.
  void runAsync(std::function<std::function<void()>()> call, std::chrono::milliseconds initialDelay,
                std::chrono::milliseconds period) override {
    calls_.push_back(
        ScheduledCall{std::move(call), std::chrono::steady_clock::now() + initialDelay, period});
  }
  void runDueCalls() {
    const auto now = std::chrono::steady_clock::now();
    for (size_t i = 0; i < calls_.size(); ++i) {
      if (calls_[i].due > now) continue;
      std::function<void()> handle = calls_[i].call();
      if (calls_[i].period.count() > 0) {
        calls_[i].due = now + calls_[i].period;
      } else {
        calls_.erase(calls_.begin() + static_cast<std::ptrdiff_t>(i--));
      }
      handle();
    }
  }

  struct ScheduledCall {
    std::function<std::function<void()>()> call;
    std::chrono::steady_clock::time_point due;
    std::chrono::milliseconds period;
  };
  std::vector<ScheduledCall> calls_;

  const int subtaskIndex_;
  const int parallelism_;
  std::unique_ptr<SourceReader<T, SplitT>> reader_;
  std::unique_ptr<SplitEnumerator<SplitT, EnumStateT>> enumerator_;
  std::vector<SplitT> assigned_;  // until the next poll: never into the reader mid-call
  bool noMoreSplits_ = false;
  bool noMoreSplitsDelivered_ = false;
  std::optional<std::chrono::steady_clock::time_point> wakeUp_;
};

}  // namespace detail

template <typename T, SourceSplit SplitT, typename EnumStateT>
std::unique_ptr<eddy::SourceReader<T>> Source<T, SplitT, EnumStateT>::createReader(
    int subtaskIndex, int parallelism) const {
  return std::make_unique<detail::FreshStartReader<T, SplitT, EnumStateT>>(*this, subtaskIndex,
                                                                           parallelism);
}

template <typename T, SourceSplit SplitT, typename EnumStateT>
std::unique_ptr<detail::SplitReaderRuntime<T>> Source<T, SplitT, EnumStateT>::createSplitReader(
    SourceReaderContext& context, const std::string& sourceName) const {
  return std::make_unique<detail::SplitReaderAdapter<T, SplitT, EnumStateT>>(*this, context,
                                                                             sourceName);
}

template <typename T, SourceSplit SplitT, typename EnumStateT>
std::unique_ptr<detail::SourceCoordinator> Source<T, SplitT, EnumStateT>::createCoordinator(
    detail::SourceCoordinatorContext& context, const std::string* restoredState) const {
  return std::make_unique<detail::SourceCoordinatorAdapter<T, SplitT, EnumStateT>>(
      *this, context, restoredState);
}

}  // namespace eddy::connector

// ---- Built-in sources on this shape (Flink's connector.source.lib) ----------------------------

namespace eddy {

/// A split of a NumberSequenceSource: the numbers `next` to `last` (inclusive) still to emit.
struct NumberSequenceSplit {
  std::string id;
  int64_t next = 0;
  int64_t last = 0;
  std::string splitId() const { return id; }
  friend bool operator==(const NumberSequenceSplit&, const NumberSequenceSplit&) = default;
};

/// Version 1: `id:bytes next:i64 last:i64`.
class NumberSequenceSplitSerializer final
    : public connector::SimpleVersionedSerializer<NumberSequenceSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const NumberSequenceSplit& split) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(split.id);
    writer.writeInt64(split.next);
    writer.writeInt64(split.last);
    return writer.take();
  }
  NumberSequenceSplit deserialize(int version, std::string_view serialized) const override {
    const std::string what = "a NumberSequenceSource split";
    connector::checkSerializedVersion(version, kVersion, what);
    connector::SerializedFieldReader reader(serialized, what);
    NumberSequenceSplit split;
    split.id = std::string(reader.readBytes());
    split.next = reader.readInt64();
    split.last = reader.readInt64();
    reader.expectEnd();
    if (split.next > split.last) {
      reader.fail("its next number " + std::to_string(split.next) + " is beyond its last " +
                  std::to_string(split.last));
    }
    return split;
  }
};

/// The numbers from..to inclusive (fromSequence). On a fresh start at parallelism n, subtask i
/// reads the i-th of n nearly equal contiguous ranges, in order; each range is cut into
/// kSplitsPerSubtask splits (more splits than readers, as Flink's), so that a restore at
/// another parallelism spreads what is left over the new readers.
class NumberSequenceSource final
    : public connector::Source<int64_t, NumberSequenceSplit, std::vector<NumberSequenceSplit>> {
 public:
  static constexpr int kSplitsPerSubtask = 4;
  using Enumerator = connector::StaticSplitEnumerator<NumberSequenceSplit>;

  NumberSequenceSource(int64_t from, int64_t to) : from_(from), to_(to) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }
  int64_t getFrom() const { return from_; }
  int64_t getTo() const { return to_; }

  std::unique_ptr<connector::SourceReader<int64_t, NumberSequenceSplit>> createReader(
      connector::SourceReaderContext& /*context*/) const override {
    return std::make_unique<Reader>();
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context) const override {
    return std::make_unique<Enumerator>(context, planSplits(context.currentParallelism()));
  }
  std::unique_ptr<connector::SplitEnumerator<NumberSequenceSplit, std::vector<NumberSequenceSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<NumberSequenceSplit>& context,
                    std::vector<NumberSequenceSplit> checkpoint) const override {
    return Enumerator::restore(context, std::move(checkpoint));
  }
  const connector::SimpleVersionedSerializer<NumberSequenceSplit>& getSplitSerializer()
      const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<std::vector<NumberSequenceSplit>>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  /// The splits of a fresh start, per subtask (see the class comment); empty ones left out.
  std::vector<std::vector<NumberSequenceSplit>> planSplits(int parallelism) const {
    const int readers = std::max(1, parallelism);
    __int128 count = static_cast<__int128>(to_) - from_ + 1;
    if (count < 0) count = 0;
    std::vector<std::vector<NumberSequenceSplit>> plan(static_cast<size_t>(readers));
    int nextId = 0;
    for (int subtask = 0; subtask < readers; ++subtask) {
      const __int128 begin = from_ + count * subtask / readers;
      const __int128 length = from_ + count * (subtask + 1) / readers - begin;
      for (int piece = 0; piece < kSplitsPerSubtask; ++piece) {
        const __int128 first = begin + length * piece / kSplitsPerSubtask;
        const __int128 end = begin + length * (piece + 1) / kSplitsPerSubtask;  // exclusive
        if (first >= end) continue;
        plan[static_cast<size_t>(subtask)].push_back(NumberSequenceSplit{
            std::to_string(nextId++), static_cast<int64_t>(first), static_cast<int64_t>(end - 1)});
      }
    }
    return plan;
  }

 private:
  class Reader final : public connector::SequentialSplitReader<int64_t, NumberSequenceSplit> {
   protected:
    bool readSplit(NumberSequenceSplit& split, size_t limit,
                   ReaderOutput<int64_t>& output) override {
      const __int128 left = static_cast<__int128>(split.last) - split.next + 1;
      const auto count = static_cast<int64_t>(std::min<__int128>(left, limit));
      const int64_t lastEmitted = split.next + (count - 1);  // <= split.last: no overflow
      for (int64_t value = split.next;; ++value) {
        output.collect(value);
        if (value == lastEmitted) break;
      }
      if (lastEmitted == split.last) return true;
      split.next = lastEmitted + 1;
      return false;
    }
  };

  int64_t from_;
  int64_t to_;
  std::shared_ptr<const NumberSequenceSplitSerializer> splitSerializer_ =
      std::make_shared<NumberSequenceSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<NumberSequenceSplit> stateSerializer_{
      splitSerializer_, "NumberSequenceSource"};
};

/// A split of a CollectionSource: the element indices next, next + step, ... below `end`.
struct CollectionSplit {
  std::string id;
  uint64_t next = 0;
  uint64_t end = 0;  // exclusive
  uint64_t step = 1;
  std::string splitId() const { return id; }
  friend bool operator==(const CollectionSplit&, const CollectionSplit&) = default;
};

/// Version 1: `id:bytes next:varint end:varint step:varint`.
class CollectionSplitSerializer final
    : public connector::SimpleVersionedSerializer<CollectionSplit> {
 public:
  static constexpr int kVersion = 1;
  int getVersion() const override { return kVersion; }
  std::string serialize(const CollectionSplit& split) const override {
    connector::SerializedFieldWriter writer;
    writer.writeBytes(split.id);
    writer.writeVarint(split.next);
    writer.writeVarint(split.end);
    writer.writeVarint(split.step);
    return writer.take();
  }
  CollectionSplit deserialize(int version, std::string_view serialized) const override {
    const std::string what = "a CollectionSource split";
    connector::checkSerializedVersion(version, kVersion, what);
    connector::SerializedFieldReader reader(serialized, what);
    CollectionSplit split;
    split.id = std::string(reader.readBytes());
    split.next = reader.readVarint();
    split.end = reader.readVarint();
    split.step = reader.readVarint();
    reader.expectEnd();
    if (split.step == 0) reader.fail("its step is 0");
    return split;
  }
};

/// The elements of a vector, in order (fromElements / fromCollection); the elements are part of
/// the definition, so a restored job must have the same ones. On a fresh start at parallelism
/// n, subtask i reads elements i, i+n, i+2n, ... (fromElements runs it at parallelism 1), cut
/// into up to kSplitsPerSubtask splits that keep that order.
template <typename T>
class CollectionSource final
    : public connector::Source<T, CollectionSplit, std::vector<CollectionSplit>> {
 public:
  static constexpr int kSplitsPerSubtask = 4;
  using Enumerator = connector::StaticSplitEnumerator<CollectionSplit>;

  explicit CollectionSource(std::vector<T> elements)
      : elements_(std::make_shared<const std::vector<T>>(std::move(elements))) {}
  Boundedness getBoundedness() const override { return Boundedness::BOUNDED; }

  std::unique_ptr<connector::SourceReader<T, CollectionSplit>> createReader(
      connector::SourceReaderContext& /*context*/) const override {
    return std::make_unique<Reader>(elements_);
  }
  std::unique_ptr<connector::SplitEnumerator<CollectionSplit, std::vector<CollectionSplit>>>
  createEnumerator(connector::SplitEnumeratorContext<CollectionSplit>& context) const override {
    return std::make_unique<Enumerator>(context, planSplits(context.currentParallelism()));
  }
  std::unique_ptr<connector::SplitEnumerator<CollectionSplit, std::vector<CollectionSplit>>>
  restoreEnumerator(connector::SplitEnumeratorContext<CollectionSplit>& context,
                    std::vector<CollectionSplit> checkpoint) const override {
    return Enumerator::restore(context, std::move(checkpoint));
  }
  const connector::SimpleVersionedSerializer<CollectionSplit>& getSplitSerializer()
      const override {
    return *splitSerializer_;
  }
  const connector::SimpleVersionedSerializer<std::vector<CollectionSplit>>&
  getEnumeratorCheckpointSerializer() const override {
    return stateSerializer_;
  }

  /// The splits of a fresh start, per subtask (see the class comment); empty ones left out.
  std::vector<std::vector<CollectionSplit>> planSplits(int parallelism) const {
    const auto readers = static_cast<uint64_t>(std::max(1, parallelism));
    const uint64_t size = elements_->size();
    std::vector<std::vector<CollectionSplit>> plan(readers);
    int nextId = 0;
    constexpr uint64_t kPieces = kSplitsPerSubtask;
    for (uint64_t subtask = 0; subtask < readers && subtask < size; ++subtask) {
      const uint64_t count = (size - subtask + readers - 1) / readers;  // subtask's elements
      for (uint64_t piece = 0; piece < kPieces; ++piece) {
        const uint64_t first = count * piece / kPieces;
        const uint64_t end = count * (piece + 1) / kPieces;
        if (first >= end) continue;
        plan[subtask].push_back(CollectionSplit{std::to_string(nextId++),
                                                subtask + readers * first,
                                                subtask + readers * end, readers});
      }
    }
    return plan;
  }

 private:
  class Reader final : public connector::SequentialSplitReader<T, CollectionSplit> {
   public:
    explicit Reader(std::shared_ptr<const std::vector<T>> elements)
        : elements_(std::move(elements)) {}
    void addSplits(std::vector<CollectionSplit> splits) override {
      for (const CollectionSplit& split : splits) {
        if (split.next >= split.end) continue;
        const uint64_t lastIndex =
            split.next + (split.end - split.next - 1) / split.step * split.step;
        if (lastIndex >= elements_->size()) {
          throw ValidationException("Cannot restore a CollectionSource: its split '" + split.id +
                                    "' reads element " + std::to_string(lastIndex) +
                                    ", but the collection has " +
                                    std::to_string(elements_->size()) +
                                    " elements (a restored job needs the same collection)");
        }
      }
      connector::SequentialSplitReader<T, CollectionSplit>::addSplits(std::move(splits));
    }

   protected:
    bool readSplit(CollectionSplit& split, size_t limit, ReaderOutput<T>& output) override {
      for (size_t emitted = 0; emitted < limit && split.next < split.end; ++emitted) {
        output.collect((*elements_)[split.next]);
        split.next += split.step;
      }
      return split.next >= split.end;
    }

   private:
    std::shared_ptr<const std::vector<T>> elements_;
  };

  std::shared_ptr<const std::vector<T>> elements_;
  std::shared_ptr<const CollectionSplitSerializer> splitSerializer_ =
      std::make_shared<CollectionSplitSerializer>();
  connector::StaticSplitEnumeratorStateSerializer<CollectionSplit> stateSerializer_{
      splitSerializer_, "CollectionSource"};
};

}  // namespace eddy

#include "runtime/operators/window/window_aggregate_operator.h"

#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <utility>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/operator_state_store.h"
#include "runtime/operators/chunk_exchange.h"
#include "runtime/operators/stored_rows/stored_row_codec.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::accumulate;
using function::Accumulator;
using function::AggregateCall;
using function::aggregateResult;
using function::createAccumulator;

using relational::WindowKind;
using relational::WindowSpec;

namespace {

constexpr size_t kWindowEndBytes = 8;

/// Feeds one input row to every call: `valueOf(column)` reads the row's value of an input
/// column. A call with a FILTER column sees only rows where it is TRUE.
template <typename ValueOf>
void accumulateCalls(const std::vector<AggregateCall>& calls,
                     std::vector<Accumulator>& accumulators, ValueOf&& valueOf) {
  for (size_t i = 0; i < calls.size(); ++i) {
    const AggregateCall& call = calls[i];
    if (call.filterColumn >= 0) {
      Value filter = valueOf(call.filterColumn);
      if (filter.isNull() || !filter.get<bool>()) continue;
    }
    Value input = call.argumentColumn >= 0 ? valueOf(call.argumentColumn) : Value(int64_t{1});
    accumulate(call, accumulators[i], input, /*retract=*/false);
  }
}

int64_t decodeWindowEnd(std::string_view windowKey) {
  uint64_t bits = 0;
  for (size_t i = 0; i < kWindowEndBytes; ++i) {
    bits = (bits << 8) | static_cast<uint8_t>(windowKey[i]);
  }
  return static_cast<int64_t>(bits ^ (uint64_t{1} << 63));
}

// --- Checkpoints: the pieces of a block body (docs/state_format.md, "Window aggregate"). ---

void writeInt64(int64_t value, std::string& out) { TypeSerializer<int64_t>::serialize(value, out); }

int64_t readInt64(std::string_view& in) { return TypeSerializer<int64_t>::deserialize(in); }

/// valueList := count:varint Value{count}.
void writeValueList(const Value* values, size_t count, std::string& out) {
  serialization::writeVarint(count, out);
  for (size_t i = 0; i < count; ++i) TypeSerializer<Value>::serialize(values[i], out);
}

/// Reads a valueList's count; the caller checks it before reading that many values, so a
/// corrupted count never sizes an allocation.
uint64_t readValueCount(std::string_view& in) { return serialization::readVarint(in); }

void readValues(std::string_view& in, uint64_t count, std::vector<Value>& out) {
  for (uint64_t i = 0; i < count; ++i) out.push_back(TypeSerializer<Value>::deserialize(in));
}

void checkFullyRead(std::string_view rest, const char* what) {
  if (!rest.empty()) throw InternalError(fmt::format("trailing bytes after {}", what));
}

/// A window key's key bytes (after the window end).
std::string_view keyBytesOf(std::string_view windowKey) {
  return windowKey.substr(kWindowEndBytes);
}

/// The pending windows of TUMBLE, HOP and CUMULATE as they were at a freeze: per window its key
/// bytes (one arena), its bounds and its key and accumulator values (one flat array of Values),
/// copied on the task thread; key groups, the sort and the serialization happen in write(), on
/// the task's async snapshot writer. write() produces the block bodies of
/// docs/state_format.md, "Window aggregate": per key group its keys by key bytes, each key's
/// windows by end.
class FrozenWindows final : public state::FrozenKeyGroupBodies {
 public:
  FrozenWindows(KeyGroupRange range, int maxParallelism, size_t windows)
      : FrozenKeyGroupBodies(range), maxParallelism_(maxParallelism) {
    windows_.reserve(windows);
  }

  void add(std::string_view keyBytes, const TimeWindow& window, const std::vector<Value>& keyValues,
           const std::vector<function::Accumulator>& accumulators) {
    Window frozen;
    frozen.keyBegin = keyBytes_.size();
    frozen.keySize = static_cast<uint32_t>(keyBytes.size());
    frozen.start = window.start;
    frozen.end = window.end;
    frozen.valuesBegin = values_.size();
    frozen.keyValueCount = static_cast<uint32_t>(keyValues.size());
    keyBytes_.append(keyBytes);
    values_.insert(values_.end(), keyValues.begin(), keyValues.end());
    for (const function::Accumulator& accumulator : accumulators) {
      values_.insert(values_.end(), accumulator.begin(), accumulator.end());
    }
    frozen.valueCount = static_cast<uint32_t>(values_.size() - frozen.valuesBegin);
    windows_.push_back(frozen);
  }

 protected:
  void write(std::vector<std::string>& bodies) override {
    // One flat array sorted by key group, key bytes and window end, then written in runs: no
    // node per key, and key bytes are compared only on ties of their 16-byte prefixes.
    struct Entry {
      int keyGroup;
      KeyOrderPrefix prefix;
      std::string_view keyBytes;
      const Window* window;
    };
    std::vector<Entry> entries;
    entries.reserve(windows_.size());
    for (const Window& window : windows_) {
      const std::string_view keyBytes =
          std::string_view(keyBytes_).substr(window.keyBegin, window.keySize);
      const int keyGroup = assignToKeyGroup(keyBytes, maxParallelism_);
      if (range().contains(keyGroup)) {
        entries.push_back(Entry{keyGroup, keyOrderPrefix(keyBytes), keyBytes, &window});
      }
    }
    sortByKeyGroupAndKey(entries, [](const Entry& left, const Entry& right) {
      return left.window->end < right.window->end;
    });
    std::string value;
    for (size_t groupStart = 0; groupStart < entries.size();) {
      const int keyGroup = entries[groupStart].keyGroup;
      size_t groupEnd = groupStart;
      size_t keys = 0;
      for (; groupEnd < entries.size() && entries[groupEnd].keyGroup == keyGroup; ++groupEnd) {
        if (groupEnd == groupStart || !sameKey(entries[groupEnd], entries[groupEnd - 1])) ++keys;
      }
      std::string& body = bodies[static_cast<size_t>(keyGroup - range().startKeyGroup)];
      serialization::writeVarint(keys, body);
      for (size_t keyStart = groupStart; keyStart < groupEnd;) {
        size_t keyEnd = keyStart + 1;
        while (keyEnd < groupEnd && sameKey(entries[keyEnd], entries[keyStart])) ++keyEnd;
        state::writeLengthPrefixed(entries[keyStart].keyBytes, body);
        serialization::writeVarint(keyEnd - keyStart, body);
        for (size_t i = keyStart; i < keyEnd; ++i) {
          const Window& window = *entries[i].window;
          state::writeSerializedValue<int64_t, TypeSerializer<int64_t>>(window.end, body);
          value.clear();
          writeInt64(window.start, value);
          const Value* values = values_.data() + window.valuesBegin;
          writeValueList(values, window.keyValueCount, value);
          writeValueList(values + window.keyValueCount, window.valueCount - window.keyValueCount,
                         value);
          state::writeLengthPrefixed(value, body);
        }
        keyStart = keyEnd;
      }
      groupStart = groupEnd;
    }
    // What the freeze copied is let go of here, on the writer's thread.
    windows_ = {};
    values_ = {};
    std::string().swap(keyBytes_);
  }

 private:
  struct Window {
    size_t keyBegin = 0;  // in keyBytes_
    uint32_t keySize = 0;
    uint32_t keyValueCount = 0;
    int64_t start = 0;
    int64_t end = 0;
    size_t valuesBegin = 0;  // in values_: the key values, then every accumulator's values
    uint32_t valueCount = 0;
  };
  const int maxParallelism_;
  std::vector<Window> windows_;
  std::string keyBytes_;
  std::vector<Value> values_;
};

}  // namespace

WindowAggregateOperator::WindowAggregateOperator(std::shared_ptr<const WindowAggregateSpec> spec)
    : spec_(std::move(spec)), assigner_(spec_->window, *spec_->inputRowType) {
  using Kind = relational::WindowOutputColumn::Kind;
  const auto& fields = spec_->outputRowType->getFields();
  if (fields.size() != spec_->outputColumns.size()) {
    throw InternalError(
        fmt::format("A window aggregate has {} output columns but its type {} has {}.",
                    spec_->outputColumns.size(), spec_->outputRowType->toString(), fields.size()));
  }
  for (size_t i = 0; i < fields.size(); ++i) {
    const relational::WindowOutputColumn& column = spec_->outputColumns[i];
    bool fits = true;
    switch (column.kind) {
      case Kind::KEY:
        fits = column.index >= 0 && column.index < static_cast<int>(spec_->keyColumns.size());
        break;
      case Kind::CALL:
        fits = column.index >= 0 && column.index < static_cast<int>(spec_->calls.size());
        break;
      case Kind::WINDOW_START:
      case Kind::WINDOW_END:
      case Kind::WINDOW_TIME:
        fits = vector::physicalLayoutOf(*fields[i].type) == vector::PhysicalLayout::kTimestamp;
        break;
    }
    if (!fits) {
      throw InternalError(
          fmt::format("Output column {} ({}) of a window aggregate does not fit "
                      "its spec.",
                      i, fields[i].name));
    }
  }
  accumulatorSizes_.reserve(spec_->calls.size());
  for (const AggregateCall& call : spec_->calls) {
    accumulatorSizes_.push_back(createAccumulator(call).size());
  }
  if (spec_->window.kind == WindowKind::SESSION) {
    positionInSessionRow_.assign(spec_->inputRowType->getFieldCount(), -1);
    auto use = [this](int column) {
      if (column < 0 || positionInSessionRow_[column] >= 0) return;
      positionInSessionRow_[column] = static_cast<int>(inputColumns_.size());
      inputColumns_.push_back(column);
    };
    for (const AggregateCall& call : spec_->calls) {
      use(call.argumentColumn);
      use(call.filterColumn);
    }
  }
}

WindowAggregateOperator::~WindowAggregateOperator() = default;

void WindowAggregateOperator::open(OperatorContext& context) {
  StreamOperator::open(context);
  batchMode_ = context.executionMode == RuntimeExecutionMode::BATCH;
  eventTime_ = !batchMode_ && !spec_->window.processingTime;
  if (spec_->window.processingTime && context.processingTimeService == nullptr) {
    throw InternalError("A processing-time window aggregate needs a ProcessingTimeService.");
  }
  output_ = std::make_unique<vector::Chunk>(spec_->outputRowType);
  if (batchMode_) return;
  // Checkpoints: the watermark and the pending windows come back from the state stores (which
  // the context restored from the snapshot) and go into every snapshot.
  if (eventTime_) {
    watermarkState_ = context.operatorStateStore().getUnionListState(
        ListStateDescriptor<int64_t>(kWatermarkStateName));
    // One value per old subtask. An aligned checkpoint gives them all the same one (every
    // input channel's part before the barrier holds the same watermarks for every subtask);
    // where they differ, the lowest errs toward accepting rows rather than dropping them.
    std::vector<int64_t> restored = watermarkState_->get();
    if (!restored.empty()) currentWatermark_ = *std::min_element(restored.begin(), restored.end());
  }
  context.keyedStateBackend().registerRawKeyedState(pendingStateName(), state::StateKind::kMap,
                                                    pendingState_);
}

void WindowAggregateOperator::snapshotState(StateSnapshotContext&) {
  if (watermarkState_ != nullptr) watermarkState_->update({currentWatermark_});
}

void WindowAggregateOperator::processBatch(int, BatchPtr batch) {
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    processChunk(chunk);
  }
}

void WindowAggregateOperator::processChunk(const vector::Chunk& chunk) {
  const WindowSpec& window = spec_->window;
  // Processing time: every row of a chunk arrives at the same instant.
  int64_t now =
      window.processingTime
          ? assigner_.toWindowScale(context().processingTimeService->currentProcessingTime())
          : 0;
  const vector::Vector* timeColumn =
      window.processingTime ? nullptr : &chunk.column(window.timeColumn);
  for (int64_t row = 0; row < chunk.size(); ++row) {
    int64_t time =
        timeColumn ? assigner_.toWindowScale(WindowAssigner::rowTime(*timeColumn, row)) : now;
    keyBytes_.clear();
    vector::appendKeyBytes(chunk, spec_->keyColumns, row, keyBytes_);
    if (window.kind == WindowKind::SESSION) {
      processSessionRow(chunk, row, time);
      continue;
    }
    assigner_.assignWindows(time, assigned_);
    bool accepted = false;
    for (const TimeWindow& assigned : assigned_) {
      if (isLate(assigned.end)) continue;  // HOP/CUMULATE: only this window of the row is late
      accepted = true;
      makeWindowKey(assigned.end, keyBytes_, windowKey_);
      auto [position, inserted] = windows_.try_emplace(windowKey_);
      WindowState& state = position->second;
      if (inserted) {
        state.keyValues.reserve(spec_->keyColumns.size());
        for (int column : spec_->keyColumns) {
          state.keyValues.push_back(chunk.column(column).valueAt(row));
        }
        state.window = assigned;
        state.accumulators = newAccumulators();
        addPending(assigned.end, windowKey_);
      }
      accumulateRow(chunk, row, state.accumulators);
    }
    if (!accepted) countLateRow();
  }
}

void WindowAggregateOperator::processSessionRow(const vector::Chunk& chunk, int64_t row,
                                                int64_t time) {
  TimeWindow merged{time, time + spec_->window.size};
  auto key = sessionKeys_.find(keyBytes_);
  // The key's sessions that intersect the new one (Flink's TimeWindow.intersects, bounds
  // inclusive) are contiguous: they are sorted by start and pairwise disjoint, so by end too.
  size_t first = 0;
  size_t last = 0;
  if (key != sessionKeys_.end()) {
    std::vector<Session>& sessions = key->second.sessions;
    first = static_cast<size_t>(std::partition_point(sessions.begin(), sessions.end(),
                                                     [&](const Session& session) {
                                                       return session.window.end < merged.start;
                                                     }) -
                                sessions.begin());
    last = first;
    while (last < sessions.size() && sessions[last].window.start <= merged.end) ++last;
    if (first < last) {
      merged.start = std::min(merged.start, sessions[first].window.start);
      merged.end = std::max(merged.end, sessions[last - 1].window.end);
    }
  }
  if (isLate(merged.end)) {
    countLateRow();
    return;
  }
  if (key == sessionKeys_.end()) {
    key = sessionKeys_.try_emplace(keyBytes_).first;
    key->second.keyValues.reserve(spec_->keyColumns.size());
    for (int column : spec_->keyColumns) {
      key->second.keyValues.push_back(chunk.column(column).valueAt(row));
    }
  }
  SessionRow sessionRow;
  sessionRow.sequence = nextSequence_++;
  sessionRow.values.reserve(inputColumns_.size());
  for (int column : inputColumns_) sessionRow.values.push_back(chunk.column(column).valueAt(row));

  std::vector<Session>& sessions = key->second.sessions;
  if (first == last) {
    Session session;
    session.window = merged;
    session.rows.push_back(std::move(sessionRow));
    sessions.insert(sessions.begin() + static_cast<std::ptrdiff_t>(first), std::move(session));
  } else {
    for (size_t i = first; i < last; ++i) {
      makeWindowKey(sessions[i].window.end, keyBytes_, windowKey_);
      removePending(sessions[i].window.end, windowKey_);
    }
    Session& target = sessions[first];
    for (size_t i = first + 1; i < last; ++i) {
      std::move(sessions[i].rows.begin(), sessions[i].rows.end(), std::back_inserter(target.rows));
    }
    target.rows.push_back(std::move(sessionRow));
    target.window = merged;
    sessions.erase(sessions.begin() + static_cast<std::ptrdiff_t>(first + 1),
                   sessions.begin() + static_cast<std::ptrdiff_t>(last));
  }
  makeWindowKey(merged.end, keyBytes_, windowKey_);
  addPending(merged.end, windowKey_);
}

bool WindowAggregateOperator::isLate(int64_t end) const {
  return eventTime_ && assigner_.windowTime(end) <= currentWatermark_;
}

void WindowAggregateOperator::countLateRow() {
  if (context().metrics != nullptr) {
    context().metrics->numLateRecordsDropped.fetch_add(1, std::memory_order_relaxed);
  }
}

void WindowAggregateOperator::makeWindowKey(int64_t end, std::string_view keyBytes,
                                            std::string& out) const {
  out.clear();
  // Big-endian with the sign bit flipped: byte order is numeric order.
  uint64_t bits = static_cast<uint64_t>(end) ^ (uint64_t{1} << 63);
  for (int shift = 56; shift >= 0; shift -= 8) out.push_back(static_cast<char>(bits >> shift));
  out.append(keyBytes);
}

void WindowAggregateOperator::addPending(int64_t end, const std::string& windowKey) {
  int64_t windowTime = assigner_.windowTime(end);
  auto [position, inserted] = pendingWindows_.try_emplace(windowTime);
  position->second.insert(windowKey);
  if (inserted && !batchMode_ && spec_->window.processingTime) {
    context().processingTimeService->registerTimer(
        windowTime, [this](int64_t time) { onProcessingTime(time); });
  }
}

void WindowAggregateOperator::removePending(int64_t end, const std::string& windowKey) {
  auto position = pendingWindows_.find(assigner_.windowTime(end));
  EDDY_CHECK(position != pendingWindows_.end());
  position->second.erase(windowKey);
  if (position->second.empty()) pendingWindows_.erase(position);
}

void WindowAggregateOperator::fireWindows(int64_t time) {
  std::vector<const std::string*> due;
  while (!pendingWindows_.empty() && pendingWindows_.begin()->first <= time) {
    auto node = pendingWindows_.extract(pendingWindows_.begin());
    due.clear();
    for (const std::string& windowKey : node.mapped()) due.push_back(&windowKey);
    std::sort(due.begin(), due.end(),
              [](const std::string* left, const std::string* right) { return *left < *right; });
    for (const std::string* windowKey : due) {
      if (spec_->window.kind == WindowKind::SESSION) {
        keyBytes_.assign(*windowKey, kWindowEndBytes);
        fireSession(keyBytes_, decodeWindowEnd(*windowKey));
        continue;
      }
      auto position = windows_.find(*windowKey);
      EDDY_CHECK(position != windows_.end());
      const WindowState& state = position->second;
      appendResult(state.keyValues, state.window, state.accumulators);
      windows_.erase(position);
    }
  }
}

void WindowAggregateOperator::fireSession(const std::string& keyBytes, int64_t end) {
  auto key = sessionKeys_.find(keyBytes);
  EDDY_CHECK(key != sessionKeys_.end());
  std::vector<Session>& sessions = key->second.sessions;
  auto session = std::find_if(sessions.begin(), sessions.end(),
                              [end](const Session& s) { return s.window.end == end; });
  EDDY_CHECK(session != sessions.end());
  // Merged sessions concatenate their rows; the calls see them in arrival order.
  std::vector<SessionRow>& rows = session->rows;
  auto bySequence = [](const SessionRow& left, const SessionRow& right) {
    return left.sequence < right.sequence;
  };
  if (!std::is_sorted(rows.begin(), rows.end(), bySequence)) {
    std::sort(rows.begin(), rows.end(), bySequence);
  }
  std::vector<Accumulator> accumulators = newAccumulators();
  for (const SessionRow& row : rows) {
    accumulateCalls(spec_->calls, accumulators,
                    [&](int column) -> Value { return row.values[positionInSessionRow_[column]]; });
  }
  appendResult(key->second.keyValues, session->window, accumulators);
  sessions.erase(session);
  if (sessions.empty()) sessionKeys_.erase(key);
}

void WindowAggregateOperator::onProcessingTime(int64_t time) {
  fireWindows(time);
  emitOutput();
}

void WindowAggregateOperator::processWatermark(Watermark watermark) {
  if (eventTime_ && watermark.timestamp > currentWatermark_) {
    currentWatermark_ = watermark.timestamp;
    fireWindows(currentWatermark_);
    emitOutput();
  }
  output().emitWatermark(watermark);
}

void WindowAggregateOperator::finish() {
  // Bounded input ended: every accepted row reaches the output, whatever the clocks say.
  fireWindows(Watermark::kMax);
  emitOutput();
}

std::vector<Accumulator> WindowAggregateOperator::newAccumulators() const {
  std::vector<Accumulator> accumulators;
  accumulators.reserve(spec_->calls.size());
  for (const AggregateCall& call : spec_->calls) accumulators.push_back(createAccumulator(call));
  return accumulators;
}

void WindowAggregateOperator::accumulateRow(const vector::Chunk& chunk, int64_t row,
                                            std::vector<Accumulator>& accumulators) const {
  accumulateCalls(spec_->calls, accumulators,
                  [&](int column) { return chunk.column(column).valueAt(row); });
}

void WindowAggregateOperator::appendResult(const std::vector<Value>& keyValues,
                                           const TimeWindow& window,
                                           const std::vector<Accumulator>& accumulators) {
  using Kind = relational::WindowOutputColumn::Kind;
  for (size_t i = 0; i < spec_->outputColumns.size(); ++i) {
    const relational::WindowOutputColumn& column = spec_->outputColumns[i];
    vector::Vector& out = output_->mutableColumn(static_cast<int>(i));
    switch (column.kind) {
      case Kind::KEY:
        out.appendValue(keyValues[column.index]);
        break;
      case Kind::WINDOW_START:
        out.appendTimestamp(window.start, 0);
        break;
      case Kind::WINDOW_END:
        out.appendTimestamp(window.end, 0);
        break;
      case Kind::WINDOW_TIME:
        out.appendTimestamp(assigner_.windowTime(window.end), 0);
        break;
      case Kind::CALL:
        out.appendValue(aggregateResult(spec_->calls[column.index], accumulators[column.index]));
        break;
    }
  }
  output_->mutableRowKinds().push_back(RowKind::INSERT);
  if (output_->size() >= static_cast<int64_t>(kDefaultBatchSize)) emitOutput();
}

void WindowAggregateOperator::emitOutput() { emitChunk(output_, output()); }

// --- Checkpoints. ---

void WindowAggregateOperator::PendingWindowsState::snapshotKeyGroups(
    KeyGroupRange range, int maxParallelism, std::vector<std::string>& bodies) const {
  if (operator_->spec_->window.kind == WindowKind::SESSION) {
    operator_->snapshotSessions(range, maxParallelism, bodies);
  } else {
    operator_->snapshotWindows(range, maxParallelism, bodies);
  }
}

std::unique_ptr<state::FrozenKeyGroups>
WindowAggregateOperator::PendingWindowsState::freezeKeyGroups(KeyGroupRange range,
                                                              int maxParallelism) const {
  if (operator_->spec_->window.kind == WindowKind::SESSION) {
    return RawKeyedState::freezeKeyGroups(range, maxParallelism);  // written at the freeze
  }
  return operator_->freezeWindows(range, maxParallelism);
}

void WindowAggregateOperator::PendingWindowsState::restoreKeyGroup(int keyGroup,
                                                                   std::string_view body) {
  try {
    if (operator_->spec_->window.kind == WindowKind::SESSION) {
      operator_->restoreSessions(keyGroup, body);
    } else {
      operator_->restoreWindows(keyGroup, body);
    }
  } catch (const ValidationException&) {
    throw;  // a snapshot of another query, already named
  } catch (const std::exception& error) {
    // Bytes that do not decode: InternalError from the readers, or a corrupted count that a
    // reader reserved for (std::length_error, std::bad_alloc).
    throw InternalError(fmt::format(
        "Cannot restore state '{}' of operator '{}' in key group {}: {}",
        operator_->pendingStateName(), operator_->context().operatorName, keyGroup, error.what()));
  }
}

const char* WindowAggregateOperator::pendingStateName() const {
  return spec_->window.kind == WindowKind::SESSION ? kSessionsStateName : kWindowsStateName;
}

std::unique_ptr<state::FrozenKeyGroups> WindowAggregateOperator::freezeWindows(
    KeyGroupRange range, int maxParallelism) const {
  auto frozen = std::make_unique<FrozenWindows>(range, maxParallelism, windows_.size());
  for (const auto& [windowKey, state] : windows_) {
    frozen->add(keyBytesOf(windowKey), state.window, state.keyValues, state.accumulators);
  }
  return frozen;
}

void WindowAggregateOperator::snapshotWindows(KeyGroupRange range, int maxParallelism,
                                              std::vector<std::string>& bodies) const {
  state::writeAllKeyGroups(*freezeWindows(range, maxParallelism), range, bodies);
}

void WindowAggregateOperator::snapshotSessions(KeyGroupRange range, int maxParallelism,
                                               std::vector<std::string>& bodies) const {
  // One flat array sorted by key group and key bytes, then written in runs (as
  // snapshotWindows): no tree node per key.
  struct Entry {
    int keyGroup;
    KeyOrderPrefix prefix;
    std::string_view keyBytes;
    const SessionKey* key;
  };
  std::vector<Entry> entries;
  entries.reserve(sessionKeys_.size());
  for (const auto& [keyBytes, key] : sessionKeys_) {
    int keyGroup = assignToKeyGroup(keyBytes, maxParallelism);
    if (range.contains(keyGroup)) {
      entries.push_back(Entry{keyGroup, keyOrderPrefix(keyBytes), keyBytes, &key});
    }
  }
  sortByKeyGroupAndKey(entries, [](const Entry&, const Entry&) { return false; });
  std::string value;
  for (size_t groupStart = 0; groupStart < entries.size();) {
    const int keyGroup = entries[groupStart].keyGroup;
    size_t groupEnd = groupStart;
    while (groupEnd < entries.size() && entries[groupEnd].keyGroup == keyGroup) ++groupEnd;
    std::string& body = bodies[static_cast<size_t>(keyGroup - range.startKeyGroup)];
    serialization::writeVarint(groupEnd - groupStart, body);
    for (size_t k = groupStart; k < groupEnd; ++k) {
      const SessionKey& key = *entries[k].key;
      state::writeLengthPrefixed(entries[k].keyBytes, body);
      serialization::writeVarint(key.sessions.size(), body);
      for (const Session& session : key.sessions) {  // by start
        state::writeSerializedValue<int64_t, TypeSerializer<int64_t>>(session.window.end, body);
        value.clear();
        writeInt64(session.window.start, value);
        writeValueList(key.keyValues.data(), key.keyValues.size(), value);
        serialization::writeVarint(inputColumns_.size(), value);
        serialization::writeVarint(session.rows.size(), value);
        for (const SessionRow& row : session.rows) {  // merged sessions: not in sequence order
          serialization::writeVarint(row.sequence, value);
          for (const Value& input : row.values) TypeSerializer<Value>::serialize(input, value);
        }
        state::writeLengthPrefixed(value, body);
      }
    }
    groupStart = groupEnd;
  }
}

std::string_view WindowAggregateOperator::readRestoredKey(int keyGroup,
                                                          std::string_view& body) const {
  std::string_view keyBytes = state::readLengthPrefixed(body);
  int written = assignToKeyGroup(keyBytes, context().maxParallelism);
  if (written != keyGroup) {
    throw InternalError(
        fmt::format("a key of key group {} is in the block of key group {}", written, keyGroup));
  }
  return keyBytes;
}

void WindowAggregateOperator::throwRestoredShapeMismatch(const std::string& what) const {
  throw ValidationException(
      fmt::format("Cannot restore state '{}' of operator '{}': the snapshot's windows have {}; "
                  "was the query changed?",
                  pendingStateName(), context().operatorName, what));
}

void WindowAggregateOperator::restoreWindows(int keyGroup, std::string_view body) {
  // Decoded completely before anything is added, so a block that does not decode adds nothing.
  std::vector<std::pair<std::string, WindowState>> restored;
  size_t accumulatorValues = 0;
  for (size_t size : accumulatorSizes_) accumulatorValues += size;
  uint64_t keyCount = serialization::readVarint(body);
  for (uint64_t k = 0; k < keyCount; ++k) {
    std::string_view keyBytes = readRestoredKey(keyGroup, body);
    uint64_t windowCount = serialization::readVarint(body);
    for (uint64_t w = 0; w < windowCount; ++w) {
      WindowState state;
      state.window.end = state::readSerializedValue<int64_t, TypeSerializer<int64_t>>(
          state::readLengthPrefixed(body));
      std::string_view value = state::readLengthPrefixed(body);
      state.window.start = readInt64(value);
      if (state.window.start >= state.window.end) {
        throw InternalError(
            fmt::format("an empty window [{}, {})", state.window.start, state.window.end));
      }
      uint64_t keyValueCount = readValueCount(value);
      if (keyValueCount != spec_->keyColumns.size()) {
        throwRestoredShapeMismatch(
            fmt::format("{} key columns, the query {}", keyValueCount, spec_->keyColumns.size()));
      }
      readValues(value, keyValueCount, state.keyValues);
      uint64_t accumulatorValueCount = readValueCount(value);
      if (accumulatorValueCount != accumulatorValues) {
        throwRestoredShapeMismatch(fmt::format("{} accumulator values, the query's calls {}",
                                               accumulatorValueCount, accumulatorValues));
      }
      state.accumulators.resize(accumulatorSizes_.size());
      for (size_t call = 0; call < accumulatorSizes_.size(); ++call) {
        readValues(value, accumulatorSizes_[call], state.accumulators[call]);
      }
      checkFullyRead(value, "a window");
      std::string windowKey;
      makeWindowKey(state.window.end, keyBytes, windowKey);
      restored.emplace_back(std::move(windowKey), std::move(state));
    }
  }
  checkFullyRead(body, "the windows of a key group");
  for (auto& [windowKey, state] : restored) {
    int64_t end = state.window.end;
    windows_.insert_or_assign(windowKey, std::move(state));
    addPending(end, windowKey);
  }
}

void WindowAggregateOperator::restoreSessions(int keyGroup, std::string_view body) {
  std::vector<std::pair<std::string, SessionKey>> restored;
  uint64_t maxSequence = 0;
  bool anyRow = false;
  uint64_t keyCount = serialization::readVarint(body);
  for (uint64_t k = 0; k < keyCount; ++k) {
    std::string_view keyBytes = readRestoredKey(keyGroup, body);
    SessionKey key;
    uint64_t sessionCount = serialization::readVarint(body);
    for (uint64_t s = 0; s < sessionCount; ++s) {
      Session session;
      session.window.end = state::readSerializedValue<int64_t, TypeSerializer<int64_t>>(
          state::readLengthPrefixed(body));
      std::string_view value = state::readLengthPrefixed(body);
      session.window.start = readInt64(value);
      if (session.window.start >= session.window.end) {
        throw InternalError(
            fmt::format("an empty session [{}, {})", session.window.start, session.window.end));
      }
      // A key's sessions are sorted by start and pairwise disjoint, not even touching.
      if (!key.sessions.empty() && key.sessions.back().window.end >= session.window.start) {
        throw InternalError(fmt::format(
            "sessions [{}, {}) and [{}, {}) of one key intersect", key.sessions.back().window.start,
            key.sessions.back().window.end, session.window.start, session.window.end));
      }
      uint64_t keyValueCount = readValueCount(value);
      if (keyValueCount != spec_->keyColumns.size()) {
        throwRestoredShapeMismatch(
            fmt::format("{} key columns, the query {}", keyValueCount, spec_->keyColumns.size()));
      }
      std::vector<Value> keyValues;
      readValues(value, keyValueCount, keyValues);
      if (s == 0) key.keyValues = std::move(keyValues);
      uint64_t valuesPerRow = serialization::readVarint(value);
      if (valuesPerRow != inputColumns_.size()) {
        throwRestoredShapeMismatch(fmt::format("{} input values per row, the query's calls read {}",
                                               valuesPerRow, inputColumns_.size()));
      }
      uint64_t rowCount = serialization::readVarint(value);
      if (rowCount == 0) throw InternalError("a session without rows");
      // Every row takes at least one byte: a corrupted count cannot size the allocation.
      session.rows.reserve(std::min<uint64_t>(rowCount, value.size()));
      for (uint64_t r = 0; r < rowCount; ++r) {
        SessionRow row;
        row.sequence = serialization::readVarint(value);
        maxSequence = std::max(maxSequence, row.sequence);
        anyRow = true;
        row.values.reserve(inputColumns_.size());
        readValues(value, valuesPerRow, row.values);
        session.rows.push_back(std::move(row));
      }
      checkFullyRead(value, "a session");
      key.sessions.push_back(std::move(session));
    }
    if (key.sessions.empty()) throw InternalError("a key without sessions");
    restored.emplace_back(std::string(keyBytes), std::move(key));
  }
  checkFullyRead(body, "the sessions of a key group");
  for (auto& [keyBytes, key] : restored) {
    if (auto existing = sessionKeys_.find(keyBytes); existing != sessionKeys_.end()) {
      // The restored sessions replace the key's sessions.
      for (const Session& session : existing->second.sessions) {
        makeWindowKey(session.window.end, keyBytes, windowKey_);
        removePending(session.window.end, windowKey_);
      }
      sessionKeys_.erase(existing);
    }
    for (const Session& session : key.sessions) {
      makeWindowKey(session.window.end, keyBytes, windowKey_);
      addPending(session.window.end, windowKey_);
    }
    sessionKeys_.insert_or_assign(keyBytes, std::move(key));
  }
  // Rows arriving from now on come after every restored row of their key.
  if (anyRow) nextSequence_ = std::max(nextSequence_, maxSequence + 1);
}

}  // namespace eddy::runtime::operators

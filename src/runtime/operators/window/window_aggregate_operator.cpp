#include "runtime/operators/window/window_aggregate_operator.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/check.h"
#include "eddy/exceptions.h"
#include "runtime/operators/chunk_exchange.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

using function::Accumulator;
using function::AggregateCall;
using function::accumulate;
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

}  // namespace eddy::runtime::operators

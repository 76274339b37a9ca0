// AggregateCall's accumulators: created, updated, merged and read by kind (see the header); the
// arithmetic of each family is in numeric_accumulators, collection_accumulators and
// distinct_table.
#include "function/aggregate/aggregate_call.h"

#include "common/check.h"
#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "function/aggregate/collection_accumulators.h"
#include "function/aggregate/numeric_accumulators.h"

namespace eddy::function {

namespace {

Accumulator createInnerAccumulator(const AggregateCall& call) {
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return {Value(int64_t{0})};
    case AggregateKind::SUM:
    case AggregateKind::AVG:
      return {Value(), Value(int64_t{0})};
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      if (!call.retractable) return {Value()};  // the extreme so far; NULL before any input
      return {Value::ofMap({})};
    case AggregateKind::SINGLE_VALUE:
      return {Value(int64_t{0}), Value(int64_t{0}), Value::ofMap({})};
    case AggregateKind::FIRST_VALUE:
    case AggregateKind::LAST_VALUE:
    case AggregateKind::LISTAGG:
    case AggregateKind::COLLECT:
      return {Value::ofMap({})};
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      return {Value(int64_t{0}), Value(0.0), Value(0.0)};
    case AggregateKind::LAG:
      return {Value::ofArray({})};  // the last offset + 1 values, oldest first
    case AggregateKind::JSON_OBJECTAGG:
    case AggregateKind::JSON_ARRAYAGG:
      return {Value::ofMap({})};
  }
  return {};
}

/// `accumulator` points at the call's values (after the DISTINCT map, if any); changed in
/// place, so a MIN/MAX map is not copied per row.
void accumulateInner(const AggregateCall& call, Value* accumulator, const Value& input,
                     bool retract) {
  int64_t step = retract ? -1 : 1;
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      accumulator[0].getMutable<int64_t>() += step;
      return;
    case AggregateKind::SUM:
    case AggregateKind::AVG:
      accumulator[0] = addToSum(accumulator[0], input, retract);
      accumulator[1].getMutable<int64_t>() += step;
      return;
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      if (!call.retractable) {
        if (retract) throw InternalError("a retraction reached a MIN/MAX without retraction");
        if (input.isNull()) return;
        if (accumulator[0].isNull()) {
          accumulator[0] = input;
        } else {
          const int order = compareValues(input, accumulator[0]);
          if (call.kind == AggregateKind::MIN ? order < 0 : order > 0) accumulator[0] = input;
        }
        return;
      }
      // A sorted map value → multiplicity, so retracting the minimum finds the next one.
      addMultiplicity(accumulator[0].getMutable<ValueMap>(), input, step);
      return;
    case AggregateKind::SINGLE_VALUE: {
      accumulator[0] = Value(accumulator[0].get<int64_t>() + step);
      if (input.isNull()) {
        accumulator[1] = Value(accumulator[1].get<int64_t>() + step);
        return;
      }
      addMultiplicity(accumulator[2].getMutable<ValueMap>(), input, step);
      return;
    }
    case AggregateKind::FIRST_VALUE:
    case AggregateKind::LAST_VALUE:
    case AggregateKind::LISTAGG:
      addToRuns(accumulator[0].getMutable<ValueMap>(), input, retract);
      return;
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP:
      addToMoments(accumulator, doubleOf(input), retract);
      return;
    case AggregateKind::JSON_ARRAYAGG:
      if (input.isNull() && call.jsonAbsentOnNull) return;
      addToRuns(accumulator[0].getMutable<ValueMap>(), input, retract);
      return;
    case AggregateKind::JSON_OBJECTAGG:
      addJsonObjectEntry(accumulator[0].getMutable<ValueMap>(), input.get<Row>(), retract,
                         call.jsonAbsentOnNull);
      return;
    case AggregateKind::LAG: {
      // Rows enter in order and once each; a row leaving a sliding frame changes nothing.
      if (retract) return;
      ValueArray& last = accumulator[0].getMutable<ValueArray>();
      last.push_back(input);
      if (static_cast<int64_t>(last.size()) > call.lagOffset + 1) last.erase(last.begin());
      return;
    }
    case AggregateKind::COLLECT:
      addToCollection(accumulator[0].getMutable<ValueMap>(), input, step);
      return;
  }
}

Value innerResult(const AggregateCall& call, const Value* accumulator) {
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return accumulator[0];
    case AggregateKind::SUM:
      if (accumulator[1].get<int64_t>() == 0) return Value();
      return narrowTo(accumulator[0], *call.resultType);
    case AggregateKind::AVG: {
      const int64_t count = accumulator[1].get<int64_t>();
      if (count == 0) return Value();
      return averageOf(accumulator[0], count, *call.resultType);
    }
    case AggregateKind::MIN:
    case AggregateKind::MAX: {
      if (!call.retractable) return accumulator[0];
      const ValueMap& entries = accumulator[0].get<ValueMap>();
      if (entries.empty()) return Value();
      return call.kind == AggregateKind::MIN ? entries.front().first : entries.back().first;
    }
    case AggregateKind::SINGLE_VALUE: {
      int64_t rows = accumulator[0].get<int64_t>();
      if (rows > 1) throw TableException("SingleValueAggFunction received more than one element.");
      if (rows <= 0 || accumulator[1].get<int64_t>() > 0) return Value();
      const ValueMap& entries = accumulator[2].get<ValueMap>();
      return entries.empty() ? Value() : entries.front().first;
    }
    case AggregateKind::FIRST_VALUE:
    case AggregateKind::LAST_VALUE: {
      const ValueMap& runs = accumulator[0].get<ValueMap>();
      if (runs.empty()) return Value();
      return call.kind == AggregateKind::FIRST_VALUE ? runs.front().first : runs.back().first;
    }
    case AggregateKind::LISTAGG:
      return joinRuns(accumulator[0].get<ValueMap>(), call.listSeparator);
    case AggregateKind::STDDEV_POP:
    case AggregateKind::STDDEV_SAMP:
    case AggregateKind::VAR_POP:
    case AggregateKind::VAR_SAMP: {
      const bool population =
          call.kind == AggregateKind::STDDEV_POP || call.kind == AggregateKind::VAR_POP;
      const bool root =
          call.kind == AggregateKind::STDDEV_POP || call.kind == AggregateKind::STDDEV_SAMP;
      return varianceOf(accumulator, population, root, *call.resultType);
    }
    case AggregateKind::JSON_ARRAYAGG:
      return jsonArrayOfRuns(accumulator[0].get<ValueMap>(), call.jsonRawValues);
    case AggregateKind::JSON_OBJECTAGG:
      return jsonObjectOf(accumulator[0].get<ValueMap>(), call.jsonRawValues);
    case AggregateKind::LAG: {
      const ValueArray& last = accumulator[0].get<ValueArray>();
      return static_cast<int64_t>(last.size()) == call.lagOffset + 1 ? last.front()
                                                                     : call.lagDefault;
    }
    case AggregateKind::COLLECT:
      return multisetOf(accumulator[0].get<ValueMap>());
  }
  return Value();
}

/// The distinct values of `f(DISTINCT x)` with their multiplicities: an open-addressing hash
/// table (linear probing) kept in a ValueMap, so each row costs O(1) however many distinct

}  // namespace

Accumulator createAccumulator(const AggregateCall& call) {
  Accumulator accumulator = createInnerAccumulator(call);
  if (call.distinct) {
    accumulator.insert(accumulator.begin(), {Value::ofMap({}), Value(int64_t{0})});
  }
  return accumulator;
}

bool accumulate(const AggregateCall& call, Value* accumulator, const Value& input, bool retract) {
  if (call.kind != AggregateKind::COUNT_STAR && call.kind != AggregateKind::SINGLE_VALUE &&
      call.kind != AggregateKind::LAG && call.kind != AggregateKind::JSON_ARRAYAGG &&
      input.isNull()) {
    return false;
  }
  if (!call.distinct) {
    accumulateInner(call, accumulator, input, retract);
    return true;
  }
  int64_t count = addDistinct(accumulator, input, retract ? -1 : 1);
  bool firstTime = !retract && count == 1;
  bool lastTime = retract && count == 0;
  if (!firstTime && !lastTime) return false;
  accumulateInner(call, accumulator + kDistinctPrefix, input, retract);
  return true;
}

void accumulate(const AggregateCall& call, Accumulator& accumulator, const Value& input,
                bool retract) {
  accumulate(call, accumulator.data(), input, retract);
}

bool supportsMerge(const AggregateCall& call) {
  if (call.distinct) return false;
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
    case AggregateKind::SUM:
    case AggregateKind::AVG:
      return true;
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      return !call.retractable;
    default:
      return false;
  }
}

std::vector<LogicalTypePtr> accumulatorTypes(const AggregateCall& call,
                                             const LogicalTypePtr& argumentType) {
  const LogicalTypePtr count = LogicalType::simple(LogicalTypeRoot::BIGINT, false);
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return {count};
    case AggregateKind::SUM:
    case AggregateKind::AVG: {
      LogicalTypePtr sum;
      switch (argumentType->getTypeRoot()) {
        case LogicalTypeRoot::FLOAT:
        case LogicalTypeRoot::DOUBLE:
          sum = LogicalType::simple(LogicalTypeRoot::DOUBLE);
          break;
        case LogicalTypeRoot::DECIMAL:
          sum = LogicalType::decimal(Decimal::kMaxPrecision, argumentType->getScale());
          break;
        default:
          sum = LogicalType::simple(LogicalTypeRoot::BIGINT);
      }
      return {sum, count};
    }
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      if (!call.retractable) return {argumentType->copy(true)};
      break;
    default:
      break;
  }
  throw InternalError("no partial accumulator for " + aggregateKindName(call.kind));
}

void merge(const AggregateCall& call, Accumulator& accumulator, const Value* other) {
  merge(call, accumulator.data(), other);
}

void merge(const AggregateCall& call, Value* accumulator, const Value* other) {
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      accumulator[0] = Value(accumulator[0].get<int64_t>() + other[0].get<int64_t>());
      return;
    case AggregateKind::SUM:
    case AggregateKind::AVG:
      if (!other[0].isNull()) accumulator[0] = addToSum(accumulator[0], other[0], false);
      accumulator[1] = Value(accumulator[1].get<int64_t>() + other[1].get<int64_t>());
      return;
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      if (!call.retractable) {
        accumulateInner(call, accumulator, other[0], false);
        return;
      }
      break;
    default:
      break;
  }
  throw InternalError("cannot merge accumulators of " + aggregateKindName(call.kind));
}

Value aggregateResult(const AggregateCall& call, const Accumulator& accumulator) {
  return innerResult(call, accumulator.data() + (call.distinct ? kDistinctPrefix : 0));
}

void assignAggregateResult(const AggregateCall& call, const Value* accumulator, Value& result) {
  const Value* inner = accumulator + (call.distinct ? kDistinctPrefix : 0);
  switch (call.kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      result = inner[0];  // copied into the held value: no allocation for a string result
      return;
    case AggregateKind::MIN:
    case AggregateKind::MAX:
      if (!call.retractable) {
        result = inner[0];
        return;
      }
      break;
    default:
      break;
  }
  result = innerResult(call, inner);
}

}  // namespace eddy::function

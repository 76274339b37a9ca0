#include "runtime/operators/aggregate/aggregate_call.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/check.h"
#include "eddy/exceptions.h"
#include "eddy/row.h"
#include "function/json_text.h"
#include "function/value_order.h"

namespace eddy::runtime::operators {

using function::doubleOf;
using function::integerOf;
using function::isIntegerKind;

namespace {

/// A sum kept wide: BIGINT for integers (wrapping as Java does), DOUBLE for floating point,
/// DECIMAL(38, s) for decimals.
Value addToSum(const Value& sum, const Value& input, bool subtract) {
  if (isIntegerKind(input.kind())) {
    auto current = static_cast<uint64_t>(sum.isNull() ? 0 : sum.get<int64_t>());
    auto delta = static_cast<uint64_t>(integerOf(input));
    return Value(static_cast<int64_t>(subtract ? current - delta : current + delta));
  }
  if (input.kind() == ValueKind::DECIMAL) {
    const Decimal& decimal = input.get<Decimal>();
    int scale = decimal.scale();
    Decimal::Unscaled current = sum.isNull() ? 0 : sum.get<Decimal>().unscaledValue();
    Decimal::Unscaled delta = decimal.unscaledValue();
    return Value(Decimal::fromUnscaled(subtract ? current - delta : current + delta,
                                       Decimal::kMaxPrecision, scale));
  }
  double current = sum.isNull() ? 0.0 : sum.get<double>();
  double delta = doubleOf(input);
  return Value(subtract ? current - delta : current + delta);
}

/// `wide` (BIGINT, DOUBLE or DECIMAL(38, s)) as a value of `type`.
Value narrowTo(const Value& wide, const LogicalType& type) {
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
      return Value(static_cast<int8_t>(integerOf(wide)));
    case LogicalTypeRoot::SMALLINT:
      return Value(static_cast<int16_t>(integerOf(wide)));
    case LogicalTypeRoot::INTEGER:
      return Value(static_cast<int32_t>(integerOf(wide)));
    case LogicalTypeRoot::BIGINT:
      return Value(integerOf(wide));
    case LogicalTypeRoot::FLOAT:
      return Value(static_cast<float>(doubleOf(wide)));
    case LogicalTypeRoot::DOUBLE:
      return Value(doubleOf(wide));
    case LogicalTypeRoot::DECIMAL: {
      auto rescaled = wide.get<Decimal>().rescale(type.getPrecision(), type.getScale());
      if (!rescaled) return Value();  // overflow: NULL, as Flink's DecimalData
      return Value(*rescaled);
    }
    default:
      throw InternalError("unsupported aggregate result type " + type.asSummaryString());
  }
}

}  // namespace

std::string aggregateKindName(AggregateKind kind) {
  switch (kind) {
    case AggregateKind::COUNT_STAR:
    case AggregateKind::COUNT:
      return "COUNT";
    case AggregateKind::SUM:
      return "SUM";
    case AggregateKind::AVG:
      return "AVG";
    case AggregateKind::MIN:
      return "MIN";
    case AggregateKind::MAX:
      return "MAX";
    case AggregateKind::SINGLE_VALUE:
      return "SINGLE_VALUE";
    case AggregateKind::FIRST_VALUE:
      return "FIRST_VALUE";
    case AggregateKind::LAST_VALUE:
      return "LAST_VALUE";
    case AggregateKind::LISTAGG:
      return "LISTAGG";
    case AggregateKind::STDDEV_POP:
      return "STDDEV_POP";
    case AggregateKind::STDDEV_SAMP:
      return "STDDEV_SAMP";
    case AggregateKind::VAR_POP:
      return "VAR_POP";
    case AggregateKind::VAR_SAMP:
      return "VAR_SAMP";
    case AggregateKind::COLLECT:
      return "COLLECT";
    case AggregateKind::LAG:
      return "LAG";
    case AggregateKind::JSON_OBJECTAGG:
      return "JSON_OBJECTAGG";
    case AggregateKind::JSON_ARRAYAGG:
      return "JSON_ARRAYAGG";
  }
  return "?";
}

namespace {
constexpr AggregateKind kNamedAggregateKinds[] = {
    AggregateKind::COUNT,       AggregateKind::SUM,         AggregateKind::AVG,
    AggregateKind::MIN,         AggregateKind::MAX,         AggregateKind::FIRST_VALUE,
    AggregateKind::LAST_VALUE,  AggregateKind::LISTAGG,     AggregateKind::STDDEV_POP,
    AggregateKind::STDDEV_SAMP, AggregateKind::VAR_POP,     AggregateKind::VAR_SAMP,
    AggregateKind::COLLECT,     AggregateKind::LAG,         AggregateKind::JSON_OBJECTAGG,
    AggregateKind::JSON_ARRAYAGG};
}  // namespace

std::optional<AggregateKind> aggregateKindOfName(std::string_view upperCaseName) {
  for (AggregateKind kind : kNamedAggregateKinds) {
    if (aggregateKindName(kind) == upperCaseName) return kind;
  }
  return std::nullopt;
}

const std::vector<std::string>& aggregateFunctionNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (AggregateKind kind : kNamedAggregateKinds) all.push_back(aggregateKindName(kind));
    std::sort(all.begin(), all.end());
    return all;
  }();
  return names;
}

int compareValues(const Value& left, const Value& right) {
  return function::compareValues(left, right);
}

namespace {

/// Adds `step` to the multiplicity of `value` in the sorted map `entries`; returns the new
/// multiplicity (entries at 0 are removed).
int64_t addMultiplicity(ValueMap& entries, const Value& value, int64_t step) {
  auto position = std::lower_bound(entries.begin(), entries.end(), value,
                                   [](const std::pair<Value, Value>& entry, const Value& key) {
                                     return compareValues(entry.first, key) < 0;
                                   });
  if (position != entries.end() && compareValues(position->first, value) == 0) {
    int64_t count = position->second.get<int64_t>() + step;
    if (count <= 0) {
      entries.erase(position);
      return 0;
    }
    position->second = Value(count);
    return count;
  }
  if (step <= 0) return 0;  // retracting a value never accumulated
  entries.insert(position, {value, Value(step)});
  return step;
}

/// Whether compareValues orders values of this kind.
bool isOrderedKind(ValueKind kind) {
  switch (kind) {
    case ValueKind::BOOLEAN:
    case ValueKind::TINYINT:
    case ValueKind::SMALLINT:
    case ValueKind::INT:
    case ValueKind::BIGINT:
    case ValueKind::FLOAT:
    case ValueKind::DOUBLE:
    case ValueKind::DECIMAL:
    case ValueKind::STRING:
    case ValueKind::DATE:
    case ValueKind::TIME:
    case ValueKind::TIMESTAMP:
    case ValueKind::TIMESTAMP_LTZ:
      return true;
    default:
      return false;
  }
}

/// addMultiplicity for values without an order (BYTES, ARRAY, MAP, ROW, intervals): found by
/// equality, new values appended.
void addMultiplicityUnordered(ValueMap& entries, const Value& value, int64_t step) {
  auto entry = std::find_if(entries.begin(), entries.end(),
                            [&value](const auto& candidate) { return candidate.first == value; });
  if (entry == entries.end()) {
    if (step > 0) entries.emplace_back(value, Value(step));
    return;
  }
  int64_t count = entry->second.get<int64_t>() + step;
  if (count <= 0) {
    entries.erase(entry);
  } else {
    entry->second = Value(count);
  }
}

/// Appends `value` to the arrival-ordered `runs` (value → count; equal neighbours share a run),
/// or, retracting, removes its earliest occurrence (nothing when it has none).
void addToRuns(ValueMap& runs, const Value& value, bool retract) {
  if (!retract) {
    if (!runs.empty() && runs.back().first == value) {
      runs.back().second = Value(runs.back().second.get<int64_t>() + 1);
    } else {
      runs.emplace_back(value, Value(int64_t{1}));
    }
    return;
  }
  auto run = std::find_if(runs.begin(), runs.end(),
                          [&value](const auto& entry) { return entry.first == value; });
  if (run == runs.end()) return;
  int64_t count = run->second.get<int64_t>() - 1;
  if (count > 0) {
    run->second = Value(count);
    return;
  }
  // Dropping the run may leave two runs of one value side by side: merge them, so that a
  // value never has two neighbouring runs.
  auto next = runs.erase(run);
  if (next != runs.begin() && next != runs.end() && std::prev(next)->first == next->first) {
    auto previous = std::prev(next);
    previous->second = Value(previous->second.get<int64_t>() + next->second.get<int64_t>());
    runs.erase(next);
  }
}

/// The runs' values joined by `separator`, each as often as it occurs.
Value joinRuns(const ValueMap& runs, const std::string& separator) {
  if (runs.empty()) return Value();
  std::string joined;
  bool first = true;
  for (const auto& [value, count] : runs) {
    for (int64_t i = 0; i < count.get<int64_t>(); ++i) {
      if (!first) joined.append(separator);
      first = false;
      joined.append(value.get<std::string>());
    }
  }
  return Value(std::move(joined));
}

/// One step of Welford's online algorithm over [count, mean, m2], forwards or (retracting)
/// backwards.
void addToMoments(Value* moments, double input, bool retract) {
  int64_t count = moments[0].get<int64_t>();
  double mean = moments[1].get<double>();
  double m2 = moments[2].get<double>();
  if (!retract) {
    ++count;
    double delta = input - mean;
    mean += delta / static_cast<double>(count);
    m2 += delta * (input - mean);
  } else if (count <= 1) {
    count = 0;  // the last value leaves: exactly empty, no rounding residue
    mean = 0;
    m2 = 0;
  } else {
    double newMean = (mean * static_cast<double>(count) - input) / static_cast<double>(count - 1);
    m2 -= (input - mean) * (input - newMean);
    mean = newMean;
    --count;
  }
  moments[0] = Value(count);
  moments[1] = Value(mean);
  moments[2] = Value(m2);
}

/// A DOUBLE cast to `type` as Flink's CAST does: integers truncate toward zero (saturating,
/// NaN → 0, as Java's (long) cast, then wrapping to narrower types), DECIMAL rounds to its
/// scale.
Value castDoubleTo(double value, const LogicalType& type) {
  auto javaLong = [](double d) -> int64_t {
    if (std::isnan(d)) return 0;
    if (d >= 9.2233720368547758e18) return std::numeric_limits<int64_t>::max();
    if (d <= -9.2233720368547758e18) return std::numeric_limits<int64_t>::min();
    return static_cast<int64_t>(d);
  };
  auto javaInt = [](double d) -> int32_t {
    if (std::isnan(d)) return 0;
    if (d >= 2147483647.0) return std::numeric_limits<int32_t>::max();
    if (d <= -2147483648.0) return std::numeric_limits<int32_t>::min();
    return static_cast<int32_t>(d);
  };
  switch (type.getTypeRoot()) {
    case LogicalTypeRoot::TINYINT:
      return Value(static_cast<int8_t>(javaInt(value)));
    case LogicalTypeRoot::SMALLINT:
      return Value(static_cast<int16_t>(javaInt(value)));
    case LogicalTypeRoot::INTEGER:
      return Value(javaInt(value));
    case LogicalTypeRoot::BIGINT:
      return Value(javaLong(value));
    case LogicalTypeRoot::FLOAT:
      return Value(static_cast<float>(value));
    case LogicalTypeRoot::DOUBLE:
      return Value(value);
    case LogicalTypeRoot::DECIMAL: {
      if (!std::isfinite(value)) return Value();
      char text[400];
      auto [end, error] = std::to_chars(text, text + sizeof(text), value,
                                        std::chars_format::fixed, type.getScale());
      if (error != std::errc()) return Value();
      auto rescaled = Decimal::fromString(std::string_view(text, end - text))
                          .rescale(type.getPrecision(), type.getScale());
      if (!rescaled) return Value();  // overflow: NULL, as Flink's DecimalData
      return Value(*rescaled);
    }
    default:
      throw InternalError("unsupported aggregate result type " + type.asSummaryString());
  }
}

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
    case AggregateKind::JSON_OBJECTAGG: {
      const Row& pair = input.get<Row>();
      const Value& key = pair.getField(0);
      const Value& value = pair.getField(1);
      if (key.isNull()) throw TableException("JSON_OBJECTAGG: a key is NULL");
      ValueMap& entries = accumulator[0].getMutable<ValueMap>();
      const std::string& name = key.get<std::string>();
      auto position = std::lower_bound(entries.begin(), entries.end(), name,
                                       [](const std::pair<Value, Value>& entry, const std::string& k) {
                                         return entry.first.get<std::string>() < k;
                                       });
      const bool found = position != entries.end() && position->first == key;
      if (retract) {  // Flink's JsonObjectAggFunction removes the key, whatever its value
        if (found) entries.erase(position);
        return;
      }
      if (found) {  // Flink's assertKeyNotPresent
        throw TableException("Key '" + name + "' is already present. Duplicate keys are not "
                             "allowed in JSON_OBJECTAGG. Please ensure that keys are unique.");
      }
      if (value.isNull() && call.jsonAbsentOnNull) return;
      entries.emplace(position, key, value);
      return;
    }
    case AggregateKind::LAG: {
      // Rows enter in order and once each; a row leaving a sliding frame changes nothing.
      if (retract) return;
      ValueArray& last = accumulator[0].getMutable<ValueArray>();
      last.push_back(input);
      if (static_cast<int64_t>(last.size()) > call.lagOffset + 1) last.erase(last.begin());
      return;
    }
    case AggregateKind::COLLECT:
      // Sorted by value where values have an order (a deterministic print), else by arrival.
      if (isOrderedKind(input.kind())) {
        addMultiplicity(accumulator[0].getMutable<ValueMap>(), input, step);
      } else {
        addMultiplicityUnordered(accumulator[0].getMutable<ValueMap>(), input, step);
      }
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
      int64_t count = accumulator[1].get<int64_t>();
      if (count == 0) return Value();
      const Value& sum = accumulator[0];
      if (sum.kind() == ValueKind::BIGINT) {
        // Integer AVG truncates, as Flink's AvgAggFunction on integer types.
        return narrowTo(Value(sum.get<int64_t>() / count), *call.resultType);
      }
      if (sum.kind() == ValueKind::DECIMAL) {
        const LogicalType& type = *call.resultType;
        // sum / count with the result scale, rounded HALF_UP.
        const Decimal& total = sum.get<Decimal>();
        int scaleUp = type.getScale() - total.scale();
        Decimal::Unscaled numerator = total.unscaledValue();
        for (int i = 0; i < scaleUp; ++i) numerator *= 10;
        Decimal::Unscaled quotient = numerator / count;
        Decimal::Unscaled remainder = numerator % count;
        if (2 * (remainder < 0 ? -remainder : remainder) >= count) {
          quotient += numerator < 0 ? -1 : 1;
        }
        return Value(Decimal::fromUnscaled(quotient, type.getPrecision(), type.getScale()));
      }
      return narrowTo(Value(sum.get<double>() / static_cast<double>(count)), *call.resultType);
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
      int64_t count = accumulator[0].get<int64_t>();
      bool population =
          call.kind == AggregateKind::STDDEV_POP || call.kind == AggregateKind::VAR_POP;
      int64_t denominator = population ? count : count - 1;
      if (denominator <= 0) return Value();  // no rows, or one row for the sample forms
      // m2 is never negative; rounding in retractions may leave it a hair below zero.
      double m2 = std::max(accumulator[2].get<double>(), 0.0);
      double variance = m2 / static_cast<double>(denominator);
      bool root = call.kind == AggregateKind::STDDEV_POP || call.kind == AggregateKind::STDDEV_SAMP;
      return castDoubleTo(root ? std::pow(variance, 0.5) : variance, *call.resultType);
    }
    case AggregateKind::JSON_ARRAYAGG: {
      std::string json = "[";
      bool first = true;
      for (const auto& [value, count] : accumulator[0].get<ValueMap>()) {
        for (int64_t i = 0; i < count.get<int64_t>(); ++i) {
          if (!first) json.push_back(',');
          first = false;
          function::appendJsonText(value, call.jsonRawValues, json);
        }
      }
      return Value(json + "]");
    }
    case AggregateKind::JSON_OBJECTAGG: {
      std::string json = "{";
      bool first = true;
      for (const auto& [key, value] : accumulator[0].get<ValueMap>()) {
        if (!first) json.push_back(',');
        first = false;
        function::appendJsonString(key.get<std::string>(), json);
        json.push_back(':');
        function::appendJsonText(value, call.jsonRawValues, json);
      }
      return Value(json + "}");
    }
    case AggregateKind::LAG: {
      const ValueArray& last = accumulator[0].get<ValueArray>();
      return static_cast<int64_t>(last.size()) == call.lagOffset + 1 ? last.front()
                                                                     : call.lagDefault;
    }
    case AggregateKind::COLLECT: {
      // The multiset: each distinct value with its count as INT (Flink's MapData of Integer).
      ValueMap multiset;
      const ValueMap& entries = accumulator[0].get<ValueMap>();
      multiset.reserve(entries.size());
      for (const auto& [value, count] : entries) {
        multiset.emplace_back(value, Value(static_cast<int32_t>(count.get<int64_t>())));
      }
      return Value::ofMap(std::move(multiset));
    }
  }
  return Value();
}

/// The distinct values of `f(DISTINCT x)` with their multiplicities: an open-addressing hash
/// table (linear probing) kept in a ValueMap, so each row costs O(1) however many distinct
/// values the group has. A slot is (value, count): a NULL value is an empty slot (NULL inputs
/// never get here), count 0 a deleted one. accumulator[1] counts the occupied slots (live and
/// deleted); the table doubles when they pass 70%.
constexpr size_t kDistinctPrefix = 2;

/// `h` spread over all bits (for a table indexed by its low bits).
size_t mixBits(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

/// Value::hash spread over all bits (an integer's hash is the integer itself).
size_t slotHash(const Value& value) { return mixBits(static_cast<uint64_t>(value.hash())); }

void rehashDistinct(Value* accumulator) {
  ValueMap& slots = accumulator[0].getMutable<ValueMap>();
  size_t live = 0;
  for (const auto& slot : slots) {
    if (!slot.first.isNull() && slot.second.get<int64_t>() > 0) ++live;
  }
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  ValueMap rebuilt(capacity, {Value(), Value(int64_t{0})});
  for (auto& slot : slots) {
    if (slot.first.isNull() || slot.second.get<int64_t>() <= 0) continue;
    size_t index = slotHash(slot.first) & (capacity - 1);
    while (!rebuilt[index].first.isNull()) index = (index + 1) & (capacity - 1);
    rebuilt[index] = std::move(slot);
  }
  slots = std::move(rebuilt);
  accumulator[1] = Value(static_cast<int64_t>(live));
}

/// Integer values (TINYINT..BIGINT, the usual DISTINCT keys) use a table of plain 16-byte
/// slots kept in a BYTES value instead, chosen by the first value: (key, count), count -1 an
/// empty slot, 0 a deleted one; accumulator[1] counts the occupied slots as above.
struct IntegerSlot {
  int64_t key;
  int64_t count;
};
constexpr int64_t kEmptySlot = -1;

std::optional<int64_t> integerKey(const Value& value) {
  if (value.is<int64_t>()) return value.get<int64_t>();
  if (value.is<int32_t>()) return value.get<int32_t>();
  if (value.is<int16_t>()) return value.get<int16_t>();
  if (value.is<int8_t>()) return value.get<int8_t>();
  return std::nullopt;
}

Bytes emptyIntegerTable(size_t capacity) {
  Bytes bytes(capacity * sizeof(IntegerSlot));
  auto* slots = reinterpret_cast<IntegerSlot*>(bytes.data());
  for (size_t i = 0; i < capacity; ++i) slots[i] = IntegerSlot{0, kEmptySlot};
  return bytes;
}

void rehashIntegers(Value* accumulator) {
  const Bytes& old = accumulator[0].get<Bytes>();
  const auto* oldSlots = reinterpret_cast<const IntegerSlot*>(old.data());
  const size_t oldCapacity = old.size() / sizeof(IntegerSlot);
  size_t live = 0;
  for (size_t i = 0; i < oldCapacity; ++i) live += oldSlots[i].count > 0 ? 1 : 0;
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  Bytes rebuilt = emptyIntegerTable(capacity);
  auto* slots = reinterpret_cast<IntegerSlot*>(rebuilt.data());
  for (size_t i = 0; i < oldCapacity; ++i) {
    if (oldSlots[i].count <= 0) continue;
    size_t index = mixBits(static_cast<uint64_t>(oldSlots[i].key)) & (capacity - 1);
    while (slots[index].count != kEmptySlot) index = (index + 1) & (capacity - 1);
    slots[index] = oldSlots[i];
  }
  accumulator[0] = Value::ofBytes(std::move(rebuilt));
  accumulator[1] = Value(static_cast<int64_t>(live));
}

int64_t addDistinctInteger(Value* accumulator, int64_t key, int64_t step) {
  Bytes& bytes = accumulator[0].getMutable<Bytes>();
  auto* slots = reinterpret_cast<IntegerSlot*>(bytes.data());
  const size_t mask = bytes.size() / sizeof(IntegerSlot) - 1;
  size_t index = mixBits(static_cast<uint64_t>(key)) & mask;
  std::optional<size_t> reusable;
  for (;; index = (index + 1) & mask) {
    IntegerSlot& slot = slots[index];
    if (slot.count == kEmptySlot) break;  // not in the table
    if (slot.count == 0) {
      if (!reusable) reusable = index;
    } else if (slot.key == key) {
      slot.count = std::max<int64_t>(0, slot.count + step);
      return slot.count;
    }
  }
  if (step <= 0) return -1;  // retracting a value never accumulated
  if (reusable) {
    slots[*reusable] = IntegerSlot{key, step};
    return step;
  }
  slots[index] = IntegerSlot{key, step};
  const int64_t occupied = accumulator[1].get<int64_t>() + 1;
  accumulator[1] = Value(occupied);
  if (static_cast<size_t>(occupied) * 10 > (mask + 1) * 7) rehashIntegers(accumulator);
  return step;
}

/// Adds `step` to the multiplicity of `value`; returns the new multiplicity (0: gone), or -1
/// when retracting a value that is not there (nothing changes).
int64_t addDistinct(Value* accumulator, const Value& value, int64_t step) {
  if (accumulator[0].is<Bytes>()) return addDistinctInteger(accumulator, *integerKey(value), step);
  if (accumulator[0].get<ValueMap>().empty()) {
    if (std::optional<int64_t> key = integerKey(value)) {
      accumulator[0] = Value::ofBytes(emptyIntegerTable(8));
      return addDistinctInteger(accumulator, *key, step);
    }
  }
  ValueMap& slots = accumulator[0].getMutable<ValueMap>();
  if (slots.empty()) slots.assign(8, {Value(), Value(int64_t{0})});
  const size_t mask = slots.size() - 1;
  size_t index = slotHash(value) & mask;
  std::optional<size_t> reusable;
  for (;; index = (index + 1) & mask) {
    auto& slot = slots[index];
    if (slot.first.isNull()) break;  // not in the table
    const int64_t count = slot.second.get<int64_t>();
    if (count == 0) {
      if (!reusable) reusable = index;
    } else if (slot.first == value) {
      const int64_t updated = std::max<int64_t>(0, count + step);
      slot.second = Value(updated);
      return updated;
    }
  }
  if (step <= 0) return -1;  // retracting a value never accumulated
  if (reusable) {
    slots[*reusable] = {value, Value(step)};
    return step;
  }
  slots[index] = {value, Value(step)};
  const int64_t occupied = accumulator[1].get<int64_t>() + 1;
  accumulator[1] = Value(occupied);
  if (static_cast<size_t>(occupied) * 10 > slots.size() * 7) rehashDistinct(accumulator);
  return step;
}

/// A shared distinct table's slot: [value, used, counts...] as int64s.
size_t sharedSlotWords(int callCount) { return 2 + static_cast<size_t>(callCount); }

Bytes emptySharedTable(size_t capacity, int callCount) {
  return Bytes(capacity * sharedSlotWords(callCount) * sizeof(int64_t));  // zeroed: unused
}

/// Rebuilds the table with room for its values that still count for some call (values whose
/// multiplicities all dropped to 0 are dropped here).
void rehashShared(Value* table, int callCount) {
  const size_t words = sharedSlotWords(callCount);
  const Bytes& old = table[0].get<Bytes>();
  const auto* oldSlots = reinterpret_cast<const int64_t*>(old.data());
  const size_t oldCapacity = old.size() / (words * sizeof(int64_t));
  auto counts = [&](const int64_t* slot) {
    for (int k = 0; k < callCount; ++k) {
      if (slot[2 + k] > 0) return true;
    }
    return false;
  };
  size_t live = 0;
  for (size_t i = 0; i < oldCapacity; ++i) {
    const int64_t* slot = oldSlots + i * words;
    if (slot[1] != 0 && counts(slot)) ++live;
  }
  size_t capacity = 8;
  while (capacity < 2 * live + 2) capacity *= 2;
  Bytes rebuilt = emptySharedTable(capacity, callCount);
  auto* slots = reinterpret_cast<int64_t*>(rebuilt.data());
  for (size_t i = 0; i < oldCapacity; ++i) {
    const int64_t* slot = oldSlots + i * words;
    if (slot[1] == 0 || !counts(slot)) continue;
    size_t index = mixBits(static_cast<uint64_t>(slot[0])) & (capacity - 1);
    while (slots[index * words + 1] != 0) index = (index + 1) & (capacity - 1);
    std::copy(slot, slot + words, slots + index * words);
  }
  table[0] = Value::ofBytes(std::move(rebuilt));
  table[1] = Value(static_cast<int64_t>(live));
}

}  // namespace

Accumulator createSharedDistinctTable() { return {Value::ofBytes(Bytes()), Value(int64_t{0})}; }

int64_t* sharedDistinctCounts(Value* table, int64_t value, int callCount, bool add) {
  const size_t words = sharedSlotWords(callCount);
  if (table[0].get<Bytes>().empty()) {
    if (!add) return nullptr;
    table[0] = Value::ofBytes(emptySharedTable(8, callCount));
  }
  for (int attempt = 0; attempt < 2; ++attempt) {
    Bytes& bytes = table[0].getMutable<Bytes>();
    auto* slots = reinterpret_cast<int64_t*>(bytes.data());
    const size_t mask = bytes.size() / (words * sizeof(int64_t)) - 1;
    size_t index = mixBits(static_cast<uint64_t>(value)) & mask;
    while (slots[index * words + 1] != 0) {
      if (slots[index * words] == value) return slots + index * words + 2;
      index = (index + 1) & mask;
    }
    if (!add) return nullptr;
    const int64_t occupied = table[1].get<int64_t>() + 1;
    if (static_cast<size_t>(occupied) * 10 > (mask + 1) * 7 && attempt == 0) {
      rehashShared(table, callCount);  // then probe the rebuilt table again
      continue;
    }
    table[1] = Value(occupied);
    slots[index * words] = value;
    slots[index * words + 1] = 1;
    return slots + index * words + 2;  // counts zeroed
  }
  throw InternalError("a shared DISTINCT table did not grow");
}

Accumulator createAccumulator(const AggregateCall& call) {
  Accumulator accumulator = createInnerAccumulator(call);
  if (call.distinct) {
    accumulator.insert(accumulator.begin(), {Value::ofMap({}), Value(int64_t{0})});
  }
  return accumulator;
}

bool accumulate(const AggregateCall& call, Value* accumulator, const Value& input,
                bool retract) {
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

}  // namespace eddy::runtime::operators

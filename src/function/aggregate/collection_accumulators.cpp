// The accumulators that keep values: multiplicity maps, runs, JSON objects (see the header).
#include "function/aggregate/collection_accumulators.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "common/json_string.h"
#include "eddy/exceptions.h"
#include "function/json_text.h"
#include "function/value_order.h"

namespace eddy::function {

namespace {

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

}  // namespace

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

void addToCollection(ValueMap& entries, const Value& value, int64_t step) {
  if (isOrderedKind(value.kind())) {
    addMultiplicity(entries, value, step);
  } else {
    addMultiplicityUnordered(entries, value, step);
  }
}

Value multisetOf(const ValueMap& entries) {
  ValueMap multiset;
  multiset.reserve(entries.size());
  for (const auto& [value, count] : entries) {
    multiset.emplace_back(value, Value(static_cast<int32_t>(count.get<int64_t>())));
  }
  return Value::ofMap(std::move(multiset));
}

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

Value jsonArrayOfRuns(const ValueMap& runs, bool rawValues) {
  std::string json = "[";
  bool first = true;
  for (const auto& [value, count] : runs) {
    for (int64_t i = 0; i < count.get<int64_t>(); ++i) {
      if (!first) json.push_back(',');
      first = false;
      appendJsonText(value, rawValues, json);
    }
  }
  return Value(json + "]");
}

void addJsonObjectEntry(ValueMap& entries, const Row& pair, bool retract, bool absentOnNull) {
  const Value& key = pair.getField(0);
  const Value& value = pair.getField(1);
  if (key.isNull()) throw TableException("JSON_OBJECTAGG: a key is NULL");
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
    throw TableException("Key '" + name +
                         "' is already present. Duplicate keys are not "
                         "allowed in JSON_OBJECTAGG. Please ensure that keys are unique.");
  }
  if (value.isNull() && absentOnNull) return;
  entries.emplace(position, key, value);
}

Value jsonObjectOf(const ValueMap& entries, bool rawValues) {
  std::string json = "{";
  bool first = true;
  for (const auto& [key, value] : entries) {
    if (!first) json.push_back(',');
    first = false;
    common::appendJsonString(key.get<std::string>(), json);
    json.push_back(':');
    appendJsonText(value, rawValues, json);
  }
  return Value(json + "}");
}

}  // namespace eddy::function

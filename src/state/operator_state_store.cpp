// OperatorStateStore: the registry, and the list state blob format (docs/state_format.md
// "Operator list state").
#include "eddy/state/operator_state_store.h"

#include <fmt/format.h>

namespace eddy {
namespace state {

OperatorListStateBlob decodeOperatorListState(std::string_view blob) {
  if (blob.size() < 2 || static_cast<uint8_t>(blob[0]) != kOperatorListStateVersion) {
    throw InternalError("Operator list state has an unknown format version");
  }
  const auto mode = static_cast<uint8_t>(blob[1]);
  if (mode > static_cast<uint8_t>(OperatorStateDistributionMode::kUnion)) {
    throw InternalError(fmt::format("Operator list state has unknown mode {}", mode));
  }
  blob.remove_prefix(2);
  OperatorListStateBlob decoded;
  decoded.mode = static_cast<OperatorStateDistributionMode>(mode);
  uint64_t count = serialization::readVarint(blob);
  decoded.elements.reserve(count);
  for (uint64_t i = 0; i < count; ++i) decoded.elements.push_back(readLengthPrefixed(blob));
  if (!blob.empty()) throw InternalError("Trailing bytes after an operator list state");
  return decoded;
}

void encodeOperatorListState(OperatorStateDistributionMode mode,
                             const std::vector<std::string_view>& elements, std::string& out) {
  out.push_back(static_cast<char>(kOperatorListStateVersion));
  out.push_back(static_cast<char>(mode));
  serialization::writeVarint(elements.size(), out);
  for (std::string_view element : elements) writeLengthPrefixed(element, out);
}

namespace {

const char* modeName(OperatorStateDistributionMode mode) {
  return mode == OperatorStateDistributionMode::kUnion ? "union list state" : "list state";
}

}  // namespace
}  // namespace state

OperatorStateStore::OperatorStateStore(const std::map<std::string, std::string>& operatorState) {
  for (const auto& [blobName, blob] : operatorState) {
    if (!blobName.starts_with(state::kOperatorListStatePrefix)) continue;
    restored_.emplace(blobName.substr(state::kOperatorListStatePrefix.size()), blob);
  }
}

OperatorStateStore::~OperatorStateStore() = default;

std::vector<std::string> OperatorStateStore::getRegisteredStateNames() const {
  std::vector<std::string> names;
  for (const auto& [name, registered] : states_) names.push_back(name);
  return names;
}

const OperatorStateStore::Registered* OperatorStateStore::find(
    const std::string& name, OperatorStateDistributionMode mode,
    const std::type_info& descriptorType) const {
  auto it = states_.find(name);
  if (it == states_.end()) return nullptr;
  if (it->second.mode != mode) {
    throw ValidationException(fmt::format("Operator state '{}' was registered as a {} and cannot be "
                                          "accessed as a {}",
                                          name, state::modeName(it->second.mode),
                                          state::modeName(mode)));
  }
  if (*it->second.descriptorType != descriptorType) {
    throw ValidationException(fmt::format(
        "Operator state '{}' was registered with another element type or serializer", name));
  }
  return &it->second;
}

void OperatorStateStore::add(const std::string& name, Registered registered) {
  if (name.empty()) throw ValidationException("A state name must not be empty");
  if (auto restored = restored_.find(name); restored != restored_.end()) {
    state::OperatorListStateBlob blob = state::decodeOperatorListState(restored->second);
    if (blob.mode != registered.mode) {
      throw ValidationException(fmt::format(
          "Operator state '{}' was restored as a {} and cannot be accessed as a {}", name,
          state::modeName(blob.mode), state::modeName(registered.mode)));
    }
    registered.state->restoreElements(blob.elements);
    restored_.erase(restored);
  }
  states_.emplace(name, std::move(registered));
}

void OperatorStateStore::snapshot(std::map<std::string, std::string>& operatorState) const {
  std::vector<std::string> elements;
  std::vector<std::string_view> views;
  for (const auto& [name, registered] : states_) {
    elements.clear();
    registered.state->serializeElements(elements);
    views.assign(elements.begin(), elements.end());
    std::string& blob = operatorState[std::string(state::kOperatorListStatePrefix) + name];
    blob.clear();
    state::encodeOperatorListState(registered.mode, views, blob);
  }
  for (const auto& [name, blob] : restored_) {
    operatorState[std::string(state::kOperatorListStatePrefix) + name] = blob;
  }
}

}  // namespace eddy

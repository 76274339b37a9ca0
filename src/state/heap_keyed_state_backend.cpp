// HeapKeyedStateBackend: the state registry, the current key, and the key group sections of
// snapshots (the framing of docs/state_format.md; the typed states write the entries).
#include "state/heap_keyed_state_backend.h"

#include <fmt/format.h>

#include "common/check.h"
#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"

namespace eddy {
namespace state {

void throwNoCurrentKey() {
  throw InternalError("Keyed state was accessed before a current key was set");
}

std::unique_ptr<KeyedStateBackend> createHeapKeyedStateBackend(KeyGroupRange range,
                                                               int maxParallelism,
                                                               const Clock& clock) {
  return std::make_unique<HeapKeyedStateBackend>(range, maxParallelism, clock);
}

namespace {

bool isValidStateKind(uint8_t kind) {
  return kind >= static_cast<uint8_t>(StateKind::kValue) &&
         kind <= static_cast<uint8_t>(StateKind::kAggregating);
}

void checkRestoredKind(const std::string& name, StateKind restoredKind, StateKind registeredKind) {
  if (restoredKind != registeredKind) {
    throw ValidationException(
        fmt::format("State '{}' was restored as a {} and cannot be accessed as a {}", name,
                    stateKindName(restoredKind), stateKindName(registeredKind)));
  }
}

}  // namespace
}  // namespace state

HeapKeyedStateBackend::HeapKeyedStateBackend(KeyGroupRange range, int maxParallelism,
                                             const Clock& clock)
    : range_(range), maxParallelism_(maxParallelism), clock_(clock) {
  EDDY_CHECK_GT(maxParallelism, 0);
  EDDY_CHECK_GT(range.size(), 0);
  EDDY_CHECK_GE(range.startKeyGroup, 0);
  EDDY_CHECK_LT(range.endKeyGroup, maxParallelism);
  context_.keyGroupCount = range.size();
  context_.clock = &clock_;
}

HeapKeyedStateBackend::~HeapKeyedStateBackend() = default;

void HeapKeyedStateBackend::checkOwnsKeyGroup(int keyGroup, const char* operation) const {
  if (!range_.contains(keyGroup)) [[unlikely]] {
    throw InternalError(fmt::format("{}: key group {} is outside the backend's key groups [{}, {}]",
                                    operation, keyGroup, range_.startKeyGroup, range_.endKeyGroup));
  }
}

void HeapKeyedStateBackend::setCurrentKey(std::string_view keyBytes, int keyGroup) {
  checkOwnsKeyGroup(keyGroup, "setCurrentKey");
  context_.currentKey.assign(keyBytes);
  context_.currentKeyGroupIndex = keyGroupIndex(keyGroup);
  ++context_.keyVersion;
  if (!cleanupForEveryRecord_.empty()) [[unlikely]] {
    const int64_t now = clock_.currentTimeMillis();
    for (state::HeapRegisteredState* heapState : cleanupForEveryRecord_) {
      heapState->cleanupIncrementally(now);
    }
  }
}

int HeapKeyedStateBackend::currentKeyGroup() const {
  return context_.currentKeyGroupIndex < 0 ? -1
                                           : context_.currentKeyGroupIndex + range_.startKeyGroup;
}

std::vector<std::string> HeapKeyedStateBackend::registeredStateNames() const {
  std::vector<std::string> names;
  names.reserve(states_.size());
  for (const auto& [name, registered] : states_) names.push_back(name);
  return names;
}

size_t HeapKeyedStateBackend::numKeyValueStateEntries() const {
  size_t count = 0;
  for (const auto& [name, registered] : states_) count += registered.heapState->entryCount();
  return count;
}

size_t HeapKeyedStateBackend::numKeyValueStateEntries(std::string_view stateName) const {
  auto it = states_.find(stateName);
  return it == states_.end() ? 0 : it->second.heapState->entryCount();
}

State* HeapKeyedStateBackend::createOrGetState(const state::StateType& type) {
  if (auto it = states_.find(type.name()); it != states_.end()) {
    state::checkStateTypeMatches(it->second.kind, *it->second.descriptorType, type);
    return it->second.heapState->userState();
  }
  if (rawStates_.contains(type.name())) {
    throw ValidationException(
        fmt::format("State name '{}' is reserved by the runtime (its timers)", type.name()));
  }
  std::unique_ptr<state::HeapRegisteredState> heapState = type.createHeapState(context_);
  if (auto restored = restoredBlocks_.find(type.name()); restored != restoredBlocks_.end()) {
    int64_t now = clock_.currentTimeMillis();
    for (const RestoredBlock& block : restored->second) {
      state::checkRestoredKind(type.name(), block.kind, type.kind());
      heapState->restoreKeyGroup(keyGroupIndex(block.keyGroup), block.body,
                                 (block.flags & state::kEntriesHaveTimestamps) != 0, now);
    }
    restoredBlocks_.erase(restored);
  }
  State* userState = heapState->userState();
  if (heapState->cleansUpForEveryRecord()) cleanupForEveryRecord_.push_back(heapState.get());
  states_.emplace(type.name(),
                  RegisteredState{type.kind(), &type.descriptorType(), std::move(heapState)});
  return userState;
}

void HeapKeyedStateBackend::registerRawKeyedState(const std::string& name, state::StateKind kind,
                                                  state::RawKeyedState& rawState) {
  if (states_.contains(name) || rawStates_.contains(name)) {
    throw ValidationException(fmt::format("State '{}' is registered twice", name));
  }
  if (auto restored = restoredBlocks_.find(name); restored != restoredBlocks_.end()) {
    for (const RestoredBlock& block : restored->second) {
      state::checkRestoredKind(name, block.kind, kind);
      if (block.flags != 0) {
        throw InternalError(fmt::format("State '{}' has unknown flags {} in a snapshot", name,
                                        static_cast<int>(block.flags)));
      }
      rawState.restoreKeyGroup(block.keyGroup, block.body);
    }
    restoredBlocks_.erase(restored);
  }
  rawStates_.emplace(name, RegisteredRawState{kind, &rawState});
}

namespace {

/// The most bytes a varint of a uint64_t takes.
constexpr size_t kMaxVarintBytes = 10;

/// Appends one block: name:bytes kind:u8 flags:u8 body:bytes.
void appendBlock(std::string_view name, state::StateKind kind, uint8_t flags, std::string_view body,
                 std::string& blocks) {
  state::writeLengthPrefixed(name, blocks);
  blocks.push_back(static_cast<char>(kind));
  blocks.push_back(static_cast<char>(flags));
  state::writeLengthPrefixed(body, blocks);
}

/// What a key group's section holds besides the raw states' blocks, taken at the freeze.
struct FrozenSection {
  std::string typedBlocks;  // the typed states' blocks
  uint64_t typedBlockCount = 0;
  std::string restoredBlocks;  // restored blocks of states not registered yet
  uint64_t restoredBlockCount = 0;
};

struct FrozenRawState {
  std::string name;
  state::StateKind kind;
  std::unique_ptr<state::FrozenKeyGroups> frozen;
};

/// The heap backend's frozen snapshot: the typed states and restored blocks already written
/// (at the freeze, on the task thread), the raw states frozen by their owners.
class FrozenHeapKeyedState final : public state::FrozenKeyedState {
 public:
  FrozenHeapKeyedState(KeyGroupRange range, std::vector<FrozenSection> sections,
                       std::vector<FrozenRawState> rawStates)
      : range_(range), sections_(std::move(sections)), rawStates_(std::move(rawStates)) {}

  KeyGroupRange keyGroupRange() const override { return range_; }

  void writeSections(state::KeyGroupSectionSink& sink) override {
    // One key group at a time, through buffers reused from one to the next: a checkpoint
    // streams the sections into its state file and never holds all of them at once.
    std::vector<std::string> rawBodies(rawStates_.size());
    std::string out;
    for (int keyGroup = range_.startKeyGroup; keyGroup <= range_.endKeyGroup; ++keyGroup) {
      uint64_t rawBlockCount = 0;
      size_t rawBytes = 0;
      for (size_t i = 0; i < rawStates_.size(); ++i) {
        std::string& body = rawBodies[i];
        body.clear();
        rawStates_[i].frozen->writeKeyGroup(keyGroup, body);
        if (body.empty()) continue;
        ++rawBlockCount;
        rawBytes += rawStates_[i].name.size() + body.size() + 2 * kMaxVarintBytes + 2;
      }
      FrozenSection& frozen = sections_[static_cast<size_t>(keyGroup - range_.startKeyGroup)];
      out.clear();
      out.reserve(16 + frozen.typedBlocks.size() + rawBytes + frozen.restoredBlocks.size());
      out.push_back(static_cast<char>(state::kKeyGroupSnapshotVersion));
      serialization::writeVarint(static_cast<uint64_t>(keyGroup), out);
      serialization::writeVarint(frozen.typedBlockCount + rawBlockCount + frozen.restoredBlockCount,
                                 out);
      out.append(frozen.typedBlocks);
      for (size_t i = 0; i < rawStates_.size(); ++i) {
        if (rawBodies[i].empty()) continue;
        appendBlock(rawStates_[i].name, rawStates_[i].kind, 0, rawBodies[i], out);
      }
      out.append(frozen.restoredBlocks);
      frozen = FrozenSection{};
      sink.addSection(keyGroup, out);
    }
    // What the freeze shared is let go of here, on the writer's thread.
    rawStates_.clear();
  }

 private:
  const KeyGroupRange range_;
  std::vector<FrozenSection> sections_;  // by key group index
  std::vector<FrozenRawState> rawStates_;
};

}  // namespace

void HeapKeyedStateBackend::snapshotKeyGroup(int keyGroup, std::string& out) const {
  checkOwnsKeyGroup(keyGroup, "snapshotKeyGroup");
  std::map<int, std::string> sections;
  freezeKeyGroups(KeyGroupRange{keyGroup, keyGroup})->write(sections);
  out.append(sections[keyGroup]);
}

void HeapKeyedStateBackend::snapshotKeyGroups(std::map<int, std::string>& sections) const {
  freezeKeyGroups()->write(sections);
}

std::unique_ptr<state::FrozenKeyedState> HeapKeyedStateBackend::freezeKeyGroups() const {
  return freezeKeyGroups(range_);
}

std::unique_ptr<state::FrozenKeyedState> HeapKeyedStateBackend::freezeKeyGroups(
    KeyGroupRange range) const {
  // Each raw state is asked once for all key groups (a timer service groups its timers by key
  // group in one pass); the typed states are written now, a key group at a time.
  std::vector<FrozenRawState> rawStates;
  rawStates.reserve(rawStates_.size());
  for (const auto& [name, raw] : rawStates_) {
    rawStates.push_back(
        FrozenRawState{name, raw.kind, raw.rawState->freezeKeyGroups(range, maxParallelism_)});
  }
  const int64_t now = clock_.currentTimeMillis();
  std::vector<FrozenSection> sections(static_cast<size_t>(range.size()));
  std::string body;
  for (int keyGroup = range.startKeyGroup; keyGroup <= range.endKeyGroup; ++keyGroup) {
    FrozenSection& section = sections[static_cast<size_t>(keyGroup - range.startKeyGroup)];
    for (const auto& [name, registered] : states_) {
      body.clear();
      if (registered.heapState->snapshotKeyGroup(keyGroupIndex(keyGroup), now, body) == 0) {
        continue;
      }
      const uint8_t flags =
          registered.heapState->writesTimestamps() ? state::kEntriesHaveTimestamps : 0;
      appendBlock(name, registered.kind, flags, body, section.typedBlocks);
      ++section.typedBlockCount;
    }
    for (const auto& [name, restored] : restoredBlocks_) {
      for (const RestoredBlock& block : restored) {
        if (block.keyGroup != keyGroup) continue;
        appendBlock(name, block.kind, block.flags, block.body, section.restoredBlocks);
        ++section.restoredBlockCount;
      }
    }
  }
  return std::make_unique<FrozenHeapKeyedState>(range, std::move(sections), std::move(rawStates));
}

void HeapKeyedStateBackend::restoreKeyGroup(int keyGroup, std::string_view bytes) {
  checkOwnsKeyGroup(keyGroup, "restoreKeyGroup");
  if (bytes.empty() || static_cast<uint8_t>(bytes.front()) != state::kKeyGroupSnapshotVersion) {
    throw InternalError(
        fmt::format("Key group {} snapshot has an unknown format version", keyGroup));
  }
  bytes.remove_prefix(1);
  uint64_t writtenKeyGroup = serialization::readVarint(bytes);
  if (writtenKeyGroup != static_cast<uint64_t>(keyGroup)) {
    throw InternalError(fmt::format("Snapshot section of key group {} was restored as key group {}",
                                    writtenKeyGroup, keyGroup));
  }
  int64_t now = clock_.currentTimeMillis();
  uint64_t blockCount = serialization::readVarint(bytes);
  for (uint64_t i = 0; i < blockCount; ++i) {
    std::string_view name = state::readLengthPrefixed(bytes);
    if (bytes.size() < 2) throw InternalError("truncated state block header in a snapshot");
    auto kindByte = static_cast<uint8_t>(bytes[0]);
    auto flags = static_cast<uint8_t>(bytes[1]);
    bytes.remove_prefix(2);
    if (!state::isValidStateKind(kindByte)) {
      throw InternalError(fmt::format("State '{}' has unknown kind {} in a snapshot", name,
                                      static_cast<int>(kindByte)));
    }
    auto kind = static_cast<state::StateKind>(kindByte);
    std::string_view body = state::readLengthPrefixed(bytes);
    if (auto raw = rawStates_.find(name); raw != rawStates_.end()) {
      state::checkRestoredKind(raw->first, kind, raw->second.kind);
      if (flags != 0) {
        throw InternalError(fmt::format("State '{}' has unknown flags {} in a snapshot", name,
                                        static_cast<int>(flags)));
      }
      raw->second.rawState->restoreKeyGroup(keyGroup, body);
    } else if (auto it = states_.find(name); it != states_.end()) {
      state::checkRestoredKind(it->first, kind, it->second.kind);
      it->second.heapState->restoreKeyGroup(keyGroupIndex(keyGroup), body,
                                            (flags & state::kEntriesHaveTimestamps) != 0, now);
    } else {
      restoredBlocks_[std::string(name)].push_back(
          RestoredBlock{keyGroup, kind, flags, std::string(body)});
    }
  }
  if (!bytes.empty()) {
    throw InternalError(fmt::format("Trailing bytes after the snapshot of key group {}", keyGroup));
  }
}

}  // namespace eddy

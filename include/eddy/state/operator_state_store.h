// OperatorStateStore: the operator (non-keyed) state of one operator subtask, as Flink's
// OperatorStateStore: named lists of elements that belong to the subtask rather than to a key
// (a source's positions, a sink's pending transactions). Each list is redistributed when a job
// is restored at another parallelism, by the mode it was registered with:
// - getListState (Flink's SPLIT_DISTRIBUTE): the elements of all old subtasks are split evenly,
//   round robin, over the new ones; each element goes to exactly one subtask.
// - getUnionListState (Flink's UNION): every new subtask gets the elements of all old ones.
//
// A list's elements are kept as C++ values; they are serialized only when the store is
// snapshotted (into named blobs of an OperatorSnapshot, see docs/state_format.md "Operator
// list state") and decoded when the list is first registered after a restore.
//
// Threading and ownership: single-threaded (the task thread of the subtask). The store owns its
// states; a returned state stays valid as long as the store. The runtime creates a store per
// operator subtask on first use (OperatorContext::operatorStateStore), restored from the
// subtask's (redistributed) snapshot, and writes it into every snapshot of the operator.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include "eddy/detail/state/key_group_snapshot.h"
#include "eddy/exceptions.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/state_descriptor.h"

namespace eddy {

/// How an operator list state's elements are redistributed on a restore at another
/// parallelism (Flink's OperatorStateHandle.Mode). The numbers are written into snapshots.
enum class OperatorStateDistributionMode : uint8_t {
  kSplitDistribute = 0,
  kUnion = 1,
};

namespace state {

/// The name under which a store writes list state `stateName` into OperatorSnapshot's named
/// blobs; names without this prefix are blobs an operator wrote itself.
inline constexpr std::string_view kOperatorListStatePrefix = "_operator_list_state/";

/// A list state blob: version:u8 (1) mode:u8 count:varint element:bytes{count} (each element
/// its serializer's bytes). Decoding a blob keeps views into it.
struct OperatorListStateBlob {
  OperatorStateDistributionMode mode = OperatorStateDistributionMode::kSplitDistribute;
  std::vector<std::string_view> elements;
};
inline constexpr uint8_t kOperatorListStateVersion = 1;
OperatorListStateBlob decodeOperatorListState(std::string_view blob);
void encodeOperatorListState(OperatorStateDistributionMode mode,
                             const std::vector<std::string_view>& elements, std::string& out);

/// The type-erased side of one registered list (the store's registry holds these).
class OperatorListStateBase {
 public:
  virtual ~OperatorListStateBase() = default;
  /// Appends each element's serialized bytes to `out`, one string per element.
  virtual void serializeElements(std::vector<std::string>& out) const = 0;
  /// Appends the elements decoded from their bytes.
  virtual void restoreElements(const std::vector<std::string_view>& elements) = 0;
};

/// One operator list state: a vector of values.
template <typename V, typename Serializer>
class OperatorListState final : public ListState<V>, public OperatorListStateBase {
 public:
  std::vector<V> get() override { return elements_; }
  void add(V value) override { elements_.push_back(std::move(value)); }
  void addAll(std::vector<V> values) override {
    for (V& value : values) elements_.push_back(std::move(value));
  }
  void update(std::vector<V> values) override { elements_ = std::move(values); }
  void clear() override { elements_.clear(); }

  void serializeElements(std::vector<std::string>& out) const override {
    for (const V& element : elements_) {
      std::string bytes;
      Serializer::serialize(element, bytes);
      out.push_back(std::move(bytes));
    }
  }
  void restoreElements(const std::vector<std::string_view>& elements) override {
    for (std::string_view bytes : elements) {
      elements_.push_back(readSerializedValue<V, Serializer>(bytes));
    }
  }

 private:
  std::vector<V> elements_;
};

}  // namespace state

/// The operator state of one operator subtask (see the file comment).
class OperatorStateStore {
 public:
  /// A store restored from `operatorState`, the named blobs of the subtask's snapshot (already
  /// redistributed to this subtask); blobs that are not list state are ignored. The bytes are
  /// copied.
  explicit OperatorStateStore(const std::map<std::string, std::string>& operatorState = {});
  ~OperatorStateStore();
  OperatorStateStore(const OperatorStateStore&) = delete;
  OperatorStateStore& operator=(const OperatorStateStore&) = delete;

  /// The even-split list state named by `descriptor` (Flink's getListState), created on first
  /// request with its restored elements. The same name with another mode or element type
  /// throws ValidationException, as does a descriptor with TTL (operator state has none).
  template <typename V, typename Serializer>
  ListState<V>* getListState(const ListStateDescriptor<V, Serializer>& descriptor) {
    return getOrCreate<V, Serializer>(descriptor, OperatorStateDistributionMode::kSplitDistribute);
  }

  /// The union list state named by `descriptor` (Flink's getUnionListState).
  template <typename V, typename Serializer>
  ListState<V>* getUnionListState(const ListStateDescriptor<V, Serializer>& descriptor) {
    return getOrCreate<V, Serializer>(descriptor, OperatorStateDistributionMode::kUnion);
  }

  /// Names of the registered states, sorted (Flink's getRegisteredStateNames).
  std::vector<std::string> getRegisteredStateNames() const;

  /// Writes every registered list, and every restored list not registered again (so a
  /// snapshot taken before the operator asked for it loses nothing), into `operatorState`
  /// under kOperatorListStatePrefix + name.
  void snapshot(std::map<std::string, std::string>& operatorState) const;

 private:
  struct Registered {
    OperatorStateDistributionMode mode;
    const std::type_info* descriptorType;
    std::unique_ptr<state::OperatorListStateBase> state;
    State* userState;
  };

  template <typename V, typename Serializer>
  ListState<V>* getOrCreate(const ListStateDescriptor<V, Serializer>& descriptor,
                            OperatorStateDistributionMode mode) {
    using Descriptor = ListStateDescriptor<V, Serializer>;
    if (const Registered* found = find(descriptor.getName(), mode, typeid(Descriptor))) {
      return static_cast<ListState<V>*>(found->userState);
    }
    if (descriptor.getTtlConfig()) {
      throw ValidationException("Operator state '" + descriptor.getName() +
                                "' cannot have a time-to-live (only keyed state has TTL)");
    }
    auto state = std::make_unique<state::OperatorListState<V, Serializer>>();
    ListState<V>* userState = state.get();
    add(descriptor.getName(), Registered{mode, &typeid(Descriptor), std::move(state), userState});
    return userState;
  }

  /// The registered state `name`, or nullptr; throws when it was registered otherwise.
  const Registered* find(const std::string& name, OperatorStateDistributionMode mode,
                         const std::type_info& descriptorType) const;
  /// Registers a new state and restores its elements (checking the restored mode).
  void add(const std::string& name, Registered registered);

  std::map<std::string, Registered, std::less<>> states_;
  // Restored blobs by state name, until the state is registered.
  std::map<std::string, std::string, std::less<>> restored_;
};

}  // namespace eddy

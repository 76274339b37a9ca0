// OperatorContext's state stores: created on first use from the task's settings, restored from
// the operator subtask's snapshot, written into its snapshots.
#include "eddy/runtime/stream_operator.h"

#include "common/check.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/operator_state_store.h"
#include "state/state_backend_loader.h"

namespace eddy::runtime {

OperatorContext::OperatorContext() = default;
OperatorContext::~OperatorContext() = default;
OperatorContext::OperatorContext(OperatorContext&&) noexcept = default;
OperatorContext& OperatorContext::operator=(OperatorContext&&) noexcept = default;

KeyedStateBackend& OperatorContext::keyedStateBackend() {
  if (keyedStateBackend_ == nullptr) {
    EDDY_CHECK(clock != nullptr);
    keyedStateBackend_ =
        state::loadKeyedStateBackend(stateBackendType, keyGroupRange, maxParallelism, *clock);
    if (restoredSnapshot != nullptr) keyedStateBackend_->restoreKeyGroups(restoredSnapshot->keyedState);
  }
  return *keyedStateBackend_;
}

OperatorStateStore& OperatorContext::operatorStateStore() {
  if (operatorStateStore_ == nullptr) {
    operatorStateStore_ = restoredSnapshot != nullptr
                              ? std::make_unique<OperatorStateStore>(restoredSnapshot->operatorState)
                              : std::make_unique<OperatorStateStore>();
  }
  return *operatorStateStore_;
}

void OperatorContext::snapshotStateStores(OperatorSnapshot& snapshot) const {
  if (keyedStateBackend_ != nullptr) keyedStateBackend_->snapshotKeyGroups(snapshot.keyedState);
  if (operatorStateStore_ != nullptr) operatorStateStore_->snapshot(snapshot.operatorState);
}

std::unique_ptr<state::FrozenKeyedState> OperatorContext::freezeStateStores(
    OperatorSnapshot& snapshot) const {
  if (operatorStateStore_ != nullptr) operatorStateStore_->snapshot(snapshot.operatorState);
  if (keyedStateBackend_ == nullptr) return nullptr;
  return keyedStateBackend_->freezeKeyGroups();
}

}  // namespace eddy::runtime

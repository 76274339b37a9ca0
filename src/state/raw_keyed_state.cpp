// RawKeyedState's default freeze: the bodies are written at the freeze and kept until asked for.
#include "eddy/state/keyed_state_backend.h"

namespace eddy::state {

namespace {

class WrittenKeyGroups final : public FrozenKeyGroups {
 public:
  explicit WrittenKeyGroups(std::vector<std::string> bodies) : bodies_(std::move(bodies)) {}
  void write(std::vector<std::string>& bodies) override { bodies = std::move(bodies_); }

 private:
  std::vector<std::string> bodies_;
};

}  // namespace

std::unique_ptr<FrozenKeyGroups> RawKeyedState::freezeKeyGroups(KeyGroupRange range,
                                                                 int maxParallelism) const {
  std::vector<std::string> bodies(static_cast<size_t>(range.size()));
  snapshotKeyGroups(range, maxParallelism, bodies);
  return std::make_unique<WrittenKeyGroups>(std::move(bodies));
}

}  // namespace eddy::state

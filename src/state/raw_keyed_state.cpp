// RawKeyedState's default freeze (the bodies are written at the freeze and kept until asked
// for), the bodies handed out one key group at a time, and FrozenKeyedState's write into a map.
#include "eddy/state/keyed_state_backend.h"

namespace eddy::state {

namespace {

class WrittenKeyGroups final : public FrozenKeyGroupBodies {
 public:
  WrittenKeyGroups(KeyGroupRange range, std::vector<std::string> bodies)
      : FrozenKeyGroupBodies(range), bodies_(std::move(bodies)) {}

 protected:
  void write(std::vector<std::string>& bodies) override { bodies = std::move(bodies_); }

 private:
  std::vector<std::string> bodies_;
};

class SectionMap final : public KeyGroupSectionSink {
 public:
  explicit SectionMap(std::map<int, std::string>& sections) : sections_(sections) {}
  void addSection(int keyGroup, std::string_view bytes) override {
    sections_[keyGroup].assign(bytes);
  }

 private:
  std::map<int, std::string>& sections_;
};

}  // namespace

void FrozenKeyGroupBodies::writeKeyGroup(int keyGroup, std::string& body) {
  if (!written_) {
    bodies_.assign(static_cast<size_t>(range_.size()), std::string());
    write(bodies_);
    written_ = true;
  }
  std::string& written = bodies_[static_cast<size_t>(keyGroup - range_.startKeyGroup)];
  body.swap(written);
  std::string().swap(written);
}

void writeAllKeyGroups(FrozenKeyGroups& frozen, KeyGroupRange range,
                       std::vector<std::string>& bodies) {
  for (int keyGroup = range.startKeyGroup; keyGroup <= range.endKeyGroup; ++keyGroup) {
    frozen.writeKeyGroup(keyGroup, bodies[static_cast<size_t>(keyGroup - range.startKeyGroup)]);
  }
}

void FrozenKeyedState::write(std::map<int, std::string>& sections) {
  SectionMap sink(sections);
  writeSections(sink);
}

std::unique_ptr<FrozenKeyGroups> RawKeyedState::freezeKeyGroups(KeyGroupRange range,
                                                                 int maxParallelism) const {
  std::vector<std::string> bodies(static_cast<size_t>(range.size()));
  snapshotKeyGroups(range, maxParallelism, bodies);
  return std::make_unique<WrittenKeyGroups>(range, std::move(bodies));
}

}  // namespace eddy::state

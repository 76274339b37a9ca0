// Checkpoint directories on disk: a round trip of a checkpoint with several operators,
// subtasks, operator-state blobs and key groups; the layout `<dir>/<job id>/chk-<n>/` with
// `_metadata`; the errors for a missing path, a missing `_metadata`, a flipped byte and a
// truncated file, each naming the directory or file; discard and close; state files a task
// wrote itself (writeTaskStateFile) named by the metadata and read back into memory.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "eddy/exceptions.h"
#include "eddy/state/keyed_state_backend.h"
#include "runtime/checkpoint_storage.h"

namespace eddy::runtime {
namespace {

namespace fs = std::filesystem;

class CheckpointStorageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device device;
    root_ = fs::temp_directory_path() / ("eddy-checkpoint-storage-test-" + std::to_string(device()));
    fs::create_directories(root_);
  }
  void TearDown() override { fs::remove_all(root_); }

  std::string errorOf(const fs::path& path) {
    try {
      readCheckpoint(path);
    } catch (const ValidationException& error) {
      return error.what();
    }
    return "no error";
  }

  fs::path root_;
};

CompletedCheckpoint sampleCheckpoint() {
  CompletedCheckpoint checkpoint;
  checkpoint.id = 7;
  checkpoint.timestamp = 1'700'000'000'123;
  checkpoint.options.alignment = CheckpointOptions::AlignmentType::AT_LEAST_ONCE;
  OperatorSnapshot source;
  source.operatorState["position"] = std::string("\x00\x01\x02 bytes", 9);
  source.operatorState["splits"] = "";
  OperatorSnapshot finished;
  finished.finished = true;
  checkpoint.operators["source-uid"] = {source, finished};
  OperatorSnapshot keyed0;
  keyed0.keyedState[0] = "group zero";
  keyed0.keyedState[3] = std::string(1000, 'x');
  OperatorSnapshot keyed1;
  keyed1.keyedState[64] = "group sixty-four";
  keyed1.operatorState["buffer"] = "pending";
  OperatorSnapshot empty;
  checkpoint.operators["keyed/uid with spaces"] = {keyed0, keyed1, empty};
  checkpoint.sourceCoordinators["source-uid"] = std::string("\x01unassigned\x00splits", 18);
  checkpoint.sourceCoordinators["other-source"] = "";
  return checkpoint;
}

void flipByte(const fs::path& file, size_t offset) {
  std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
  stream.seekg(static_cast<std::streamoff>(offset));
  char byte = 0;
  stream.get(byte);
  stream.seekp(static_cast<std::streamoff>(offset));
  stream.put(static_cast<char>(byte ^ 0x10));
}

TEST_F(CheckpointStorageTest, ACheckpointReadBackEqualsTheOneWritten) {
  FileSystemCheckpointStorage storage(root_, "0123456789abcdef0123456789abcdef");
  const CompletedCheckpoint written = sampleCheckpoint();
  const std::string location = storage.store(written);
  EXPECT_EQ(location, (root_ / "0123456789abcdef0123456789abcdef" / "chk-7").string());
  EXPECT_TRUE(fs::exists(fs::path(location) / "_metadata"));
  EXPECT_FALSE(fs::exists(fs::path(location) / "_metadata.inprogress"));
  // One state file per operator subtask with state: 2 + 0 (finished) + 0 (empty) + 1.
  int files = 0;
  for (const auto& entry : fs::directory_iterator(location)) files += entry.is_regular_file();
  EXPECT_EQ(files, 4);

  for (const fs::path& path : {fs::path(location), fs::path(location) / "_metadata"}) {
    std::shared_ptr<const CompletedCheckpoint> read = readCheckpoint(path);
    EXPECT_EQ(read->id, 7);
    EXPECT_EQ(read->timestamp, 1'700'000'000'123);
    EXPECT_EQ(read->options, written.options);
    EXPECT_EQ(read->operators, written.operators);
    EXPECT_EQ(read->sourceCoordinators, written.sourceCoordinators);
  }
}

TEST_F(CheckpointStorageTest, APathThatDoesNotExistIsNamed) {
  const fs::path missing = root_ / "no-such-job" / "chk-1";
  EXPECT_EQ(errorOf(missing),
            "Cannot find checkpoint or savepoint file/directory '" + missing.string() + "'.");
}

TEST_F(CheckpointStorageTest, ADirectoryWithoutMetadataIsIncompleteAndNamed) {
  FileSystemCheckpointStorage storage(root_, "job");
  const fs::path location = storage.store(sampleCheckpoint());
  fs::remove(location / "_metadata");
  EXPECT_EQ(errorOf(location),
            "Cannot find meta data file '_metadata' in directory '" + location.string() +
                "': the checkpoint is incomplete, or the path is not a checkpoint or savepoint "
                "directory.");
}

TEST_F(CheckpointStorageTest, AFlippedByteInAStateFileIsReportedWithTheFile) {
  FileSystemCheckpointStorage storage(root_, "job");
  const fs::path location = storage.store(sampleCheckpoint());
  const fs::path file = location / "op-0-subtask-0";  // "keyed/uid with spaces" sorts first
  ASSERT_TRUE(fs::exists(file));
  flipByte(file, 20);
  EXPECT_EQ(errorOf(location), "The checkpoint file '" + file.string() +
                                   "' is corrupted or truncated: its checksum does not match.");
}

TEST_F(CheckpointStorageTest, AFlippedByteInTheMetadataIsReportedWithTheFile) {
  FileSystemCheckpointStorage storage(root_, "job");
  const fs::path location = storage.store(sampleCheckpoint());
  flipByte(location / "_metadata", 13);  // inside the checkpoint id
  EXPECT_EQ(errorOf(location), "The checkpoint file '" + (location / "_metadata").string() +
                                   "' is corrupted or truncated: its checksum does not match.");
}

TEST_F(CheckpointStorageTest, ATruncatedStateFileIsReportedWithTheFile) {
  FileSystemCheckpointStorage storage(root_, "job");
  const fs::path location = storage.store(sampleCheckpoint());
  const fs::path file = location / "op-0-subtask-1";
  const uintmax_t size = fs::file_size(file);
  fs::resize_file(file, size - 3);
  EXPECT_EQ(errorOf(location), "The checkpoint file '" + file.string() +
                                   "' is truncated or corrupted: it has " +
                                   std::to_string(size - 3) + " bytes, '" +
                                   (location / "_metadata").string() + "' recorded " +
                                   std::to_string(size) + ".");
}

TEST_F(CheckpointStorageTest, DiscardRemovesACheckpointAndCloseTheEmptyJobDirectory) {
  FileSystemCheckpointStorage storage(root_, "job");
  CompletedCheckpoint first = sampleCheckpoint();
  first.id = 1;
  CompletedCheckpoint second = sampleCheckpoint();
  second.id = 2;
  storage.store(first);
  storage.store(second);
  storage.discard(1);
  EXPECT_FALSE(fs::exists(root_ / "job" / "chk-1"));
  EXPECT_TRUE(fs::exists(root_ / "job" / "chk-2" / "_metadata"));
  storage.close();  // not empty: stays
  EXPECT_TRUE(fs::exists(root_ / "job"));
  storage.discard(2);
  storage.close();
  EXPECT_FALSE(fs::exists(root_ / "job"));
}

// Key groups 2..4 as a frozen backend hands them over, one section at a time.
class FakeFrozenKeyedState final : public state::FrozenKeyedState {
 public:
  KeyGroupRange keyGroupRange() const override { return KeyGroupRange{2, 4}; }
  void writeSections(state::KeyGroupSectionSink& sink) override {
    for (int keyGroup = 2; keyGroup <= 4; ++keyGroup) sink.addSection(keyGroup, sectionOf(keyGroup));
  }
  static std::string sectionOf(int keyGroup) {
    return "section " + std::to_string(keyGroup) + std::string(static_cast<size_t>(keyGroup) * 100, 'k');
  }
};

TEST_F(CheckpointStorageTest, AStateFileATaskWroteIsNamedByTheMetadataAndReadBack) {
  FileSystemCheckpointStorage storage(root_, "job");
  storage.initializeLocation(5);
  storage.initializeLocation(6);  // never completes
  const fs::path directory = storage.stateDirectory(5);
  EXPECT_EQ(directory, root_ / "job" / "chk-5");
  FakeFrozenKeyedState frozen;
  const std::map<std::string, std::string> operatorState{{"position", "p"}};
  OperatorSnapshot written;
  written.stateFile = writeTaskStateFile(directory / "task-0-op-0-subtask-0", operatorState, frozen);
  EXPECT_EQ(written.stateFile->path, (directory / "task-0-op-0-subtask-0").string());
  EXPECT_EQ(written.stateFile->size, fs::file_size(directory / "task-0-op-0-subtask-0"));
  auto checkpoint = std::make_shared<CompletedCheckpoint>();
  checkpoint->id = 5;
  checkpoint->operators["keyed"] = {written, sampleCheckpoint().operators["source-uid"][0]};
  OperatorSnapshot expected;
  expected.operatorState = operatorState;
  for (int keyGroup = 2; keyGroup <= 4; ++keyGroup) {
    expected.keyedState[keyGroup] = FakeFrozenKeyedState::sectionOf(keyGroup);
  }
  int64_t stateBytes = 1;  // "p"
  for (const auto& [keyGroup, section] : expected.keyedState) stateBytes += std::ssize(section);
  EXPECT_EQ(written.stateFile->stateBytes, stateBytes);

  const std::string location = storage.store(*checkpoint);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(location)) files += entry.is_regular_file();
  EXPECT_EQ(files, 3);  // the task's file, the other subtask's, _metadata
  std::shared_ptr<const CompletedCheckpoint> read = readCheckpoint(location);
  ASSERT_EQ(read->operators.at("keyed").size(), 2U);
  EXPECT_EQ(read->operators.at("keyed")[0], expected);
  EXPECT_EQ(read->operators.at("keyed")[1], checkpoint->operators["keyed"][1]);
  std::shared_ptr<const CompletedCheckpoint> inMemory = withStateInMemory(checkpoint);
  EXPECT_EQ(inMemory->operators, read->operators);
  EXPECT_EQ(inMemory->stateSize(), checkpoint->stateSize());

  flipByte(directory / "task-0-op-0-subtask-0", 40);
  try {
    withStateInMemory(checkpoint);
    ADD_FAILURE() << "a corrupted state file was read";
  } catch (const ValidationException& error) {
    EXPECT_EQ(std::string(error.what()), "The checkpoint file '" +
                                             (directory / "task-0-op-0-subtask-0").string() +
                                             "' is corrupted or truncated: its checksum does not match.");
  }
  storage.close();  // chk-6 has no _metadata: it goes
  EXPECT_FALSE(fs::exists(root_ / "job" / "chk-6"));
  EXPECT_TRUE(fs::exists(root_ / "job" / "chk-5" / "_metadata"));
}

}  // namespace
}  // namespace eddy::runtime

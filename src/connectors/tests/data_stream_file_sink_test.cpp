// The DataStream FileSink (eddy/connector/file_sink.h) through its sink operator, one subtask
// driven by hand (sink_subtask.h): part files hidden until the checkpoint that closed them
// completes, named as Flink's; SimpleStringEncoder writes records as print() prints them; a
// restore commits the checkpoint's files (again, when they were committed already) and removes
// the in-progress files written after it, so the output equals an uninterrupted run's; at
// another parallelism, too; the end of input commits at once without checkpointing and at the
// final checkpoint with it; bad committable bytes and a path that is a file are refused naming
// the sink. Every assertion is on the files of a temporary directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/sink_subtask.h"
#include "eddy/state/operator_state_store.h"

namespace eddy::connectors {
namespace {

namespace fs = std::filesystem;

using testing::readFile;
using testing::SinkSubtaskOptions;
using testing::TemporaryDirectory;

using StringSink = FileSink<std::string>;
using StringSubtask = testing::SinkSubtask<StringSink>;

std::shared_ptr<const StringSink> stringSink(const fs::path& path) {
  return StringSink::forRowFormat(path, SimpleStringEncoder<std::string>())
      .withRollingPolicy(OnCheckpointRollingPolicy::build())
      .build();
}

/// Every file in `directory`, sorted; hidden ones (in progress) too.
std::vector<std::string> filesIn(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> visibleFiles(const fs::path& directory) {
  std::vector<std::string> names = filesIn(directory);
  std::erase_if(names, [](const std::string& name) { return name.starts_with('.'); });
  return names;
}

std::vector<std::string> hiddenFiles(const fs::path& directory) {
  std::vector<std::string> names = filesIn(directory);
  std::erase_if(names, [](const std::string& name) { return !name.starts_with('.'); });
  return names;
}

/// The lines of every visible file, sorted.
std::vector<std::string> committedLines(const fs::path& directory) {
  std::vector<std::string> lines;
  for (const std::string& name : visibleFiles(directory)) {
    std::string content = readFile(directory / name);
    EXPECT_TRUE(content.empty() || content.back() == '\n') << name;
    size_t begin = 0;
    for (size_t end; (end = content.find('\n', begin)) != std::string::npos; begin = end + 1) {
      lines.push_back(content.substr(begin, end - begin));
    }
  }
  std::sort(lines.begin(), lines.end());
  return lines;
}

const std::regex kPartFileName(
    "part-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-([0-9]+)-([0-9]+)");

/// The UUID in a part file's name.
std::string uuidOf(const std::string& name) {
  const size_t start = name.find("part-") + 5;
  return name.substr(start, 36);
}

TEST(DataStreamFileSinkTest, RowsAreVisibleOnlyOnceTheirCheckpointCompletes) {
  TemporaryDirectory directory;
  const fs::path out = directory.path() / "out";  // created by the sink
  StringSubtask subtask(stringSink(out));

  subtask.write({"a", "b"});
  subtask.checkpoint(1);
  // Closed into a hidden file pending for checkpoint 1, named as Flink's.
  const std::vector<std::string> pending = hiddenFiles(out);
  ASSERT_EQ(pending.size(), 1u);
  const std::string partName = pending[0].substr(1, pending[0].size() - 1 - 11);
  EXPECT_EQ(pending[0], "." + partName + ".inprogress");
  std::smatch match;
  ASSERT_TRUE(std::regex_match(partName, match, kPartFileName)) << partName;
  EXPECT_EQ(match[1], "0");  // subtask
  EXPECT_EQ(match[2], "0");  // counter
  EXPECT_EQ(readFile(out / pending[0]), "a\nb\n");
  EXPECT_EQ(visibleFiles(out), std::vector<std::string>{});

  subtask.write({"c"});
  subtask.complete(1);
  EXPECT_EQ(visibleFiles(out), std::vector<std::string>{partName});
  EXPECT_EQ(readFile(out / partName), "a\nb\n");
  // "c" is in the next file, not written yet (buffered) and not visible.
  EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});

  const std::string uuid = uuidOf(partName);
  subtask.checkpoint(2);
  EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{".part-" + uuid + "-0-1.inprogress"});
  subtask.abort(2);
  subtask.write({"d"});
  subtask.checkpoint(3);
  subtask.complete(3);  // commits the aborted checkpoint's file with its own
  EXPECT_EQ(visibleFiles(out),
            (std::vector<std::string>{"part-" + uuid + "-0-0", "part-" + uuid + "-0-1",
                                      "part-" + uuid + "-0-2"}));
  EXPECT_EQ(readFile(out / ("part-" + uuid + "-0-2")), "d\n");
  EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
}

TEST(DataStreamFileSinkTest, SimpleStringEncoderWritesWhatPrintPrints) {
  TemporaryDirectory directory;
  using Pair = std::pair<std::string, int64_t>;
  auto sink =
      FileSink<Pair>::forRowFormat(directory.path(), SimpleStringEncoder<Pair>("UTF-8"))
          .withOutputFileConfig(
              OutputFileConfig::builder().withPartPrefix("pairs").withPartSuffix(".txt").build())
          .build();
  testing::SinkSubtask<FileSink<Pair>> subtask(
      sink, SinkSubtaskOptions{.subtaskIndex = 3, .parallelism = 4, .checkpointing = false});
  subtask.write({Pair{"Alice", 12}, Pair{"Bob", -1}});
  subtask.finish();
  const std::vector<std::string> files = visibleFiles(directory.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files[0].starts_with("pairs-")) << files[0];
  EXPECT_TRUE(files[0].ends_with("-3-0.txt")) << files[0];
  EXPECT_EQ(readFile(directory.path() / files[0]), "(Alice,12)\n(Bob,-1)\n");
  EXPECT_EQ(hiddenFiles(directory.path()), std::vector<std::string>{});

  EXPECT_THROW(SimpleStringEncoder<Pair>("ISO-8859-1"), ValidationException);
}

TEST(DataStreamFileSinkTest, ARestoreRemovesWhatWasWrittenAfterTheCheckpoint) {
  // The uninterrupted run.
  TemporaryDirectory referenceDirectory;
  {
    StringSubtask subtask(stringSink(referenceDirectory.path()));
    subtask.write({"a"});
    subtask.checkpoint(1);
    subtask.complete(1);
    subtask.write({"b"});
    subtask.checkpoint(2);
    subtask.complete(2);
    subtask.write({"c"});
    subtask.finish();
    subtask.checkpoint(3);
    subtask.complete(3);
  }
  const std::vector<std::string> expected = committedLines(referenceDirectory.path());
  ASSERT_EQ(expected, (std::vector<std::string>{"a", "b", "c"}));

  TemporaryDirectory directory;
  const fs::path& out = directory.path();
  auto sink = stringSink(out);
  runtime::OperatorSnapshot atOne;
  {
    StringSubtask subtask(sink);
    subtask.write({"a"});
    atOne = subtask.checkpoint(1);  // its completion never arrives
    subtask.write({"b"});
    subtask.sinkOperator().prepareSnapshotPreBarrier(2);  // closed for a checkpoint that fails
    subtask.write({"c"});
    subtask.sinkOperator().finish();  // written and closed at the end of input
    subtask.crash();
  }
  EXPECT_EQ(visibleFiles(out), std::vector<std::string>{});
  const std::vector<std::string> written = hiddenFiles(out);
  ASSERT_EQ(written.size(), 3u);
  const std::string uuid = uuidOf(written[0]);
  EXPECT_EQ(written, (std::vector<std::string>{".part-" + uuid + "-0-0.inprogress",
                                               ".part-" + uuid + "-0-1.inprogress",
                                               ".part-" + uuid + "-0-2.inprogress"}));

  {
    // The restore commits checkpoint 1's file and removes the two written after it, before any
    // record arrives; the writer goes on with the same UUID and the next counter.
    StringSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {atOne}});
    EXPECT_EQ(visibleFiles(out), std::vector<std::string>{"part-" + uuid + "-0-0"});
    EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
    restored.write({"b", "c"});  // replayed
    restored.finish();
    EXPECT_TRUE(restored.needsFinalCheckpoint());
    restored.checkpoint(2);
    restored.complete(2);
    EXPECT_EQ(visibleFiles(out),
              (std::vector<std::string>{"part-" + uuid + "-0-0", "part-" + uuid + "-0-1"}));
  }
  EXPECT_EQ(committedLines(out), expected);
  EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
}

TEST(DataStreamFileSinkTest, ARestoreOfACommittedCheckpointChangesNothing) {
  TemporaryDirectory directory;
  const fs::path& out = directory.path();
  auto sink = stringSink(out);
  runtime::OperatorSnapshot atOne;
  {
    StringSubtask subtask(sink);
    subtask.write({"a", "b"});
    atOne = subtask.checkpoint(1);
    subtask.complete(1);
    subtask.crash();
  }
  const std::vector<std::string> before = visibleFiles(out);
  ASSERT_EQ(before.size(), 1u);
  {
    StringSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {atOne}});
    EXPECT_EQ(visibleFiles(out), before);
    restored.write({"c"});
    restored.checkpoint(2);
    restored.complete(2);
  }
  EXPECT_EQ(committedLines(out), (std::vector<std::string>{"a", "b", "c"}));

  // A committed file that is gone is an error naming the sink (someone removed the output).
  fs::remove(out / before[0]);
  try {
    StringSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {atOne}});
    FAIL() << "restored a checkpoint whose file is gone";
  } catch (const ConnectorException& error) {
    EXPECT_NE(std::string(error.what()).find("of FileSink '" + out.string() + "'"),
              std::string::npos)
        << error.what();
  }
}

TEST(DataStreamFileSinkTest, ARestoreAtAnotherParallelismGivesTheSameOutput) {
  TemporaryDirectory directory;
  const fs::path& out = directory.path();
  auto sink = stringSink(out);

  // Two subtasks: a committed checkpoint, a pending one, and files written after it.
  std::vector<runtime::OperatorSnapshot> atTwo;
  for (int index = 0; index < 2; ++index) {
    StringSubtask subtask(sink, SinkSubtaskOptions{.subtaskIndex = index, .parallelism = 2});
    const std::string tag = "s" + std::to_string(index) + "-";
    subtask.write({tag + "1"});
    subtask.checkpoint(1);
    subtask.complete(1);
    subtask.write({tag + "2"});
    atTwo.push_back(subtask.checkpoint(2));
    subtask.write({tag + "3"});
    subtask.sinkOperator().prepareSnapshotPreBarrier(3);
    subtask.crash();
  }
  EXPECT_EQ(committedLines(out), (std::vector<std::string>{"s0-1", "s1-1"}));
  EXPECT_EQ(hiddenFiles(out).size(), 4u);

  // Three subtasks: checkpoint 2's files committed once, the later ones removed; each replays
  // its share of what came after the checkpoint.
  std::vector<runtime::OperatorSnapshot> atThree;
  {
    auto subtasks = testing::restoreSubtasks<StringSink>(sink, atTwo, 3);
    EXPECT_EQ(committedLines(out), (std::vector<std::string>{"s0-1", "s0-2", "s1-1", "s1-2"}));
    EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
    subtasks[0]->write({"s0-3"});
    subtasks[1]->write({"s1-3"});
    subtasks[2]->write({"new-3"});
    for (int index = 0; index < 3; ++index) {
      atThree.push_back(subtasks[static_cast<size_t>(index)]->checkpoint(3));
    }
    subtasks[2]->write({"lost"});  // after checkpoint 3, closed, never committed
    subtasks[2]->sinkOperator().prepareSnapshotPreBarrier(4);
    for (auto& subtask : subtasks) subtask->crash();
  }

  // Back to one: checkpoint 3's three files are committed, the later one is removed.
  {
    StringSubtask merged(sink, SinkSubtaskOptions{.restoredFrom = atThree});
    EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
    merged.write({"end"});
    merged.finish();
    merged.checkpoint(4);
    merged.complete(4);
  }
  EXPECT_EQ(committedLines(out), (std::vector<std::string>{"end", "new-3", "s0-1", "s0-2", "s0-3",
                                                           "s1-1", "s1-2", "s1-3"}));
  EXPECT_EQ(hiddenFiles(out), std::vector<std::string>{});
  // Every name is a part file's, and no name is used twice (committed files are never
  // overwritten).
  std::set<std::string> names;
  for (const std::string& name : visibleFiles(out)) {
    EXPECT_TRUE(std::regex_match(name, kPartFileName)) << name;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 8u);
}

TEST(DataStreamFileSinkTest, TheEndOfInputCommitsAtOnceWithoutCheckpointsAndAtTheFinalOneWith) {
  for (RuntimeExecutionMode mode : {RuntimeExecutionMode::STREAMING, RuntimeExecutionMode::BATCH}) {
    TemporaryDirectory directory;
    StringSubtask subtask(stringSink(directory.path()),
                          SinkSubtaskOptions{.mode = mode, .checkpointing = false});
    subtask.write({"x", "y"});
    EXPECT_EQ(visibleFiles(directory.path()), std::vector<std::string>{});
    subtask.finish();
    EXPECT_FALSE(subtask.needsFinalCheckpoint());
    EXPECT_EQ(committedLines(directory.path()), (std::vector<std::string>{"x", "y"}))
        << toString(mode);
    EXPECT_EQ(hiddenFiles(directory.path()), std::vector<std::string>{});
  }

  TemporaryDirectory directory;
  StringSubtask subtask(stringSink(directory.path()));
  subtask.write({"x"});
  subtask.checkpoint(1);
  subtask.complete(1);
  subtask.write({"y"});
  subtask.finish();
  EXPECT_TRUE(subtask.needsFinalCheckpoint());
  EXPECT_EQ(committedLines(directory.path()), (std::vector<std::string>{"x"}));
  EXPECT_EQ(hiddenFiles(directory.path()).size(), 1u);  // closed, pending for the final one
  subtask.checkpoint(2);
  EXPECT_EQ(committedLines(directory.path()), (std::vector<std::string>{"x"}));
  subtask.complete(2);
  EXPECT_EQ(committedLines(directory.path()), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(hiddenFiles(directory.path()), std::vector<std::string>{});
}

TEST(DataStreamFileSinkTest, AFailedSubtaskRemovesItsUnclosedFile) {
  TemporaryDirectory directory;
  StringSubtask subtask(stringSink(directory.path()));
  subtask.write({"a"});
  subtask.checkpoint(1);
  subtask.write({"b"});
  subtask.sinkOperator().prepareSnapshotPreBarrier(2);                    // closed: pending, kept
  subtask.write(std::vector<std::string>(2000, std::string(1000, 'z')));  // over 1 MiB: written
  EXPECT_EQ(hiddenFiles(directory.path()).size(), 3u);
  subtask.close();  // a failure elsewhere in the job
  EXPECT_EQ(hiddenFiles(directory.path()).size(), 2u);
  EXPECT_EQ(visibleFiles(directory.path()), std::vector<std::string>{});
}

TEST(DataStreamFileSinkTest, BadStateAndAPathThatIsAFileAreRefusedNamingTheSink) {
  TemporaryDirectory directory;
  auto sink = stringSink(directory.path());
  runtime::OperatorSnapshot snapshot;
  {
    StringSubtask subtask(sink);
    subtask.write({"a"});
    snapshot = subtask.checkpoint(1);
    subtask.crash();
  }
  // A committable naming a file outside the sink's directory.
  const std::string name = std::string(state::kOperatorListStatePrefix) + "SinkCommittables";
  const FileSinkCommittableSerializer serializer;
  const std::string escaping = connector::detail::encodeSinkStateElement(
      1, connector::writeVersionAndSerialize(
             serializer, FileSinkCommittable{"../elsewhere", ".part-x.inprogress", "part-x"}));
  std::string blob;
  state::encodeOperatorListState(OperatorStateDistributionMode::kSplitDistribute, {escaping}, blob);
  snapshot.operatorState[name] = blob;
  try {
    StringSubtask restored(sink, SinkSubtaskOptions{.restoredFrom = {snapshot}});
    FAIL() << "restored a committable outside the directory";
  } catch (const InternalError& error) {
    EXPECT_EQ(std::string(error.what()),
              "Sink 'Sink: Writer' cannot read its committables: Cannot read a FileSink "
              "committable: its bucket '../elsewhere' is not inside the base path (corrupted or "
              "truncated)");
  }

  // The path is a file.
  const fs::path file = directory.write("file", "x");
  try {
    StringSubtask subtask(stringSink(file));
    FAIL() << "wrote into a file";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "The path '" + file.string() + "' of FileSink '" + file.string() +
                  "' is not a directory; the FileSink writes part files into a directory.");
  }
  EXPECT_THROW(stringSink(""), ValidationException);
}

}  // namespace
}  // namespace eddy::connectors

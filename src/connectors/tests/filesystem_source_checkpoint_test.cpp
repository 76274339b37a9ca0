// The filesystem source is replayable: a job checkpointed mid-file and restored into a new job,
// at the same and at another parallelism, ends with every line of every visible file exactly
// once over the checkpoint's rows and the restored run's (csv with a byte order mark, quoted
// line breaks, a file longer than a read block and a last line without line break; json;
// partition directories); the checkpoint holds each file's byte offset and line; a restored
// file that changed or vanished fails the job naming it, as do reader state bytes that do not
// decode; the split enumerator lists lazily, keeps what it has not assigned and deals it out
// on a restore; the split and enumerator state formats round trip and name the source when
// they cannot be read. Fresh starts are covered by filesystem_test.cpp. The jobs run on the
// harness of source_checkpoint_harness.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "connectors/filesystem/file_source.h"
#include "connectors/filesystem/filesystem_factory.h"
#include "connectors/tests/connector_test_support.h"
#include "connectors/tests/source_checkpoint_harness.h"

namespace eddy::connectors {
namespace {

namespace fs = std::filesystem;

using testing::bigintType;
using testing::rowType;
using testing::stringType;
using testing::TemporaryDirectory;

constexpr size_t kBlockAfter = 4 * 1024;  // rows per sink subtask before the checkpoint
const std::string kByteOrderMark = "\xEF\xBB\xBF";

// One row of a test table: id BIGINT, text STRING (and, partitioned, part STRING).
struct TableRow {
  int64_t id = 0;
  std::string text;
  std::optional<std::string> part;
};

// Texts of every kind: plain and long (so that a file crosses the 1 MiB read blocks), with a
// line break, with a comma.
std::string textOf(int64_t id) {
  if (id % 10 == 3) return "line one of " + std::to_string(id) + "\nline two";
  if (id % 10 == 7) return "a, b " + std::to_string(id);
  return "t" + std::to_string(id) + std::string(static_cast<size_t>(40 + id % 30), 'x');
}

// The record of `row` in `format` with its line break (the last one of a file may lack it).
std::string recordOf(const TableRow& row, const std::string& format) {
  if (format == "json") {
    std::string text;
    for (char c : row.text) text += c == '\n' ? std::string("\\n") : std::string(1, c);
    return "{\"id\":" + std::to_string(row.id) + ",\"text\":\"" + text + "\"}\n";
  }
  const bool quoted = row.text.find_first_of(",\n") != std::string::npos;
  return std::to_string(row.id) + "," + (quoted ? "\"" + row.text + "\"" : row.text) + "\n";
}

std::string printed(const TableRow& row, bool partitioned) {
  if (!partitioned) return Row::of(row.id, row.text).toString();
  return Row::of(row.id, row.text, row.part ? Value(*row.part) : Value()).toString();
}

// A table's directory: files of consecutive ids, and hidden files that must not be read.
class TestTable {
 public:
  TestTable(std::string format, bool partitioned)
      : format_(std::move(format)), partitioned_(partitioned) {}

  // Writes `rows` rows with the next ids to `name` (optionally with a byte order mark, without
  // the last line break) and returns the file's content; `part` is its partition's value.
  std::string addFile(const std::string& name, int64_t rows, bool byteOrderMark = false,
                      bool lastLineBreak = true, std::optional<std::string> part = {}) {
    std::string content = byteOrderMark ? kByteOrderMark : "";
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t id = nextId_++;
      TableRow row{id, textOf(id), part};
      content += recordOf(row, format_);
      expected_.push_back(printed(row, partitioned_));
    }
    if (!lastLineBreak) content.pop_back();
    directory_.write(name, content);
    return content;
  }
  void addHiddenFiles() {
    const std::string record = recordOf(TableRow{999'999, "hidden", {}}, format_);
    directory_.write(".hidden.csv", record);
    directory_.write("_SUCCESS", "");
    directory_.write(".part-x-0-0.inprogress", record);
  }

  std::shared_ptr<FileSource> source() const {
    std::vector<std::pair<std::string, LogicalTypePtr>> fields = {{"id", bigintType()},
                                                                  {"text", stringType()}};
    if (partitioned_) fields.emplace_back("part", stringType());
    ConnectorContext context{
        "t",
        rowType(std::move(fields)),
        {{"connector", "filesystem"}, {"path", directory_.path().string()}, {"format", format_}},
        true,
        partitioned_ ? std::vector<std::string>{"part"} : std::vector<std::string>{},
        {}};
    auto table = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
    return std::dynamic_pointer_cast<FileSource>(table->createSource());
  }
  // Every written row, printed, sorted.
  std::vector<std::string> expected() const {
    std::vector<std::string> rows = expected_;
    std::sort(rows.begin(), rows.end());
    return rows;
  }
  const fs::path& path() const { return directory_.path(); }

 private:
  TemporaryDirectory directory_;
  std::string format_;
  bool partitioned_;
  int64_t nextId_ = 0;
  std::vector<std::string> expected_;
};

// Four files of 20000, 15000, 12000 and 9000 rows: largest first, at 2 subtasks a.csv and d.csv
// go to subtask 0, b.csv and dir/c.csv to subtask 1; at 3 a.csv, b.csv, and dir/c.csv with
// d.csv; every subtask reads more than kBlockAfter rows.
void addFourFiles(TestTable& table, bool partitioned) {
  auto in = [partitioned](const std::string& part, const std::string& name) {
    return partitioned ? "part=" + part + "/" + name : name;
  };
  auto value = [partitioned](std::optional<std::string> part) {
    return partitioned ? part : std::nullopt;
  };
  table.addFile(in("x", "a.csv"), 20'000, /*byteOrderMark=*/true, true, value("x"));
  table.addFile(in("y", "b.csv"), 15'000, false, /*lastLineBreak=*/false, value("y"));
  table.addFile(in("__DEFAULT_PARTITION__", "dir/c.csv"), 12'000, false, true, value(std::nullopt));
  table.addFile(in("y", "d.csv"), 9'000, false, true, value("y"));
  table.addHiddenFiles();
}

void expectRestoredLinesEqualTheUninterruptedRun(const std::string& format, bool partitioned,
                                                 int before, int after) {
  SCOPED_TRACE(format + (partitioned ? " partitioned" : "") + ", parallelism " +
               std::to_string(before) + " -> " + std::to_string(after));
  TestTable table(format, partitioned);
  addFourFiles(table, partitioned);
  testing::CheckpointedRuns runs = testing::runCheckpointedAndRestored(
      [&table] { return table.source(); }, before, after, kBlockAfter);
  testing::expectEveryRowOnceAsUninterrupted(runs, table.expected(), before, kBlockAfter);
}

TEST(FileSystemSourceCheckpointTest, RestoredLinesContinueTheCheckpointedRun) {
  expectRestoredLinesEqualTheUninterruptedRun("csv", false, 2, 2);
  expectRestoredLinesEqualTheUninterruptedRun("csv", false, 1, 1);
}

TEST(FileSystemSourceCheckpointTest, RestoredAtAnotherParallelismTheFilesContinueAtTheirOffsets) {
  expectRestoredLinesEqualTheUninterruptedRun("csv", false, 2, 1);
  expectRestoredLinesEqualTheUninterruptedRun("csv", false, 1, 3);
  expectRestoredLinesEqualTheUninterruptedRun("csv", false, 3, 2);
}

TEST(FileSystemSourceCheckpointTest, JsonAndPartitionedTables) {
  expectRestoredLinesEqualTheUninterruptedRun("json", false, 2, 3);
  expectRestoredLinesEqualTheUninterruptedRun("csv", true, 3, 1);
}

// The splits of the source's readers in `checkpoint`, in subtask order.
std::vector<FileSourceSplit> readerSplitsOf(const runtime::CompletedCheckpoint& checkpoint,
                                            const FileSource& source) {
  std::vector<FileSourceSplit> splits;
  for (std::string_view bytes : testing::listStateElements(
           checkpoint, "source", connector::detail::kSourceReaderStateName)) {
    splits.push_back(connector::readVersionAndDeserialize(source.getSplitSerializer(), bytes));
  }
  return splits;
}

// The message of the JobExecutionException of `source`'s job at 1 subtask restored from
// `checkpoint` ("<no failure>" when it succeeds).
std::string restoreFailure(std::shared_ptr<const Source<vector::Chunk>> source,
                           std::shared_ptr<const runtime::CompletedCheckpoint> checkpoint) {
  auto probe = std::make_shared<testing::SinkProbe>();
  std::vector<std::unique_ptr<runtime::Transformation>> nodes;
  auto job =
      testing::startSourceCheckpointJob(std::move(source), 1, probe, std::move(checkpoint), nodes);
  try {
    job->waitForCompletion();
  } catch (const JobExecutionException& error) {
    return error.what();
  }
  return "<no failure>";
}

TEST(FileSystemSourceCheckpointTest, ACheckpointHoldsByteOffsetsAndARestoreChecksTheFiles) {
  TestTable table("csv", false);
  const std::string a = table.addFile("a.csv", 6'000, /*byteOrderMark=*/true);
  table.addFile("b.csv", 100);
  const fs::path aPath = table.path() / "a.csv";
  const fs::path bPath = table.path() / "b.csv";
  auto probe = std::make_shared<testing::SinkProbe>();
  probe->blockAfter = kBlockAfter;
  std::shared_ptr<const runtime::CompletedCheckpoint> checkpoint;
  {
    std::vector<std::unique_ptr<runtime::Transformation>> nodes;
    auto job = testing::startSourceCheckpointJob(table.source(), 1, probe, nullptr, nodes);
    checkpoint = testing::checkpointEverySubtaskMidStream(*job, *probe, 1);
    job->cancel();
    job->waitForCompletion();
  }
  ASSERT_TRUE(checkpoint);
  ASSERT_EQ(testing::listStateElements(*checkpoint, "sink", "rows").size(), kBlockAfter);

  // a.csv goes on at its record kBlockAfter + 1: after the byte order mark and the first
  // kBlockAfter records, on the line after their lines (every tenth record has two); b.csv was
  // not started.
  size_t offset = kByteOrderMark.size();
  int64_t line = 1;
  for (int64_t id = 0; id < static_cast<int64_t>(kBlockAfter); ++id) {
    const std::string text = recordOf(TableRow{id, textOf(id), {}}, "csv");
    offset += text.size();
    line += std::count(text.begin(), text.end(), '\n');
  }
  ASSERT_EQ(a.compare(offset, 5, std::to_string(kBlockAfter) + ","), 0);  // "4096,"
  std::vector<FileSourceSplit> splits = readerSplitsOf(*checkpoint, *table.source());
  ASSERT_EQ(splits.size(), 2u);
  EXPECT_EQ(splits[0].path, aPath.string());
  EXPECT_EQ(splits[0].offset, static_cast<int64_t>(offset));
  EXPECT_EQ(splits[0].line, line);
  EXPECT_EQ(splits[0].fileSize, static_cast<int64_t>(a.size()));
  EXPECT_EQ(splits[1].path, bPath.string());
  EXPECT_EQ(splits[1].offset, 0);
  EXPECT_EQ(splits[1].line, 1);
  // The enumerator had assigned everything.
  auto source = table.source();
  std::string_view enumeratorState = checkpoint->sourceCoordinators.at("source");
  enumeratorState.remove_prefix(1);  // the coordinator state's version byte
  EXPECT_EQ(connector::readVersionAndDeserialize(source->getEnumeratorCheckpointSerializer(),
                                                 enumeratorState),
            (FileSourceEnumeratorState{true, {}}));

  const std::string where = "Cannot continue reading file '" + aPath.string() +
                            "' at byte offset " + std::to_string(offset) + " (line " +
                            std::to_string(line) + "), where the checkpoint left it: ";
  // Reader state bytes that do not decode: the job fails naming the source.
  {
    auto corrupted = std::make_shared<runtime::CompletedCheckpoint>(*checkpoint);
    std::string& blob = corrupted->operators.at("source").at(0).operatorState.at(
        std::string(state::kOperatorListStatePrefix) +
        std::string(connector::detail::kSourceReaderStateName));
    state::OperatorListStateBlob decoded = state::decodeOperatorListState(blob);
    const std::string truncated(decoded.elements[0].substr(0, decoded.elements[0].size() - 4));
    std::string reencoded;
    state::encodeOperatorListState(decoded.mode, {truncated, decoded.elements[1]}, reencoded);
    blob = reencoded;
    EXPECT_NE(restoreFailure(table.source(), corrupted)
                  .find("threw: Source 'Source: t' cannot read a split: Cannot read a FileSource "
                        "split: "),
              std::string::npos);
  }
  // a.csv grew.
  std::ofstream(aPath, std::ios::app) << "99999,appended\n";
  std::string failure = restoreFailure(table.source(), checkpoint);
  EXPECT_NE(failure.find(where + "the file changed since it was listed (it has " +
                         std::to_string(a.size() + 15) + " bytes"),
            std::string::npos)
      << failure;
  // a.csv has its old content again but another modification time.
  std::ofstream(aPath, std::ios::binary | std::ios::trunc) << a;
  fs::last_write_time(aPath, fs::last_write_time(aPath) + std::chrono::seconds(1));
  failure = restoreFailure(table.source(), checkpoint);
  EXPECT_NE(failure.find(where + "the file changed since it was listed (it has " +
                         std::to_string(a.size()) + " bytes"),
            std::string::npos)
      << failure;
  // a.csv is gone.
  fs::remove(aPath);
  failure = restoreFailure(table.source(), checkpoint);
  EXPECT_NE(failure.find(where + "the file no longer exists (FileNotFound)"), std::string::npos)
      << failure;
}

/// Records what an enumerator assigns.
class RecordingEnumeratorContext final : public connector::SplitEnumeratorContext<FileSourceSplit> {
 public:
  explicit RecordingEnumeratorContext(int parallelism) : parallelism_(parallelism) {}
  int currentParallelism() const override { return parallelism_; }
  std::vector<int> registeredReaders() const override { return {}; }
  void assignSplit(FileSourceSplit split, int subtask) override {
    assigned[subtask].push_back(split.path);
  }
  void assignSplits(std::map<int, std::vector<FileSourceSplit>> assignment) override {
    for (auto& [subtask, splits] : assignment) {
      for (FileSourceSplit& split : splits) assignSplit(std::move(split), subtask);
    }
  }
  void signalNoMoreSplits(int subtask) override { noMoreSplits.insert(subtask); }

  std::map<int, std::vector<std::string>> assigned;  // subtask → paths, in order
  std::set<int> noMoreSplits;

 private:
  int parallelism_;
};

TEST(FileSystemSourceCheckpointTest, TheEnumeratorListsLazilyAndKeepsWhatItHasNotAssigned) {
  TemporaryDirectory directory;
  directory.write("1", std::string(100, '\n'));
  directory.write("2", std::string(60, '\n'));
  directory.write("3", std::string(50, '\n'));
  directory.write("4", std::string(10, '\n'));
  ConnectorContext context = testing::tableContext(
      rowType({{"id", bigintType()}}),
      {{"connector", "filesystem"}, {"path", directory.path().string()}, {"format", "csv"}});
  auto table = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
  auto source = std::dynamic_pointer_cast<FileSource>(table->createSource());
  ASSERT_TRUE(source);
  auto pathOf = [&](const std::string& name) { return (directory.path() / name).string(); };

  // Nothing listed before a reader registers; then subtask 1 gets files 2 and 3 (largest
  // first onto the least loaded), and the state keeps subtask 0's 1 and 4, from their start.
  RecordingEnumeratorContext fresh(2);
  auto enumerator = source->createEnumerator(fresh);
  EXPECT_EQ(enumerator->snapshotState(1), (FileSourceEnumeratorState{false, {}}));
  enumerator->addReader(1);
  EXPECT_EQ(fresh.assigned[1], (std::vector<std::string>{pathOf("2"), pathOf("3")}));
  EXPECT_EQ(fresh.noMoreSplits, (std::set<int>{1}));
  FileSourceEnumeratorState state = enumerator->snapshotState(2);
  EXPECT_TRUE(state.listed);
  ASSERT_EQ(state.unassigned.size(), 2u);
  EXPECT_EQ(
      state.unassigned[0],
      (FileSourceSplit{"0", pathOf("1"), 0, 1, 100, source->files()[0].modificationTimeNanos, {}}));
  EXPECT_EQ(state.unassigned[1].path, pathOf("4"));

  // Restored at 3 subtasks, the unassigned splits are dealt out round robin.
  RecordingEnumeratorContext restored(3);
  auto again = source->restoreEnumerator(restored, state);
  for (int subtask = 0; subtask < 3; ++subtask) again->addReader(subtask);
  EXPECT_EQ(restored.assigned[0], std::vector<std::string>{pathOf("1")});
  EXPECT_EQ(restored.assigned[1], std::vector<std::string>{pathOf("4")});
  EXPECT_EQ(restored.assigned.count(2), 0u);
  EXPECT_EQ(restored.noMoreSplits, (std::set<int>{0, 1, 2}));
  EXPECT_EQ(again->snapshotState(3), (FileSourceEnumeratorState{true, {}}));

  // A state taken before the listing lists when a reader registers.
  RecordingEnumeratorContext unlisted(1);
  auto lister = source->restoreEnumerator(unlisted, FileSourceEnumeratorState{false, {}});
  lister->addReader(0);
  EXPECT_EQ(unlisted.assigned[0],
            (std::vector<std::string>{pathOf("1"), pathOf("2"), pathOf("3"), pathOf("4")}));
}

TEST(FileSystemSourceCheckpointTest, SplitAndEnumeratorBytesRoundTripAndNameTheSource) {
  FileSourceSplitSerializer serializer;
  const FileSourceSplit split{
      "3", "/data/t/part=x/a.csv", 1234, 57, 5000, 1'700'000'000'123'456'789, {"x", std::nullopt}};
  const std::string bytes = serializer.serialize(split);
  EXPECT_EQ(serializer.deserialize(1, bytes), split);
  auto errorOf = [](const auto& reader, int version, const std::string& serialized) {
    try {
      reader.deserialize(version, serialized);
    } catch (const EddyException& error) {
      return std::string(error.what());
    }
    return std::string("<no exception>");
  };
  EXPECT_EQ(errorOf(serializer, 2, bytes),
            "Cannot read a FileSource split: it has format version 2, and this eddy reads "
            "version 1");
  EXPECT_EQ(errorOf(serializer, 1, bytes.substr(0, bytes.size() - 2))
                .rfind("Cannot read a FileSource split: ", 0),
            0u);
  auto splitBytes = [](int64_t offset, uint64_t flag) {
    connector::SerializedFieldWriter writer;
    writer.writeBytes("0");
    writer.writeBytes("/t/a.csv");
    writer.writeInt64(offset);
    writer.writeInt64(1);
    writer.writeInt64(10);
    writer.writeInt64(0);
    writer.writeVarint(1);
    writer.writeVarint(flag);
    if (flag == 1) writer.writeBytes("v");
    return writer.take();
  };
  EXPECT_EQ(serializer.deserialize(1, splitBytes(4, 1)).partition,
            (PartitionSpec{std::string("v")}));
  EXPECT_EQ(errorOf(serializer, 1, splitBytes(4, 2)),
            "Cannot read a FileSource split: a partition value has the flag 2 (corrupted or "
            "truncated)");
  EXPECT_EQ(errorOf(serializer, 1, splitBytes(-1, 0)),
            "Cannot read a FileSource split: its position (byte offset -1, line 1) is not one "
            "(corrupted or truncated)");

  auto shared = std::make_shared<FileSourceSplitSerializer>();
  FileSourceEnumeratorStateSerializer stateSerializer(shared);
  const FileSourceEnumeratorState state{true,
                                        {split, FileSourceSplit{"4", "/t/b.csv", 0, 1, 10, 0, {}}}};
  const std::string stateBytes = stateSerializer.serialize(state);
  EXPECT_EQ(stateSerializer.deserialize(1, stateBytes), state);
  EXPECT_EQ(errorOf(stateSerializer, 2, stateBytes),
            "Cannot read the split enumerator state of a FileSource: it has format version 2, "
            "and this eddy reads version 1");
  EXPECT_EQ(errorOf(stateSerializer, 1, stateBytes.substr(0, stateBytes.size() - 1))
                .rfind("Cannot read ", 0),
            0u);
  connector::SerializedFieldWriter unlisted;
  unlisted.writeVarint(0);
  unlisted.writeVarint(1);
  unlisted.writeBytes(connector::writeVersionAndSerialize(*shared, split));
  EXPECT_EQ(errorOf(stateSerializer, 1, unlisted.take()),
            "Cannot read the split enumerator state of a FileSource: it has splits but no "
            "listing (corrupted or truncated)");
}

}  // namespace
}  // namespace eddy::connectors

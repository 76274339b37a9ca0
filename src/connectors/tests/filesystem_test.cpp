// The filesystem connector: option validation messages (required, unknown format, not supported
// yet, unsupported keys, values), the source (hidden files, directories, splitting across
// subtasks, batches, malformed records and the rows before them, ignore-parse-errors counts,
// missing paths), the sink (Flink's part file names, in-progress files, insert-only), and round
// trips through SQL (INSERT INTO then SELECT) in BATCH and STREAMING mode for csv and json.
#include <eddy/table/table_environment.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <thread>

#include "connectors/filesystem/file_sink.h"
#include "connectors/filesystem/file_source.h"
#include "connectors/filesystem/filesystem_factory.h"
#include "connectors/filesystem/partition_path.h"
#include "connectors/tests/connector_test_support.h"

namespace eddy::connectors {
namespace {

namespace fs = std::filesystem;

using testing::collectChunks;
using testing::readFile;
using testing::TemporaryDirectory;
using testing::intType;
using testing::rowsOf;
using testing::rowType;
using testing::runSinkOperator;
using testing::stringType;
using testing::tableContext;
using testing::validationMessage;


/// The names of the entries of `directory`, sorted.
std::vector<std::string> entriesOf(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(directory)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

LogicalTypePtr scoreType() {
  return rowType({{"id", intType()}, {"name", stringType()}, {"score", intType()}});
}

std::map<std::string, std::string> csvOptions(const fs::path& path,
                                              std::map<std::string, std::string> more = {}) {
  more["connector"] = "filesystem";
  more["path"] = path.string();
  more.emplace("format", "csv");
  return more;
}

std::shared_ptr<FileSource> fileSource(const ConnectorContext& context) {
  auto source = FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSource(context);
  EXPECT_TRUE(source->isBounded());
  return std::dynamic_pointer_cast<FileSource>(source->createSource());
}

std::vector<std::string> sortedRows(const std::vector<vector::Chunk>& chunks) {
  std::vector<std::string> rows;
  for (const Row& row : rowsOf(chunks)) rows.push_back(row.toString());
  std::sort(rows.begin(), rows.end());
  return rows;
}

// --- Options ---

TEST(FileSystemTest, RequiredOptionsAndFormat) {
  auto validate = [](std::map<std::string, std::string> options) {
    return validationMessage([&] {
      ConnectorContext context = tableContext(scoreType(), std::move(options));
      FactoryRegistry::builtIn().factoryFor(context);
    });
  };
  EXPECT_EQ(validate({{"connector", "filesystem"}}),
            "One or more required options are missing.\n\nMissing required options are:\n\n"
            "format\npath");
  EXPECT_EQ(validate({{"connector", "filesystem"}, {"path", "/tmp/x"}, {"format", "xml"}}),
            "Could not find any factory for identifier 'xml' that implements 'FormatFactory' in "
            "the classpath.\n\nAvailable factory identifiers "
            "are:\n\ncanal-json\ncsv\ndebezium-json\njson\n"
            "maxwell-json\nraw");
  EXPECT_EQ(validate(csvOptions("/tmp/x")), "");
  EXPECT_EQ(validate(csvOptions("file:///tmp/x")), "");
  EXPECT_EQ(validate(csvOptions("")),
            "Invalid value '' for key 'path' of table 't': expected a file or directory path.");
  EXPECT_EQ(validate(csvOptions("s3://bucket/x")),
            "The file system scheme 's3' of path 's3://bucket/x' (table 't') is not supported "
            "yet; the filesystem connector reads and writes local paths and file:// URIs.");
  EXPECT_EQ(validate(csvOptions("/tmp/x", {{"sink.parallelism", "0"}})),
            "Invalid value '0' for key 'sink.parallelism' of table 't': expected an integer "
            "between 1 and 2147483647.");
}

TEST(FileSystemTest, FlinkOptionsThatAreNotSupportedYetAreRejectedByName) {
  auto validate = [](std::map<std::string, std::string> options) {
    return validationMessage([&] {
      ConnectorContext context = tableContext(scoreType(), std::move(options));
      FactoryRegistry::builtIn().factoryFor(context);
    });
  };
  EXPECT_EQ(validate(csvOptions("/tmp/x", {{"sink.rolling-policy.file-size", "1MB"}})),
            "Option 'sink.rolling-policy.file-size' of table 't' is not supported yet by the "
            "filesystem connector.");
  EXPECT_EQ(validate(csvOptions("/tmp/x",
                                {{"source.monitor-interval", "1 s"}, {"auto-compaction", "true"}})),
            "Options 'auto-compaction', 'source.monitor-interval' of table 't' are not supported "
            "yet by the filesystem connector.");
  EXPECT_EQ(validate(csvOptions("/tmp/x", {{"csv.ignore-first-line", "true"}})),
            "Option 'csv.ignore-first-line' of table 't' is not supported yet by the csv "
            "format.");
}

TEST(FileSystemTest, UnknownOptionsListTheConnectorsAndTheFormatsOptions) {
  ConnectorContext context = tableContext(scoreType(), csvOptions("/tmp/x", {{"csv.foo", "1"}}));
  EXPECT_EQ(validationMessage([&] { FactoryRegistry::builtIn().factoryFor(context); }),
            "Unsupported options found for 'filesystem'.\n\nUnsupported options:\n\ncsv.foo\n\n"
            "Supported options:\n\nconnector\ncsv.allow-comments\ncsv.array-element-delimiter\n"
            "csv.disable-quote-character\ncsv.escape-character\ncsv.field-delimiter\n"
            "csv.ignore-parse-errors\ncsv.null-literal\ncsv.quote-character\n"
            "csv.write-bigdecimal-in-scientific-notation\nformat\npartition.default-name\npath\n"
            "sink.parallelism");
  ConnectorContext json = tableContext(
      scoreType(), csvOptions("/tmp/x", {{"format", "json"}, {"csv.null-literal", "x"}}));
  EXPECT_EQ(validationMessage([&] { FactoryRegistry::builtIn().factoryFor(json); }),
            "Unsupported options found for 'filesystem'.\n\nUnsupported options:\n\n"
            "csv.null-literal\n\nSupported options:\n\nconnector\nformat\n"
            "json.decode.json-parser.enabled\njson.encode.decimal-as-plain-number\n"
            "json.encode.ignore-null-fields\njson.fail-on-missing-field\n"
            "json.ignore-parse-errors\njson.map-null-key.literal\njson.map-null-key.mode\n"
            "json.timestamp-format.standard\npartition.default-name\npath\nsink.parallelism");
}

TEST(FileSystemTest, FormatValuesAndColumnTypesAreValidated) {
  auto validate = [](LogicalTypePtr type, std::map<std::string, std::string> options) {
    return validationMessage([&] {
      ConnectorContext context = tableContext(std::move(type), std::move(options));
      FactoryRegistry::builtIn().factoryFor(context);
    });
  };
  EXPECT_EQ(validate(scoreType(), csvOptions("/tmp/x", {{"csv.field-delimiter", ",,"}})),
            "Invalid value ',,' for key 'csv.field-delimiter' of table 't': expected a single "
            "ASCII character.");
  EXPECT_EQ(validate(rowType({{"m", parseLogicalType("MAP<STRING, INT>")}}), csvOptions("/tmp/x")),
            "The csv format does not support the type MAP<STRING, INT> of column 'm' (table "
            "'t').");
  EXPECT_EQ(validate(rowType({{"m", parseLogicalType("MAP<STRING, INT>")}}),
                     csvOptions("/tmp/x", {{"format", "json"}})),
            "");
}

// --- Source ---

TEST(FileSystemTest, ReadsEveryVisibleFileOfADirectoryTree) {
  TemporaryDirectory directory;
  directory.write("a.csv", "1,Alice,12\n2,Bob,10\n");
  directory.write("b", "3,Carol,7");  // no line break at the end
  directory.write("empty.csv", "");
  const std::string byteOrderMark = "\xEF\xBB\xBF";
  directory.write("dt=2020-12-30/c.csv", byteOrderMark + "4,Dan,1\n");
  directory.write(".hidden.csv", "9,hidden,9\n");
  directory.write("_SUCCESS", "");
  directory.write(".part-x-0-0.inprogress", "9,in progress,9\n");
  directory.write("_temporary/d.csv", "9,hidden directory,9\n");
  ConnectorContext context = tableContext(scoreType(), csvOptions(directory.path()));
  auto source = fileSource(context);
  std::vector<std::string> names;
  for (const SourceFile& file : source->files()) {
    names.push_back(fs::relative(file.path, directory.path()).string());
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a.csv", "b", "dt=2020-12-30/c.csv", "empty.csv"}));
  std::vector<std::string> expected = {"+I[1, Alice, 12]", "+I[2, Bob, 10]", "+I[3, Carol, 7]",
                                       "+I[4, Dan, 1]"};
  for (int parallelism : {1, 2, 3, 7}) {
    EXPECT_EQ(sortedRows(collectChunks(fileSource(context), parallelism)), expected)
        << "parallelism " << parallelism;
  }
  // A single file as the path.
  ConnectorContext single = tableContext(scoreType(), csvOptions(directory.path() / "a.csv"));
  EXPECT_EQ(sortedRows(collectChunks(fileSource(single), 2)),
            (std::vector<std::string>{"+I[1, Alice, 12]", "+I[2, Bob, 10]"}));
}

TEST(FileSystemTest, FilesAreDealtToSubtasksLargestFirst) {
  TemporaryDirectory directory;
  directory.write("1", std::string(100, '\n'));
  directory.write("2", std::string(60, '\n'));
  directory.write("3", std::string(50, '\n'));
  directory.write("4", std::string(10, '\n'));
  auto source = fileSource(tableContext(scoreType(), csvOptions(directory.path())));
  // Largest first onto the least loaded: 1 → s0, 2 → s1, 3 → s1, 4 → s0.
  EXPECT_EQ(source->filesOfSubtask(0, 2), (std::vector<size_t>{0, 3}));
  EXPECT_EQ(source->filesOfSubtask(1, 2), (std::vector<size_t>{1, 2}));
  EXPECT_EQ(source->filesOfSubtask(4, 5), (std::vector<size_t>{}));
}

TEST(FileSystemTest, LargeFilesAreReadInBatchesAcrossReadBlocks) {
  TemporaryDirectory directory;
  // Records with quoted line breaks, long enough to cross the 1 MiB read blocks many times.
  std::string content;
  const int rows = 30000;
  for (int i = 0; i < rows; ++i) {
    content += std::to_string(i) + ",\"line one\nline two " + std::string(i % 90, 'x') + "\"," +
               std::to_string(i % 7) + "\n";
  }
  directory.write("big.csv", content);
  auto source = fileSource(tableContext(scoreType(), csvOptions(directory.path())));
  std::vector<vector::Chunk> chunks = collectChunks(source, 1);
  int64_t total = 0;
  int64_t sum = 0;
  for (const vector::Chunk& chunk : chunks) {
    EXPECT_LE(chunk.size(), static_cast<int64_t>(runtime::kDefaultBatchSize));
    total += chunk.size();
    for (int64_t row = 0; row < chunk.size(); ++row) {
      sum += chunk.column(0).data<int32_t>()[row];
      EXPECT_EQ(chunk.column(1).stringAt(row).substr(0, 18), "line one\nline two ");
    }
  }
  EXPECT_EQ(total, rows);
  EXPECT_EQ(sum, int64_t{rows} * (rows - 1) / 2);
  EXPECT_EQ(chunks.size(), (rows + runtime::kDefaultBatchSize - 1) / runtime::kDefaultBatchSize);
}

/// A ReaderOutput that keeps what a reader emits.
class CollectingOutput : public ReaderOutput<vector::Chunk> {
 public:
  CollectingOutput() { batch_ = &batch; }
  runtime::TypedBatch<vector::Chunk> batch;
};

TEST(FileSystemTest, RowsBeforeAMalformedRecordAreEmittedThenTheReaderFails) {
  TemporaryDirectory directory;
  fs::path file = directory.write("a.csv", "1,Alice,12\n2,Bob,10\n3,Carol,abc\n4,Dan,1\n");
  auto source = fileSource(tableContext(scoreType(), csvOptions(directory.path())));
  auto reader = source->createReader(0, 1);
  CollectingOutput output;
  EXPECT_EQ(reader->pollNext(output), InputStatus::MORE_AVAILABLE);
  ASSERT_EQ(output.batch.records.size(), 1u);
  EXPECT_EQ(rowsOf(output.batch.records),
            (std::vector<Row>{Row::of(1, "Alice", 12), Row::of(2, "Bob", 10)}));
  try {
    reader->pollNext(output);
    ADD_FAILURE() << "the malformed record did not fail";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "Failed to deserialize CSV row 3 of file '" + file.string() +
                  "': column 'score' (position 2) expects INT but got 'abc'");
  }
}

TEST(FileSystemTest, AMalformedRecordFailsTheJob) {
  TemporaryDirectory directory;
  fs::path file = directory.write("a.json", "{\"id\":1}\n{\"id\":2,\"name\":3}\n{\"id\":true}\n");
  ConnectorContext context =
      tableContext(scoreType(), csvOptions(directory.path(), {{"format", "json"}}));
  try {
    collectChunks(fileSource(context), 1);
    ADD_FAILURE() << "the job did not fail";
  } catch (const JobExecutionException& error) {
    EXPECT_NE(std::string(error.what())
                  .find("threw: Failed to deserialize JSON row 3 of file '" + file.string() +
                        "': column 'id' (position 0) expects INT but got true"),
              std::string::npos)
        << error.what();
  }
}

TEST(FileSystemTest, IgnoreParseErrorsCountsOverAllSubtasks) {
  TemporaryDirectory directory;
  directory.write("a.csv", "1,a,1\n2,b,x\n3,\"c\n");
  directory.write("b.csv", "4,d,4\nx,e,5\n");
  ConnectorContext context = tableContext(
      scoreType(), csvOptions(directory.path(), {{"csv.ignore-parse-errors", "true"}}));
  auto source = fileSource(context);
  EXPECT_EQ(
      sortedRows(collectChunks(source, 2)),
      (std::vector<std::string>{"+I[1, a, 1]", "+I[2, b, null]", "+I[4, d, 4]", "+I[null, e, 5]"}));
  EXPECT_EQ(source->malformedRecordCount(), 3);
  EXPECT_EQ(source->skippedRecordCount(), 1);
}

TEST(FileSystemTest, AMissingPathFailsTheJob) {
  TemporaryDirectory directory;
  fs::path missing = directory.path() / "missing";
  ConnectorContext context = tableContext(scoreType(), csvOptions(missing));
  try {
    collectChunks(fileSource(context), 1);
    ADD_FAILURE() << "the job did not fail";
  } catch (const EddyException& error) {
    EXPECT_NE(std::string(error.what())
                  .find("The path '" + missing.string() + "' of table 't' does not exist."),
              std::string::npos)
        << error.what();
  }
}

// --- Sink ---

std::unique_ptr<DynamicTableSink> fileSink(const ConnectorContext& context) {
  return FactoryRegistry::builtIn().factoryFor(context).createDynamicTableSink(context);
}

TEST(FileSystemTest, SinkWritesOnePartFilePerSubtaskWithFlinksNames) {
  TemporaryDirectory directory;
  fs::path output = directory.path() / "out" / "nested";
  ConnectorContext context =
      tableContext(scoreType(), csvOptions(output, {{"sink.parallelism", "3"}}));
  auto sink = fileSink(context);
  EXPECT_FALSE(sink->acceptsUpdates());
  EXPECT_EQ(sink->sinkParallelism(), 3);
  auto factory = sink->createSinkOperator();
  runSinkOperator(
      *factory, 1, 3,
      {vector::rowsToChunk({Row::of(1, "a, b", 2), Row::of(3, nullptr, nullptr)}, scoreType())});
  runSinkOperator(*factory, 2, 3, {});  // no rows: no file
  std::vector<std::string> names = entriesOf(output);
  ASSERT_EQ(names.size(), 1u);
  const std::string& name = names[0];
  // part-<uuid>-<subtask>-<counter>, the UUID in its 8-4-4-4-12 form.
  ASSERT_EQ(name.size(), std::string("part-").size() + 36 + std::string("-1-0").size()) << name;
  EXPECT_EQ(name.substr(0, 5), "part-");
  EXPECT_EQ(name.substr(41), "-1-0");
  for (size_t dash : {13u, 18u, 23u, 28u}) EXPECT_EQ(name[dash], '-') << name;
  EXPECT_EQ(readFile(output / name), "1,\"a, b\",2\n3,,\n");
  // A second job (a new operator factory) writes next to it with another UUID.
  runSinkOperator(*fileSink(context)->createSinkOperator(), 1, 3,
                  {vector::rowsToChunk({Row::of(5, "e", 5)}, scoreType())});
  EXPECT_EQ(entriesOf(output).size(), 2u);
}

TEST(FileSystemTest, SinkAcceptsOnlyInsertsAndRemovesItsInProgressFile) {
  TemporaryDirectory directory;
  ConnectorContext context = tableContext(scoreType(), csvOptions(directory.path()));
  auto factory = fileSink(context)->createSinkOperator();
  testing::RecordingOutput output;
  runtime::OperatorContext operatorContext;
  operatorContext.output = &output;
  std::unique_ptr<runtime::StreamOperator> sink = factory->createOperator();
  sink->open(operatorContext);
  auto batch = std::make_unique<runtime::TypedBatch<vector::Chunk>>();
  batch->push(vector::rowsToChunk({Row::of(1, "a", 1)}, scoreType()), runtime::kNoTimestamp);
  sink->processBatch(0, std::move(batch));
  // Flushed rows are in the hidden in-progress file until finish().
  auto* fileSinkOperator = static_cast<FileSinkOperator*>(sink.get());
  batch = std::make_unique<runtime::TypedBatch<vector::Chunk>>();
  batch->push(vector::rowsToChunk({Row::ofKind(RowKind::INSERT, 2, "b", 2),
                                   Row::ofKind(RowKind::UPDATE_BEFORE, 1, "Alice", 12)},
                                  scoreType()),
              runtime::kNoTimestamp);
  try {
    sink->processBatch(0, std::move(batch));
    ADD_FAILURE() << "the sink accepted -U";
  } catch (const TableException& error) {
    EXPECT_EQ(std::string(error.what()),
              "The filesystem sink of table 't' accepts only INSERT rows; got -U[1, Alice, 12]");
  }
  sink->close();  // a failed job: no finish()
  EXPECT_EQ(entriesOf(directory.path()), std::vector<std::string>{});
  EXPECT_TRUE(fileSinkOperator->partFilePaths().empty());
}

TEST(FileSystemTest, SinkFailsWhenThePathIsAFile) {
  TemporaryDirectory directory;
  fs::path file = directory.write("file", "x");
  auto factory = fileSink(tableContext(scoreType(), csvOptions(file)))->createSinkOperator();
  try {
    runSinkOperator(*factory, 0, 1, {});
    ADD_FAILURE() << "the sink opened";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "The path '" + file.string() +
                  "' of table 't' is not a directory; the filesystem sink writes part files into "
                  "a directory.");
  }
}

// --- SQL round trips ---

std::vector<std::string> rowsOfResult(TableResult result, bool sorted) {
  std::vector<std::string> rows;
  for (const Row& row : result.collectAll()) rows.push_back(row.toString());
  if (sorted) std::sort(rows.begin(), rows.end());
  return rows;
}

std::unique_ptr<TableEnvironment> environment(bool streaming, int parallelism) {
  auto env = TableEnvironment::create(streaming ? EnvironmentSettings::inStreamingMode()
                                                : EnvironmentSettings::inBatchMode());
  env->executeSql("SET 'parallelism.default' = '" + std::to_string(parallelism) + "'");
  return env;
}

struct RoundTrip {
  std::string format;
  bool streaming;
  int parallelism;
};

class FileSystemRoundTripTest : public ::testing::TestWithParam<RoundTrip> {};

TEST_P(FileSystemRoundTripTest, InsertThenSelect) {
  const RoundTrip& trip = GetParam();
  TemporaryDirectory directory;
  auto env = environment(trip.streaming, trip.parallelism);
  env->executeSql(
      "CREATE TABLE t (id INT, name STRING, score DOUBLE, amount DECIMAL(10, 2), ok BOOLEAN, "
      "big BIGINT) WITH ('connector' = 'filesystem', 'path' = '" +
      directory.path().string() + "', 'format' = '" + trip.format + "')");
  env->executeSql(
         "INSERT INTO t VALUES "
         "(1, 'Alice', 1.5, 12.50, TRUE, 10000000000), "
         "(2, 'a,b \"quoted\"', -0.25, -0.05, FALSE, -1), "
         "(3, 'two\nlines', 1e10, 0, TRUE, 0), "
         "(4, CAST(NULL AS STRING), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), "
         "CAST(NULL AS BOOLEAN), CAST(NULL AS BIGINT)), "
         "(5, '', 0.1, 99999999.99, FALSE, 5), "
         "(6, 'unicode \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 tab\there', 2.0, 1, TRUE, 6)")
      .await();
  std::vector<std::string> expected = {
      "+I[1, Alice, 1.5, 12.50, true, 10000000000]",
      "+I[2, a,b \"quoted\", -0.25, -0.05, false, -1]",
      "+I[3, two\nlines, 1.0E10, 0.00, true, 0]",
      "+I[4, null, null, null, null, null]",
      "+I[5, , 0.1, 99999999.99, false, 5]",
      "+I[6, unicode \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 tab\there, 2.0, 1.00, true, 6]"};
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT * FROM t"), true), expected);
  // A second INSERT adds files; a filter and projection read them all.
  env->executeSql("INSERT INTO t VALUES (7, 'Gus', 7.0, 7, TRUE, 7)").await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT id, name FROM t WHERE id > 5"), true),
            (std::vector<std::string>{
                "+I[6, unicode \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 tab\there]", "+I[7, Gus]"}));
  // Only complete part files remain: nothing hidden, nothing in progress.
  for (const std::string& name : entriesOf(directory.path())) {
    EXPECT_EQ(name.substr(0, 5), "part-") << name;
  }
}

INSTANTIATE_TEST_SUITE_P(Formats, FileSystemRoundTripTest,
                         ::testing::Values(RoundTrip{"csv", false, 1}, RoundTrip{"csv", true, 1},
                                           RoundTrip{"json", false, 1}, RoundTrip{"json", true, 1},
                                           RoundTrip{"csv", false, 3}, RoundTrip{"json", true, 2}),
                         [](const ::testing::TestParamInfo<RoundTrip>& info) {
                           return info.param.format +
                                  (info.param.streaming ? "Streaming" : "Batch") +
                                  std::to_string(info.param.parallelism);
                         });

std::string errorOf(const std::function<void()>& statement) {
  try {
    statement();
  } catch (const EddyException& error) {
    return error.what();
  }
  return "no error";
}

TEST(FileSystemTest, InsertWithAColumnListFillsTheOtherColumnsWithNull) {
  TemporaryDirectory directory;
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE t (id INT NOT NULL, name STRING, score DOUBLE) WITH ("
                  "'connector' = 'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv')");
  env->executeSql("INSERT INTO t (score, id) VALUES (1.5, 1), (2.5, 2)").await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT * FROM t"), true),
            (std::vector<std::string>{"+I[1, null, 1.5]", "+I[2, null, 2.5]"}));
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO t (id, nope) VALUES (1, 2)"); }),
            "Unknown target column 'nope'");
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO t (id, id) VALUES (1, 2)"); }),
            "Target column 'id' is assigned more than once");
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO t (id, name) VALUES (1)"); }),
            "Number of INSERT target columns (2) does not equal number of source items (1)");
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO t (name) VALUES ('x')"); }),
            "Column 'id' has no default value and does not allow NULLs");
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO t PARTITION (name = 'x') SELECT 1, 2.0"); }),
            "Table 'default_catalog.default_database.t' is not partitioned; INSERT with a "
            "PARTITION clause needs a table created with PARTITIONED BY");
}

TEST(FileSystemTest, InsertOverwriteReplacesTheTablesFilesInBatchOnly) {
  TemporaryDirectory directory;
  auto batch = environment(false, 2);
  const std::string create = "CREATE TABLE t (id INT, name STRING) WITH ('connector' = "
                             "'filesystem', 'path' = '" + directory.path().string() +
                             "', 'format' = 'json')";
  batch->executeSql(create);
  directory.write("from-someone-else.json", "{\"id\": 0, \"name\": \"old\"}\n");
  batch->executeSql("INSERT INTO t VALUES (1, 'a'), (2, 'b')").await();
  ASSERT_EQ(rowsOfResult(batch->executeSql("SELECT id FROM t"), true).size(), 3u);
  // Every previous file goes, once the job's subtasks have written theirs.
  batch->executeSql("INSERT OVERWRITE t SELECT id * 10, name FROM (VALUES (3, 'c'), (4, 'd')) "
                    "AS v(id, name)").await();
  EXPECT_EQ(rowsOfResult(batch->executeSql("SELECT * FROM t"), true),
            (std::vector<std::string>{"+I[30, c]", "+I[40, d]"}));
  // An overwrite that writes nothing leaves the table empty.
  batch->executeSql("INSERT OVERWRITE t SELECT 1, 'x' FROM (VALUES (1)) AS v(a) WHERE a > 1").await();
  EXPECT_EQ(entriesOf(directory.path()), std::vector<std::string>{});

  auto streaming = environment(true, 1);
  streaming->executeSql(create);
  EXPECT_EQ(errorOf([&] { streaming->executeSql("INSERT OVERWRITE t VALUES (1, 'a')"); }),
            "Streaming mode not support overwrite.");
  streaming->executeSql("CREATE TABLE hole (id INT) WITH ('connector' = 'blackhole')");
  EXPECT_EQ(errorOf([&] { streaming->executeSql("INSERT OVERWRITE hole VALUES (1)"); }),
            "INSERT OVERWRITE requires that the underlying DynamicTableSink of table "
            "'default_catalog.default_database.hole' implements the SupportsOverwrite interface.");
}

TEST(FileSystemTest, CreateTableAsSelectCreatesTheTableAndRunsTheInsert) {
  TemporaryDirectory directory;
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE copy WITH ('connector' = 'filesystem', 'path' = '" +
                  directory.path().string() + "', 'format' = 'csv') AS SELECT id, UPPER(name) "
                  "AS name, CAST(ts AS TIMESTAMP(3)) AS ts FROM (VALUES (1, 'a', TIMESTAMP "
                  "'2021-08-21 13:00:00'), (2, 'b', TIMESTAMP '2021-08-21 13:00:01')) AS v(id, "
                  "name, ts)")
      .await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT * FROM copy"), true),
            (std::vector<std::string>{"+I[1, A, 2021-08-21T13:00]", "+I[2, B, 2021-08-21T13:00:01]"}));
  EXPECT_EQ(rowsOfResult(env->executeSql("DESCRIBE copy"), false),
            (std::vector<std::string>{"+I[id, INT, false, null, null, null, null]",
                                      "+I[name, VARCHAR(1), false, null, null, null, null]",
                                      "+I[ts, TIMESTAMP(3), false, null, null, null, null]"}));
  // A bad option fails before the table is created.
  EXPECT_EQ(errorOf([&] {
              env->executeSql("CREATE TABLE bad WITH ('connector' = 'filesystem', 'format' = "
                              "'csv') AS SELECT 1 AS x");
            }),
            "One or more required options are missing.\n\nMissing required options are:\n\npath");
  EXPECT_EQ(errorOf([&] { env->executeSql("SELECT * FROM bad"); }),
            "SQL validation failed. From line 1, column 15: Object 'bad' not found");
}

TEST(FileSystemTest, MetadataColumnsReadEachRowsFile) {
  TemporaryDirectory directory;
  fs::path one = directory.write("one.csv", "1,a\n2,b\n");
  fs::path two = directory.write("sub/two.csv", "3,c\n");
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE f (id INT, v STRING, path STRING NOT NULL METADATA FROM "
                  "'file.path' VIRTUAL, `file.name` STRING METADATA VIRTUAL, size INT METADATA "
                  "FROM 'file.size' VIRTUAL, mtime TIMESTAMP_LTZ(3) METADATA FROM "
                  "'file.modification-time' VIRTUAL, twice AS id * 2) WITH ('connector' = "
                  "'filesystem', 'path' = '" + directory.path().string() + "', 'format' = 'csv')");
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT id, v, path, `file.name`, size, twice FROM f"), true),
            (std::vector<std::string>{"+I[1, a, " + one.string() + ", one.csv, 8, 2]",
                                      "+I[2, b, " + one.string() + ", one.csv, 8, 4]",
                                      "+I[3, c, " + two.string() + ", two.csv, 4, 6]"}));
  // The modification time is the file's (written within the last minute here).
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT COUNT(*) FROM f WHERE mtime > CURRENT_TIMESTAMP "
                                         "- INTERVAL '1' MINUTE AND mtime <= CURRENT_TIMESTAMP"),
                         false),
            std::vector<std::string>{"+I[3]"});
  // The metadata columns are read, not written: an INSERT writes the physical columns.
  env->executeSql("INSERT INTO f SELECT 4, 'd'").await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT id, `file.name` LIKE 'part-%' FROM f WHERE id = 4"),
                         false),
            std::vector<std::string>{"+I[4, true]"});

  env->executeSql("CREATE TABLE wrong_key (id INT, x STRING METADATA FROM 'nope' VIRTUAL) WITH ("
                  "'connector' = 'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv')");
  EXPECT_EQ(errorOf([&] { env->executeSql("SELECT * FROM wrong_key"); }),
            "SQL validation failed. From line 1, column 15: Invalid metadata key 'nope' in column "
            "'x' of table 'default_catalog.default_database.wrong_key'. The connector "
            "'filesystem' supports the following metadata keys for reading:\nfile.modification-time\n"
            "file.name\nfile.path\nfile.size");
  env->executeSql("CREATE TABLE wrong_type (id INT, x DATE METADATA FROM 'file.size' VIRTUAL) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv')");
  EXPECT_EQ(errorOf([&] { env->executeSql("SELECT * FROM wrong_type"); }),
            "SQL validation failed. From line 1, column 15: Invalid data type for metadata column "
            "'x' of table 'default_catalog.default_database.wrong_type'. The column cannot be "
            "declared as 'DATE' because the type must be castable from metadata type 'BIGINT "
            "NOT NULL'.");
  env->executeSql("CREATE TABLE persisted (id INT, x STRING METADATA FROM 'file.name') WITH ("
                  "'connector' = 'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv')");
  // An INSERT gives the persisted columns, the metadata one included (Flink's).
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO persisted VALUES (1)"); }),
            "Column types of query result and sink for "
            "'default_catalog.default_database.persisted' do not match.\nCause: Different number "
            "of columns.\n\nQuery schema: [EXPR$0: INT NOT NULL]\nSink schema:  [id: INT, x: "
            "STRING]");
  EXPECT_EQ(errorOf([&] { env->executeSql("INSERT INTO persisted VALUES (1, 'f')"); }),
            "Invalid metadata key 'file.name' in column 'x' of table "
            "'default_catalog.default_database.persisted'. The connector supports no metadata "
            "keys for writing; declare the column VIRTUAL to read it only.");
  env->executeSql("CREATE TABLE generated (id INT, x STRING METADATA FROM 'timestamp' VIRTUAL) "
                  "WITH ('connector' = 'datagen', 'number-of-rows' = '1')");
  EXPECT_EQ(errorOf([&] { env->executeSql("SELECT * FROM generated"); }),
            "SQL validation failed. From line 1, column 15: Invalid metadata key 'timestamp' in "
            "column 'x' of table 'default_catalog.default_database.generated'. The connector "
            "'datagen' supports the following metadata keys for reading:\n(none)");
}

/// The rows of `query`, as strings, sorted.
std::vector<std::string> sortedRowsOf(TableEnvironment& env, const std::string& query) {
  std::vector<std::string> result;
  for (const Row& row : env.executeSql(query).collectAll()) result.push_back(row.toString());
  std::sort(result.begin(), result.end());
  return result;
}

TEST(FileSystemTest, PartitionedTablesWrittenBySeveralSubtasks) {
  TemporaryDirectory directory;
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE parts (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = "
                  "'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv', 'sink.parallelism' = '2')");
  env->executeSql("INSERT INTO parts VALUES (1, 'x'), (2, 'y'), (3, 'x'), (4, 'y'), (5, 'z')")
      .await();
  EXPECT_EQ(entriesOf(directory.path()), (std::vector<std::string>{"b=x", "b=y", "b=z"}));
  auto rows = [&](const std::string& query) { return sortedRowsOf(*env, query); };
  EXPECT_EQ(rows("SELECT * FROM parts"),
            (std::vector<std::string>{"+I[1, x]", "+I[2, y]", "+I[3, x]", "+I[4, y]", "+I[5, z]"}));
  // The files hold only `a`.
  std::string content;
  for (const auto& entry : fs::directory_iterator(directory.path() / "b=x")) {
    content += readFile(entry.path());
  }
  std::sort(content.begin(), content.end());
  EXPECT_EQ(content, "\n\n13");
  // Both subtasks write into b=y; the overwrite replaces it (and only it) once both are done.
  env->executeSql("INSERT OVERWRITE parts VALUES (6, 'y'), (7, 'y'), (8, 'y')").await();
  EXPECT_EQ(rows("SELECT * FROM parts"),
            (std::vector<std::string>{"+I[1, x]", "+I[3, x]", "+I[5, z]", "+I[6, y]", "+I[7, y]",
                                      "+I[8, y]"}));
}

// Directories written by others: unescaped values, a `_`-prefixed key, a default name that
// needs escaping; pruning matches them by their listed spelling.
TEST(FileSystemTest, PartitionDirectoriesWrittenByOthers) {
  TemporaryDirectory directory;
  directory.write("_src=a/hm=10:00/f.csv", "1\n");
  directory.write("_src=a/hm=10%3A01/f.csv", "2\n");
  directory.write("_src=b/hm=n%2Fa/f.csv", "3\n");
  directory.write("_src=b/f.csv", "4\n");  // not in a complete partition directory
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE logs (v INT, _src STRING, hm STRING) PARTITIONED BY (_src, hm) "
                  "WITH ('connector' = 'filesystem', 'path' = '" + directory.path().string() +
                  "', 'format' = 'csv', 'partition.default-name' = 'n/a')");
  auto rows = [&](const std::string& query) { return sortedRowsOf(*env, query); };
  EXPECT_EQ(rows("SELECT * FROM logs"),
            (std::vector<std::string>{"+I[1, a, 10:00]", "+I[2, a, 10:01]", "+I[3, b, null]"}));
  EXPECT_EQ(rows("SELECT v FROM logs WHERE hm = '10:00'"), (std::vector<std::string>{"+I[1]"}));
  EXPECT_EQ(rows("SELECT v FROM logs WHERE hm IS NULL"), (std::vector<std::string>{"+I[3]"}));
  EXPECT_EQ(rows("SELECT v FROM logs WHERE _src = 'b'"), (std::vector<std::string>{"+I[3]"}));
}

// Blank values go to the default partition; many partitions are written with few files open.
TEST(FileSystemTest, ManyPartitionsAndBlankValues) {
  TemporaryDirectory directory;
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE parts (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = "
                  "'filesystem', 'path' = '" + directory.path().string() + "', 'format' = 'csv')");
  std::string values;
  for (int i = 0; i < 300; ++i) {
    values += (i ? ", (" : "(") + std::to_string(i) + ", 'p" + std::to_string(i % 150) + "')";
  }
  env->executeSql("INSERT INTO parts VALUES " + values + ", (300, ' '), (301, '')").await();
  EXPECT_EQ(entriesOf(directory.path()).size(), 151u);
  EXPECT_TRUE(fs::exists(directory.path() / "b=__DEFAULT_PARTITION__"));
  std::vector<Row> counts = env->executeSql("SELECT COUNT(*), SUM(a), COUNT(DISTINCT b), "
                                            "COUNT(b) FROM parts").collectAll();
  ASSERT_EQ(counts.size(), 1u);
  EXPECT_EQ(counts[0].toString(), "+I[302, 45451, 150, 300]");
}

// The table's directory does not exist yet: planning (EXPLAIN) works, the query fails reading.
TEST(FileSystemTest, PruningATableWithoutDirectory) {
  TemporaryDirectory directory;
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE parts (a INT, b STRING) PARTITIONED BY (b) WITH ('connector' = "
                  "'filesystem', 'path' = '" + (directory.path() / "none").string() +
                  "', 'format' = 'csv')");
  std::string plan = env->executeSql("EXPLAIN SELECT a FROM parts WHERE b = 'x'")
                         .collectAll()[0].getField(0).toString();
  EXPECT_NE(plan.find("LogicalFilter(condition=[=($1, 'x')])"), std::string::npos) << plan;
  EXPECT_EQ(errorOf([&] { env->executeSql("SELECT a FROM parts WHERE b = 'x'").collectAll(); }),
            "Job 'collect' failed: operator 'Source: default_catalog.default_database.parts' "
            "(subtask 1/1) threw: The path '" + (directory.path() / "none").string() +
            "' of table 'default_catalog.default_database.parts' does not exist.");
}

TEST(FileSystemTest, AnUpdatingQueryCannotBeWrittenAndLeavesNoFile) {
  TemporaryDirectory directory;
  auto env = environment(true, 1);
  env->executeSql(
      "CREATE TABLE counts (name STRING, c BIGINT) WITH ('connector' = "
      "'filesystem', 'path' = '" +
      directory.path().string() + "', 'format' = 'json')");
  std::string message;
  try {
    env->executeSql(
           "INSERT INTO counts SELECT name, COUNT(*) FROM (VALUES ('a'), ('b'), ('a')) "
           "AS v(name) GROUP BY name")
        .await();
  } catch (const EddyException& error) {
    message = error.what();
  }
  // The planner checks DynamicTableSink::acceptsUpdates() before the job runs.
  EXPECT_EQ(message,
            "Table sink 'default_catalog.default_database.counts' doesn't support consuming "
            "update changes which is produced by node LogicalAggregate(group=[{0}], $f1=[COUNT()])");
  EXPECT_EQ(entriesOf(directory.path()), std::vector<std::string>{});
}

/// Names of the files under `directory` and its partition directories, hidden ones included.
std::vector<std::string> filesBelow(const fs::path& directory) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(directory)) {
    if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// With checkpoints, what a STREAMING INSERT writes after its last checkpoint becomes visible at
// the final checkpoint (Flink's FileSink): the sink's task waits for it after finishing. A job
// cancelled while it waits leaves the rows in progress, invisible; with a short interval the
// final checkpoint comes and commits them.
TEST(FileSystemTest, AStreamingInsertCommitsItsLastRowsAtTheFinalCheckpoint) {
  TemporaryDirectory directory;
  auto env = environment(/*streaming=*/true, 1);
  env->executeSql("CREATE TABLE t (id INT, name STRING) WITH ('connector' = 'filesystem', "
                  "'path' = '" + directory.path().string() + "', 'format' = 'csv')");
  env->executeSql("SET 'execution.checkpointing.interval' = '1 h'");
  TableResult waiting = env->executeSql("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  // The sink finished: its rows are flushed into the in-progress file, which stays hidden.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::vector<std::string> files;
  while (std::chrono::steady_clock::now() < deadline) {
    files = filesBelow(directory.path());
    if (files.size() == 1 && readFile(directory.path() / files[0]) == "1,a\n2,b\n") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_EQ(files.size(), 1u);
  EXPECT_TRUE(files[0].starts_with(".part-") && files[0].ends_with(".inprogress")) << files[0];
  waiting.cancel();
  waiting.await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT * FROM t"), true), std::vector<std::string>{});

  env->executeSql("SET 'execution.checkpointing.interval' = '20 ms'");
  env->executeSql("INSERT INTO t VALUES (3, 'c'), (4, 'd')").await();
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT * FROM t"), true),
            (std::vector<std::string>{"+I[3, c]", "+I[4, d]"}));
}

// A changelog format takes an updating query's changes and gives them back (STREAMING): what a
// consumer folds them into is the query's result.
TEST(FileSystemTest, AChangelogFormatHoldsAnUpdatingQuerysChanges) {
  TemporaryDirectory directory;
  auto env = environment(/*streaming=*/true, 1);
  env->executeSql("SET 'execution.checkpointing.interval' = '20 ms'");
  env->executeSql(
      "CREATE TABLE counts (name STRING, c BIGINT) WITH ('connector' = 'filesystem', "
      "'path' = '" +
      directory.path().string() + "', 'format' = 'debezium-json')");
  env->executeSql(
         "INSERT INTO counts SELECT name, COUNT(*) FROM (VALUES ('a'), ('b'), ('a')) "
         "AS v(name) GROUP BY name")
      .await();
  std::map<std::string, int64_t> counts;
  for (const Row& row : env->executeSql("SELECT name, c FROM counts").collectAll()) {
    const std::string name = row.getField(0).get<std::string>();
    if (row.getKind() == RowKind::INSERT || row.getKind() == RowKind::UPDATE_AFTER) {
      EXPECT_FALSE(counts.contains(name)) << row.toString();
      counts[name] = row.getField(1).get<int64_t>();
    } else {
      EXPECT_EQ(counts.at(name), row.getField(1).get<int64_t>()) << row.toString();
      counts.erase(name);
    }
  }
  EXPECT_EQ(counts, (std::map<std::string, int64_t>{{"a", 2}, {"b", 1}}));
  // BATCH reads no changelog (Flink's message).
  auto batch = environment(/*streaming=*/false, 1);
  batch->executeSql(
      "CREATE TABLE counts (name STRING, c BIGINT) WITH ('connector' = "
      "'filesystem', 'path' = '" +
      directory.path().string() + "', 'format' = 'debezium-json')");
  EXPECT_EQ(validationMessage([&] { batch->executeSql("SELECT * FROM counts").collectAll(); }),
            "Querying a table in batch mode is currently only possible for INSERT-only table "
            "sources. But the source for table 'default_catalog.default_database.counts' "
            "produces other changelog messages than just INSERT.");
}

TEST(FileSystemTest, SqlReadsFilesWrittenByOthersWithFormatOptions) {
  TemporaryDirectory directory;
  directory.write("data.txt", "# scores\n1|Alice|n/a\n2|'Bob|by'|10\n");
  auto env = environment(false, 1);
  env->executeSql(
      "CREATE TABLE t (id INT, name STRING, score INT) WITH ('connector' = "
      "'filesystem', 'path' = 'file://" +
      directory.path().string() +
      "', 'format' = 'csv', 'csv.field-delimiter' = '|', 'csv.quote-character' = "
      "'''', 'csv.null-literal' = 'n/a', 'csv.allow-comments' = 'true')");
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT name, score FROM t"), false),
            (std::vector<std::string>{"+I[Alice, null]", "+I[Bob|by, 10]"}));
}

}  // namespace
}  // namespace eddy::connectors

namespace eddy::connectors {
namespace {

TEST(FileSystemTest, CsvDecodesOnlyTheColumnsAQueryReads) {
  // Projection push-down: the source decodes the columns read, in the query's order; a
  // malformed value in a column no query reads goes unnoticed (as with Flink's projectable
  // formats), one in a column read still fails with its row and column; a record with the
  // wrong number of fields fails either way.
  TemporaryDirectory directory;
  fs::path file = directory.write("a.csv", "1,Alice,10\n2,Bob,abc\n3,Carol,30\n");
  auto env = environment(false, 1);
  env->executeSql("CREATE TABLE t (id INT, name STRING, score INT) WITH ('connector' = "
                  "'filesystem', 'path' = '" + directory.path().string() + "', 'format' = 'csv')");
  EXPECT_EQ(rowsOfResult(env->executeSql("SELECT name, id FROM t"), false),
            (std::vector<std::string>{"+I[Alice, 1]", "+I[Bob, 2]", "+I[Carol, 3]"}));
  std::string plan;
  for (const Row& row : env->executeSql("EXPLAIN SELECT name, id FROM t").collectAll()) {
    plan += row.getField(0).get<std::string>();
  }
  EXPECT_NE(plan.find("LogicalTableScan(table=[[default_catalog.default_database.t]], "
                      "project=[id, name])"),
            std::string::npos)
      << plan;
  try {
    env->executeSql("SELECT id, score FROM t").collectAll();
    ADD_FAILURE() << "the query did not fail";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what())
                  .find("Failed to deserialize CSV row 2 of file '" + file.string() +
                        "': column 'score' (position 2) expects INT but got 'abc'"),
              std::string::npos)
        << error.what();
  }
  directory.write("b.csv", "4,Dave\n");
  try {
    env->executeSql("SELECT name FROM t").collectAll();
    ADD_FAILURE() << "the query did not fail";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("expected 3 fields but found 2"), std::string::npos)
        << error.what();
  }
}

}  // namespace
}  // namespace eddy::connectors

namespace eddy::connectors {
namespace {

// --- Partition directories ---

TEST(FileSystemPartitionTest, EscapesWhatFlinkEscapes) {
  EXPECT_EQ(escapePartitionValue("2026-11-30"), "2026-11-30");
  EXPECT_EQ(escapePartitionValue("10:00"), "10%3A00");
  EXPECT_EQ(escapePartitionValue("a/b=c%d#e?f*g'h\"i\\j{k[l]m^n"),
            "a%2Fb%3Dc%25d%23e%3Ff%2Ag%27h%22i%5Cj%7Bk%5Bl%5Dm%5En");
  EXPECT_EQ(escapePartitionValue(std::string("tab\there\x7F")), "tab%09here%7F");
  EXPECT_EQ(escapePartitionValue("space and ümlaut"), "space and ümlaut");
  for (std::string value : {"10:00", "a/b=c%d", "100%", "%zz", "%4"}) {
    EXPECT_EQ(unescapePartitionValue(escapePartitionValue(value)), value) << value;
  }
  // A '%' without two hex digits stays.
  EXPECT_EQ(unescapePartitionValue("100%"), "100%");
  EXPECT_EQ(unescapePartitionValue("%zz%4"), "%zz%4");
  EXPECT_EQ(unescapePartitionValue("%3a"), ":");
}

TEST(FileSystemPartitionTest, DirectoriesOfPartitions) {
  const std::vector<std::string> keys = {"dt", "hm"};
  EXPECT_EQ(partitionDirectory(keys, {"2026-11-30", "10:00"}, kDefaultPartitionName).string(),
            "dt=2026-11-30/hm=10%3A00");
  EXPECT_EQ(partitionDirectory(keys, {std::nullopt, ""}, "none").string(), "dt=none/hm=none");
  EXPECT_EQ(partitionOfFile("dt=2026-11-30/hm=10%3A00/part-1", keys, kDefaultPartitionName),
            (PartitionSpec{"2026-11-30", "10:00"}));
  EXPECT_EQ(partitionOfFile("dt=__DEFAULT_PARTITION__/hm=x/deeper/part-1", keys,
                            kDefaultPartitionName),
            (PartitionSpec{std::nullopt, "x"}));
  // Not under a directory per key, in order: not a file of the table.
  EXPECT_EQ(partitionOfFile("part-1", keys, kDefaultPartitionName), std::nullopt);
  EXPECT_EQ(partitionOfFile("dt=1/part-1", keys, kDefaultPartitionName), std::nullopt);
  EXPECT_EQ(partitionOfFile("hm=1/dt=2/part-1", keys, kDefaultPartitionName), std::nullopt);
  EXPECT_EQ(partitionOfFile("dt=1/hm=2", keys, kDefaultPartitionName), std::nullopt);
  EXPECT_EQ(partitionOfFile("dt1/hm=2/part", keys, kDefaultPartitionName), std::nullopt);
}

TEST(FileSystemPartitionTest, PartitionValuesAreReadAsTheKeyTypes) {
  std::vector<RowField> keys = {{"day", LogicalType::simple(LogicalTypeRoot::DATE), {}},
                                {"hour", intType(), {}}};
  EXPECT_EQ(partitionRow({"2026-11-30", "9"}, keys, "t").toString(), "+I[2026-11-30, 9]");
  EXPECT_EQ(partitionRow({std::nullopt, "9"}, keys, "t").toString(), "+I[null, 9]");
  try {
    partitionRow({"2026-11-30", "nine"}, keys, "t");
    ADD_FAILURE() << "accepted 'nine' as an INT";
  } catch (const ConnectorException& error) {
    EXPECT_EQ(std::string(error.what()),
              "The partition value 'nine' of key 'hour' of table 't' is not a valid INT.");
  }
}

}  // namespace
}  // namespace eddy::connectors

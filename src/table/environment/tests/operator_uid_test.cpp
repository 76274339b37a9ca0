// Operator uids of translated SQL jobs (src/graph/operator_uid.h), read from the JSON execution
// plan of a StreamTableEnvironment's program: the same statements over the same catalog get
// the same uids in every environment; a changed filter constant changes the uids of its Calc
// and everything downstream but not of the source; equal sub-plans of one statement set get
// distinct uids; a DataStream's user uid stays in a mixed job.
#include <gtest/gtest.h>

#include <eddy/eddy.h>

#include <set>

#include "datastream/execution_plan_uids.h"

namespace eddy {
namespace {

using UidList = std::vector<std::pair<std::string, std::string>>;

/// The uids of `inserts` (one statement set) in a fresh environment with `options` set.
UidList uidsOfInserts(
    const std::vector<std::string>& inserts,
    const std::vector<std::pair<std::string, std::string>>& options = {}) {
  auto env = StreamExecutionEnvironment::getExecutionEnvironment();
  env->setParallelism(2);
  auto tableEnv = StreamTableEnvironment::create(*env);
  for (const auto& [key, value] : options) tableEnv->getConfig()[key] = value;
  tableEnv->executeSql(
      "CREATE TABLE orders (customer STRING, amount INT) WITH ('connector' = 'datagen', "
      "'number-of-rows' = '10')");
  tableEnv->executeSql(
      "CREATE TABLE totals (customer STRING, total INT) WITH ('connector' = 'blackhole')");
  tableEnv->executeSql("CREATE TABLE big (customer STRING, amount INT) WITH ('connector' = 'blackhole')");
  StreamStatementSet statements = tableEnv->createStatementSet();
  for (const std::string& insert : inserts) statements.addInsertSql(insert);
  statements.attachAsDataStream();
  return testing::operatorUidsOf(env->getExecutionPlan());
}

std::vector<std::string> namesOf(const UidList& uids) {
  std::vector<std::string> names;
  for (const auto& [name, uid] : uids) names.push_back(name);
  return names;
}

const std::string kTotals =
    "INSERT INTO totals SELECT customer, SUM(amount) FROM orders WHERE amount > 10 GROUP BY customer";

TEST(SqlOperatorUidTest, TheSameStatementsGetTheSameUidsInEveryEnvironment) {
  auto first = uidsOfInserts({kTotals});
  // The second Calc casts to the sink's columns; SinkInputMetrics counts the rows written.
  EXPECT_EQ(namesOf(first),
            (std::vector<std::string>{"Source: default_catalog.default_database.orders", "Calc",
                                      "GroupAggregate", "Calc", "SinkInputMetrics",
                                      "Sink: default_catalog.default_database.totals"}));
  std::set<std::string> distinct;
  for (const auto& [name, uid] : first) {
    EXPECT_TRUE(testing::isDerivedUid(uid)) << name << ": " << uid;
    distinct.insert(uid);
  }
  EXPECT_EQ(distinct.size(), first.size());
  EXPECT_EQ(uidsOfInserts({kTotals}), first);
  // The parallelism of the table operators is not part of their uids.
  EXPECT_EQ(uidsOfInserts({kTotals}, {{"table.exec.resource.default-parallelism", "3"}}), first);
}

TEST(SqlOperatorUidTest, AChangedFilterConstantChangesItsOperatorAndThoseDownstream) {
  auto before = uidsOfInserts({kTotals});
  std::string changed = kTotals;
  changed.replace(changed.find("> 10"), 4, "> 11");
  auto after = uidsOfInserts({changed});
  ASSERT_EQ(namesOf(after), namesOf(before));
  EXPECT_EQ(after[0], before[0]);  // the source
  for (size_t i = 1; i < after.size(); ++i) EXPECT_NE(after[i].second, before[i].second) << after[i].first;
}

TEST(SqlOperatorUidTest, EqualSubPlansOfAStatementSetGetDistinctUids) {
  // Without sub-plan reuse both inserts read `orders` with a source of their own.
  const std::string insert = "INSERT INTO big SELECT * FROM orders WHERE amount > 10";
  auto uids = uidsOfInserts({insert, insert}, {{"table.optimizer.reuse-sub-plan-enabled", "false"}});
  // Source, Calc, SinkInputMetrics, Sink, twice: equal names, descriptions and inputs.
  ASSERT_EQ(uids.size(), 8u);
  std::set<std::string> distinct;
  for (const auto& [name, uid] : uids) distinct.insert(uid);
  EXPECT_EQ(distinct.size(), 8u);
  // The first pipeline has the uids it has alone.
  auto alone = uidsOfInserts({insert}, {{"table.optimizer.reuse-sub-plan-enabled", "false"}});
  std::set<std::string> aloneUids;
  for (const auto& [name, uid] : alone) aloneUids.insert(uid);
  for (const std::string& uid : aloneUids) EXPECT_EQ(distinct.count(uid), 1u) << uid;
  EXPECT_EQ(uidsOfInserts({insert, insert}, {{"table.optimizer.reuse-sub-plan-enabled", "false"}}),
            uids);
}

TEST(SqlOperatorUidTest, ADataStreamsUserUidIsKeptInAMixedJob) {
  auto uidsWith = [](const std::string& sourceUid) {
    auto env = StreamExecutionEnvironment::getExecutionEnvironment();
    env->setParallelism(1);
    auto tableEnv = StreamTableEnvironment::create(*env);
    DataStream<Row> scores = env->fromElements(Row::of("Alice", 12), Row::of("Bob", 10));
    if (!sourceUid.empty()) scores.uid(sourceUid);
    tableEnv->createTemporaryView("scores", tableEnv->fromDataStream(scores).as("name", "score"));
    tableEnv->toDataStream(tableEnv->sqlQuery("SELECT name FROM scores WHERE score > 11"))
        .addSink([](const Row&) {});
    return testing::operatorUidsOf(env->getExecutionPlan());
  };
  auto derived = uidsWith("");
  auto userUid = uidsWith("scores-source");
  ASSERT_EQ(derived.size(), userUid.size());
  ASSERT_GE(derived.size(), 3u);
  EXPECT_EQ(userUid[0], (std::pair<std::string, std::string>{"Source: Collection Source", "scores-source"}));
  EXPECT_TRUE(testing::isDerivedUid(derived[0].second));
  for (size_t i = 1; i < derived.size(); ++i) EXPECT_NE(userUid[i].second, derived[i].second);
  EXPECT_EQ(uidsWith(""), derived);
}

}  // namespace
}  // namespace eddy

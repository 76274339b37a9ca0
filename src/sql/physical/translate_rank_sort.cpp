// Translation of ranking and ordering (translation_context.h): a Rank keyed on its PARTITION
// BY columns (a Deduplicate where it keeps the first or last row per key, a WindowRank where
// it ranks within windows), and ORDER BY / LIMIT: in STREAMING mode a global Top-N or a
// TemporalSort on a rowtime, in BATCH mode a Sort, SortLimit or Limit in one subtask.
#include <fmt/format.h>

#include "runtime/operators/rank/rank_operator.h"
#include "runtime/operators/sort/sort_operator.h"
#include "sql/physical/translation_context.h"

namespace eddy::sql::physical {

namespace {

/// Sort keys as Flink's plans print them: `price DESC, id ASC`.
std::string orderByNames(const LogicalTypePtr& rowType,
                         const std::vector<relational::SortKey>& keys) {
  std::string text;
  for (const auto& key : keys) {
    text += (text.empty() ? "" : ", ") +
            rowType->getFields()[static_cast<size_t>(key.column)].name +
            (key.ascending ? " ASC" : " DESC");
  }
  return text;
}

/// Flink's physical-plan form of a Rank: `Rank(rankType=[ROW_NUMBER], rankRange=[rankStart=1,
/// rankEnd=3], partitionBy=[k], orderBy=[price DESC], select=[..])`.
std::string rankDescription(const LogicalRank& rank, const std::string& name) {
  const LogicalTypePtr& input = rank.inputs[0]->rowType;
  std::string range = rank.rankEnd == INT64_MAX ? "rankStart=" + std::to_string(rank.rankStart)
                                                : "rankStart=" + std::to_string(rank.rankStart) +
                                                      ", rankEnd=" + std::to_string(rank.rankEnd);
  return name + "(rankType=[" + relational::rankKindName(rank.rankKind) + "], rankRange=[" +
         range + "], partitionBy=[" + keyNames(input, rank.partitionKeys) + "], orderBy=[" +
         orderByNames(input, rank.sortKeys) + "], select=[" + fieldList(rank.rowType) + "])";
}

}  // namespace

DataStream<vector::Chunk> translateSort(const LogicalSort& sort, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  if (settings.streaming) {
    if (!sort.keys.empty() && sort.fetch >= 0) {
      // ORDER BY .. LIMIT: a global Top-N over the rows ranked offset+1 .. offset+fetch.
      LogicalRank topN(sort.inputs[0], {}, sort.keys, relational::RankKind::ROW_NUMBER,
                       sort.offset + 1, sort.offset + sort.fetch, false, "");
      // The nodes made here live on this stack frame only: they are translated directly, not
      // through translate(), whose sub-plan reuse identifies nodes by address (the Sort above
      // them is the plan's node that reuse sees).
      if (sort.fetch == 0) {
        return translateFilter(LogicalFilter(sort.inputs[0], expression::literal(Value(false))),
                               env, settings);
      }
      return translateRank(topN, env, settings);
    }
    const bool temporal =
        !sort.keys.empty() && sort.keys[0].ascending && sort.fetch < 0 && sort.offset == 0 &&
        sort.inputs[0]->changelogMode == ChangelogMode::kInsertOnly &&
        sort.inputs[0]->rowType->getFields()[sort.keys[0].column].type->getTimestampKind() ==
            TimestampKind::ROWTIME;
    if (temporal) {
      // ORDER BY rowtime [, ...]: rows in time order as the watermark passes them.
      auto spec = std::make_shared<runtime::operators::SortSpec>();
      spec->rowType = sort.rowType;
      spec->keys = sort.keys;
      spec->timeColumn = sort.keys[0].column;
      return translate(*sort.inputs[0], env, settings)
          .transform<vector::Chunk>("TemporalSort",
                                    factoryOf<runtime::operators::SortOperator>(std::move(spec)))
          .setParallelism(1)
          .setDescription("TemporalSort(orderBy=[" + orderByNames(sort.rowType, sort.keys) + "])");
    }
    if (!sort.keys.empty()) {
      throw TableException("Sort on a non-time-attribute field is not supported.");
    }
    if (sort.inputs[0]->changelogMode != ChangelogMode::kInsertOnly) {
      throw TableException(
          "LIMIT over an updating input is not supported yet in streaming "
          "mode");
    }
  }
  auto spec = std::make_shared<runtime::operators::SortSpec>();
  spec->rowType = sort.rowType;
  spec->keys = sort.keys;
  spec->offset = sort.offset;
  spec->fetch = sort.fetch;
  // Flink's forms: Sort(orderBy=[..]), SortLimit(orderBy=[..], offset=[..], fetch=[..]),
  // Limit(offset=[..], fetch=[..]).
  std::string description = sort.keys.empty() ? "Limit(" : sort.fetch >= 0 ? "SortLimit(" : "Sort(";
  if (!sort.keys.empty()) description += "orderBy=[" + orderByNames(sort.rowType, sort.keys) + "]";
  if (sort.keys.empty() || sort.fetch >= 0) {
    description += std::string(sort.keys.empty() ? "" : ", ") + "offset=[" +
                   std::to_string(sort.offset) + "], fetch=[" +
                   (sort.fetch >= 0 ? std::to_string(sort.fetch) : "unlimited") + "]";
  }
  return translate(*sort.inputs[0], env, settings)
      .transform<vector::Chunk>(sort.keys.empty() ? "Limit" : "Sort",
                                factoryOf<runtime::operators::SortOperator>(std::move(spec)))
      .setParallelism(1)
      .setDescription(description + ")");
}

DataStream<vector::Chunk> translateRank(const LogicalRank& rank, StreamExecutionEnvironment& env,
                                        const TranslationSettings& settings) {
  auto spec = std::make_shared<runtime::operators::RankSpec>();
  spec->inputRowType = rank.inputs[0]->rowType;
  spec->partitionKeys = rank.partitionKeys;
  spec->sortKeys = rank.sortKeys;
  spec->rankKind = rank.rankKind;
  spec->rankStart = rank.rankStart;
  spec->rankEnd = rank.rankEnd;
  spec->outputRankNumber = rank.outputRankNumber;
  spec->inputInsertOnly = rank.inputs[0]->changelogMode == ChangelogMode::kInsertOnly;
  spec->outputRowType = rank.rowType;
  // Window Top-N: partitioned by a window's start and end over insert-only input.
  spec->windowEndColumn = windowRankEndColumn(*rank.inputs[0], rank.partitionKeys);
  if (spec->windowEndColumn >= 0) {
    spec->windowTimeZone =
        windowPropertyOf(*rank.inputs[0], spec->windowEndColumn)->window.timeZone;
  }
  if (settings.streaming && rank.rankEnd == INT64_MAX && spec->windowEndColumn < 0) {
    throw TableException(
        "ROW_NUMBER, RANK and DENSE_RANK in STREAMING mode need a filter on the rank that "
        "bounds it from above (Top-N, e.g. WHERE rownum <= 10)");
  }
  const bool deduplicate = spec->windowEndColumn < 0 &&
                           isDeduplicate(*rank.inputs[0], rank.rankKind, rank.rankStart,
                                         rank.rankEnd, rank.outputRankNumber, rank.sortKeys);
  const bool procTime =
      deduplicate && rank.inputs[0]
                             ->rowType->getFields()[static_cast<size_t>(rank.sortKeys[0].column)]
                             .type->getTimestampKind() == TimestampKind::PROCTIME;
  spec->keepFirstArrival = deduplicate && procTime && rank.sortKeys[0].ascending;
  spec->deduplicate = deduplicate && !spec->keepFirstArrival;
  spec->keepLastArrival = spec->deduplicate && procTime;
  spec->generateUpdateBefore = rank.generateUpdateBefore;
  // A window Top-N's partitions end with their window; the others expire with the TTL.
  if (spec->windowEndColumn < 0) spec->stateTtlMillis = settings.stateTtl;
  std::string name = spec->windowEndColumn >= 0 ? "WindowRank"
                     : deduplicate              ? "Deduplicate"
                                                : "Rank";
  // Flink's Deduplicate line: which row it keeps, by which key, on which time.
  std::string description = deduplicate
                                ? fmt::format("Deduplicate(keep=[{}], key=[{}], order=[{}])",
                                              rank.sortKeys[0].ascending ? "FirstRow" : "LastRow",
                                              keyNames(rank.inputs[0]->rowType, rank.partitionKeys),
                                              procTime ? "PROCTIME" : "ROWTIME")
                                : rankDescription(rank, name);
  return keyed(translate(*rank.inputs[0], env, settings), rank.partitionKeys,
               rank.inputs[0]->rowType, std::move(name),
               factoryOf<runtime::operators::RankOperator>(std::move(spec)), settings)
      .setDescription(std::move(description));
}

}  // namespace eddy::sql::physical

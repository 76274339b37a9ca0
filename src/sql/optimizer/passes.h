// The optimizer's passes, one file each, in the order optimize() runs them (optimizer.cpp lists
// them with their names). Each is a rewrite of one node whose inputs were already rewritten:
// it returns the node itself when its pattern does not match. Nodes are immutable; a rewrite
// returns new nodes over the unchanged subtrees, with the same output row type.
#pragma once

#include "sql/planner/logical_node.h"

namespace eddy::sql {

/// GroupingSetsExpansion (grouping_sets_expansion.cpp): an aggregation with grouping sets
/// (GROUPING SETS, ROLLUP, CUBE) becomes one aggregation per set, padded with NULLs and the
/// GROUPING flags, under a UNION ALL. The physical plan has no grouping-sets aggregation:
/// without this pass such a query fails to translate.
LogicalNodePtr planGroupingSets(const LogicalNodePtr& node);

/// WindowAggregateDetection (window_aggregate_detection.cpp): an aggregation grouped by the
/// window of a window TVF (LogicalAggregate::windowed) becomes a LogicalWindowAggregate over
/// the TVF's input. Without this pass such a query fails to translate (its type, insert-only
/// with window_time a time attribute, is a window aggregation's).
LogicalNodePtr planWindowAggregates(const LogicalNodePtr& node);

/// RankFilterPushDown (rank_filter_push_down.cpp): a filter over a Top-N's ranking (a Rank
/// that outputs its rank number, alone or under a projection of plain columns) whose conjuncts
/// bound the rank column (rn <= N, rn < N, rn = N, rn BETWEEN a AND b, N >= rn) becomes the
/// Rank's range; the other conjuncts stay as a filter. Flink's FlinkLogicalRankRule makes a
/// Rank from such a filter over ROW_NUMBER().
LogicalNodePtr pushFiltersIntoRanks(const LogicalNodePtr& node);

/// RankNumberPruning (rank_number_pruning.cpp): a Top-N (a ranked range) whose rank column the
/// projection above (and a filter between them) does not read stops outputting it, so it
/// emits inserts and deletes only, never rank updates (Flink's outputRankNumber = false).
LogicalNodePtr pruneRankNumbers(const LogicalNodePtr& node);

/// ConstantFolding (constant_folding.cpp): deterministic sub-expressions that read no column
/// become literals (in projections, filters and join conditions); AND/OR with decided operands
/// simplify; a filter that folds to TRUE disappears. A constant that fails (1 / 0) is left to
/// fail at runtime.
LogicalNodePtr foldConstants(const LogicalNodePtr& node);

/// FilterPushDown (filter_push_down.cpp): a filter moves below a projection (its condition
/// rewritten over the projection's input), into every input of a UNION ALL, into the left
/// input of a SEMI/ANTI join, and into an inner join (its equalities becoming join keys, as
/// Flink's FlinkFilterJoinRule); two filters become one. Non-deterministic conditions and
/// temporal joins stay.
LogicalNodePtr pushFilters(const LogicalNodePtr& node);

/// ProjectJoinTranspose (project_join_transpose.cpp): a projection over a join that reads only
/// some of its columns gets a projection on each join input keeping what is read above and by
/// the join's keys and condition (the join then stores and emits less).
LogicalNodePtr pruneJoinInputs(const LogicalNodePtr& node);

/// ProjectMerge (project_merge.cpp): a projection of a projection becomes one projection; a
/// projection that renames nothing and keeps every column in order disappears.
LogicalNodePtr mergeProjects(const LogicalNodePtr& node);

/// PartitionPushDown (partition_push_down.cpp): a filter over a scan of a partitioned table
/// whose source lists its partitions: the conjuncts over partition keys only select the
/// partitions the scan reads, and go (Flink's PushPartitionIntoTableSourceScanRule).
LogicalNodePtr prunePartitions(const LogicalNodePtr& node);

/// ProjectionPushDown (projection_push_down.cpp): a projection over projections, filters and
/// watermark assigners down to a table scan whose source supports projection makes the scan
/// produce only the (nested) fields read, as flat columns (`person.name` becomes a column
/// `person_name`); every node of the chain keeps only what is read above it.
LogicalNodePtr pushProjection(const LogicalNodePtr& node);

/// WatermarkPushDown (watermark_push_down.cpp): a watermark assigner over a table scan (or over
/// the projection of the table's computed and metadata columns above it) whose source
/// supportsWatermarkPushDown goes into the scan, its expression rewritten over the scan's
/// columns: the source operator generates the watermark per split (Flink's
/// PushWatermarkIntoTableSourceScanRule). Runs last, over the pruned scan.
LogicalNodePtr pushWatermarkIntoScan(const LogicalNodePtr& node);

}  // namespace eddy::sql

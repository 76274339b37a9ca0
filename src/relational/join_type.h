// JoinType: how a join pairs the rows of its two sides, as the parser, the plan and the join
// operators all name it (Flink's FlinkJoinType: Calcite's JoinRelType plus SEMI and ANTI).
// One enum from the SQL text to the runtime; how a join was written (`a, b`, CROSS JOIN) is the
// AST's JoinSyntax.
#pragma once

#include <string>

namespace eddy::relational {

/// SEMI and ANTI output the left rows only: a SEMI join each left row that has a partner, once
/// (whatever the number of partners), an ANTI join each left row that has none.
enum class JoinType { INNER, LEFT, RIGHT, FULL, SEMI, ANTI };

/// Flink's EXPLAIN names: "InnerJoin", "LeftOuterJoin", "RightOuterJoin", "FullOuterJoin",
/// "LeftSemiJoin", "LeftAntiJoin".
std::string joinTypeName(JoinType type);

/// Whether a `type` join outputs the left rows only (SEMI, ANTI).
bool outputsLeftOnly(JoinType type);

/// Whether input `side` (0 left, 1 right) of a `type` join is an outer side: its rows without
/// a partner are emitted padded with NULLs. The left side of SEMI and ANTI joins counts as
/// outer too: its rows keep their number of partners.
bool isOuterSide(JoinType type, int side);

}  // namespace eddy::relational

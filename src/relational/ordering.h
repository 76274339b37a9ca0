// Ordering: SortKey, RankKind and OverFrameUnit: the order of an ORDER BY, a Top-N or an OVER window, and the ranking
// function of a Rank, as the plan describes them and the sort, rank and over operators take them.
#pragma once

#include <string>

namespace eddy::relational {

/// One key of an order: a column of the input, its direction and where its NULLs go.
struct SortKey {
  int column;
  bool ascending = true;
  bool nullsFirst = true;
};

enum class RankKind { ROW_NUMBER, RANK, DENSE_RANK };

/// "ROW_NUMBER", "RANK", "DENSE_RANK".
std::string rankKindName(RankKind kind);

/// The frame unit of an OVER window: `ROWS BETWEEN ..` counts rows, `RANGE BETWEEN ..` spans
/// values of the order key.
enum class OverFrameUnit { ROWS, RANGE };

}  // namespace eddy::relational

// The names of the relational vocabulary (join types, rank kinds, window kinds) and the join
// type's predicates.
#include "relational/join_type.h"

#include "eddy/exceptions.h"
#include "relational/ordering.h"
#include "relational/window.h"

namespace eddy::relational {

std::string joinTypeName(JoinType type) {
  switch (type) {
    case JoinType::INNER:
      return "InnerJoin";
    case JoinType::LEFT:
      return "LeftOuterJoin";
    case JoinType::RIGHT:
      return "RightOuterJoin";
    case JoinType::FULL:
      return "FullOuterJoin";
    case JoinType::SEMI:
      return "LeftSemiJoin";
    case JoinType::ANTI:
      return "LeftAntiJoin";
  }
  throw InternalError("unknown join type");
}

bool outputsLeftOnly(JoinType type) { return type == JoinType::SEMI || type == JoinType::ANTI; }

bool isOuterSide(JoinType type, int side) {
  switch (type) {
    case JoinType::INNER:
      return false;
    case JoinType::LEFT:
    case JoinType::SEMI:
    case JoinType::ANTI:
      return side == 0;
    case JoinType::RIGHT:
      return side == 1;
    case JoinType::FULL:
      return true;
  }
  return false;
}

std::string rankKindName(RankKind kind) {
  switch (kind) {
    case RankKind::ROW_NUMBER:
      return "ROW_NUMBER";
    case RankKind::RANK:
      return "RANK";
    case RankKind::DENSE_RANK:
      return "DENSE_RANK";
  }
  return "?";
}

std::string windowKindName(WindowKind kind) {
  switch (kind) {
    case WindowKind::TUMBLE:
      return "TUMBLE";
    case WindowKind::HOP:
      return "HOP";
    case WindowKind::CUMULATE:
      return "CUMULATE";
    case WindowKind::SESSION:
      return "SESSION";
  }
  return "UNKNOWN";
}

}  // namespace eddy::relational

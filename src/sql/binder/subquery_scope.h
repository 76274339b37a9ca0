// Binder::SubqueryScope: while one clause is bound, the relation its subqueries join onto
// (and the aggregation they are above). bindSelect opens one per clause, the subquery binder
// one per subquery (none: a subquery's own clauses open theirs). Private to the binder's files.
#pragma once

#include <utility>
#include <vector>

#include "sql/binder/binder.h"
#include "sql/binder/aggregate_binding.h"

namespace eddy::sql {

/// Sets the relation subqueries join onto while one clause is bound (and clears the
/// top-level conjunct list), restoring the enclosing clause's afterwards.
struct Binder::SubqueryScope {
  SubqueryScope(Binder& binder, Relation* input, const AggregateBinding* aggregates = nullptr)
      : binder_(binder),
        savedInput_(binder.subqueryInput_),
        savedAggregates_(binder.subqueryAggregates_),
        savedConjuncts_(std::move(binder.topLevelConjuncts_)) {
    binder.subqueryInput_ = input;
    binder.subqueryAggregates_ = aggregates;
    binder.topLevelConjuncts_.clear();
  }
  ~SubqueryScope() {
    binder_.subqueryInput_ = savedInput_;
    binder_.subqueryAggregates_ = savedAggregates_;
    binder_.topLevelConjuncts_ = std::move(savedConjuncts_);
  }
  Binder& binder_;
  Relation* savedInput_;
  const AggregateBinding* savedAggregates_;
  std::vector<const Expression*> savedConjuncts_;
};

}  // namespace eddy::sql

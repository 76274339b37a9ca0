// The columns UNNEST gives a collection, as the plan types them and the unnest operator fills
// them.
#pragma once

#include <vector>

#include "eddy/types/logical_type.h"

namespace eddy::relational {

/// The columns one element of a collection of `collectionType` unnests to (named as Calcite's
/// UNNEST names them: a ROW's field names, `KEY`/`VALUE` for a MAP, `EXPR$0` otherwise), with
/// `ORDINALITY` INT NOT NULL after them when requested; none for a BIGINT count. Throws
/// ValidationException for another type.
std::vector<RowField> unnestedFields(const LogicalType& collectionType, bool withOrdinality);

}  // namespace eddy::relational

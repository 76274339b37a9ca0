#include "relational/unnest_fields.h"

#include "eddy/exceptions.h"

namespace eddy::relational {

std::vector<RowField> unnestedFields(const LogicalType& collectionType, bool withOrdinality) {
  std::vector<RowField> fields;
  switch (collectionType.getTypeRoot()) {
    case LogicalTypeRoot::ARRAY:
    case LogicalTypeRoot::MULTISET: {
      const LogicalTypePtr& element = collectionType.getElementType();
      if (element->getTypeRoot() == LogicalTypeRoot::ROW) {
        for (const RowField& field : element->getFields()) {
          // A NULL element unnests to NULL fields.
          fields.push_back(RowField{field.name, field.type->copy(field.type->isNullable() ||
                                                                 element->isNullable()),
                                    field.description});
        }
      } else {
        fields.push_back(RowField{"EXPR$0", element, {}});
      }
      break;
    }
    case LogicalTypeRoot::MAP:
      fields.push_back(RowField{"KEY", collectionType.getKeyType(), {}});
      fields.push_back(RowField{"VALUE", collectionType.getValueType(), {}});
      break;
    case LogicalTypeRoot::BIGINT:
      break;
    default:
      throw ValidationException("UNNEST argument must be a collection, but was " +
                                collectionType.asSummaryString());
  }
  if (withOrdinality) {
    fields.push_back(RowField{"ORDINALITY", LogicalType::simple(LogicalTypeRoot::INTEGER, false), {}});
  }
  return fields;
}

}  // namespace eddy::relational

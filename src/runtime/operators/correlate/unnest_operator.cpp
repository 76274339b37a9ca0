#include "runtime/operators/correlate/unnest_operator.h"

#include "eddy/exceptions.h"
#include "relational/unnest_fields.h"
#include "vector/chunk_operations.h"

namespace eddy::runtime::operators {

UnnestOperator::UnnestOperator(std::shared_ptr<const UnnestSpec> spec)
    : spec_(std::move(spec)), evaluator_({spec_->collection}) {}

void UnnestOperator::processBatch(int, BatchPtr batch) {
  auto out = std::make_unique<TypedBatch<vector::Chunk>>();
  for (const vector::Chunk& chunk : typedBatch<vector::Chunk>(*batch).records) {
    if (chunk.size() == 0) continue;
    vector::Chunk result = unnest(chunk);
    if (result.size() > 0) out->push(std::move(result), kNoTimestamp);
  }
  if (!out->records.empty()) output().emitBatch(std::move(out));
}

vector::Chunk UnnestOperator::unnest(const vector::Chunk& input) {
  evaluator_.evaluate(input, results_, evaluationContext_);
  const vector::Vector& collections = results_[0];
  const LogicalType& collectionType = *spec_->collection->type();
  const auto& fields = spec_->outputRowType->getFields();
  const int inputColumns = input.columnCount();
  const int ordinalityColumn = spec_->withOrdinality ? static_cast<int>(fields.size()) - 1 : -1;
  const int elementColumns =
      static_cast<int>(fields.size()) - inputColumns - (spec_->withOrdinality ? 1 : 0);
  const LogicalTypeRoot root = collectionType.getTypeRoot();
  const bool rowElements = (root == LogicalTypeRoot::ARRAY || root == LogicalTypeRoot::MULTISET) &&
                           collectionType.getElementType()->getTypeRoot() == LogicalTypeRoot::ROW;

  std::vector<vector::Vector> columns;
  for (int c = inputColumns; c < static_cast<int>(fields.size()); ++c) {
    columns.emplace_back(fields[static_cast<size_t>(c)].type);
  }
  rows_.clear();
  auto emit = [&](int64_t row, const Value* first, const Value* second, int32_t ordinal) {
    rows_.push_back(static_cast<int32_t>(row));
    if (first == nullptr) {  // a LEFT join's row without elements
      for (vector::Vector& column : columns) column.appendNull();
      return;
    }
    if (rowElements) {
      for (int c = 0; c < elementColumns; ++c) {
        if (first->isNull()) {
          columns[static_cast<size_t>(c)].appendNull();
          continue;
        }
        const Value& field = first->getRow().getField(c);
        field.isNull() ? columns[static_cast<size_t>(c)].appendNull()
                       : columns[static_cast<size_t>(c)].appendValue(field);
      }
    } else {
      first->isNull() ? columns[0].appendNull() : columns[0].appendValue(*first);
      if (second != nullptr) second->isNull() ? columns[1].appendNull() : columns[1].appendValue(*second);
    }
    if (ordinalityColumn >= 0) columns.back().appendValue(Value(ordinal));
  };

  for (int64_t row = 0; row < input.size(); ++row) {
    const size_t before = rows_.size();
    if (root == LogicalTypeRoot::BIGINT) {
      const int64_t count = collections.isNull(row) ? 0 : collections.data<int64_t>()[row];
      rows_.insert(rows_.end(), static_cast<size_t>(std::max<int64_t>(count, 0)),
                   static_cast<int32_t>(row));
    } else if (!collections.isNull(row)) {
      const Value& collection = collections.boxedAt(row);
      int32_t ordinal = 0;
      switch (root) {
        case LogicalTypeRoot::ARRAY:
          for (const Value& element : collection.get<ValueArray>()) {
            emit(row, &element, nullptr, ++ordinal);
          }
          break;
        case LogicalTypeRoot::MULTISET:
          for (const auto& [element, count] : collection.get<ValueMap>()) {
            for (int32_t i = 0; i < count.get<int32_t>(); ++i) emit(row, &element, nullptr, ++ordinal);
          }
          break;
        default:
          for (const auto& [key, value] : collection.get<ValueMap>()) {
            emit(row, &key, &value, ++ordinal);
          }
      }
    }
    if (spec_->leftOuter && rows_.size() == before) emit(row, nullptr, nullptr, 0);
  }

  vector::Chunk result(spec_->outputRowType);
  if (rows_.empty()) return result;
  vector::Chunk gathered = vector::gather(input, rows_.data(), static_cast<int64_t>(rows_.size()));
  for (int c = 0; c < inputColumns; ++c) {
    result.mutableColumn(c) = std::move(gathered.mutableColumn(c));
  }
  for (size_t c = 0; c < columns.size(); ++c) {
    result.mutableColumn(inputColumns + static_cast<int>(c)) = std::move(columns[c]);
  }
  result.mutableRowKinds() = std::move(gathered.mutableRowKinds());
  return result;
}

void UnnestOperator::processWatermark(Watermark watermark) {
  evaluationContext_.setWatermark(watermark.timestamp);
  output().emitWatermark(watermark);
}

}  // namespace eddy::runtime::operators

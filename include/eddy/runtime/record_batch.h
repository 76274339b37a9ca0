// RecordBatch: the unit in which DataStream records move between operators and threads.
//
// A batch holds up to a few thousand records of one C++ type, each with its event timestamp
// (kNoTimestamp when it has none), in two parallel vectors. Operators receive whole batches
// and hand records to user functions one at a time; queues, partitioners and chained calls
// work per batch, so no per-record virtual call or allocation happens between operators.
// A batch is owned by exactly one holder at a time (std::unique_ptr) and may be consumed
// (records moved out) by its receiver.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

namespace eddy::runtime {

/// Timestamp value of a record that carries none.
inline constexpr int64_t kNoTimestamp = std::numeric_limits<int64_t>::min();

/// The number of records a producer accumulates before it ships a batch downstream.
inline constexpr size_t kDefaultBatchSize = 1024;

class RecordBatch {
 public:
  virtual ~RecordBatch() = default;
  virtual size_t size() const = 0;
  /// The rows the batch carries: size() for row records; a columnar record (a type with a
  /// rowCount() member, the Table runtime's chunks) counts its rows.
  virtual int64_t rowCount() const = 0;
  /// A deep copy (used by BROADCAST edges and by a stream read by several operators).
  virtual std::unique_ptr<RecordBatch> clone() const = 0;
};

using BatchPtr = std::unique_ptr<RecordBatch>;

template <typename T>
class TypedBatch final : public RecordBatch {
 public:
  std::vector<T> records;
  std::vector<int64_t> timestamps;  // parallel to records

  size_t size() const override { return records.size(); }
  int64_t rowCount() const override {
    if constexpr (requires(const T& record) { record.rowCount(); }) {
      int64_t rows = 0;
      for (const T& record : records) rows += record.rowCount();
      return rows;
    } else {
      return static_cast<int64_t>(records.size());
    }
  }
  std::unique_ptr<RecordBatch> clone() const override {
    return std::make_unique<TypedBatch<T>>(*this);
  }
  void reserve(size_t capacity) {
    records.reserve(capacity);
    timestamps.reserve(capacity);
  }
  template <typename Record>
  void push(Record&& record, int64_t timestamp) {
    records.push_back(std::forward<Record>(record));
    timestamps.push_back(timestamp);
  }
};

/// The batch as its concrete type. The job graph guarantees the type of every edge, so this
/// is a static cast.
template <typename T>
TypedBatch<T>& typedBatch(RecordBatch& batch) {
  return static_cast<TypedBatch<T>&>(batch);
}

}  // namespace eddy::runtime

// KernelVector: the form in which a vectorized scalar kernel reads its arguments and writes its
// result. It has the physical layouts of vector::Vector (see src/vector/vector.h) but differs
// from it in three ways that matter inside an expression tree:
//   - it can *borrow* an input Vector's buffers (a column reference costs nothing),
//   - it can be a *constant*: one value standing for `size()` equal rows (literals, and results
//     computed from constants only), so `a * 2` never materializes a column of 2s,
//   - its buffers are shared immutably, so copying a KernelVector is cheap.
// A kernel allocates its result with the constructor (all rows valid, values zeroed), fills
// mutableData<T>() / appendString(), and marks null rows with setNull() or
// setValidity(). Once returned, a KernelVector is not changed again.
//
// Threading: built by one thread, then read-only; not synchronized. A borrowed KernelVector
// must not outlive the Vector it borrows from (the evaluator keeps the input chunk alive for
// the duration of one evaluate call).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "common/check.h"
#include "eddy/types/logical_type.h"
#include "eddy/types/value.h"
#include "vector/vector.h"

namespace eddy::function {

/// A column of values as kernels see it; see the file comment.
class KernelVector {
 public:
  /// An owned vector of `size` rows of `type`, all valid. Fixed-width values are unspecified
  /// until written (a kernel writes every valid row; NULL rows may keep any value);
  /// variable-width vectors start empty and are filled row by row with appendString(). With
  /// `constant`, one physical value stands for the `size` rows.
  KernelVector(LogicalTypePtr type, int64_t size, bool constant = false);
  /// A constant vector: `value` (converted to `type` as Vector::appendValue converts) standing
  /// for `size` rows. A null value makes a constant NULL.
  static KernelVector constant(LogicalTypePtr type, const Value& value, int64_t size);
  /// A view of `vector`'s buffers without copying them.
  static KernelVector borrow(const vector::Vector& vector);
  /// A read-only vector that owns `vector` (for results built row by row with
  /// Vector::appendValue, e.g. fields read out of boxed ROW values).
  static KernelVector adopt(vector::Vector vector);

  const LogicalTypePtr& type() const { return type_; }
  /// The same values under another type of the same physical layout (e.g. another
  /// nullability, or VARCHAR(10) as STRING).
  KernelVector withType(LogicalTypePtr type) const {
    EDDY_CHECK(vector::physicalLayoutOf(*type) == layout_);
    KernelVector result = *this;
    result.type_ = std::move(type);
    return result;
  }
  vector::PhysicalLayout layout() const { return layout_; }
  /// Logical number of rows.
  int64_t size() const { return size_; }
  /// Makes a constant stand for `size` rows (calls without arguments produce a constant of
  /// one row that the evaluator stretches).
  void setConstantSize(int64_t size) {
    EDDY_CHECK(constant_);
    size_ = size;
  }
  /// Whether one physical value (index 0) stands for all rows.
  bool isConstant() const { return constant_; }
  /// The physical index of logical row `row`.
  int64_t physicalIndex(int64_t row) const { return constant_ ? 0 : row; }
  /// Number of physical values (1 for a constant).
  int64_t physicalSize() const { return constant_ ? 1 : size_; }

  // --- Fixed-width values, indexed by physical index. T as for Vector::data<T>(). ---
  template <typename T>
  const T* data() const {
    return reinterpret_cast<const T*>(values_);
  }
  template <typename T>
  T* mutableData() {
    EDDY_CHECK(buffers_ != nullptr &&
               values_ == reinterpret_cast<const std::byte*>(buffers_->fixed.get()));
    return reinterpret_cast<T*>(buffers_->fixed.get());
  }
  /// kTimestamp: nanoseconds within the millisecond.
  const int32_t* nanosOfMillisecond() const { return nanos_; }
  int32_t* mutableNanosOfMillisecond();

  // --- Variable-width values. ---
  std::string_view stringAt(int64_t row) const {
    int64_t index = physicalIndex(row);
    return std::string_view(bytes_ + offsets_[index], offsets_[index + 1] - offsets_[index]);
  }
  /// Appends the value of the next physical row of an owned variable-width vector (null rows
  /// append an empty string). Rows must be appended in order, each once.
  void appendString(std::string_view value);
  /// Reserves `bytes` for appendString.
  void reserveBytes(int64_t bytes);

  // --- Boxed values (ARRAY, MAP, ROW, ..., NULL type). ---
  const Value& boxedAt(int64_t row) const;

  // --- Nulls. ---
  /// False when no row is null.
  bool mayHaveNulls() const { return validity_ != nullptr; }
  /// Bit i set when physical value i is valid; nullptr when none is null.
  const uint64_t* validity() const { return validity_; }
  bool isNull(int64_t row) const {
    if (validity_ == nullptr) return false;
    int64_t index = physicalIndex(row);
    return (validity_[index >> 6] & (uint64_t{1} << (index & 63))) == 0;
  }
  /// Marks physical value `index` of an owned vector null.
  void setNull(int64_t index);
  /// A writable validity bitmap (all valid when first requested) of an owned vector.
  uint64_t* mutableValidity();
  /// Replaces the validity with a copy of `validity` (nullptr: all valid) of physicalSize()
  /// bits.
  void setValidity(const uint64_t* validity);

  /// Row `row` as a Value of the kind matching the logical type (as Vector::valueAt).
  Value valueAt(int64_t row) const;
  /// A standalone Vector with the same rows (constants are expanded). Whole buffers are
  /// copied; from an rvalue whose buffers nobody else shares, the string, nanosecond and
  /// validity buffers are moved instead.
  vector::Vector toVector() const&;
  vector::Vector toVector() &&;
  /// The rows at `rows` (logical indices), as an owned vector; a constant stays constant.
  KernelVector gather(const std::vector<int32_t>& rows) const;
  /// Merges rows of several vectors (of `type`'s layout) into one of sourceOf.size() rows: row
  /// i is row positionOf[i] of sources[sourceOf[i]], or NULL where sourceOf[i] is -1. CASE and
  /// COALESCE assemble their branches with it.
  static KernelVector interleave(const LogicalTypePtr& type,
                                 const std::vector<const KernelVector*>& sources,
                                 const std::vector<int32_t>& sourceOf,
                                 const std::vector<int32_t>& positionOf);

 private:
  struct Buffers {
    // Fixed-width values, left uninitialized (a 1M-row result is written once by its kernel;
    // zero-filling it first cost as much as the kernel). __int128 keeps every layout aligned.
    std::unique_ptr<__int128[]> fixed;
    std::vector<int32_t> nanos;
    std::vector<int32_t> offsets;
    std::string bytes;
    std::vector<Value> boxed;
    std::vector<uint64_t> validity;
    std::optional<vector::Vector> adopted;  // adopt(): the vector the view points into
  };
  KernelVector() = default;
  void allocate();
  void pointAtBuffers();
  /// toVector(); `take`: the buffers are this vector's alone and may be moved out.
  vector::Vector toVectorImpl(Buffers* take) const;
  /// toVector() of a non-constant, non-boxed vector, by whole buffers.
  vector::Vector wholeBuffers(Buffers* take) const;

  LogicalTypePtr type_;
  vector::PhysicalLayout layout_ = vector::PhysicalLayout::kBoxed;
  int64_t size_ = 0;
  bool constant_ = false;
  std::shared_ptr<Buffers> buffers_;        // owned storage (null when borrowing)
  const vector::Vector* source_ = nullptr;  // borrowed boxed values
  const std::byte* values_ = nullptr;
  const int32_t* nanos_ = nullptr;
  const int32_t* offsets_ = nullptr;
  const char* bytes_ = nullptr;
  const uint64_t* validity_ = nullptr;
};

/// Number of 64-bit words of a validity bitmap of `size` bits.
inline int64_t validityWords(int64_t size) { return (size + 63) / 64; }

}  // namespace eddy::function

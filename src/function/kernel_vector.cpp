// KernelVector: owned, borrowed and constant columns for kernels (see kernel_vector.h).
#include "function/kernel_vector.h"

#include <cstring>

#include "eddy/row.h"

namespace eddy::function {
namespace {

using vector::PhysicalLayout;

const std::byte* rawData(const vector::Vector& vector) {
  switch (vector.layout()) {
    case PhysicalLayout::kBoolean:
      return reinterpret_cast<const std::byte*>(vector.data<bool>());
    case PhysicalLayout::kInt8:
      return reinterpret_cast<const std::byte*>(vector.data<int8_t>());
    case PhysicalLayout::kInt16:
      return reinterpret_cast<const std::byte*>(vector.data<int16_t>());
    case PhysicalLayout::kInt32:
      return reinterpret_cast<const std::byte*>(vector.data<int32_t>());
    case PhysicalLayout::kInt64:
    case PhysicalLayout::kTimestamp:
      return reinterpret_cast<const std::byte*>(vector.data<int64_t>());
    case PhysicalLayout::kFloat:
      return reinterpret_cast<const std::byte*>(vector.data<float>());
    case PhysicalLayout::kDouble:
      return reinterpret_cast<const std::byte*>(vector.data<double>());
    case PhysicalLayout::kInt128:
      return reinterpret_cast<const std::byte*>(vector.data<__int128>());
    case PhysicalLayout::kVariableWidth:
    case PhysicalLayout::kBoxed:
      return nullptr;
  }
  return nullptr;
}

}  // namespace

KernelVector::KernelVector(LogicalTypePtr type, int64_t size, bool constant)
    : type_(std::move(type)),
      layout_(vector::physicalLayoutOf(*type_)),
      size_(size),
      constant_(constant) {
  allocate();
}

void KernelVector::allocate() {
  buffers_ = std::make_shared<Buffers>();
  int64_t count = physicalSize();
  int width = vector::physicalWidthOf(layout_);
  if (width > 0) {
    auto words = static_cast<size_t>((count * width + 15) / 16);
    buffers_->fixed = std::make_unique_for_overwrite<__int128[]>(words);
    // Kernels leave NULL slots unwritten; a BOOLEAN slot must still hold 0 or 1 to be read.
    if (layout_ == PhysicalLayout::kBoolean) {
      std::memset(buffers_->fixed.get(), 0, words * sizeof(__int128));
    }
  }
  if (layout_ == PhysicalLayout::kTimestamp) buffers_->nanos.resize(static_cast<size_t>(count));
  if (layout_ == PhysicalLayout::kVariableWidth) {
    buffers_->offsets.reserve(static_cast<size_t>(count + 1));
    buffers_->offsets.push_back(0);
  }
  if (layout_ == PhysicalLayout::kBoxed) buffers_->boxed.resize(static_cast<size_t>(count));
  pointAtBuffers();
}

void KernelVector::pointAtBuffers() {
  values_ = reinterpret_cast<const std::byte*>(buffers_->fixed.get());
  nanos_ = buffers_->nanos.data();
  offsets_ = buffers_->offsets.data();
  bytes_ = buffers_->bytes.data();
  validity_ = buffers_->validity.empty() ? nullptr : buffers_->validity.data();
}

KernelVector KernelVector::constant(LogicalTypePtr type, const Value& value, int64_t size) {
  vector::Vector single(type->copy(true));
  single.appendValue(value);
  KernelVector borrowed = borrow(single);
  KernelVector result(std::move(type), size, /*constant=*/true);
  int width = vector::physicalWidthOf(result.layout_);
  if (width > 0) std::memcpy(result.buffers_->fixed.get(), borrowed.values_, width);
  if (result.layout_ == PhysicalLayout::kTimestamp) result.buffers_->nanos[0] = borrowed.nanos_[0];
  if (result.layout_ == PhysicalLayout::kVariableWidth) result.appendString(borrowed.stringAt(0));
  if (result.layout_ == PhysicalLayout::kBoxed) result.buffers_->boxed[0] = value;
  if (value.isNull()) result.setNull(0);
  result.pointAtBuffers();
  return result;
}

KernelVector KernelVector::borrow(const vector::Vector& vector) {
  KernelVector result;
  result.type_ = vector.type();
  result.layout_ = vector.layout();
  result.size_ = vector.size();
  result.source_ = &vector;
  result.values_ = rawData(vector);
  if (result.layout_ == PhysicalLayout::kTimestamp) result.nanos_ = vector.nanosOfMillisecond();
  if (result.layout_ == PhysicalLayout::kVariableWidth) {
    result.offsets_ = vector.offsets();
    result.bytes_ = vector.bytes();
  }
  result.validity_ = vector.mayHaveNulls() ? vector.validity() : nullptr;
  return result;
}

KernelVector KernelVector::adopt(vector::Vector vector) {
  auto buffers = std::make_shared<Buffers>();
  buffers->adopted.emplace(std::move(vector));
  KernelVector result = borrow(*buffers->adopted);
  result.buffers_ = std::move(buffers);
  return result;
}

int32_t* KernelVector::mutableNanosOfMillisecond() {
  EDDY_CHECK(buffers_ != nullptr && layout_ == PhysicalLayout::kTimestamp);
  return buffers_->nanos.data();
}

void KernelVector::appendString(std::string_view value) {
  EDDY_CHECK(buffers_ != nullptr && layout_ == PhysicalLayout::kVariableWidth);
  EDDY_CHECK_LT(static_cast<int64_t>(buffers_->offsets.size()), physicalSize() + 1);
  if (buffers_->bytes.size() + value.size() > static_cast<size_t>(INT32_MAX)) {
    throw ValidationException("A string column of a chunk cannot hold more than 2147483647 bytes.");
  }
  buffers_->bytes.append(value);
  buffers_->offsets.push_back(static_cast<int32_t>(buffers_->bytes.size()));
  offsets_ = buffers_->offsets.data();
  bytes_ = buffers_->bytes.data();
}

void KernelVector::reserveBytes(int64_t bytes) {
  EDDY_CHECK(buffers_ != nullptr);
  buffers_->bytes.reserve(static_cast<size_t>(bytes));
  bytes_ = buffers_->bytes.data();
}

const Value& KernelVector::boxedAt(int64_t row) const {
  EDDY_CHECK(layout_ == PhysicalLayout::kBoxed);
  if (source_ != nullptr) return source_->boxedAt(row);
  return buffers_->boxed[static_cast<size_t>(physicalIndex(row))];
}

uint64_t* KernelVector::mutableValidity() {
  EDDY_CHECK(buffers_ != nullptr);
  if (buffers_->validity.empty()) {
    buffers_->validity.assign(static_cast<size_t>(validityWords(physicalSize())), ~uint64_t{0});
  }
  validity_ = buffers_->validity.data();
  return buffers_->validity.data();
}

void KernelVector::setNull(int64_t index) {
  uint64_t* validity = mutableValidity();
  validity[index >> 6] &= ~(uint64_t{1} << (index & 63));
}

void KernelVector::setValidity(const uint64_t* validity) {
  EDDY_CHECK(buffers_ != nullptr);
  if (validity == nullptr) {
    buffers_->validity.clear();
    validity_ = nullptr;
    return;
  }
  int64_t words = validityWords(physicalSize());
  buffers_->validity.assign(validity, validity + words);
  validity_ = buffers_->validity.data();
}

Value KernelVector::valueAt(int64_t row) const {
  if (isNull(row)) return Value();
  vector::PhysicalLayout layout = vector::physicalLayoutOf(*type_);
  if (layout == vector::PhysicalLayout::kBoxed) return boxedAt(row);
  int64_t index = physicalIndex(row);
  bool variableWidth = layout == vector::PhysicalLayout::kVariableWidth;
  std::optional<Value> value = vector::valueOfSlot(
      *type_, variableWidth ? nullptr : values_ + index * vector::physicalWidthOf(layout),
      layout == vector::PhysicalLayout::kTimestamp ? nanos_[index] : 0,
      variableWidth ? stringAt(row) : std::string_view());
  if (!value) throw InternalError("unknown logical type root");
  return std::move(*value);
}

vector::Vector KernelVector::toVector() const& { return toVectorImpl(nullptr); }

vector::Vector KernelVector::toVector() && {
  const bool alone = buffers_ != nullptr && buffers_.use_count() == 1 && !buffers_->adopted;
  return toVectorImpl(alone ? buffers_.get() : nullptr);
}

vector::Vector KernelVector::wholeBuffers(Buffers* take) const {
  std::vector<uint64_t> validity;
  if (validity_ != nullptr) {
    if (take != nullptr && validity_ == take->validity.data()) {
      validity = std::move(take->validity);
    } else {
      validity.assign(validity_, validity_ + validityWords(size_));
    }
  }
  std::vector<int32_t> nanos;
  if (layout_ == PhysicalLayout::kTimestamp) {
    if (take != nullptr && nanos_ == take->nanos.data() &&
        static_cast<int64_t>(take->nanos.size()) == size_) {
      nanos = std::move(take->nanos);
    } else {
      nanos.assign(nanos_, nanos_ + size_);
    }
  }
  std::vector<int32_t> offsets;
  std::string bytes;
  if (layout_ == PhysicalLayout::kVariableWidth) {
    if (take != nullptr && offsets_ == take->offsets.data() &&
        static_cast<int64_t>(take->offsets.size()) == size_ + 1 && offsets_[0] == 0 &&
        bytes_ == take->bytes.data()) {
      offsets = std::move(take->offsets);
      bytes = std::move(take->bytes);
    } else {
      const int32_t first = offsets_[0];
      offsets.resize(static_cast<size_t>(size_ + 1));
      for (int64_t i = 0; i <= size_; ++i) offsets[static_cast<size_t>(i)] = offsets_[i] - first;
      bytes.assign(bytes_ + first, static_cast<size_t>(offsets_[size_] - first));
    }
  }
  return vector::Vector::fromBuffers(type_, size_, std::move(validity), values_, std::move(nanos),
                                     std::move(offsets), std::move(bytes));
}

vector::Vector KernelVector::toVectorImpl(Buffers* take) const {
  if (!constant_ && layout_ != PhysicalLayout::kBoxed) {
    return wholeBuffers(take);
  }
  vector::Vector result(type_);
  result.reserve(size_);
  auto copyFixed = [&](auto typed) {
    using T = decltype(typed);
    const T* values = data<T>();
    for (int64_t row = 0; row < size_; ++row) {
      if (isNull(row)) {
        result.appendNull();
      } else {
        result.append<T>(values[physicalIndex(row)]);
      }
    }
  };
  switch (layout_) {
    case PhysicalLayout::kBoolean:
      copyFixed(bool{});
      break;
    case PhysicalLayout::kInt8:
      copyFixed(int8_t{});
      break;
    case PhysicalLayout::kInt16:
      copyFixed(int16_t{});
      break;
    case PhysicalLayout::kInt32:
      copyFixed(int32_t{});
      break;
    case PhysicalLayout::kInt64:
      copyFixed(int64_t{});
      break;
    case PhysicalLayout::kFloat:
      copyFixed(float{});
      break;
    case PhysicalLayout::kDouble:
      copyFixed(double{});
      break;
    case PhysicalLayout::kInt128:
      copyFixed(__int128{});
      break;
    case PhysicalLayout::kTimestamp:
      for (int64_t row = 0; row < size_; ++row) {
        if (isNull(row)) {
          result.appendNull();
        } else {
          int64_t index = physicalIndex(row);
          result.appendTimestamp(data<int64_t>()[index], nanos_[index]);
        }
      }
      break;
    case PhysicalLayout::kVariableWidth:
      for (int64_t row = 0; row < size_; ++row) {
        if (isNull(row)) {
          result.appendNull();
        } else {
          result.appendString(stringAt(row));
        }
      }
      break;
    case PhysicalLayout::kBoxed:
      for (int64_t row = 0; row < size_; ++row) result.appendBoxed(boxedAt(row));
      break;
  }
  return result;
}

KernelVector KernelVector::gather(const std::vector<int32_t>& rows) const {
  int64_t count = static_cast<int64_t>(rows.size());
  if (constant_) {
    KernelVector result = *this;
    result.size_ = count;
    return result;
  }
  KernelVector result(type_, count);
  int width = vector::physicalWidthOf(layout_);
  if (width > 0) {
    std::byte* out = reinterpret_cast<std::byte*>(result.buffers_->fixed.get());
    for (int64_t i = 0; i < count; ++i) {
      std::memcpy(out + i * width, values_ + static_cast<int64_t>(rows[i]) * width, width);
    }
  }
  if (layout_ == PhysicalLayout::kTimestamp) {
    for (int64_t i = 0; i < count; ++i) result.buffers_->nanos[i] = nanos_[rows[i]];
  }
  if (layout_ == PhysicalLayout::kVariableWidth) {
    for (int64_t i = 0; i < count; ++i) result.appendString(stringAt(rows[i]));
  }
  if (layout_ == PhysicalLayout::kBoxed) {
    for (int64_t i = 0; i < count; ++i) result.buffers_->boxed[i] = boxedAt(rows[i]);
  }
  if (validity_ != nullptr) {
    for (int64_t i = 0; i < count; ++i) {
      if (isNull(rows[i])) result.setNull(i);
    }
  }
  result.pointAtBuffers();
  return result;
}

KernelVector KernelVector::interleave(const LogicalTypePtr& type,
                                      const std::vector<const KernelVector*>& sources,
                                      const std::vector<int32_t>& sourceOf,
                                      const std::vector<int32_t>& positionOf) {
  int64_t count = static_cast<int64_t>(sourceOf.size());
  KernelVector result(type, count);
  for (const KernelVector* source : sources) EDDY_CHECK(source->layout_ == result.layout_);
  int width = vector::physicalWidthOf(result.layout_);
  std::byte* out = width > 0 ? reinterpret_cast<std::byte*>(result.buffers_->fixed.get()) : nullptr;
  if (result.layout_ == PhysicalLayout::kVariableWidth) {
    int64_t bytes = 0;
    for (int64_t row = 0; row < count; ++row) {
      if (sourceOf[row] < 0) continue;
      bytes += static_cast<int64_t>(sources[sourceOf[row]]->stringAt(positionOf[row]).size());
    }
    result.reserveBytes(bytes);
  }
  for (int64_t row = 0; row < count; ++row) {
    int32_t sourceIndex = sourceOf[row];
    const KernelVector* source = sourceIndex < 0 ? nullptr : sources[sourceIndex];
    int64_t position = source == nullptr ? 0 : positionOf[row];
    bool isNullRow = source == nullptr || source->isNull(position);
    if (isNullRow) {
      result.setNull(row);
      if (result.layout_ == PhysicalLayout::kVariableWidth) result.appendString({});
      continue;
    }
    int64_t index = source->physicalIndex(position);
    if (width > 0) std::memcpy(out + row * width, source->values_ + index * width, width);
    switch (result.layout_) {
      case PhysicalLayout::kTimestamp:
        result.buffers_->nanos[row] = source->nanos_[index];
        break;
      case PhysicalLayout::kVariableWidth:
        result.appendString(source->stringAt(position));
        break;
      case PhysicalLayout::kBoxed:
        result.buffers_->boxed[row] = source->boxedAt(position);
        break;
      default:
        break;
    }
  }
  result.pointAtBuffers();
  return result;
}

}  // namespace eddy::function

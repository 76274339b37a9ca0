#include "runtime/operators/stored_rows/row_sorter.h"

#include <algorithm>
#include <cstring>

namespace eddy::runtime::operators {

namespace {

uint64_t prefixOf(std::string_view key) {
  uint64_t prefix = 0;
  const size_t n = std::min<size_t>(key.size(), 8);
  for (size_t i = 0; i < n; ++i) {
    prefix |= static_cast<uint64_t>(static_cast<uint8_t>(key[i])) << (56 - 8 * i);
  }
  return prefix;
}

int compareBytes(std::string_view a, std::string_view b) {
  const int order = std::memcmp(a.data(), b.data(), std::min(a.size(), b.size()));
  if (order != 0) return order;
  return a.size() < b.size() ? -1 : (a.size() > b.size() ? 1 : 0);
}

}  // namespace

void RowSorter::add(const vector::Chunk& chunk, int32_t segment, int32_t position) {
  const size_t begin = keys_.size();
  // Key bytes are self-delimiting, so the group part never makes one key a prefix of another.
  if (!groupColumns_.empty()) vector::appendKeyBytes(chunk, groupColumns_, position, keys_);
  vector::appendSortKeyBytes(chunk, columns_, position, keys_);
  const std::string_view key = std::string_view(keys_).substr(begin);
  rows_.push_back(SortedRow{prefixOf(key), begin, static_cast<uint32_t>(key.size()),
                            static_cast<uint32_t>(rows_.size()), RowRef{segment, position}});
}

void RowSorter::addAll(const vector::Chunk& chunk, int32_t segment) {
  for (int64_t row = 0; row < chunk.size(); ++row) add(chunk, segment, static_cast<int32_t>(row));
}

int RowSorter::compareKeys(const SortedRow& a, const RowSorter& other, const SortedRow& b) const {
  if (a.prefix != b.prefix) return a.prefix < b.prefix ? -1 : 1;
  // The encodings are prefix-free, so equal prefixes of keys of up to eight bytes are equal keys.
  if (a.length <= 8 && b.length <= 8) return a.length == b.length ? 0 : (a.length < b.length ? -1 : 1);
  return compareBytes(key(a), other.key(b));
}

void RowSorter::sort(int64_t limit) {
  auto before = [this](const SortedRow& a, const SortedRow& b) {
    const int order = compareKeys(a, *this, b);
    return order != 0 ? order < 0 : a.sequence < b.sequence;
  };
  if (limit >= 0 && limit < size()) {
    std::partial_sort(rows_.begin(), rows_.begin() + limit, rows_.end(), before);
  } else {
    std::sort(rows_.begin(), rows_.end(), before);
  }
}

void RowSorter::gather(const RowStore& store, const std::vector<SortedRow>& rows, int64_t begin,
                       int64_t end, vector::Chunk& out) {
  std::vector<int32_t> segmentOf;
  std::vector<int32_t> positionOf;
  segmentOf.reserve(static_cast<size_t>(end - begin));
  positionOf.reserve(static_cast<size_t>(end - begin));
  for (int64_t i = begin; i < end; ++i) {
    segmentOf.push_back(rows[static_cast<size_t>(i)].row.segment);
    positionOf.push_back(rows[static_cast<size_t>(i)].row.position);
  }
  store.gather(segmentOf, positionOf, out, 0);
  out.mutableRowKinds().assign(static_cast<size_t>(end - begin), RowKind::INSERT);
}

}  // namespace eddy::runtime::operators

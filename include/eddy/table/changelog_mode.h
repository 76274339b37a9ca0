// ChangelogMode: which row kinds a changelog stream carries, as Flink's
// org.apache.flink.table.connector.ChangelogMode. StreamTableEnvironment::fromChangelogStream
// and toChangelogStream take one: insertOnly() (+I), upsert() (+I, +U, -D: a row is identified
// by its primary key, no -U precedes a +U) or all() (+I, -U, +U, -D).
#pragma once

#include <cstdint>
#include <string>

#include "eddy/row_kind.h"

namespace eddy {

class ChangelogMode {
 public:
  static ChangelogMode insertOnly() { return ChangelogMode(bit(RowKind::INSERT)); }
  static ChangelogMode upsert() {
    return ChangelogMode(bit(RowKind::INSERT) | bit(RowKind::UPDATE_AFTER) | bit(RowKind::DELETE));
  }
  static ChangelogMode all() {
    return ChangelogMode(bit(RowKind::INSERT) | bit(RowKind::UPDATE_BEFORE) |
                         bit(RowKind::UPDATE_AFTER) | bit(RowKind::DELETE));
  }

  bool contains(RowKind kind) const { return (kinds_ & bit(kind)) != 0; }
  bool containsOnly(RowKind kind) const { return kinds_ == bit(kind); }
  bool isInsertOnly() const { return containsOnly(RowKind::INSERT); }
  /// A mode with +U but without -U: updates are upserts by key.
  bool isUpsert() const {
    return contains(RowKind::UPDATE_AFTER) && !contains(RowKind::UPDATE_BEFORE);
  }
  /// As Flink prints it: `[INSERT, UPDATE_AFTER, DELETE]`.
  std::string toString() const {
    std::string text = "[";
    for (RowKind kind : {RowKind::INSERT, RowKind::UPDATE_BEFORE, RowKind::UPDATE_AFTER,
                         RowKind::DELETE}) {
      if (!contains(kind)) continue;
      if (text.size() > 1) text += ", ";
      text += rowKindName(kind);
    }
    return text + "]";
  }
  bool operator==(const ChangelogMode& other) const { return kinds_ == other.kinds_; }

 private:
  explicit ChangelogMode(uint8_t kinds) : kinds_(kinds) {}
  static constexpr uint8_t bit(RowKind kind) {
    return static_cast<uint8_t>(1u << static_cast<int>(kind));
  }
  uint8_t kinds_;
};

}  // namespace eddy

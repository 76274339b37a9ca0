// Group windows of the Table API (Flink's Tumble, Slide and Session):
//
//   table.window(Tumble::over(lit(5).minutes()).on($("event_time")).as("w"))
//        .groupBy($("w"), $("product"))
//        .select($("product"), $("w").start(), $("w").end(), $("amount").sum().as("total"));
//
// A window names its time attribute (`on`, a rowtime or proctime column) and an alias; the
// alias must be one of the groupBy keys, and `$("w").start()`, `.end()`, `.rowtime()`,
// `.proctime()` read the window's properties. The query is the SQL group window
// `GROUP BY TUMBLE(event_time, INTERVAL '5' MINUTE)`, so it plans and runs as a window
// aggregation: insert-only, each window emitted once the watermark passes its end.
#pragma once

#include <string>

#include "eddy/table/expressions.h"

namespace eddy {

/// A complete group window: kind, time attribute, sizes and alias.
class GroupWindow {
 public:
  /// `TUMBLE(`ts`, INTERVAL '5' MINUTE)`: the SQL group window function call.
  const std::string& functionSql() const { return functionSql_; }
  /// TUMBLE, HOP or SESSION (the prefix of TUMBLE_START and friends).
  const std::string& functionName() const { return functionName_; }
  const std::string& alias() const { return alias_; }

 private:
  friend class TumbleWithSizeOnTime;
  friend class SlideWithSizeAndSlideOnTime;
  friend class SessionWithGapOnTime;
  GroupWindow(std::string functionName, std::string functionSql, std::string alias)
      : functionName_(std::move(functionName)),
        functionSql_(std::move(functionSql)),
        alias_(std::move(alias)) {}
  std::string functionName_;
  std::string functionSql_;
  std::string alias_;
};

class TumbleWithSizeOnTime {
 public:
  GroupWindow as(const std::string& alias) const;

 private:
  friend class TumbleWithSize;
  TumbleWithSizeOnTime(Expression size, Expression time)
      : size_(std::move(size)), time_(std::move(time)) {}
  Expression size_;
  Expression time_;
};

class TumbleWithSize {
 public:
  TumbleWithSizeOnTime on(const Expression& timeField) const { return {size_, timeField}; }

 private:
  friend class Tumble;
  explicit TumbleWithSize(Expression size) : size_(std::move(size)) {}
  Expression size_;
};

/// Tumbling windows: `Tumble::over(lit(10).minutes()).on($("rowtime")).as("w")`.
class Tumble {
 public:
  static TumbleWithSize over(const Expression& size) { return TumbleWithSize(size); }
};

class SlideWithSizeAndSlideOnTime {
 public:
  GroupWindow as(const std::string& alias) const;

 private:
  friend class SlideWithSizeAndSlide;
  SlideWithSizeAndSlideOnTime(Expression size, Expression slide, Expression time)
      : size_(std::move(size)), slide_(std::move(slide)), time_(std::move(time)) {}
  Expression size_;
  Expression slide_;
  Expression time_;
};

class SlideWithSizeAndSlide {
 public:
  SlideWithSizeAndSlideOnTime on(const Expression& timeField) const {
    return {size_, slide_, timeField};
  }

 private:
  friend class SlideWithSize;
  SlideWithSizeAndSlide(Expression size, Expression slide)
      : size_(std::move(size)), slide_(std::move(slide)) {}
  Expression size_;
  Expression slide_;
};

class SlideWithSize {
 public:
  SlideWithSizeAndSlide every(const Expression& slide) const { return {size_, slide}; }

 private:
  friend class Slide;
  explicit SlideWithSize(Expression size) : size_(std::move(size)) {}
  Expression size_;
};

/// Sliding (hopping) windows: `Slide::over(lit(10).minutes()).every(lit(5).minutes())
/// .on($("rowtime")).as("w")`.
class Slide {
 public:
  static SlideWithSize over(const Expression& size) { return SlideWithSize(size); }
};

class SessionWithGapOnTime {
 public:
  GroupWindow as(const std::string& alias) const;

 private:
  friend class SessionWithGap;
  SessionWithGapOnTime(Expression gap, Expression time)
      : gap_(std::move(gap)), time_(std::move(time)) {}
  Expression gap_;
  Expression time_;
};

class SessionWithGap {
 public:
  SessionWithGapOnTime on(const Expression& timeField) const { return {gap_, timeField}; }

 private:
  friend class Session;
  explicit SessionWithGap(Expression gap) : gap_(std::move(gap)) {}
  Expression gap_;
};

/// Session windows: `Session::withGap(lit(10).minutes()).on($("rowtime")).as("w")`.
class Session {
 public:
  static SessionWithGap withGap(const Expression& gap) { return SessionWithGap(gap); }
};

/// An over window (Flink's OverWindow): `Over::partitionBy($("a")).orderBy($("rowtime"))
/// .preceding(UNBOUNDED_RANGE).as("w")`, used by `window(over).select($("b").sum().over($("w")))`.
/// The frame is `preceding` — UNBOUNDED_RANGE (the default), UNBOUNDED_ROW, rowInterval(n),
/// an interval such as lit(10).minutes(), CURRENT_ROW or CURRENT_RANGE — up to the current row.
class OverWindow {
 public:
  const std::string& alias() const { return alias_; }
  /// The window as SQL: `PARTITION BY .. ORDER BY .. RANGE BETWEEN .. AND CURRENT ROW`.
  const std::string& specificationSql() const { return specificationSql_; }

 private:
  friend class OverWindowPartitionedOrdered;
  OverWindow(std::string alias, std::string specificationSql)
      : alias_(std::move(alias)), specificationSql_(std::move(specificationSql)) {}
  std::string alias_;
  std::string specificationSql_;
};

class OverWindowPartitionedOrdered {
 public:
  OverWindowPartitionedOrdered preceding(const Expression& bound) const;
  OverWindow as(const std::string& alias) const;

 private:
  friend class OverWindowPartitioned;
  OverWindowPartitionedOrdered(std::string partitionSql, Expression order,
                               std::string frameSql = "")
      : partitionSql_(std::move(partitionSql)),
        order_(std::move(order)),
        frameSql_(std::move(frameSql)) {}
  std::string partitionSql_;
  Expression order_;
  std::string frameSql_;
};

class OverWindowPartitioned {
 public:
  OverWindowPartitionedOrdered orderBy(const Expression& order) const {
    return OverWindowPartitionedOrdered(partitionSql_, order);
  }

 private:
  friend class Over;
  explicit OverWindowPartitioned(std::string partitionSql)
      : partitionSql_(std::move(partitionSql)) {}
  std::string partitionSql_;
};

/// Over windows: `Over::partitionBy($("a")).orderBy($("rowtime")).preceding(..).as("w")`, or
/// `Over::orderBy(..)` for one partition.
class Over {
 public:
  template <typename... E>
  static OverWindowPartitioned partitionBy(const E&... keys) {
    return partitionBy(std::vector<Expression>{Expression(keys)...});
  }
  static OverWindowPartitioned partitionBy(const std::vector<Expression>& keys);
  static OverWindowPartitionedOrdered orderBy(const Expression& order) {
    return OverWindowPartitioned("").orderBy(order);
  }
};

}  // namespace eddy

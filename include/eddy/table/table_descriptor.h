// TableDescriptor: a table's definition in code rather than DDL, as Flink's
// (TableDescriptor.forConnector("datagen").schema(...).option(...).build()). It holds what
// CREATE TABLE holds — schema, connector options, partition keys, comment — and is used by
// TableEnvironment::createTable / createTemporaryTable (a named table) and from(descriptor)
// (an anonymous table that SQL cannot name).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "eddy/table/schema.h"

namespace eddy {

class TableDescriptor {
 public:
  class Builder {
   public:
    Builder& schema(Schema schema);
    /// Sets one option; a later value for the same key replaces the earlier one.
    Builder& option(const std::string& key, const std::string& value);
    /// `'format' = format`.
    Builder& format(const std::string& format);
    Builder& partitionedBy(std::vector<std::string> columns);
    Builder& comment(std::string comment);
    TableDescriptor build() const;

   private:
    friend class TableDescriptor;
    std::optional<Schema> schema_;
    std::map<std::string, std::string> options_;
    std::vector<std::string> partitionKeys_;
    std::optional<std::string> comment_;
  };

  /// A builder with `'connector' = connector`.
  static Builder forConnector(const std::string& connector);

  const std::optional<Schema>& getSchema() const { return schema_; }
  const std::map<std::string, std::string>& getOptions() const { return options_; }
  const std::vector<std::string>& getPartitionKeys() const { return partitionKeys_; }
  const std::optional<std::string>& getComment() const { return comment_; }

  /// As Flink prints it: the schema, COMMENT, PARTITIONED BY and WITH (...) lines.
  std::string toString() const;

 private:
  std::optional<Schema> schema_;
  std::map<std::string, std::string> options_;
  std::vector<std::string> partitionKeys_;
  std::optional<std::string> comment_;
};

}  // namespace eddy

// ObjectIdentifier: the fully qualified name of a catalog object — catalog, database, object —
// as Flink's. Users write 1, 2 or 3 parts; the CatalogManager qualifies them with the current
// catalog and database.
#pragma once

#include <string>
#include <vector>

namespace eddy::catalog {

/// `name` in backquotes, inner backquotes doubled (Flink's EncodingUtils.escapeIdentifier).
std::string quoteIdentifier(const std::string& name);

struct ObjectIdentifier {
  std::string catalogName;
  std::string databaseName;
  std::string objectName;

  /// `cat`.`db`.`obj`
  std::string asSerializableString() const;
  /// cat.db.obj
  std::string asSummaryString() const;
  bool operator==(const ObjectIdentifier&) const = default;
  auto operator<=>(const ObjectIdentifier&) const = default;
};

/// A database-relative path (database, object), as Flink's ObjectPath.
struct ObjectPath {
  std::string databaseName;
  std::string objectName;

  std::string getFullName() const { return databaseName + "." + objectName; }
  bool operator==(const ObjectPath&) const = default;
  auto operator<=>(const ObjectPath&) const = default;
};

}  // namespace eddy::catalog

// DROP [TEMPORARY] TABLE|VIEW [IF EXISTS], DROP DATABASE [IF EXISTS] [RESTRICT|CASCADE] and
// DROP CATALOG [IF EXISTS]: the catalog manager drops the object (a temporary table or view
// from the session, the others from their catalog).
#include "catalog/catalog_manager.h"
#include "eddy/exceptions.h"
#include "table/environment/operations/statement_operations.h"

namespace eddy::table::operations {

TableResult drop(OperationContext& context, const sql::DropStatement& drop) {
  catalog::CatalogManager& catalogs = context.catalogs();
  switch (drop.objectKind) {
    case sql::ObjectKind::kTable:
    case sql::ObjectKind::kView: {
      bool isView = drop.objectKind == sql::ObjectKind::kView;
      catalog::ObjectIdentifier identifier = catalogs.qualifyIdentifier(drop.name);
      if (drop.temporary) {
        catalogs.dropTemporaryTable(identifier, isView, drop.ifExists);
      } else {
        catalogs.dropTable(identifier, isView, drop.ifExists);
      }
      return TableResult::ok();
    }
    case sql::ObjectKind::kDatabase: {
      std::string catalogName =
          drop.name.size() == 2 ? drop.name[0] : catalogs.getCurrentCatalog();
      catalogs.dropDatabase(catalogName, drop.name.back(), drop.ifExists, drop.cascade);
      return TableResult::ok();
    }
    case sql::ObjectKind::kCatalog:
      catalogs.unregisterCatalog(drop.name.back(), drop.ifExists);
      return TableResult::ok();
  }
  throw TableException("Unsupported statement (not yet in eddy): " + drop.sourceText);
}

}  // namespace eddy::table::operations

// The catalog manager: qualification of names, current catalog and database, temporary
// objects shadowing permanent ones, and Flink's error messages for DDL mistakes.
#include "catalog/catalog_manager.h"

#include <gtest/gtest.h>

#include "catalog/generic_in_memory_catalog.h"
#include "eddy/exceptions.h"

namespace eddy::catalog {
namespace {

CatalogBaseTable tableWithColumn(const std::string& column) {
  CatalogBaseTable table;
  table.schema = Schema::newBuilder().column(column, DataTypes::INT()).build();
  table.options["connector"] = "datagen";
  return table;
}

CatalogBaseTable view(const std::string& query) {
  CatalogBaseTable table;
  table.kind = CatalogBaseTable::Kind::VIEW;
  table.originalQuery = query;
  return table;
}

template <typename F>
std::string errorOf(F&& action) {
  try {
    action();
  } catch (const ValidationException& error) {
    return error.what();
  }
  return "no error";
}

TEST(CatalogManagerTest, StartsWithTheDefaultCatalogAndDatabase) {
  CatalogManager manager;
  EXPECT_EQ(manager.listCatalogs(), std::vector<std::string>{"default_catalog"});
  EXPECT_EQ(manager.getCurrentCatalog(), "default_catalog");
  EXPECT_EQ(manager.getCurrentDatabase(), "default_database");
  EXPECT_EQ(manager.getCatalog("default_catalog").listDatabases(),
            std::vector<std::string>{"default_database"});
}

TEST(CatalogManagerTest, QualifiesOneTwoAndThreePartNames) {
  CatalogManager manager;
  EXPECT_EQ(manager.qualifyIdentifier({"t"}).asSerializableString(),
            "`default_catalog`.`default_database`.`t`");
  EXPECT_EQ(manager.qualifyIdentifier({"db", "t"}).asSummaryString(), "default_catalog.db.t");
  EXPECT_EQ(manager.qualifyIdentifier({"c", "db", "t"}).asSummaryString(), "c.db.t");
  EXPECT_EQ(errorOf([&] { manager.qualifyIdentifier({"a", "b", "c", "d"}); }),
            "Object identifier 'a.b.c.d' must have 1 to 3 parts: [[catalog.]database.]object");
  EXPECT_EQ(ObjectIdentifier({"c", "d", "we`ird"}).asSerializableString(), "`c`.`d`.`we``ird`");
}

TEST(CatalogManagerTest, CreatesListsAndDropsTables) {
  CatalogManager manager;
  auto orders = manager.qualifyIdentifier({"orders"});
  manager.createTable(tableWithColumn("id"), orders, false);
  manager.createTable(view("SELECT 1"), manager.qualifyIdentifier({"v"}), false);
  EXPECT_EQ(manager.listTables("default_catalog", "default_database"),
            (std::vector<std::string>{"orders", "v"}));
  EXPECT_EQ(manager.listViews("default_catalog", "default_database"),
            std::vector<std::string>{"v"});
  EXPECT_EQ(errorOf([&] { manager.createTable(tableWithColumn("id"), orders, false); }),
            "Could not execute CreateTable in path `default_catalog`.`default_database`.`orders`: "
            "Table (or view) default_database.orders already exists in Catalog default_catalog.");
  manager.createTable(tableWithColumn("other"), orders, true);  // IF NOT EXISTS: unchanged
  EXPECT_EQ(Schema::columnName(manager.getTableOrThrow(orders).table->schema.getColumns()[0]), "id");

  EXPECT_EQ(errorOf([&] { manager.dropTable(orders, true, false); }),
            "DROP VIEW for a table is not allowed");
  manager.dropTable(orders, false, false);
  EXPECT_EQ(errorOf([&] { manager.dropTable(orders, false, false); }),
            "Table with identifier 'default_catalog.default_database.orders' does not exist.");
  manager.dropTable(orders, false, true);  // IF EXISTS
  EXPECT_EQ(errorOf([&] { manager.getTableOrThrow(orders); }),
            "Table (or view) 'default_catalog.default_database.orders' does not exist.");
}

TEST(CatalogManagerTest, TemporaryTablesShadowPermanentOnes) {
  CatalogManager manager;
  auto id = manager.qualifyIdentifier({"t"});
  manager.createTable(tableWithColumn("permanent"), id, false);
  manager.createTemporaryTable(tableWithColumn("temporary"), id, false);
  auto resolved = manager.getTableOrThrow(id);
  EXPECT_TRUE(resolved.isTemporary);
  EXPECT_EQ(Schema::columnName(resolved.table->schema.getColumns()[0]), "temporary");
  EXPECT_EQ(manager.listTables("default_catalog", "default_database"),
            std::vector<std::string>{"t"});
  EXPECT_EQ(errorOf([&] { manager.dropTable(id, false, false); }),
            "Temporary table with identifier '`default_catalog`.`default_database`.`t`' exists. "
            "Drop it first before removing the permanent table.");
  EXPECT_EQ(errorOf([&] { manager.createTemporaryTable(tableWithColumn("x"), id, false); }),
            "Temporary table '`default_catalog`.`default_database`.`t`' already exists");
  EXPECT_TRUE(manager.dropTemporaryTable(id, false, false));
  EXPECT_FALSE(manager.getTableOrThrow(id).isTemporary);
  EXPECT_FALSE(manager.dropTemporaryTable(id, false, true));
}

TEST(CatalogManagerTest, SwitchesCatalogsAndDatabases) {
  CatalogManager manager;
  manager.registerCatalog("lake", std::make_unique<GenericInMemoryCatalog>("lake", "raw"));
  manager.createDatabase("lake", "curated", {}, false);
  EXPECT_EQ(errorOf([&] { manager.createDatabase("lake", "curated", {}, false); }),
            "Database curated already exists in Catalog lake.");
  manager.createDatabase("lake", "curated", {}, true);
  EXPECT_EQ(manager.listCatalogs(), (std::vector<std::string>{"default_catalog", "lake"}));

  manager.setCurrentCatalog("lake");
  EXPECT_EQ(manager.getCurrentDatabase(), "raw");
  manager.setCurrentDatabase("curated");
  EXPECT_EQ(manager.qualifyIdentifier({"t"}).asSummaryString(), "lake.curated.t");
  EXPECT_EQ(errorOf([&] { manager.setCurrentCatalog("nope"); }),
            "A catalog with name [nope] does not exist.");
  EXPECT_EQ(errorOf([&] { manager.setCurrentDatabase("nope"); }),
            "A database with name [nope] does not exist in the catalog: [lake].");
  EXPECT_EQ(errorOf([&] { manager.registerCatalog("lake", nullptr); }),
            "Catalog lake already exists.");
  EXPECT_EQ(errorOf([&] { manager.unregisterCatalog("lake", false); }),
            "Cannot drop a catalog which is currently in use.");

  manager.createTable(tableWithColumn("a"), manager.qualifyIdentifier({"raw", "events"}), false);
  EXPECT_EQ(errorOf([&] { manager.dropDatabase("lake", "raw", false, false); }),
            "Database raw in catalog lake is not empty.");
  manager.dropDatabase("lake", "raw", false, true);
  EXPECT_EQ(manager.getCatalog("lake").listDatabases(), std::vector<std::string>{"curated"});
  EXPECT_EQ(errorOf([&] { manager.dropDatabase("lake", "curated", false, false); }),
            "Cannot drop a database which is currently in use.");
  EXPECT_EQ(errorOf([&] {
              manager.createTable(tableWithColumn("a"), manager.qualifyIdentifier({"nodb", "t"}),
                                  false);
            }),
            "A database with name [nodb] does not exist in the catalog: [lake].");
}

TEST(CatalogManagerTest, RenamesAndAltersTables) {
  CatalogManager manager;
  auto id = manager.qualifyIdentifier({"a"});
  manager.createTable(tableWithColumn("x"), id, false);
  manager.renameTable(id, "b", false);
  EXPECT_FALSE(manager.getTable(id).has_value());
  auto renamed = manager.qualifyIdentifier({"b"});
  ASSERT_TRUE(manager.getTable(renamed).has_value());
  CatalogBaseTable altered = tableWithColumn("x");
  altered.options["rows-per-second"] = "5";
  manager.alterTable(altered, renamed, false);
  EXPECT_EQ(manager.getTableOrThrow(renamed).table->options.at("rows-per-second"), "5");
  EXPECT_EQ(errorOf([&] { manager.alterTable(view("SELECT 1"), renamed, false); }),
            "Cannot alter a Table into a View.");
}

}  // namespace
}  // namespace eddy::catalog

// ACCEPTANCE C7 (seed 000, "Table API — Type-Safe Programmatic Style"): the seed's Table DSL
// program — select/filter with `$("amount").isGreater(lit(500.00))`, a GROUP BY with
// count/sum/max `.as(...)`, a tumbling window `window(Tumble::over(lit(5).minutes())
// .on($("event_time")).as("w"))`, a join with a predicate, and executeInsert — each result
// next to the result of the equivalent SQL, which must be the same. The tables read CSV files
// this program writes to a temporary directory (the seed reads Kafka).
//
// The seed's join `orders.join(catalog, $("product_id").isEqual(catalog.$("product_id")))`
// fails on Flink as on eddy: both tables have a `product_id` column. The program prints that
// error and joins with the catalog's columns renamed, as Flink's documentation advises.
#include <eddy/eddy.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace eddy;

namespace {

std::vector<std::string> rowsOf(const Table& table) {
  std::vector<std::string> rows;
  for (const Row& row : table.execute().collectAll()) rows.push_back(row.toString());
  return rows;
}

std::vector<std::string> rowsOf(TableResult result) {
  std::vector<std::string> rows;
  for (const Row& row : result.collectAll()) rows.push_back(row.toString());
  return rows;
}

/// Prints `section`, the DSL's rows, and whether the SQL gave the same rows.
void show(const char* section, const std::vector<std::string>& dsl,
          const std::vector<std::string>& sql) {
  std::printf("-- %s\n", section);
  for (const std::string& row : dsl) std::printf("%s\n", row.c_str());
  std::vector<std::string> a = dsl;
  std::vector<std::string> b = sql;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::printf("same as the SQL: %s\n", a == b ? "yes" : "NO");
}

void writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
}

}  // namespace

int main() {
  std::filesystem::path directory =
      std::filesystem::temp_directory_path() / ("eddy_c7_" + std::to_string(::getpid()));
  std::filesystem::create_directories(directory / "sink");
  writeFile(directory / "orders.csv",
            "o1,u1,p1,1,100.00,2024-01-01 10:00:00\n"
            "o2,u2,p1,2,600.00,2024-01-01 10:02:00\n"
            "o3,u1,p2,1,900.00,2024-01-01 10:04:30\n"
            "o4,u1,p1,3,40.00,2024-01-01 10:06:00\n");
  writeFile(directory / "catalog.csv", "p1,Widget,tools\np2,Gadget,toys\n");

  auto tableEnv = TableEnvironment::create(EnvironmentSettings::inStreamingMode());
  tableEnv->getConfig().set("parallelism.default", "1");
  tableEnv->executeSql(
      "CREATE TABLE order_events (order_id STRING, user_id STRING, product_id STRING, "
      "quantity INT, amount DECIMAL(12, 2), event_time TIMESTAMP(3), "
      "WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND) WITH ("
      "'connector' = 'filesystem', 'path' = '" + (directory / "orders.csv").string() +
      "', 'format' = 'csv')");
  tableEnv->executeSql(
      "CREATE TABLE product_catalog (product_id STRING, product_name STRING, category STRING) "
      "WITH ('connector' = 'filesystem', 'path' = '" + (directory / "catalog.csv").string() +
      "', 'format' = 'csv')");
  tableEnv->executeSql(
      "CREATE TABLE revenue_sink (product_id STRING, window_start TIMESTAMP(3), "
      "window_end TIMESTAMP(3), revenue DECIMAL(38, 2), orders BIGINT) WITH ("
      "'connector' = 'filesystem', 'path' = '" + (directory / "sink").string() +
      "', 'format' = 'csv')");

  Table orders = tableEnv->from("order_events");

  // --- Project and filter ---
  Table highValueOrders =
      orders.select($("order_id"), $("user_id"), $("product_id"), $("amount"), $("event_time"))
          .filter($("amount").isGreater(lit(500.00)));
  show("high-value orders", rowsOf(highValueOrders),
       rowsOf(tableEnv->executeSql("SELECT order_id, user_id, product_id, amount, event_time "
                                   "FROM order_events WHERE amount > 500.00")));

  // --- GROUP BY aggregation (non-windowed / continuous): a changelog ---
  Table perProductTotals = orders.groupBy($("product_id"))
                               .select($("product_id"), $("order_id").count().as("total_orders"),
                                       $("amount").sum().as("total_revenue"),
                                       $("amount").max().as("max_order"));
  show("per-product totals (changelog)", rowsOf(perProductTotals),
       rowsOf(tableEnv->executeSql(
           "SELECT product_id, COUNT(order_id) AS total_orders, SUM(amount) AS total_revenue, "
           "MAX(amount) AS max_order FROM order_events GROUP BY product_id")));

  // --- Tumbling window via the Table API builder: insert-only ---
  Table windowedRevenue = orders.window(Tumble::over(lit(5).minutes()).on($("event_time")).as("w"))
                              .groupBy($("product_id"), $("w"))
                              .select($("product_id"), $("w").start().as("window_start"),
                                      $("w").end().as("window_end"),
                                      $("amount").sum().as("revenue"),
                                      $("order_id").count().as("orders"));
  show("windowed revenue", rowsOf(windowedRevenue),
       rowsOf(tableEnv->executeSql(
           "SELECT product_id, window_start, window_end, SUM(amount) AS revenue, "
           "COUNT(order_id) AS orders FROM TABLE(TUMBLE(TABLE order_events, "
           "DESCRIPTOR(event_time), INTERVAL '5' MINUTES)) "
           "GROUP BY product_id, window_start, window_end")));

  // --- Join (static enrichment pattern) ---
  Table catalog = tableEnv->from("product_catalog");
  std::printf("-- the seed's join of two tables with a product_id column\n");
  try {
    orders.join(catalog, $("product_id").isEqual($("product_id")));
  } catch (const ValidationException& error) {
    std::printf("%s\n", error.what());
  }
  Table renamed = catalog.as("catalog_product_id", "product_name", "category");
  Table enriched = orders.join(renamed, $("product_id").isEqual($("catalog_product_id")))
                       .select($("order_id"), $("user_id"), $("amount"), $("product_name"),
                               $("category"));
  show("enriched orders", rowsOf(enriched),
       rowsOf(tableEnv->executeSql(
           "SELECT o.order_id, o.user_id, o.amount, p.product_name, p.category "
           "FROM order_events o JOIN product_catalog p ON o.product_id = p.product_id")));

  // --- Write to a sink ---
  windowedRevenue.executeInsert("revenue_sink").await();
  show("revenue_sink after executeInsert", rowsOf(tableEnv->from("revenue_sink")),
       rowsOf(windowedRevenue));

  std::filesystem::remove_all(directory);
  return 0;
}

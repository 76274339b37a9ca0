// The factory registry: discovery by 'connector' and Flink's exact messages for a missing or
// unknown connector, missing required options and unsupported options (with '#' patterns
// expanded over the table's fields), and source-only / sink-only connectors.
#include <gtest/gtest.h>

#include "connectors/dynamic_table_factory.h"
#include "connectors/nexmark/nexmark_factory.h"
#include "connectors/tests/connector_test_support.h"

namespace eddy::connectors {
namespace {

using testing::intType;
using testing::rowType;
using testing::stringType;
using testing::tableContext;
using testing::validationMessage;

std::string factoryForMessage(const ConnectorContext& context,
                              const FactoryRegistry& registry = FactoryRegistry::builtIn()) {
  return validationMessage([&] { registry.factoryFor(context); });
}

TEST(FactoryRegistryTest, BuiltInConnectorsAreDiscoveredByIdentifier) {
  const FactoryRegistry& registry = FactoryRegistry::builtIn();
  EXPECT_EQ(registry.identifiers(),
            (std::vector<std::string>{"blackhole", "datagen", "filesystem", "kafka", "nexmark",
                                      "print", "upsert-kafka"}));
  for (const std::string& identifier : registry.identifiers()) {
    std::map<std::string, std::string> options = {{"connector", identifier}};
    if (identifier == "filesystem") {
      options["path"] = "/tmp/t";
      options["format"] = "csv";
    }
    if (identifier == "kafka" || identifier == "upsert-kafka") {
      options["properties.bootstrap.servers"] = "localhost:9092";
      options["topic"] = "t";
      options[identifier == "kafka" ? "format" : "value.format"] = "csv";
      if (identifier == "upsert-kafka") options["key.format"] = "csv";
    }
    // The nexmark connector accepts only its own schema.
    auto type = identifier == "nexmark" ? nexmarkPhysicalRowType() : rowType({{"i", intType()}});
    auto context = tableContext(type, options);
    if (identifier == "upsert-kafka") context.primaryKey = {"i"};
    EXPECT_EQ(registry.factoryFor(context).factoryIdentifier(), identifier);
  }
}

TEST(FactoryRegistryTest, MissingConnectorOption) {
  ConnectorContext context{"default_catalog.default_database.orders",
                           rowType({{"i", intType()}}),
                           {{"rows-per-second", "5"}},
                           true,
                           {},
                           {}};
  EXPECT_EQ(factoryForMessage(context),
            "Table options do not contain an option key 'connector' for discovering a connector. "
            "Table: default_catalog.default_database.orders");
}

TEST(FactoryRegistryTest, UnknownConnectorListsTheAvailableIdentifiers) {
  auto context = tableContext(rowType({{"i", intType()}}), {{"connector", "kafkaa"}});
  EXPECT_EQ(factoryForMessage(context),
            "Could not find any factory for identifier 'kafkaa' that implements "
            "'DynamicTableFactory' in the classpath.\n\n"
            "Available factory identifiers are:\n\n"
            "blackhole\n"
            "datagen\n"
            "filesystem\n"
            "kafka\n"
            "nexmark\n"
            "print\n"
            "upsert-kafka");
}

TEST(FactoryRegistryTest, UnsupportedDataGenOptionListsTheFieldOptions) {
  auto context =
      tableContext(rowType({{"i", intType()}}), {{"connector", "datagen"}, {"invalid", "option"}});
  EXPECT_EQ(factoryForMessage(context),
            "Unsupported options found for 'datagen'.\n\n"
            "Unsupported options:\n\n"
            "invalid\n\n"
            "Supported options:\n\n"
            "connector\n"
            "fields.i.kind\n"
            "fields.i.max\n"
            "fields.i.min\n"
            "fields.i.null-rate\n"
            "number-of-rows\n"
            "rows-per-second");
}

TEST(FactoryRegistryTest, DataGenFieldOptionsDependOnTypeAndKind) {
  auto type = rowType({{"id", intType()}, {"name", stringType()}});
  // 'min' does not apply to a STRING field, nor to a sequence, nor to an unknown column.
  auto context = tableContext(type, {{"connector", "datagen"},
                                     {"fields.name.min", "1"},
                                     {"fields.id.kind", "sequence"},
                                     {"fields.id.start", "1"},
                                     {"fields.id.end", "5"},
                                     {"fields.id.min", "1"},
                                     {"fields.nosuch.kind", "random"}});
  EXPECT_EQ(factoryForMessage(context),
            "Unsupported options found for 'datagen'.\n\n"
            "Unsupported options:\n\n"
            "fields.id.min\n"
            "fields.name.min\n"
            "fields.nosuch.kind\n\n"
            "Supported options:\n\n"
            "connector\n"
            "fields.id.end\n"
            "fields.id.kind\n"
            "fields.id.null-rate\n"
            "fields.id.start\n"
            "fields.name.kind\n"
            "fields.name.length\n"
            "fields.name.null-rate\n"
            "number-of-rows\n"
            "rows-per-second");
}

TEST(FactoryRegistryTest, UnsupportedPrintAndBlackHoleOptions) {
  auto type = rowType({{"i", intType()}});
  EXPECT_EQ(factoryForMessage(tableContext(type, {{"connector", "print"}, {"path", "/tmp"}})),
            "Unsupported options found for 'print'.\n\n"
            "Unsupported options:\n\n"
            "path\n\n"
            "Supported options:\n\n"
            "connector\n"
            "print-identifier\n"
            "sink.parallelism\n"
            "standard-error");
  EXPECT_EQ(factoryForMessage(tableContext(
                type, {{"connector", "blackhole"}, {"rows-per-second", "1"}, {"b", "2"}})),
            "Unsupported options found for 'blackhole'.\n\n"
            "Unsupported options:\n\n"
            "b\n"
            "rows-per-second\n\n"
            "Supported options:\n\n"
            "connector");
}

// A connector with a required option and a '#' pattern, to test the generic validation.
class PathTableFactory final : public DynamicTableFactory {
 public:
  std::string factoryIdentifier() const override { return "files"; }
  std::set<std::string> requiredOptions() const override { return {"path", "format"}; }
  std::set<std::string> optionalOptions() const override { return {"columns.#.width"}; }
};

TEST(FactoryRegistryTest, MissingRequiredOptions) {
  FactoryRegistry registry;
  registry.add(std::make_unique<PathTableFactory>());
  auto type = rowType({{"a", intType()}, {"b", intType()}});
  EXPECT_EQ(factoryForMessage(tableContext(type, {{"connector", "files"}}), registry),
            "One or more required options are missing.\n\n"
            "Missing required options are:\n\n"
            "format\n"
            "path");
  EXPECT_EQ(
      factoryForMessage(tableContext(type, {{"connector", "files"}, {"format", "csv"}}), registry),
      "One or more required options are missing.\n\n"
      "Missing required options are:\n\n"
      "path");
  // Patterns expand over the table's columns.
  EXPECT_EQ(factoryForMessage(tableContext(type, {{"connector", "files"},
                                                  {"format", "csv"},
                                                  {"path", "/tmp"},
                                                  {"columns.b.width", "3"},
                                                  {"columns.c.width", "3"}}),
                              registry),
            "Unsupported options found for 'files'.\n\n"
            "Unsupported options:\n\n"
            "columns.c.width\n\n"
            "Supported options:\n\n"
            "columns.a.width\n"
            "columns.b.width\n"
            "connector\n"
            "format\n"
            "path");
  EXPECT_EQ(&registry.factoryFor(
                tableContext(type, {{"connector", "files"}, {"format", "csv"}, {"path", "/tmp"}})),
            &registry.factoryFor(
                tableContext(type, {{"connector", "files"}, {"format", "json"}, {"path", "/x"}})));
}

TEST(FactoryRegistryTest, DuplicateIdentifierIsAnInternalError) {
  FactoryRegistry registry;
  registry.add(std::make_unique<PathTableFactory>());
  EXPECT_THROW(registry.add(std::make_unique<PathTableFactory>()), InternalError);
}

TEST(FactoryRegistryTest, SinkOnlyAndSourceOnlyConnectors) {
  const FactoryRegistry& registry = FactoryRegistry::builtIn();
  auto type = rowType({{"i", intType()}});
  auto print = tableContext(type, {{"connector", "print"}});
  auto blackhole = tableContext(type, {{"connector", "blackhole"}});
  auto datagen = tableContext(type, {{"connector", "datagen"}});
  EXPECT_EQ(validationMessage([&] { registry.factoryFor(print).createDynamicTableSource(print); }),
            "Connector 'print' can only be used as a sink. It cannot be used as a source.");
  EXPECT_EQ(validationMessage(
                [&] { registry.factoryFor(blackhole).createDynamicTableSource(blackhole); }),
            "Connector 'blackhole' can only be used as a sink. It cannot be used as a source.");
  EXPECT_EQ(
      validationMessage([&] { registry.factoryFor(datagen).createDynamicTableSink(datagen); }),
      "Connector 'datagen' can only be used as a source. It cannot be used as a sink.");
  EXPECT_NE(registry.factoryFor(print).createDynamicTableSink(print), nullptr);
  EXPECT_NE(registry.factoryFor(datagen).createDynamicTableSource(datagen), nullptr);
}

}  // namespace
}  // namespace eddy::connectors

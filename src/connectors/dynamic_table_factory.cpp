#include "connectors/dynamic_table_factory.h"

#include <fmt/format.h>

#include "connectors/blackhole/blackhole_factory.h"
#include "connectors/datagen/datagen_factory.h"
#include "connectors/filesystem/filesystem_factory.h"
#include "connectors/kafka/kafka_factory.h"
#include "connectors/nexmark/nexmark_factory.h"
#include "connectors/print/print_factory.h"
#include "eddy/exceptions.h"
#include "formats/text_value_codec.h"
#include "vector/vector.h"

namespace eddy::connectors {

namespace {

std::string joinLines(const std::set<std::string>& keys) {
  std::string joined;
  for (const std::string& key : keys) {
    if (!joined.empty()) joined += '\n';
    joined += key;
  }
  return joined;
}

}  // namespace

std::set<std::string> DynamicTableFactory::supportedOptionKeys(
    const ConnectorContext& context) const {
  std::set<std::string> keys = requiredOptions();
  keys.insert(kConnectorOption);
  std::vector<std::string> fieldNames;
  if (context.physicalRowType) fieldNames = context.physicalRowType->getFieldNames();
  for (const std::string& option : optionalOptions()) {
    size_t hash = option.find('#');
    if (hash == std::string::npos) {
      keys.insert(option);
      continue;
    }
    for (const std::string& field : fieldNames) {
      keys.insert(option.substr(0, hash) + field + option.substr(hash + 1));
    }
  }
  return keys;
}

void DynamicTableFactory::validateOptions(const ConnectorContext& context) const {
  std::set<std::string> missing;
  for (const std::string& required : requiredOptions()) {
    if (context.options.count(required) == 0) missing.insert(required);
  }
  if (!missing.empty()) {
    throw ValidationException(
        fmt::format("One or more required options are missing.\n\nMissing required options "
                    "are:\n\n{}",
                    joinLines(missing)));
  }
  std::set<std::string> supported = supportedOptionKeys(context);
  std::set<std::string> unsupported;
  for (const auto& [key, value] : context.options) {
    if (supported.count(key) == 0) unsupported.insert(key);
  }
  if (!unsupported.empty()) {
    throw ValidationException(fmt::format(
        "Unsupported options found for '{}'.\n\nUnsupported options:\n\n{}\n\nSupported "
        "options:\n\n{}",
        factoryIdentifier(), joinLines(unsupported), joinLines(supported)));
  }
}

std::unique_ptr<DynamicTableSource> DynamicTableFactory::createDynamicTableSource(
    const ConnectorContext&) const {
  throw ValidationException(
      fmt::format("Connector '{}' can only be used as a sink. It cannot be used as a source.",
                  factoryIdentifier()));
}

std::unique_ptr<DynamicTableSink> DynamicTableFactory::createDynamicTableSink(
    const ConnectorContext&) const {
  throw ValidationException(
      fmt::format("Connector '{}' can only be used as a source. It cannot be used as a sink.",
                  factoryIdentifier()));
}

const FactoryRegistry& FactoryRegistry::builtIn() {
  static const FactoryRegistry registry = [] {
    FactoryRegistry builtIns;
    builtIns.add(std::make_unique<DataGenTableFactory>());
    builtIns.add(std::make_unique<PrintTableFactory>());
    builtIns.add(std::make_unique<BlackHoleTableFactory>());
    builtIns.add(std::make_unique<FileSystemTableFactory>());
    builtIns.add(std::make_unique<NexmarkTableFactory>());
    builtIns.add(std::make_unique<KafkaTableFactory>());
    builtIns.add(std::make_unique<KafkaTableFactory>(/*upsert=*/true));
    return builtIns;
  }();
  return registry;
}

void FactoryRegistry::add(std::unique_ptr<DynamicTableFactory> factory) {
  std::string identifier = factory->factoryIdentifier();
  if (!factories_.emplace(identifier, std::move(factory)).second) {
    throw InternalError(
        fmt::format("Two connector factories have the identifier '{}'.", identifier));
  }
}

const DynamicTableFactory& FactoryRegistry::factoryFor(const ConnectorContext& context) const {
  auto connector = context.options.find(kConnectorOption);
  if (connector == context.options.end()) {
    throw ValidationException(fmt::format(
        "Table options do not contain an option key '{}' for discovering a connector. Table: {}",
        kConnectorOption, context.tableName));
  }
  auto found = factories_.find(connector->second);
  if (found == factories_.end()) {
    std::set<std::string> available;
    for (const auto& [identifier, factory] : factories_) available.insert(identifier);
    throw ValidationException(fmt::format(
        "Could not find any factory for identifier '{}' that implements 'DynamicTableFactory' "
        "in the classpath.\n\nAvailable factory identifiers are:\n\n{}",
        connector->second, joinLines(available)));
  }
  found->second->validateOptions(context);
  return *found->second;
}

std::vector<std::string> FactoryRegistry::identifiers() const {
  std::vector<std::string> identifiers;
  for (const auto& [identifier, factory] : factories_) identifiers.push_back(identifier);
  return identifiers;
}

Row partitionRow(const PartitionSpec& spec, const std::vector<RowField>& keys,
                 const std::string& tableName) {
  Row row(static_cast<int>(keys.size()));
  for (size_t k = 0; k < keys.size(); ++k) {
    if (!spec[k]) continue;
    vector::Vector value(keys[k].type);
    if (formats::appendParsedText(value, *spec[k]) != formats::TextParseResult::kOk) {
      throw ConnectorException(fmt::format(
          "The partition value '{}' of key '{}' of table '{}' is not a valid {}.", *spec[k],
          keys[k].name, tableName, keys[k].type->asSummaryString()));
    }
    row.setField(static_cast<int>(k), value.valueAt(0));
  }
  return row;
}

}  // namespace eddy::connectors

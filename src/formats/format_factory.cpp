#include "formats/format_factory.h"

#include <fmt/format.h>

#include "eddy/exceptions.h"
#include "formats/csv/csv_format_factory.h"
#include "formats/json/changelog_json_formats.h"
#include "formats/json/json_format_factory.h"
#include "formats/raw/raw_format_factory.h"

namespace eddy::formats {

namespace {

std::string joinLines(const std::vector<std::string>& lines) {
  std::string joined;
  for (const std::string& line : lines) {
    if (!joined.empty()) joined += '\n';
    joined += line;
  }
  return joined;
}

}  // namespace

std::set<std::string> FormatFactory::supportedOptionKeys(const FormatContext& context) const {
  std::set<std::string> keys;
  for (const std::string& option : optionalOptions()) keys.insert(context.key(option));
  return keys;
}

std::vector<std::string> FormatFactory::notSupportedYetKeysIn(const FormatContext& context) const {
  std::vector<std::string> keys;
  for (const std::string& option : notSupportedYetOptions()) {
    std::string key = context.key(option);
    if (context.options.count(key) > 0) keys.push_back(key);
  }
  return keys;  // sorted: the set is sorted and the prefix is common
}

const FormatFactoryRegistry& FormatFactoryRegistry::builtIn() {
  static const FormatFactoryRegistry registry = [] {
    FormatFactoryRegistry builtIns;
    builtIns.add(std::make_unique<CsvFormatFactory>());
    builtIns.add(std::make_unique<JsonFormatFactory>());
    builtIns.add(std::make_unique<RawFormatFactory>());
    for (ChangelogEnvelope envelope :
         {ChangelogEnvelope::kDebezium, ChangelogEnvelope::kCanal, ChangelogEnvelope::kMaxwell}) {
      builtIns.add(std::make_unique<ChangelogJsonFormatFactory>(envelope));
    }
    return builtIns;
  }();
  return registry;
}

void FormatFactoryRegistry::add(std::unique_ptr<FormatFactory> factory) {
  std::string identifier = factory->factoryIdentifier();
  if (!factories_.emplace(identifier, std::move(factory)).second) {
    throw InternalError(fmt::format("Two format factories have the identifier '{}'.", identifier));
  }
}

const FormatFactory& FormatFactoryRegistry::factoryFor(const std::string& identifier) const {
  auto found = factories_.find(identifier);
  if (found == factories_.end()) {
    throw ValidationException(fmt::format(
        "Could not find any factory for identifier '{}' that implements 'FormatFactory' in the "
        "classpath.\n\nAvailable factory identifiers are:\n\n{}",
        identifier, joinLines(identifiers())));
  }
  return *found->second;
}

std::vector<std::string> FormatFactoryRegistry::identifiers() const {
  std::vector<std::string> identifiers;
  for (const auto& [identifier, factory] : factories_) identifiers.push_back(identifier);
  return identifiers;
}

}  // namespace eddy::formats

#include "eddy/table/table_config.h"

#include "config/option_registry.h"
#include "config/option_warnings.h"

namespace eddy {

TableConfig& TableConfig::set(const std::string& key, const std::string& value) {
  for (const std::string& warning : config::OptionRegistry::instance().validate(key, value)) {
    config::reportOptionWarning(warning);
  }
  options_[key] = value;
  return *this;
}

}  // namespace eddy

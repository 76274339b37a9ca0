// How a TableEnvironment reads its session's options (SET, getConfig()): the context its
// statements are bound in (`table.local-time-zone`, the runtime mode), and the environment and
// translation settings of each job it runs (parallelism, watermark interval, state TTL,
// mini-batch, sink enforcers, ...). The TableEnvironmentImpl members isStreaming,
// bindingContext, newJobEnvironment and configureTranslation (table_environment_impl.h) are
// defined in session_options.cpp.
#pragma once

#include <map>
#include <string>

#include "function/function_registry.h"

namespace eddy::table {

/// The session plans are bound in: `table.local-time-zone` (UTC when unset or `default`),
/// resolved once per statement (SET has validated the value). Leaves the runtime mode unset
/// (TableEnvironmentImpl::bindingContext() sets it).
function::BindingContext bindingContextOf(const std::map<std::string, std::string>& configuration);

}  // namespace eddy::table

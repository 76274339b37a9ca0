// The keyed state API in one include: the state interfaces user functions program against,
// their descriptors and TTL config, key groups and the KeyedStateBackend interface. The
// default in-memory backend is eddy's (src/state/heap_keyed_state_backend.h); its typed
// states, which user code instantiates, are in eddy/detail/state/.
#pragma once

#include "eddy/functions/aggregate_function.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/state/state_ttl_config.h"

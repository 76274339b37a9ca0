// The keyed state API in one include: the state interfaces user functions program against,
// their descriptors and TTL config, key groups, the KeyedStateBackend interface and its
// default in-memory implementation.
#pragma once

#include "eddy/functions/aggregate_function.h"
#include "eddy/state/heap_keyed_state_backend.h"
#include "eddy/state/key_group_range.h"
#include "eddy/state/keyed_state.h"
#include "eddy/state/keyed_state_backend.h"
#include "eddy/state/state_descriptor.h"
#include "eddy/state/state_ttl_config.h"

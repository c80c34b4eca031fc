// The layout of the TSIDs this backend generates, from the TSID settings
// (tsid_settings.cpp; settings.hpp defines them).
#pragma once

#include "postgres_api.hpp"

#include "../core/tsid.hpp"

namespace ulid_tsid::pg {

// With shared ticks the node alone; otherwise the node and this backend's slot
// (unique among live backends) in the lowest bits. An ERROR 22023 that names
// what to set when the settings do not fit.
TsidLayout tsid_layout(bool shared);

}  // namespace ulid_tsid::pg

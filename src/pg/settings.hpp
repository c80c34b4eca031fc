// The extension's settings (GUCs), defined by _PG_init when the library loads.
#pragma once

#include "../core/tsid.hpp"

namespace ulid_tsid::pg {

void define_tsid_settings();       // ulid_tsid.node_bits, ulid_tsid.node_id
void define_public_id_settings();  // ulid_tsid.public_id_key_file
void define_mark_settings();       // ulid_tsid.max_lead

// How this server makes TSIDs, as ulid_tsid_status() shows it (no check: the
// generator reports a layout it cannot use).
struct TsidSettings {
  int node_bits;
  int node_id;  // -1: not set
  int slot_bits;
  int counter_bits;
};
TsidSettings describe_tsid_settings(bool shared);

// This backend's TSID layout (with shared ticks, the node alone; otherwise the
// node and the backend's slot), or an ERROR that names what to set.
TsidLayout current_tsid_layout(bool shared);

}  // namespace ulid_tsid::pg

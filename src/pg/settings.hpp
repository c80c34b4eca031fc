// The extension's settings (GUCs), defined by _PG_init when the library loads.
#pragma once

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

}  // namespace ulid_tsid::pg

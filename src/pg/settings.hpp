// The extension's settings (GUCs), defined when the library loads.
#pragma once

namespace ulid_tsid::pg {

void define_tsid_settings();       // ulid_tsid.node_id, ulid_tsid.node_bits
void define_public_id_settings();  // ulid_tsid.public_id_key

}  // namespace ulid_tsid::pg

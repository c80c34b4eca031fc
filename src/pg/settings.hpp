// The extension's settings (GUCs), defined by _PG_init when the library loads.
#pragma once

namespace ulid_tsid::pg {

void define_tsid_settings();       // ulid_tsid.node_bits, ulid_tsid.node_id
void define_public_id_settings();  // ulid_tsid.public_id_key_file

}  // namespace ulid_tsid::pg

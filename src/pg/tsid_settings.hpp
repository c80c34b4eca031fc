// The TSID settings (GUCs), defined when the library loads.
#pragma once

namespace ulid_tsid::pg {

void define_tsid_settings();

}  // namespace ulid_tsid::pg

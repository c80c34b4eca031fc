// The TSID settings (ulid_tsid.node_bits, ulid_tsid.node_id) and the layout
// they give this backend's TSIDs: what generate_tsid() writes and
// ulid_tsid_status() shows.
#include "postgres_api.hpp"

#include "settings.hpp"

extern "C" {
#include "miscadmin.h"
#include "utils/guc.h"
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
}

namespace ulid_tsid::pg {
namespace {

// Both are properties of the server (PGC_SIGHUP): a session cannot change them,
// so a setting copied to other nodes per session (Citus's propagated SET LOCAL)
// cannot give them all one id. Each is checked alone, because their check hooks
// would otherwise see each other's old values and the order of two lines in
// postgresql.conf would decide what a reload keeps; the combination is checked
// where a value is generated.
constexpr int kNodeIdUnset = -1;
int g_node_id = kNodeIdUnset;
int g_node_bits = 0;  // one cluster needs no node bits; multi-node setups set both

int bit_width(unsigned value) {
  int bits = 0;
  while (value != 0) {
    ++bits;
    value >>= 1;
  }
  return bits;
}

// The node settings as a layout, or an ERROR that names what to set.
TsidLayout node_layout() {
  TsidLayout layout;
  layout.node_bits = g_node_bits;
  if (g_node_bits == 0) return layout;  // the node id, set or not, takes no bits
  if (unlikely(g_node_id == kNodeIdUnset)) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("generate_tsid(): ulid_tsid.node_bits is %d but ulid_tsid.node_id is not set", g_node_bits),
                    errhint("Give this server its own ulid_tsid.node_id, from 0 to %d, in postgresql.conf or "
                            "with ALTER SYSTEM, then reload.",
                            (1 << g_node_bits) - 1)));
  }
  if (unlikely(g_node_id >= (1 << g_node_bits))) {
    ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                    errmsg("generate_tsid(): ulid_tsid.node_id %d does not fit in ulid_tsid.node_bits = %d", g_node_id,
                           g_node_bits),
                    errdetail("With %d node bits, node ids go from 0 to %d.", g_node_bits, (1 << g_node_bits) - 1),
                    errhint("Raise ulid_tsid.node_bits (the same on every server) or lower ulid_tsid.node_id.")));
  }
  layout.node_id = static_cast<std::uint64_t>(g_node_id);
  return layout;
}

int slot_bits(bool shared) { return shared ? 0 : bit_width(static_cast<unsigned>(MaxBackends)); }

// This backend's layout: with shared ticks the node alone; otherwise the node and
// this backend's slot (unique among live backends) in the lowest bits.
}  // namespace

TsidLayout current_tsid_layout(bool shared) {
  TsidLayout layout = node_layout();
  if (!shared) {
    // Slots run 1..MaxBackends (0 stays free for a backend without one, as in
    // single-user mode): MyBackendId is 1-based, MyProcNumber (17+) 0-based.
#if PG_VERSION_NUM >= 170000
    const int slot = MyProcNumber + 1;
#else
    const int slot = MyBackendId;
#endif
    layout.slot_bits = slot_bits(shared);
    layout.slot = slot > 0 ? static_cast<std::uint64_t>(slot) : 0;
  }
  if (unlikely(!layout.valid())) {
    ereport(ERROR,
            (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
             errmsg("generate_tsid(): no counter bits left"),
             errdetail("ulid_tsid.node_bits = %d and %d bits for the backend slot (max_connections and "
                       "worker settings) exceed the 22 bits below the timestamp.",
                       layout.node_bits, layout.slot_bits),
             errhint("Add ulid_tsid to shared_preload_libraries (no slot bits needed), or lower "
                     "ulid_tsid.node_bits.")));
  }
  return layout;
}

void define_tsid_settings() {
  DefineCustomIntVariable("ulid_tsid.node_bits", "Bits of a TSID given to the node id (0-20).",
                          "0 (the default) gives all 22 low bits to the counter; servers that write "
                          "into shared data set the same node_bits everywhere and distinct node_ids.",
                          &g_node_bits, 0, 0, kTsidMaxNodeBits, PGC_SIGHUP, 0, nullptr, nullptr, nullptr);
  DefineCustomIntVariable("ulid_tsid.node_id", "This server's node id, written into every generated TSID.",
                          "-1 (the default) means not set, which generate_tsid() refuses when node_bits "
                          "is above 0. Give each server that writes TSIDs into shared data its own id.",
                          &g_node_id, kNodeIdUnset, kNodeIdUnset, (1 << kTsidMaxNodeBits) - 1, PGC_SIGHUP, 0,
                          nullptr, nullptr, nullptr);
}

TsidSettings describe_tsid_settings(bool shared) {
  TsidSettings settings;
  settings.node_bits = g_node_bits;
  settings.node_id = g_node_id;
  settings.slot_bits = slot_bits(shared);
  settings.counter_bits = 22 - g_node_bits - settings.slot_bits;
  if (settings.counter_bits < 0) settings.counter_bits = 0;
  return settings;
}

}  // namespace ulid_tsid::pg

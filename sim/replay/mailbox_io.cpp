#include "sim/replay/mailbox_io.hpp"

namespace trainsim {
namespace {

// Payload pointer for simulated messages: nothing is dereferenced. Receives store the pointer
// they got into g_sink (all writes are the same value).
int g_payload = 0;
int* g_sink = nullptr;

}  // namespace

simgrid::s4u::CommPtr mailbox_put(simgrid::s4u::Mailbox* box, uint64_t size) { return box->put_init(&g_payload, size); }

simgrid::s4u::CommPtr mailbox_get(simgrid::s4u::Mailbox* box) {
  return box->get_init()->set_dst_data(reinterpret_cast<void**>(&g_sink), sizeof(void*));
}

}  // namespace trainsim

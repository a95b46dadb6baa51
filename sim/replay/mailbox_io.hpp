// Simulated messages through SimGrid mailboxes: only their sizes matter, so every transfer
// carries the same payload pointer and every receive stores it in the same place.
#pragma once
#include <cstdint>

#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

namespace trainsim {

// A transfer of `size` simulated bytes to mailbox `box`, and a receive from it (not started).
[[nodiscard]] simgrid::s4u::CommPtr mailbox_put(simgrid::s4u::Mailbox* box, uint64_t size);
[[nodiscard]] simgrid::s4u::CommPtr mailbox_get(simgrid::s4u::Mailbox* box);

}  // namespace trainsim

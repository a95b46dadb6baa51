// Starts a device's new flows together, in one simcall. Every simcall costs the calling actor a
// context switch to SimGrid's maestro and back plus a scheduling round; inside a simcall the code
// runs in maestro, where each s4u call that would be a simcall of its own runs directly. The
// flows are created beforehand in the actor (Mailbox::put_init/get_init, Comm::sendto_init: no
// simcall), so SimGrid records the device's actor as their issuer, as put_async/get_async would.
#pragma once
#include <vector>

#include <simgrid/s4u.hpp>

namespace trainsim {

class StartBatch {
 public:
  // An initialized Comm (put_init, get_init or sendto_init) to start.
  void start(simgrid::s4u::CommPtr comm);
  [[nodiscard]] bool empty() const { return comms_.empty(); }
  // Runs everything added so far, in order, in one simcall; the batch is empty afterwards.
  void flush();

 private:
  std::vector<simgrid::s4u::CommPtr> comms_;
};

}  // namespace trainsim

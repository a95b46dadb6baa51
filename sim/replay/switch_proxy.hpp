// The switch end of in-network reductions (NVLS): an actor on the switch endpoint of the member's
// domain, one per (device, stream, tier) that uses it, created on first use. It knows from the
// start every exchange its member will make (switch_plan.hpp), and ends after the last one.
//
// Why an actor: a member's transfers to and from the switch were host-to-host transfers
// (Comm::sendto_async). SimGrid 3.32 keeps those detached, in one list it scans linearly at every
// completion, so their cost grew with the square of the transfers in flight (a quarter of the
// replay time at 1,024 H100). With an actor at the switch end they are ordinary mailbox
// transfers between two actors, on the same route (the member's port and the switch's core
// link), starting at the same instant:
//   the proxy posts its side of the next exchange (a get for the bytes going up, a put of the
//   bytes coming down) as soon as the previous exchange completed, and the member posts its put
//   (up) and get (down) when its collective reaches that exchange. A mailbox transfer starts once
//   both ends are posted, so it starts when the member posts it, as the host-to-host transfer did.
//   The member never signals the proxy: an exchange costs no synchronization but the transfers.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <simgrid/s4u.hpp>

namespace trainsim {

// One exchange with the switch: `up` bytes member -> switch, `down` bytes switch -> member.
struct SwitchExchange {
  uint64_t up = 0, down = 0;
};

class SwitchProxy {
 public:
  // Starts the proxy's actor on `switch_host`; `name` prefixes its mailboxes. `plan`: every
  // exchange the member will make with this proxy, in order.
  SwitchProxy(simgrid::s4u::Host* switch_host, const std::string& name, std::vector<SwitchExchange> plan);
  // The member's side of its next exchange (either size may be 0; they equal the plan's next entry).
  // Appends the member's side of the transfers to `comms`, initialized, for the member to start
  // and wait on with its other flows.
  void exchange(uint64_t up, uint64_t down, std::vector<simgrid::s4u::CommPtr>& comms);

 private:
  void serve();  // the actor's body: the plan's exchanges, one after the other

  simgrid::s4u::Mailbox* up_;    // member -> switch
  simgrid::s4u::Mailbox* down_;  // switch -> member
  std::vector<SwitchExchange> plan_;
};

}  // namespace trainsim

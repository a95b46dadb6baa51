// The switch end of in-network reductions (NVLS): an actor on the switch endpoint of the member's
// domain, one per (device, stream) that uses it, created on first use and stopped by that stream
// when it finishes.
//
// Why an actor: a member's transfers to and from the switch were host-to-host transfers
// (Comm::sendto_async). SimGrid 3.32 keeps those detached, in one list it scans linearly at every
// completion, so their cost grew with the square of the transfers in flight (a quarter of the
// replay time at 1,024 H100). With an actor at the switch end they are ordinary mailbox
// transfers between two actors, on the same route (the member's port and the switch's core
// link), starting at the same instant:
//   the member hands the proxy the bytes of one exchange (up to the switch, down from it) through
//   a condition variable, which takes no simulated time, then posts its put (up) and get (down);
//   the proxy posts the matching get and put. A mailbox transfer starts once both ends are posted,
//   so it starts when the member posts it, as the host-to-host transfer did.
#pragma once
#include <cstdint>
#include <deque>

#include <simgrid/s4u.hpp>

namespace trainsim {

class SwitchProxy {
 public:
  // Starts the proxy's actor on `switch_host`; `name` prefixes its mailboxes.
  SwitchProxy(simgrid::s4u::Host* switch_host, const std::string& name);
  // One exchange: `up` bytes member -> switch, `down` bytes switch -> member (either may be 0).
  // Appends the member's side of the transfers to `comms`, to be waited on with the others.
  void exchange(uint64_t up, uint64_t down, std::vector<simgrid::s4u::CommPtr>& comms);
  // The member's stream has finished: the proxy's actor ends once it has served every exchange.
  // (Ending by itself, not killed as a daemon: a killed actor unwinds its stack by an exception,
  // which AddressSanitizer misreads under SimGrid's user-level context switching.)
  void stop();

 private:
  struct Request {
    uint64_t up = 0, down = 0;
    bool stop = false;
  };
  void serve();  // the actor's body

  simgrid::s4u::Mailbox* up_;    // member -> switch
  simgrid::s4u::Mailbox* down_;  // switch -> member
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr posted_;
  std::deque<Request> requests_;
};

}  // namespace trainsim

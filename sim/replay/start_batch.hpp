// Starts a device's new activities (kernels, flows) and its pstate changes together, in one
// simcall. Every simcall costs the calling actor a context switch to SimGrid's maestro and back
// plus a scheduling round; inside a simcall the code runs in maestro, where each s4u call that
// would be a simcall of its own runs directly. The activities are created beforehand in the
// actor (Exec::init, Mailbox::put_init/get_init, Comm::sendto_init: no simcall), so SimGrid
// records the device's actor as their issuer, exactly as exec_init/put_async/get_async would.
#pragma once
#include <functional>
#include <vector>

#include <simgrid/s4u.hpp>

namespace trainsim {

class StartBatch {
 public:
  // An initialized Comm (put_init, get_init or sendto_init) to start.
  void start(simgrid::s4u::CommPtr comm);
  // An Exec from Exec::init() to run `flops` on `host`.
  void start(simgrid::s4u::ExecPtr exec, double flops, simgrid::s4u::Host* host);
  // Anything else that must run in kernel mode (Host::set_pstate), in order with the starts.
  void kernel(std::function<void()> action);
  [[nodiscard]] bool empty() const { return items_.empty(); }
  // Runs everything added so far, in order, in one simcall; the batch is empty afterwards.
  void flush();

 private:
  struct Item {
    simgrid::s4u::CommPtr comm;
    simgrid::s4u::ExecPtr exec;
    double flops = 0;
    simgrid::s4u::Host* host = nullptr;
    std::function<void()> action;
  };
  void run(Item& item);
  std::vector<Item> items_;
};

}  // namespace trainsim

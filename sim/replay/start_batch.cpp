#include "sim/replay/start_batch.hpp"

#include <simgrid/simix.hpp>

namespace trainsim {

void StartBatch::start(simgrid::s4u::CommPtr comm) {
  Item item;
  item.comm = std::move(comm);
  items_.push_back(std::move(item));
}

void StartBatch::start(simgrid::s4u::ExecPtr exec, double flops, simgrid::s4u::Host* host) {
  Item item;
  item.exec = std::move(exec);
  item.flops = flops;
  item.host = host;
  items_.push_back(std::move(item));
}

void StartBatch::kernel(std::function<void()> action) {
  Item item;
  item.action = std::move(action);
  items_.push_back(std::move(item));
}

void StartBatch::run(Item& item) {
  if (item.comm) {
    item.comm->start();
  } else if (item.exec) {
    // What this_actor::exec_init(flops) followed by start() does, each call here being direct.
    item.exec->set_flops_amount(item.flops);
    item.exec->set_host(item.host);
    item.exec->start();
  } else {
    item.action();
  }
}

void StartBatch::flush() {
  if (items_.empty()) return;
  simgrid::kernel::actor::simcall_answered([this] {
    for (Item& item : items_) run(item);
  });
  items_.clear();
}

}  // namespace trainsim

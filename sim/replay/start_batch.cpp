#include "sim/replay/start_batch.hpp"

#include <simgrid/simix.hpp>

namespace trainsim {

void StartBatch::start(simgrid::s4u::CommPtr comm) { comms_.push_back(std::move(comm)); }

void StartBatch::flush() {
  if (comms_.empty()) return;
  simgrid::kernel::actor::simcall_answered([this] {
    for (auto& comm : comms_) comm->start();
  });
  comms_.clear();
}

}  // namespace trainsim

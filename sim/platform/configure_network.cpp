// Network model for GPU fabrics (notes/simgrid-3.32.md): SimGrid's default LV08 model
// multiplies latency by 13.01 and bandwidth by 0.97 to mimic TCP slow start, and bounds a
// flow's rate by its TCP window (TCP-gamma / 2 latency). Neither applies to NVLink or RDMA.
//   network/model:CM02        latency and bandwidth factors 1 (and weight-S 0)
//   network/crosstraffic:0    no 5% reverse-direction acknowledgement traffic
//   network/TCP-gamma:1e100   a window so large that its bound, gamma / (2 latency), never binds.
//                             Not 0: SimGrid 3.32 bounds a flow given a rate (Comm::set_rate) by
//                             min(rate, gamma / (2 latency)), and a bound of 0 means none, so with
//                             gamma 0 every rate was dropped (the replay bounds the flows of
//                             collectives pipelined with a GEMM, flow_batch.hpp).
// Then one transfer of S bytes over a route of latency α and bottleneck bandwidth β takes
// α + S/β exactly, and α + S/r under a rate bound r < β. These three option names are unchanged
// after 3.32 (only the precision options were renamed in 3.34, and trainsim keeps their
// defaults), so no version guard is needed here.
#include <simgrid/s4u/Engine.hpp>

#include "sim/platform/build.hpp"

namespace trainsim {

void configure_network(simgrid::s4u::Engine& engine) {
  engine.set_config("network/model:CM02");
  engine.set_config("network/crosstraffic:0");
  engine.set_config("network/TCP-gamma:1e100");
}

}  // namespace trainsim

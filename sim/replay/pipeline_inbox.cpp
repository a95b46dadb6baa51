#include "sim/replay/pipeline_inbox.hpp"

#include "sim/replay/interference.hpp"

namespace sg4 = simgrid::s4u;

namespace trainsim {
namespace {

int* g_inbox_sink = nullptr;  // receives store the (meaningless) payload pointer here

}  // namespace

PipelineInboxes::PipelineInboxes(ReplayContext& ctx, DeviceRuntime& dev) : ctx_(ctx), dev_(dev) {
  inboxes_[0].box = dev.pp_forward;
  inboxes_[1].box = dev.pp_backward;
  const StageGraph& graph = *dev.stage->graph;
  for (TaskId t : graph.order(Stream::kPpRecv)) ++inboxes_[index(graph.task(t).peer_offset)].to_post;
}

void PipelineInboxes::post_next(Inbox& in, StartBatch& starts) {
  if (in.to_post == 0) return;
  --in.to_post;
  in.posted = in.box->get_init()->set_dst_data(reinterpret_cast<void**>(&g_inbox_sink), sizeof(void*));
  starts.start(in.posted);
}

void PipelineInboxes::post(StartBatch& starts) {
  for (Inbox& in : inboxes_) post_next(in, starts);
}

void PipelineInboxes::add_waits(std::vector<sg4::ActivityPtr>& waits, std::vector<int>& tags) const {
  for (size_t i = 0; i < inboxes_.size(); ++i) {
    if (!inboxes_[i].posted) continue;
    waits.push_back(inboxes_[i].posted);
    tags.push_back(i == 0 ? -1 : -2);
  }
}

void PipelineInboxes::arrived(int offset, StartBatch& starts) {
  Inbox& in = inboxes_[index(offset)];
  in.arrived.push_back(in.posted->get_start_time());
  in.posted = nullptr;
  if (ctx_.interference) end_transfer(dev_);
  post_next(in, starts);
}

bool PipelineInboxes::take(int offset, double* started) {
  Inbox& in = inboxes_[index(offset)];
  if (in.arrived.empty()) return false;
  *started = in.arrived.front();
  in.arrived.pop_front();
  return true;
}

}  // namespace trainsim

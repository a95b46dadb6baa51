// The receiving side of a device's pipeline transfers. A receive stays posted on each of the
// device's two pipeline mailboxes (activations from the previous stage, gradients from the next)
// while messages are still expected there, so that the device's actor sees each message arrive
// when its flow ends, whether or not a receive task waits for it yet. A receive task then takes
// the next arrived message of its mailbox, or waits for it.
//
// The same timing as receiving on demand: a mailbox has one sender and delivers in order, and
// the sender's put starts its flow at once either way (it meets the posted receive, or the
// mailbox's permanent receiver makes it eager). The arrival is the moment the receiving end of
// the transfer stops moving bytes (interference.hpp).
#pragma once
#include <array>
#include <deque>
#include <vector>

#include <simgrid/s4u.hpp>

#include "sim/replay/runtime.hpp"
#include "sim/replay/start_batch.hpp"

namespace trainsim {

class PipelineInboxes {
 public:
  // Counts the messages dev's receive tasks expect from each side.
  PipelineInboxes(ReplayContext& ctx, DeviceRuntime& dev);
  // Posts the first receive on each mailbox that expects messages.
  void post(StartBatch& starts);
  // Appends the posted receives to `waits`, each with a tag < 0 in `tags` (offset_of_wait).
  void add_waits(std::vector<simgrid::s4u::ActivityPtr>& waits, std::vector<int>& tags) const;
  // The pipeline offset (-1: previous stage, +1: next) of a tag from add_waits.
  [[nodiscard]] static int offset_of_wait(int tag) { return tag == -1 ? -1 : 1; }
  // The receive posted for messages from `offset` completed: counts the message, ends the
  // device's side of the transfer and posts the next receive if more messages are expected.
  void arrived(int offset, StartBatch& starts);
  // Takes an arrived message from `offset` (a receive task's peer_offset) if there is one, and
  // sets `*started` to when its bytes began to move (the sender's put: the receive was posted).
  bool take(int offset, double* started);

 private:
  struct Inbox {
    simgrid::s4u::CommPtr posted;  // first: add_waits reads it at every wake-up of the device
    simgrid::s4u::Mailbox* box = nullptr;
    int to_post = 0;   // receives still to post
    std::deque<double> arrived;  // start times of arrived messages no receive task has taken yet
  };
  static size_t index(int offset) { return offset < 0 ? 0 : 1; }
  void post_next(Inbox& in, StartBatch& starts);

  ReplayContext& ctx_;
  DeviceRuntime& dev_;
  std::array<Inbox, 2> inboxes_;
};

}  // namespace trainsim

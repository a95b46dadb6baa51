// Compute slows while the device's own bytes move (accelerator.comm_interference): collective and
// copy kernels share the accelerator's cores and HBM with compute kernels while they move data.
//
// When bytes move, per kind of transfer:
//  - a pipeline send is eager, so its bytes move from the put to its completion, on the sender
//    and on the receiver; a posted receive whose sender has not started moves nothing;
//  - a collective's members wait for one another, so its bytes move from the moment its last
//    replayed member arrives until this member's own part (with the latencies its steps pay)
//    has finished; a member waiting for a late peer moves nothing.
// A device computes at the speed of its host's pstate kDeviceBusyLinks while at least one of its
// transfers moves bytes and at kDeviceIdleLinks otherwise; a kernel that straddles the edges of
// a transfer is slowed for exactly the time they overlap (device_kernel.hpp integrates it).
// The receiving end of a pipeline transfer stops moving bytes when its own receive completes
// (device_loop.cpp keeps a receive posted on each pipeline mailbox, so it sees that moment):
// a device's speed rises only by its own actor's doing, never behind its back, or at a date known
// when the transfer began: a timed exchange with a private switch (comm_exec.hpp,
// begin_timed_collective) tells the rendezvous when each member leaves, and the member's
// DeviceKernel applies that end at its date (transfer_ends_at). A collective during which no
// member computes (CompiledStage::compute_blocking) skips the rendezvous: it would slow nothing.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace trainsim {

struct DeviceRuntime;

// One more (begin) or one fewer (end) of `dev`'s transfers moves bytes.
void begin_transfer(DeviceRuntime& dev);
void end_transfer(DeviceRuntime& dev);

// Tells the members of each collective instance when all of them have arrived.
class CollectiveRendezvous {
 public:
  // `dev` starts its part of instance `key`, in which `members` replayed devices take part; it
  // ends its part at `departure` when that is known now (a timed exchange: it never calls
  // leave), else departure < 0 and it calls leave.
  void arrive(uint64_t key, int members, DeviceRuntime& dev, double departure = -1);
  // `dev` finished its part of instance `key` (members that arrived without a departure).
  void leave(uint64_t key, DeviceRuntime& dev);

 private:
  struct Member {
    DeviceRuntime* dev = nullptr;
    double departure = -1;  // when it ends its part, if known
  };
  struct Instance {
    int members = 0;
    int arrived = 0;
    int left = 0;
    bool moving = false;                  // every member has arrived
    std::vector<Member> present;          // arrived and not yet left
  };
  std::unordered_map<uint64_t, Instance> instances_;
};

}  // namespace trainsim

// The kernels in progress on a device's compute stream, integrated the way SimGrid's CPU model
// integrates an Exec, without creating one: FLOP left as of the last speed change, and the date
// they end at the current speed. The device's actor waits for that date (a timer) instead of
// an Exec, which costs SimGrid an action, a solver variable and several simcalls per kernel.
//
// SimGrid (lazy CPU model, 3.32): an Exec of w FLOP started at t on a host computing at s ends
// at t + w/s; when the speed changes to s' at t1, it keeps w' = w - s (t1 - t) (set to 0 below
// maxmin/precision x surf/precision) and ends at t1 + w'/s'. The same arithmetic, in the same
// order, happens here at each speed change.
//
// The speed: the device computes at its busy speed while at least one of its transfers moves
// bytes and at its idle speed otherwise (interference.hpp). A transfer whose end is known when
// its bytes begin to move (a timed exchange with a private switch) ends at its date without
// anyone waking: the integration applies the speed change at that date.
//
// A chain: the kernels may be followed by holds, waits and more kernels (kernel_chain.hpp fuses
// a compute task, the collective that alone waits on it and the compute task that alone waits on
// the collective, when the collective's time is known in advance: switch_shortcut.hpp; and
// kernels that wait on a timed collective already in progress). Each segment begins when the
// one before ends: kernels run at the device's speed, a hold lasts its seconds whatever the
// speed, a wait lasts until its date (no time if that date has passed). The actor then waits
// for the end of the chain only, and learns when each segment ended from boundary().
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainsim {

class DeviceKernel {
 public:
  // Speeds in FLOP/s; `precision`: FLOP below which nothing is left.
  void init(double idle_speed, double busy_speed, double precision);
  // Kernels of `flops` FLOP start now: a chain of one segment. start_until: a chain that first
  // waits until `date`; start_hold: one that first holds the stream for `seconds`.
  void start(double flops);
  void start_until(double date);
  void start_hold(double seconds);
  // Appends to the chain kernels of `flops` FLOP, a hold of `seconds`, or a wait until `date`.
  void then_compute(double flops);
  void then_hold(double seconds);
  void then_until(double date);
  // One more (begins) or one fewer (ends) of the device's transfers moves bytes, now or, for
  // ends_at, at a date not before now.
  void transfer_begins();
  void transfer_ends();
  void transfer_ends_at(double date);
  void stop() { running_ = false; }
  [[nodiscard]] bool running() const { return running_; }
  // When the chain ends, given the transfers' known ends.
  [[nodiscard]] double end() const { return end_; }
  // Once the chain has ended (end() reached): when segment k ended.
  [[nodiscard]] double boundary(size_t k);

 private:
  enum class Kind : uint8_t { kKernels, kHold, kUntil };
  struct Segment {
    Kind kind = Kind::kKernels;
    double amount = 0;  // FLOP, seconds for a hold, the date for a wait
  };
  void begin(Segment first);
  double segment_end() const;  // of the current segment, at the current speed
  void advance_to(double date);
  void set_speed_at(double speed, double date);
  void catch_up(double now);
  void update_end();

  double idle_speed_ = 0, busy_speed_ = 0, speed_ = 0;
  double precision_ = 0;
  int moving_ = 0;                // transfers moving bytes now
  std::vector<double> pending_;   // known future ends of moving transfers, ascending
  bool running_ = false;
  std::vector<Segment> segments_;
  std::vector<double> ended_;  // end dates of the segments before the current one
  double flops_ = 0;           // left in the current segment as of since_ (kernels)
  double since_ = 0;
  double end_ = -1;
};

}  // namespace trainsim

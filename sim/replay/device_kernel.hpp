// The kernels in progress on a device's compute stream, integrated the way SimGrid's CPU model
// integrates an Exec, without creating one: FLOP left as of the last speed change, and the date
// they end at the current speed. The device's actor waits for that date (a timer) instead of
// an Exec, which costs SimGrid an action, a solver variable and several simcalls per kernel.
//
// SimGrid (lazy CPU model, 3.32): an Exec of w FLOP started at t on a host computing at s ends
// at t + w/s; when the speed changes to s' at t1, it keeps w' = w - s (t1 - t) (set to 0 below
// maxmin/precision x surf/precision) and ends at t1 + w'/s'. The same arithmetic, in the same
// order, happens here at each speed change (interference.hpp).
#pragma once

namespace trainsim {

class DeviceKernel {
 public:
  // The device computes at `speed` FLOP/s; `precision`: FLOP below which nothing is left.
  void init(double speed, double precision);
  // Kernels of `flops` FLOP start now.
  void start(double flops);
  // The device's speed is `speed` from now on.
  void set_speed(double speed);
  void stop() { running_ = false; }
  [[nodiscard]] bool running() const { return running_; }
  // When the running kernels end if the speed stays as it is.
  [[nodiscard]] double end() const { return end_; }

 private:
  double speed_ = 0;
  double precision_ = 0;
  bool running_ = false;
  double flops_ = 0;  // left as of since_
  double since_ = 0;
  double end_ = -1;
};

}  // namespace trainsim

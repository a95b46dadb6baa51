#include "sim/replay/device_kernel.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace trainsim {

void DeviceKernel::init(double speed, double precision) {
  speed_ = speed;
  precision_ = precision;
}

void DeviceKernel::start(double flops) {
  running_ = true;
  flops_ = flops;
  since_ = simgrid::s4u::Engine::get_clock();
  end_ = since_ + flops_ / speed_;
}

void DeviceKernel::set_speed(double speed) {
  if (running_) {
    const double now = simgrid::s4u::Engine::get_clock();
    flops_ -= speed_ * (now - since_);
    if (flops_ < precision_) flops_ = 0;
    since_ = now;
    end_ = now + flops_ / speed;
  }
  speed_ = speed;
}

}  // namespace trainsim

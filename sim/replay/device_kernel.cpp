#include "sim/replay/device_kernel.hpp"

#include <algorithm>
#include <simgrid/s4u/Engine.hpp>

namespace trainsim {
namespace {
double clock_now() { return simgrid::s4u::Engine::get_clock(); }
}  // namespace

void DeviceKernel::init(double idle_speed, double busy_speed, double precision) {
  idle_speed_ = speed_ = idle_speed;
  busy_speed_ = busy_speed;
  precision_ = precision;
}

void DeviceKernel::start(double flops) { begin(Segment{Kind::kKernels, flops}); }

void DeviceKernel::start_until(double date) { begin(Segment{Kind::kUntil, date}); }

void DeviceKernel::start_hold(double seconds) { begin(Segment{Kind::kHold, seconds}); }

void DeviceKernel::begin(Segment first) {
  catch_up(clock_now());
  running_ = true;
  segments_.assign(1, first);
  ended_.clear();
  flops_ = first.amount;
  since_ = clock_now();
  update_end();
}

void DeviceKernel::then_compute(double flops) {
  segments_.push_back(Segment{Kind::kKernels, flops});
  update_end();
}

void DeviceKernel::then_hold(double seconds) {
  segments_.push_back(Segment{Kind::kHold, seconds});
  update_end();
}

void DeviceKernel::then_until(double date) {
  segments_.push_back(Segment{Kind::kUntil, date});
  update_end();
}

void DeviceKernel::transfer_begins() {
  catch_up(clock_now());
  if (moving_++ == 0) set_speed_at(busy_speed_, clock_now());
  update_end();
}

void DeviceKernel::transfer_ends() {
  catch_up(clock_now());
  if (--moving_ == 0) set_speed_at(idle_speed_, clock_now());
  update_end();
}

void DeviceKernel::transfer_ends_at(double date) {
  catch_up(clock_now());
  pending_.insert(std::upper_bound(pending_.begin(), pending_.end(), date), date);
  update_end();
}

// Applies the known ends up to `now`, each at its date.
void DeviceKernel::catch_up(double now) {
  while (!pending_.empty() && pending_.front() <= now) {
    const double date = pending_.front();
    pending_.erase(pending_.begin());
    if (--moving_ == 0) set_speed_at(idle_speed_, date);
  }
}

double DeviceKernel::segment_end() const {
  const Segment& s = segments_[ended_.size()];
  switch (s.kind) {
    case Kind::kHold: return since_ + s.amount;
    case Kind::kUntil: return std::max(since_, s.amount);
    default: return since_ + flops_ / speed_;
  }
}

// Ends the segments that ended by `date` at the speed in force since since_.
void DeviceKernel::advance_to(double date) {
  while (ended_.size() + 1 < segments_.size()) {
    const double end = segment_end();
    if (end > date) break;
    ended_.push_back(end);
    since_ = end;
    flops_ = segments_[ended_.size()].amount;
  }
}

void DeviceKernel::set_speed_at(double speed, double date) {
  if (running_) {
    advance_to(date);
    if (segments_[ended_.size()].kind == Kind::kKernels) {
      flops_ -= speed_ * (date - since_);
      if (flops_ < precision_) flops_ = 0;
      since_ = date;
    }
  }
  speed_ = speed;
}

// The chain's end: its segments in turn from since_, the known transfer ends applied at their
// dates with the arithmetic set_speed_at would apply then.
void DeviceKernel::update_end() {
  if (!running_) return;
  double t = since_, flops = flops_, speed = speed_;
  int moving = moving_;
  size_t p = 0;
  for (size_t k = ended_.size(); k < segments_.size(); ++k) {
    const Segment& s = segments_[k];
    if (s.kind != Kind::kKernels) {
      t = s.kind == Kind::kHold ? t + s.amount : std::max(t, s.amount);
      for (; p < pending_.size() && pending_[p] <= t; ++p)
        if (--moving == 0) speed = idle_speed_;
      continue;
    }
    if (k != ended_.size()) flops = s.amount;
    for (;;) {
      const double end = t + flops / speed;
      if (p == pending_.size() || pending_[p] >= end) {
        t = end;
        break;
      }
      const double date = pending_[p++];
      if (--moving != 0) continue;
      flops -= speed * (date - t);
      if (flops < precision_) flops = 0;
      t = date;
      speed = idle_speed_;
    }
  }
  end_ = t;
}

double DeviceKernel::boundary(size_t k) {
  catch_up(clock_now());
  while (ended_.size() < segments_.size()) {
    const double end = ended_.size() + 1 == segments_.size() ? end_ : segment_end();
    ended_.push_back(end);
    since_ = end;
    if (ended_.size() < segments_.size()) flops_ = segments_[ended_.size()].amount;
  }
  return ended_[k];
}

}  // namespace trainsim

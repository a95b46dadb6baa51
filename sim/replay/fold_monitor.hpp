// Folding replays a subset of the devices (one data-parallel replica, or tp rank 0) and lets a
// replayed device issue, on its own, the flows between itself and a folded peer. Replicas are
// identical and run in lockstep, so everything a folded device does mirrors, at the same times,
// what its replayed counterpart does. That makes the folded replay exact except where a flow
// between a replayed device R and a folded peer P crosses one of P's links while P's own traffic
// (absent from the replay) also uses it:
//  - R -> P enters P's down-link on the tier joining them. In reality that link also carries what
//    P receives on that tier, which mirrors what R receives there. So R -> P is exact only while
//    R's down-link on that tier carries nothing but flows of the same collective instance (whose
//    mirror image is R -> P itself: ring, 2-member, NVLS and full-mesh direct plans).
//  - P -> R leaves P's up-link: exact only while R's up-link on that tier carries nothing but
//    flows of the same instance.
// FoldMonitor watches every flow's window (issue to completion: a superset of when its bytes
// move, so it never misses a conflict) per (device, tier, direction) and records the first
// conflict. A folded replay with a conflict is not exact, and the caller replays unfolded.
// Shared NICs and oversubscribed uplinks (links shared by several devices) are refused before the
// replay (fold_obstacle in fold_decision.hpp).
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace trainsim {

enum class LinkDir : uint8_t { kUp, kDown };  // leaving the device / entering it

struct MonitoredFlow {
  int device = 0;         // replayed rank whose link this is
  int tier = 0;           // tier whose link the flow uses at `device`
  LinkDir dir = LinkDir::kUp;
  uint64_t instance = 0;  // the collective instance or p2p message it belongs to
  bool cross = false;     // its other end is a folded device
};

class FoldMonitor {
 public:
  void begin(const MonitoredFlow& f);
  void end(const MonitoredFlow& f);
  void fail(const std::string& reason);  // keeps the first reason
  [[nodiscard]] bool exact() const { return reason_.empty(); }
  [[nodiscard]] const std::string& reason() const { return reason_; }

 private:
  struct Live {
    uint64_t instance;
    bool cross;
  };
  static uint64_t slot(int device, int tier, LinkDir dir);
  std::unordered_map<uint64_t, std::vector<Live>> live_;  // flows in their window, per slot
  std::string reason_;
};

}  // namespace trainsim

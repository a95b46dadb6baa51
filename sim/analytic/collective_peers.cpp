// Per-member flows of each collective algorithm in bulk mode (see collective_peers.hpp).
#include "sim/analytic/collective_peers.hpp"

namespace trainsim {
namespace {

// Share of the buffer one member moves over a ring of n (Thakur et al. 2005): 2(n-1)/n for an
// all-reduce, (n-1)/n for a reduce-scatter or all-gather; the pipelined chain of a broadcast
// forwards the whole buffer.
double ring_share(CollectiveKind kind, int n) {
  if (kind == CollectiveKind::kBroadcast) return 1;
  const double share = static_cast<double>(n - 1) / n;
  return kind == CollectiveKind::kAllReduce ? 2 * share : share;
}

std::vector<PeerSend> ring(CollectiveKind kind, int n, int i) {
  if (n < 2) return {};
  return {{(i + 1) % n, ring_share(kind, n)}};
}

// Every other member, 1/n of the buffer each (2/n for an all-reduce: reduce-scatter then gather).
std::vector<PeerSend> direct(CollectiveKind kind, int n, int i) {
  std::vector<PeerSend> out;
  const double share = (kind == CollectiveKind::kAllReduce ? 2.0 : 1.0) / n;
  for (int s = 1; s < n; ++s) out.push_back({(i + s) % n, share});
  return out;
}

// Intra-node ring over the g members of the node and inter-node ring over the members with the
// same local index, carrying the S/g shard (hierarchical.cpp); degenerates to the ring.
std::vector<PeerSend> hierarchical(CollectiveKind kind, const GroupShape& shape, int i) {
  const int n = shape.members, g = shape.node_size;
  if (g <= 1 || n <= g || n % g != 0) return ring(kind, n, i);
  const int nodes = n / g, node = i / g, local = i % g;
  return {{node * g + (local + 1) % g, ring_share(kind, g)},
          {((node + 1) % nodes) * g + local, ring_share(kind, nodes) / g}};
}

}  // namespace

std::vector<PeerSend> member_sends(CollectiveKind kind, const std::string& algorithm, const GroupShape& shape,
                                   int member) {
  const int n = shape.members;
  if (n < 2) return {};
  if (algorithm == "direct") return direct(kind, n, member);
  if (algorithm == "hierarchical") return hierarchical(kind, shape, member);
  if (algorithm == "nvls") return {{kSwitchMember, 1.0}};  // AR up and down S; RS up S; AG down S
  if (algorithm == "tree") return {};
  return ring(kind, n, member);
}

}  // namespace trainsim

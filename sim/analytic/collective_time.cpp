// Closed-form alpha-beta collective times per algorithm (see collective_time.hpp).
#include "sim/analytic/collective_time.hpp"

#include <algorithm>
#include <cmath>

namespace trainsim {
namespace {

// Fraction of the buffer one member sends over a ring or direct RS/AG/AR, and its step count.
void ring_shape(CollectiveKind kind, int n, double* fraction, int* steps) {
  const double share = static_cast<double>(n - 1) / n;
  const bool all_reduce = kind == CollectiveKind::kAllReduce;
  *fraction = all_reduce ? 2 * share : share;
  *steps = all_reduce ? 2 * (n - 1) : n - 1;
  if (kind == CollectiveKind::kBroadcast) *fraction = 1, *steps = n - 1;
}

CollectiveCost alpha_beta(int steps, Bytes peer_bytes, const LinkCost& link) {
  CollectiveCost c;
  c.steps = steps;
  c.latency = steps * link.alpha;
  c.transfer = link.beta > 0 ? peer_bytes / link.beta : 0;
  return c;
}

// Ring: one flow to the successor carrying 2(n-1)/n S (AR) or (n-1)/n S (RS, AG).
CollectiveCost ring(CollectiveKind kind, int n, Bytes bytes, const LinkCost& link) {
  double fraction = 0;
  int steps = 0;
  ring_shape(kind, n, &fraction, &steps);
  return alpha_beta(steps, fraction * bytes, link);
}

// Direct: all-to-all is one step sending S/n to each peer; RS/AG/AR n-1 (2(n-1)) shifted steps,
// S/n (2S/n) to each peer. Bulk mode sends to all peers at once, each flow on the tier that joins
// the pair: on pair links each flow has its own link (S/n or 2S/n per link); through one port per
// device the port carries all of that tier's flows. A group over several nodes (g members per
// node) sends n-g of its n-1 flows across nodes and g-1 inside: the slower side sets the time.
double direct_side(int peers, int n, double fraction, Bytes bytes, const LinkCost& link) {
  if (peers <= 0 || link.beta <= 0) return 0;
  const double per_peer = fraction / (n - 1) * bytes;
  return (link.pair_links ? per_peer : peers * per_peer) / link.beta;
}

CollectiveCost direct(CollectiveKind kind, const GroupShape& shape, Bytes bytes, const LinkCost& intra,
                      const LinkCost& inter) {
  const int n = shape.members, g = std::clamp(shape.node_size, 1, n);
  double fraction = 0;
  int steps = 0;
  ring_shape(kind, n, &fraction, &steps);
  if (kind == CollectiveKind::kAllToAll) fraction = static_cast<double>(n - 1) / n, steps = 1;
  CollectiveCost c = alpha_beta(steps, 0, inter);
  if (g >= n) {
    c.transfer = direct_side(n - 1, n, fraction, bytes, inter);
  } else {
    c.transfer = std::max(direct_side(n - g, n, fraction, bytes, inter), direct_side(g - 1, n, fraction, bytes, intra));
  }
  return c;
}

// NVLS: k = clamp(floor(S / 1 MiB), 1, 8) chunks, k + 1 steps; up and down flows overlap.
CollectiveCost nvls(CollectiveKind kind, int n, Bytes bytes, const LinkCost& link) {
  const int chunks = std::clamp(static_cast<int>(std::floor(bytes / (1024.0 * 1024))), 1, 8);
  Bytes up = bytes, down = bytes;
  if (kind == CollectiveKind::kReduceScatter) down = bytes / n;
  if (kind == CollectiveKind::kAllGather) up = bytes / n;
  return alpha_beta(chunks + 1, std::max(up, down), link);
}

// Hierarchical: intra-node ring over g members and inter-node ring over N nodes of the S/g shard;
// in bulk mode the intra and inter flows run at once, so the slower one bounds the transfer.
CollectiveCost hierarchical(CollectiveKind kind, const GroupShape& shape, Bytes bytes, const LinkCost& intra,
                            const LinkCost& inter) {
  const int g = std::max(1, shape.node_size), nodes = shape.members / g;
  if (g <= 1 || nodes <= 1) return ring(kind, shape.members, bytes, nodes <= 1 ? intra : inter);
  const CollectiveCost in = ring(kind, g, bytes, intra);
  const CollectiveCost out = ring(kind, nodes, bytes / g, inter);
  CollectiveCost c;
  c.steps = in.steps + out.steps;
  c.latency = c.steps * std::max(intra.alpha, inter.alpha);
  c.transfer = std::max(in.transfer, out.transfer);
  return c;
}

// Double binary tree all-reduce: 2 floor(log2 n) steps; each half of the buffer goes up and down
// one block at a time, so a member's busiest peer flow carries about S.
CollectiveCost tree(int n, Bytes bytes, const LinkCost& link) {
  const int depth = static_cast<int>(std::floor(std::log2(n)));
  return alpha_beta(2 * depth, bytes, link);
}

}  // namespace

CollectiveCost collective_cost(CollectiveKind kind, const std::string& algorithm, const GroupShape& shape,
                               Bytes bytes, const LinkCost& intra, const LinkCost& inter) {
  const int n = shape.members;
  if (n < 2 || bytes <= 0) return {};
  if (algorithm == "direct") return direct(kind, shape, bytes, intra, inter);
  if (algorithm == "nvls") return nvls(kind, n, bytes, inter);
  if (algorithm == "hierarchical") return hierarchical(kind, shape, bytes, intra, inter);
  if (algorithm == "tree") return tree(n, bytes, inter);
  return ring(kind, n, bytes, inter);
}

namespace {

// Ring (and direct through one port): steps and the fraction of S one member sends.
std::string ring_sympy(CollectiveKind kind, const std::string& n) {
  if (kind == CollectiveKind::kAllReduce) return "2*(" + n + " - 1)*alpha + 2*(" + n + " - 1)/" + n + "*S/beta";
  if (kind == CollectiveKind::kBroadcast) return "(" + n + " - 1)*alpha + S/beta";
  return "(" + n + " - 1)*alpha + (" + n + " - 1)/" + n + "*S/beta";
}

// Direct: every peer one flow of S/n (all-reduce 2S/n); through a port the tier's flows add up.
std::string direct_sympy(CollectiveKind kind, const SympyLinks& links) {
  const bool all_reduce = kind == CollectiveKind::kAllReduce;
  const std::string steps = kind == CollectiveKind::kAllToAll ? "alpha" : all_reduce ? "2*(n - 1)*alpha" : "(n - 1)*alpha";
  const std::string per_peer = all_reduce ? "2*S/n" : "S/n";
  const std::string across = links.spans_nodes ? "(n - g)" : "(n - 1)";
  const std::string inter =
      links.pair_links ? per_peer + "/beta" : (all_reduce ? "2*" : "") + across + "/n*S/beta";
  if (!links.spans_nodes) return steps + " + " + inter;
  const std::string intra =
      links.intra_pair_links ? per_peer + "/beta_i" : (all_reduce ? "2*" : "") + std::string("(g - 1)/n*S/beta_i");
  return steps + " + Max(" + inter + ", " + intra + ")";
}

}  // namespace

std::string collective_sympy(CollectiveKind kind, const std::string& algorithm, const SympyLinks& links) {
  if (algorithm == "direct") return direct_sympy(kind, links);
  if (algorithm == "nvls") {
    if (kind == CollectiveKind::kAllReduce) return "(k + 1)*alpha + S/beta";
    return "(k + 1)*alpha + S/beta";  // RS: up S, down S/n; AG: up S/n, down S: the larger is S
  }
  if (algorithm == "hierarchical") {
    const std::string in = kind == CollectiveKind::kAllReduce ? "2*(g - 1)" : "(g - 1)";
    const std::string out = kind == CollectiveKind::kAllReduce ? "2*(n/g - 1)" : "(n/g - 1)";
    return "(" + in + " + " + out + ")*Max(alpha, alpha_i) + Max(" + in + "/g*S/beta_i, " + out + "/(n/g)*S/g/beta)";
  }
  if (algorithm == "tree") return "2*floor(log(n, 2))*alpha + S/beta";
  return ring_sympy(kind, "n");
}

}  // namespace trainsim

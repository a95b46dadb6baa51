// Double binary tree all-reduce, after NCCL 2.4 (Sanders, Speck & Träff, "Two-tree algorithms for
// full bandwidth broadcast, reduction and scan", Parallel Computing 2009; NVIDIA blog "Massively
// scale your deep learning training with NCCL 2.4", 2019).
//
// Tree A is the in-order binary tree on labels x = 1..n (member x-1): the root is the largest
// power of two <= n; a node whose lowest set bit is b has children x - b/2 and x + h, where h
// is the largest of b/2, b/4, ... with x + h <= n. Odd labels (lowest bit 1) are leaves, so
// only odd members are interior. Tree B maps the same shape onto other members: mirrored
// (position p holds member n-1-p) when n is even, shifted (member (p+1) mod n) when n is odd,
// so the interior members of tree A are leaves of tree B. Each tree carries half the buffer.
// Reduce phase: nodes at depth d send their half up to their parent in step D-d (deepest
// first); broadcast phase: a parent at depth d-1 sends to its children in step D+d-1. The
// depth D is floor(log2 n) (the root's left chain halves down to label 1), so 2D steps.
//
// Simplifications: each half moves as one block (NCCL pipelines small chunks through the
// tree, so its bandwidth term is ~bytes/B, not D * bytes/B); trees are built over member
// order without looking at node boundaries; only all-reduce is planned.
#include <algorithm>

#include "sim/collective/plan_builder.hpp"

namespace trainsim {
namespace {

constexpr const char* kTreeName = "tree";

struct BinaryTree {
  std::vector<int> parent;  // by position; -1 for the root
  std::vector<int> depth;   // by position; root has depth 0
};

int lowest_bit(int x) { return x & -x; }

// Fills parent/depth by walking down from `label` (1-based) at `depth`.
void build_subtree(int n, int label, int parent, int depth, BinaryTree& tree) {
  const size_t p = static_cast<size_t>(label - 1);
  tree.parent[p] = parent < 0 ? -1 : parent - 1;
  tree.depth[p] = depth;
  const int b = lowest_bit(label);
  if (b == 1) return;
  build_subtree(n, label - b / 2, label, depth + 1, tree);
  int h = b / 2;
  while (h >= 1 && label + h > n) h /= 2;
  if (h >= 1) build_subtree(n, label + h, label, depth + 1, tree);
}

BinaryTree in_order_tree(int n) {
  BinaryTree tree{std::vector<int>(static_cast<size_t>(n), -1), std::vector<int>(static_cast<size_t>(n), 0)};
  int root = 1;
  while (root * 2 <= n) root *= 2;
  build_subtree(n, root, -1, 0, tree);
  return tree;
}

// Adds one tree's reduce and broadcast transfers; `member_at(p)` maps positions to members.
template <typename MemberAt>
void add_tree(CollectivePlan& plan, const BinaryTree& tree, int max_depth, Bytes half, MemberAt member_at) {
  for (size_t p = 0; p < tree.parent.size(); ++p) {
    if (tree.parent[p] < 0) continue;
    const int self = member_at(static_cast<int>(p));
    const int up = member_at(tree.parent[p]);
    const int d = tree.depth[p];
    plan.steps[static_cast<size_t>(max_depth - d)].transfers.push_back(Transfer{self, up, half});
    plan.steps[static_cast<size_t>(max_depth + d - 1)].transfers.push_back(Transfer{up, self, half});
  }
}

CollectivePlan tree_plan(CollectiveKind kind, const GroupShape& shape, Bytes bytes) {
  check_group(kTreeName, shape, bytes);
  if (kind != CollectiveKind::kAllReduce) throw_unsupported(kTreeName, kind);
  const int n = shape.members;
  CollectivePlan plan;
  if (n < 2) return plan;
  const BinaryTree tree = in_order_tree(n);
  const int max_depth = *std::max_element(tree.depth.begin(), tree.depth.end());
  ensure_steps(plan, static_cast<size_t>(2 * max_depth));
  const Bytes half = bytes / 2;
  add_tree(plan, tree, max_depth, half, [](int p) { return p; });
  if (n % 2 == 0)
    add_tree(plan, tree, max_depth, half, [n](int p) { return n - 1 - p; });
  else
    add_tree(plan, tree, max_depth, half, [n](int p) { return (p + 1) % n; });
  return plan;
}

}  // namespace

CollectiveAlgorithm tree_algorithm() {
  return CollectiveAlgorithm{
      kTreeName,
      "double binary tree (NCCL-style): two complementary trees each reduce half the buffer up and "
      "broadcast it down; 2*floor(log2 n) steps; all-reduce only",
      {CollectiveKind::kAllReduce},
      tree_plan};
}

}  // namespace trainsim

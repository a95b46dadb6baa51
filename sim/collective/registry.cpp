// The list of collective algorithms. A new algorithm is one new file defining its factory and
// one line in each list below. (A self-registering static object would be dropped by the
// linker: sim/ is a static library and nothing else references such a file.)
#include "sim/collective/plan.hpp"
#include "sim/core/error.hpp"

namespace trainsim {

CollectiveAlgorithm ring_algorithm();
CollectiveAlgorithm tree_algorithm();
CollectiveAlgorithm hierarchical_algorithm();
CollectiveAlgorithm direct_algorithm();
CollectiveAlgorithm nvls_algorithm();

const std::vector<CollectiveAlgorithm>& collective_algorithms() {
  static const std::vector<CollectiveAlgorithm> all = {
      ring_algorithm(),
      tree_algorithm(),
      hierarchical_algorithm(),
      direct_algorithm(),
      nvls_algorithm(),
  };
  return all;
}

const CollectiveAlgorithm& find_collective(const std::string& name) {
  for (const CollectiveAlgorithm& a : collective_algorithms())
    if (a.name == name) return a;
  std::string known;
  for (const CollectiveAlgorithm& a : collective_algorithms()) known += (known.empty() ? "" : ", ") + a.name;
  throw UserError("unknown collective algorithm '" + name + "'; valid: " + known);
}

}  // namespace trainsim

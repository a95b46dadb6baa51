#include "sim/config/divisors.hpp"

#include <algorithm>
#include <numeric>

namespace trainsim {

std::vector<long long> divisors(long long n) {
  std::vector<long long> low, high;
  for (long long d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    low.push_back(d);
    if (d != n / d) high.push_back(n / d);
  }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

std::vector<long long> common_divisors(long long a, long long b) { return divisors(std::gcd(a, b)); }

std::string list_numbers(const std::vector<long long>& values, size_t max_items) {
  std::string out;
  for (size_t i = 0; i < values.size() && i < max_items; ++i) {
    out += (i == 0 ? "" : ", ") + std::to_string(values[i]);
  }
  if (values.size() > max_items) out += ", ...";
  return out;
}

}  // namespace trainsim

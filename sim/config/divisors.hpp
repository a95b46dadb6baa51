// Small integer helpers for "valid: ..." lists in config errors (e.g. the divisors of heads).
#pragma once
#include <string>
#include <vector>

namespace trainsim {

// Divisors of n >= 1, ascending.
[[nodiscard]] std::vector<long long> divisors(long long n);
// Divisors shared by a and b (the divisors of gcd(a, b)).
[[nodiscard]] std::vector<long long> common_divisors(long long a, long long b);
// "1, 2, 4, 8"; longer lists keep the first `max_items` and end with ", ...".
[[nodiscard]] std::string list_numbers(const std::vector<long long>& values, size_t max_items = 24);

}  // namespace trainsim

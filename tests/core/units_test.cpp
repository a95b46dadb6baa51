#include <catch2/catch.hpp>
#include <stdexcept>

#include "sim/core/units.hpp"

using namespace trainsim;

TEST_CASE("binary byte prefixes are powers of 1024, decimal ones powers of 1000", "[units]") {
  CHECK(parse_quantity("80GiB", Quantity::kBytes) == 80.0 * 1024 * 1024 * 1024);
  CHECK(parse_quantity("40MB", Quantity::kBytes) == 40e6);
  CHECK(parse_quantity(" 1.5 KiB ", Quantity::kBytes) == 1536.0);
}

TEST_CASE("bandwidth in bits per second is an eighth of the bytes per second figure", "[units]") {
  CHECK(parse_quantity("400Gbps", Quantity::kBandwidth) == Approx(50e9));
  CHECK(parse_quantity("400GBps", Quantity::kBandwidth) == Approx(400e9));
  CHECK(parse_quantity("900GB/s", Quantity::kBandwidth) == Approx(900e9));
}

TEST_CASE("time and FLOP-rate units scale by their SI prefix", "[units]") {
  CHECK(parse_quantity("1.5us", Quantity::kTime) == Approx(1.5e-6));
  CHECK(parse_quantity("2ms", Quantity::kTime) == Approx(2e-3));
  CHECK(parse_quantity("989TFLOPS", Quantity::kFlopRate) == Approx(989e12));
  CHECK(parse_quantity("3PFLOP", Quantity::kFlops) == Approx(3e15));
}

TEST_CASE("formatted quantities parse back to the same value", "[units]") {
  const double bytes = 85899345920.0;  // 80 GiB
  CHECK(format_quantity(bytes, Quantity::kBytes) == "80GiB");
  CHECK(parse_quantity(format_quantity(bytes, Quantity::kBytes), Quantity::kBytes) == bytes);
  CHECK(format_quantity(1.5e-6, Quantity::kTime) == "1.5us");
  CHECK(parse_quantity(format_quantity(450e9, Quantity::kBandwidth), Quantity::kBandwidth) == Approx(450e9));
  CHECK(format_quantity(989e12, Quantity::kFlopRate) == "989TFLOPS");
}

TEST_CASE("a number without a known unit is rejected with the valid units listed", "[units]") {
  CHECK_THROWS_WITH(parse_quantity("80 parsecs", Quantity::kBytes), Catch::Contains("GiB"));
  CHECK_THROWS_AS(parse_quantity("GiB", Quantity::kBytes), std::invalid_argument);
  CHECK_THROWS_AS(parse_quantity("-3GB", Quantity::kBytes), std::invalid_argument);
  CHECK_THROWS_AS(parse_quantity("12", Quantity::kTime), std::invalid_argument);
}

TEST_CASE("a number that overflows once its unit is applied is rejected, as are non-decimal numbers", "[units]") {
  // 1e308 is a finite double; 1e308 PiB = 1e308 x 2^50 bytes is not (DBL_MAX is about 1.8e308).
  CHECK_THROWS_AS(parse_quantity("1e308PiB", Quantity::kBytes), QuantityOverflow);
  CHECK_THROWS_AS(parse_quantity("1e308PFLOPS", Quantity::kFlopRate), QuantityOverflow);
  CHECK(parse_quantity("1e290PiB", Quantity::kBytes) == Approx(1e290 * 1125899906842624.0));  // still finite
  // std::stod alone would read 0x10 as 16 and accept inf and nan.
  CHECK_THROWS_AS(parse_quantity("0x10MB", Quantity::kBytes), std::invalid_argument);
  CHECK_THROWS_AS(parse_quantity("infGB", Quantity::kBytes), std::invalid_argument);
  CHECK_THROWS_AS(parse_quantity("nanGB", Quantity::kBytes), std::invalid_argument);
}

// The memory table of `trainsim check` and `graph` (describe_memory): each value ends under the end
// of its header, whatever its size, and a stage above the card's memory is marked.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "sim/report/run_description.hpp"
#include "tests/support/tiny_run.hpp"

using namespace trainsim;

namespace {

constexpr double kGiB = 1073741824.0;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// Column c's right edge in the header: the end of its name.
size_t header_end(const std::string& header, const std::string& name) { return header.find(name) + name.size(); }

}  // namespace

TEST_CASE("memory table columns stay aligned from 0.1 GiB to tens of thousands of GiB", "[report]") {
  RunSpec run = test::island_run(8, 100e9, 1e-6);
  run.platform.accelerator.memory_capacity = 80 * kGiB;
  DeviceMemory small;  // every value in the columns' minimum widths
  small.stage = 0;
  small.weights = 10 * kGiB, small.gradients = 5 * kGiB, small.optimizer = 20 * kGiB;
  small.activations = 30 * kGiB, small.comm_buffers = 1.5 * kGiB, small.framework = 2 * kGiB;
  DeviceMemory large;  // a what-if: every value wider than its column's minimum
  large.stage = 12345;
  large.weights = 12345.6 * kGiB, large.gradients = 1234.5 * kGiB, large.optimizer = 2345.6 * kGiB;
  large.activations = 3456.7 * kGiB, large.comm_buffers = 123.4 * kGiB, large.framework = 1000 * kGiB;
  std::ostringstream out;
  describe_memory(out, run, {small, large});
  const std::vector<std::string> lines = lines_of(out.str());
  REQUIRE(lines.size() == 3);
  const std::string& header = lines[0];
  // Each value's last character sits at its header name's last character: "10.0" under "weights".
  const std::vector<std::pair<std::string, std::vector<std::string>>> columns = {
      {"stage", {"0", "12345"}},       {"weights", {"10.0", "12345.6"}}, {"grads", {"5.0", "1234.5"}},
      {"optim", {"20.0", "2345.6"}},   {"activ", {"30.0", "3456.7"}},    {"comm", {"1.5", "123.4"}},
      {"frame", {"2.0", "1000.0"}},    {"total", {"68.5", "20505.8"}}};
  for (const auto& [name, values] : columns) {
    for (size_t row = 0; row < 2; ++row) {
      INFO(name << " row " << row << ": " << lines[row + 1]);
      const std::string& line = lines[row + 1];
      const size_t end = header_end(header, name);
      REQUIRE(end >= values[row].size());
      CHECK(line.substr(end - values[row].size(), values[row].size()) == values[row]);
      CHECK((end == line.size() || line[end] == ' '));
    }
  }
  CHECK(lines[1].find("OUT OF MEMORY") == std::string::npos);
  CHECK(lines[2].find("OUT OF MEMORY") != std::string::npos);
  CHECK(header.find("of 80.0") != std::string::npos);
}

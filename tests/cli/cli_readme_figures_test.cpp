// The README's sweep tutorial prints figures a reader reproduces with the commands beside them;
// they must be this build's. A change that moves them fails here until the README and
// docs/sweep are regenerated with those same commands (README, "Tutorial: how much do the
// default run's links matter?").
#include <catch2/catch.hpp>
#include <cstdio>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/paths.hpp"
#include "tests/support/run_command.hpp"

using namespace trainsim::test;

namespace {

// The cells after the row's label in the README's markdown table row that starts with `label`.
std::vector<std::string> readme_row(const std::string& label) {
  const std::string readme = slurp((kRoot / "README.md").string());
  const size_t at = readme.find("\n| " + label + " |");
  REQUIRE(at != std::string::npos);
  const std::string line = readme.substr(at + 1, readme.find('\n', at + 1) - at - 1);
  std::vector<std::string> cells;
  std::stringstream in(line.substr(line.find('|', 2) + 1));
  for (std::string cell; std::getline(in, cell, '|');) {
    cell = std::regex_replace(cell, std::regex("^ +| +$"), "");
    if (!cell.empty()) cells.push_back(cell);
  }
  return cells;
}

// Column `name` of a CSV written by sweep --csv, each value as the README rounds it (4 decimals).
std::vector<std::string> csv_column(const std::string& csv, const std::string& name) {
  std::stringstream in(csv);
  std::string header;
  std::getline(in, header);
  int column = -1, i = 0;
  std::stringstream h(header);
  for (std::string cell; std::getline(h, cell, ','); ++i)
    if (cell == name) column = i;
  REQUIRE(column >= 0);
  std::vector<std::string> out;
  for (std::string row; std::getline(in, row);) {
    std::stringstream r(row);
    std::string cell;
    for (int c = 0; c <= column; ++c) std::getline(r, cell, ',');
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", std::stod(cell));
    out.emplace_back(text);
  }
  return out;
}

}  // namespace

TEST_CASE("the README's InfiniBand sweep table is this build's", "[cli]") {
  const std::string csv = scratch("readme_figures_ib.csv");
  const CommandResult r = run_trainsim("sweep " + kDefault +
                                       " --vary platform.tiers.1.bandwidth=50Gbps,100Gbps,200Gbps,400Gbps,800Gbps --csv " + csv);
  REQUIRE(r.exit_code == 0);
  const std::string table = slurp(csv);
  CHECK(csv_column(table, "iteration_s") == readme_row("seconds per iteration"));
  CHECK(csv_column(table, "bubble_s") == readme_row("bubble and idle, s"));
  std::remove(csv.c_str());
}

TEST_CASE("docs/sweep/default-bandwidth.md is what the README's command writes today", "[cli]") {
  const std::string md = scratch("readme_figures_bandwidth.md");
  const CommandResult r = run_trainsim("sweep " + kDefault +
                                       " --vary platform.tiers.0.bandwidth=112.5GBps,225GBps,450GBps"
                                       " --vary platform.tiers.1.bandwidth=50Gbps,100Gbps,200Gbps,400Gbps,800Gbps"
                                       " --markdown " + md);
  REQUIRE(r.exit_code == 0);
  CHECK(slurp(md) == slurp((kRoot / "docs/sweep/default-bandwidth.md").string()));
  std::remove(md.c_str());
}

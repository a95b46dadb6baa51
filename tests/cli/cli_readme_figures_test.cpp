// The README's sweep tutorial and co-design tables print figures a reader reproduces with the
// commands beside them; they must be this build's. A change that moves them fails here until the
// README and docs/sweep are regenerated with those same commands (README, "Tutorial: how much do
// the default run's links matter?" and "Co-design: which layout wins where").
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

// Column `name` of a CSV written by sweep --csv, as written (no cell of these sweeps holds a comma).
std::vector<std::string> csv_cells(const std::string& csv, const std::string& name) {
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
    out.push_back(cell);
  }
  return out;
}

// Column `name` of a CSV written by sweep --csv, each value as the README rounds it (4 decimals).
std::vector<std::string> csv_column(const std::string& csv, const std::string& name) {
  std::vector<std::string> out;
  for (const std::string& cell : csv_cells(csv, name)) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4f", std::stod(cell));
    out.emplace_back(text);
  }
  return out;
}

// The rows of the README table that follows the line holding `command`, each as its cells.
std::vector<std::vector<std::string>> readme_table_after(const std::string& command) {
  const std::string readme = slurp((kRoot / "README.md").string());
  size_t at = readme.find(command);
  REQUIRE(at != std::string::npos);
  at = readme.find("\n|", at);
  REQUIRE(at != std::string::npos);
  std::vector<std::vector<std::string>> rows;
  for (size_t end; at != std::string::npos && readme.compare(at, 2, "\n|") == 0; at = end) {
    end = readme.find('\n', at + 1);
    const std::string line = readme.substr(at + 1, end - at - 1);
    std::vector<std::string> cells;
    std::stringstream in(line.substr(1));
    for (std::string cell; std::getline(in, cell, '|');) cells.push_back(std::regex_replace(cell, std::regex("^ +| +$"), ""));
    rows.push_back(cells);
  }
  REQUIRE(rows.size() > 2);
  rows.erase(rows.begin(), rows.begin() + 2);  // the header and its rule
  return rows;
}

// A strategy as the README's co-design tables write it: "tp1 pp1 dp8 cp1 mb2 1f1b rc:none zero2"
// (sweep --csv) is "tp1 pp1 dp8 mb2 1f1b, no recompute, ZeRO-2" (cp left out at 1; "sp" stays in
// the head; "tp-overlap" becomes ", TP overlap"). A word the README has no wording for fails the test.
std::string readme_strategy(const std::string& csv_strategy) {
  std::stringstream in(csv_strategy);
  std::string head, tail, word;
  for (int i = 0; in >> word; ++i) {
    if (word == "cp1") continue;
    if (word.rfind("rc:", 0) == 0) {
      tail += word == "rc:none" ? ", no recompute" : ", " + word.substr(3) + " recompute";
    } else if (word.rfind("zero", 0) == 0) {
      tail += ", ZeRO-" + word.substr(4);
    } else if (word == "tp-overlap") {
      tail += ", TP overlap";
    } else if (tail.empty()) {
      head += (head.empty() ? "" : " ") + word;
    } else {
      FAIL_CHECK("no README wording for '" << word << "' in " << csv_strategy);
    }
  }
  return head + tail;
}

// The co-design sweep `args` against the README table after it: each point's seconds (4 decimals)
// and its winning strategy.
void check_codesign_table(const std::string& args, const std::string& csv_name) {
  const std::string csv = scratch(csv_name);
  const CommandResult r = run_trainsim("sweep " + kDefault + " --search " + args + " --csv " + csv);
  REQUIRE(r.exit_code == 0);
  const std::string table = slurp(csv);
  const auto rows = readme_table_after("build/trainsim sweep workloads/default.yaml --search " + args);
  const std::vector<std::string> seconds = csv_column(table, "iteration_s");
  const std::vector<std::string> strategies = csv_cells(table, "strategy");
  REQUIRE(rows.size() == seconds.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    INFO("README row " << i + 1 << ": " << rows[i][0]);
    REQUIRE(rows[i].size() >= 3);
    CHECK(rows[i][2] == seconds[i]);
    CHECK(rows[i][1] == readme_strategy(strategies[i]));
  }
  std::remove(csv.c_str());
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

TEST_CASE("the README's co-design tables (sweep --search) are this build's", "[cli][release_only]") {
  check_codesign_table("--vary platform.tiers.1.bandwidth=25Gbps,50Gbps,100Gbps,200Gbps,400Gbps", "readme_codesign_ib.csv");
  check_codesign_table("--vary devices=8,16,32,64", "readme_codesign_devices.csv");
}

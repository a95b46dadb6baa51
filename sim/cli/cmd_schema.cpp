#include <algorithm>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/config/schema_page.hpp"
#include "sim/core/error.hpp"
#include "sim/core/text_list.hpp"

namespace trainsim {
namespace {

int run_schema(const ParsedArgs& a) {
  const std::string part = a.positionals().empty() ? "" : a.positionals().front();
  const auto& parts = schema_parts();
  if (!part.empty() && std::find(parts.begin(), parts.end(), part) == parts.end())
    throw UserError("trainsim schema: unknown part '" + part + "'; valid: " + join_text(parts) + " (or none: the whole page)");
  const std::string page = schema_page(part);
  if (a.has("out")) write_output_file(a.get("out"), "--out", [&](std::ostream& o) { o << page; });
  else std::cout << page;
  return 0;
}

}  // namespace

Command schema_command() {
  CommandSpec spec;
  spec.name = "schema";
  spec.usage = "[platform|model|run|framework] [--out FILE]";
  spec.summary = "print the input keys, their valid values, defaults and meaning (docs/schema.md is its output)";
  spec.details =
      "Generated from the tables the loaders read their keys with, so it says exactly what they accept.\n"
      "Without a part: the whole page (`trainsim schema --out docs/schema.md` regenerates it).";
  spec.options = {{"out", "FILE", "write the page to FILE instead of stdout"}};
  spec.max_positionals = 1;
  return {spec, run_schema};
}

}  // namespace trainsim

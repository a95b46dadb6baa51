// The schema page: every key table of the loaders rendered as markdown, with the few rules that
// span keys in prose. docs/schema.md is this page (`trainsim schema > docs/schema.md`; a test
// compares the two), so the page cannot drift from what the loaders accept.
#include "sim/config/schema_page.hpp"

#include <sstream>

#include "sim/config/framework_keys.hpp"
#include "sim/config/model_keys.hpp"
#include "sim/config/model_limits.hpp"
#include "sim/config/platform_keys.hpp"
#include "sim/config/run_keys.hpp"
#include "sim/config/schema_text.hpp"

namespace trainsim {
namespace {

std::string cell(std::string text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

template <class S>
void write_table(std::ostream& out, const KeyTable<S>& table, const std::string& prefix) {
  const S defaults{};
  for (const KeyEntry<S>& e : table.entries()) {
    std::string fallback = "—";
    if (e.need == Need::kRequired) fallback = "required";
    else if (e.show) fallback = e.show(defaults).empty() ? "(empty)" : "`" + e.show(defaults) + "`";
    std::string meaning = e.meaning;
    if (!e.applies_to.empty()) meaning += " (only with topology " + e.applies_to + ")";
    out << "| `" << prefix << e.key << "` | " << cell(e.valid) << " | " << cell(fallback) << " | " << cell(meaning)
        << " |\n";
  }
}

void table_header(std::ostream& out) {
  out << "| key | valid | default | meaning |\n|---|---|---|---|\n";
}

void write_platform(std::ostream& out) {
  out << kSchemaPlatformIntro;
  table_header(out);
  write_table(out, platform_keys(), "");
  write_table(out, accelerator_keys(), "accelerator.");
  write_table(out, tier_keys(), "tiers.N.");
}

void write_model(std::ostream& out) {
  out << kSchemaModelIntro;
  table_header(out);
  write_table(out, model_keys(), "");
  write_table(out, moe_keys(), "moe.");
  write_table(out, mla_keys(), "mla.");
  out << "\nThe whole model may have at most " << number_text(kMaxModelParams) << kSchemaModelSizeNote;
}

void write_run(std::ostream& out) {
  out << kSchemaRunIntro;
  table_header(out);
  write_table(out, run_keys(), "");
  write_table(out, strategy_keys(), "strategy.");
  write_table(out, overlap_keys(), "strategy.overlap.");
  write_table(out, dropout_keys(), "dropout.");
  write_table(out, fp8_keys(), "fp8.");
  write_table(out, moe_routing_keys(), "moe.");
}

void write_framework(std::ostream& out) {
  out << kSchemaFrameworkIntro;
  table_header(out);
  write_table(out, framework_keys(), "");
  write_table(out, host_keys(), "host.");
  write_table(out, framework_memory_keys(), "memory.");
  write_table(out, framework_moe_keys(), "moe.");
}

}  // namespace

const std::vector<std::string>& schema_parts() {
  static const std::vector<std::string> parts = {"platform", "model", "run", "framework"};
  return parts;
}

std::string schema_page(const std::string& part) {
  std::ostringstream out;
  if (part.empty()) out << kSchemaIntro;
  if (part.empty() || part == "platform") write_platform(out);
  if (part.empty() || part == "model") write_model(out);
  if (part.empty() || part == "run") write_run(out);
  if (part.empty() || part == "framework") write_framework(out);
  if (part.empty()) out << kSchemaOutro;
  return out.str();
}

}  // namespace trainsim

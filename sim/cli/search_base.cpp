#include "sim/cli/search_base.hpp"

#include <filesystem>

#include "sim/config/loader.hpp"
#include "sim/config/platform_fit.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace trainsim {
namespace {

// A path-like reference made absolute, so the written run finds it from any folder; a preset
// name stays a name.
std::string reference(const std::string& given) {
  if (const auto hf = hf_reference_path(given))  // a Hugging Face config.json: the prefix kept
    return "hf:" + std::filesystem::absolute(*hf).lexically_normal().string();
  const bool path = given.find('/') != std::string::npos || (given.size() > 5 && given.substr(given.size() - 5) == ".yaml");
  return path ? std::filesystem::absolute(given).lexically_normal().string() : given;
}

int positive(const ParsedArgs& a, const std::string& name) {
  if (!a.has(name)) throw UserError("search: --" + name + " is required (see trainsim search --help)");
  const int v = option_int(a, name, 0);
  if (v < 1) throw UserError("search: --" + name + " must be a whole number >= 1 (got '" + a.get(name) + "')");
  return v;
}

// The baseline must train the same thing on the same cluster, or its speedup means nothing.
void check_baseline(const RunSpec& base, const RunSpec& b, const std::string& file) {
  auto differ = [&](const std::string& what, const std::string& ours, const std::string& theirs) {
    if (ours != theirs)
      throw UserError("search: --baseline " + file + " has " + what + " " + theirs + ", the search " + ours +
                      "; a baseline must run the same model, platform, devices, batch, sequence and precision");
  };
  differ("model", base.model.name, b.model.name);
  differ("platform", base.platform.name, b.platform.name);
  differ("devices", std::to_string(base.devices), std::to_string(b.devices));
  differ("global_batch", std::to_string(base.global_batch), std::to_string(b.global_batch));
  differ("seq_len", std::to_string(base.seq_len), std::to_string(b.seq_len));
  differ("precision", to_string(base.precision), to_string(b.precision));
}

Precision precision_of(const std::string& text) {
  Precision p{};
  if (!parse_precision(text, &p)) throw UserError("search: --precision '" + text + "'; valid: fp32, tf32, bf16, fp16, fp8, mxfp8");
  return p;
}

// The loader's own platform rules (sim/config/platform_fit), reported against the search's options.
void check_platform_fit(const RunSpec& run) {
  for (const auto& v : {platform_fit_violation(run), whole_domains_violation(run)})
    if (v) throw UserError("search: --" + v->key + " " + v->value + ": " + v->problem + "; valid: " + v->expected);
}

}  // namespace

RunSpec with_strategy_cleared(RunSpec run) {
  const StrategySpec kept = run.strategy;
  run.strategy = StrategySpec{};
  run.strategy.grad_bucket_size = kept.grad_bucket_size;
  run.strategy.grad_precision = kept.grad_precision;
  run.strategy.grad_accumulation_fusion = kept.grad_accumulation_fusion;
  run.strategy.grad_nan_check = kept.grad_nan_check;        // the framework's per-bucket work
  run.strategy.grad_scale_kernel = kept.grad_scale_kernel;
  run.strategy.overlap.tp_grad_reduce = kept.overlap.tp_grad_reduce;  // the framework's, not a search knob
  return run;
}

SearchBase search_base(const ParsedArgs& a) {
  SearchBase out;
  if (!a.has("model") || !a.has("platform")) throw UserError("search: --model and --platform are required (see trainsim search --help)");
  if (a.has("baseline")) out.baseline = load_run(a.get("baseline"));
  RunSpec& run = out.run;
  if (out.baseline) run = with_strategy_cleared(*out.baseline);  // the run fields the search does not vary
  run.model = load_model(a.get("model"));
  run.platform = load_platform(a.get("platform"));
  out.refs = {reference(a.get("model")), reference(a.get("platform"))};
  run.devices = positive(a, "devices");
  run.global_batch = positive(a, "global-batch");
  run.seq_len = positive(a, "seq");
  run.precision = precision_of(a.get("precision", "bf16"));
  if (a.has("framework-overhead")) {
    try {
      run.framework_overhead = parse_quantity(a.get("framework-overhead"), Quantity::kBytes);
    } catch (const std::exception& e) {
      throw UserError("search: --framework-overhead '" + a.get("framework-overhead") + "': " + e.what());
    }
  }
  run.name = "search-best";
  run.description.clear();
  run.source_file = "(search)";
  check_platform_fit(run);
  if (out.baseline) check_baseline(run, *out.baseline, a.get("baseline"));
  return out;
}

}  // namespace trainsim

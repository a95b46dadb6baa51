// `trainsim import-model` and runs naming `model: hf:...`: every supported architecture's
// config.json (tests/config/hf_configs.hpp) loads, checks and simulates.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "tests/config/hf_configs.hpp"
#include "tests/support/run_command.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim::test;
using namespace trainsim::config_test;
namespace fs = std::filesystem;

namespace {

// <scratch>/hf/<name>/config.json
std::string write_config(const std::string& name, const std::string& json) {
  const fs::path dir = fs::path(scratch("trainsim_hf")) / name;
  fs::create_directories(dir);
  std::ofstream(dir / "config.json") << json;
  return (dir / "config.json").string();
}
}  // namespace

TEST_CASE("import-model writes a model YAML that loads back, with each note as a comment and on stderr", "[cli]") {
  const std::string config = write_config("Qwen3-30B-A3B", kQwen3_30bA3b);
  const std::string out = scratch("trainsim_imported_qwen3.yaml");
  const CommandResult r = run_trainsim("import-model " + config + " --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("note:") == std::string::npos);  // QK-norm is a key of the schema: nothing left to note
  const std::string yaml = slurp(out);
  CHECK(yaml.find("# Imported by `trainsim import-model` from Qwen3-30B-A3B/config.json") == 0);
  CHECK(yaml.find("qk_norm: true\n") != std::string::npos);
  CHECK(yaml.find("head_dim: 128\n") != std::string::npos);
  CHECK(yaml.find("  experts: 128\n") != std::string::npos);
  // The written file is a model the run loader takes, the same as the config itself.
  const CommandResult from_yaml = run_trainsim("check " + kDefault + " --set model=" + out + " --set strategy.ep=4");
  const CommandResult from_json = run_trainsim("check " + kDefault + " --set model=hf:" + config + " --set strategy.ep=4");
  INFO(from_yaml.err);
  REQUIRE(from_yaml.exit_code == 0);
  REQUIRE(from_json.exit_code == 0);
  const auto memory_table = [](const std::string& text) { return text.substr(text.find("memory per device")); };
  CHECK(memory_table(from_yaml.out) == memory_table(from_json.out));
  // A feature the schema cannot express (Qwen1.5-MoE's shared-expert gate) is noted on stderr, in the
  // file's comments and by check.
  const std::string noted = write_config("Qwen1.5-MoE-A2.7B", kQwen15MoeA27b);
  const std::string noted_out = scratch("trainsim_imported_qwen15.yaml");
  const CommandResult with_notes = run_trainsim("import-model " + noted + " --out " + noted_out);
  REQUIRE(with_notes.exit_code == 0);
  CHECK(with_notes.err.find("note: Qwen2 attention has Q/K/V projection biases") != std::string::npos);
  CHECK(slurp(noted_out).find("#  - the shared expert's sigmoid gate") != std::string::npos);
  const CommandResult noted_check = run_trainsim("check " + kDefault + " --set model=hf:" + noted + " --set strategy.ep=4");
  CHECK(noted_check.out.find("imported   not expressible, taken as noted: Qwen2 attention") != std::string::npos);
  const CommandResult bad = run_trainsim("import-model " + write_config("falcon", R"({"model_type": "falcon"})"));
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("model_type: is not a supported architecture (got 'falcon')") != std::string::npos);
}

TEST_CASE("an import of each supported architecture loads, checks and simulates", "[cli]") {
  // The default run (16 H100, tp 2 x pp 2 x dp 4) with each model cut to 4 layers; MoE models
  // spread their experts over the 4 data-parallel ranks (ep 4).
  const std::vector<std::tuple<std::string, std::string, bool>> models = {
      {"Llama-3.1-8B", kLlama31_8b, false},        {"Mistral-7B-v0.1", kMistral7b, false},
      {"Mixtral-8x7B-v0.1", kMixtral8x7b, true},   {"Qwen2-7B", kQwen2_7b, false},
      {"Qwen1.5-MoE-A2.7B", kQwen15MoeA27b, true}, {"Qwen3-8B", kQwen3_8b, false},
      {"Qwen3-30B-A3B", kQwen3_30bA3b, true},      {"DeepSeek-V3", kDeepSeekV3, true},
      {"gpt-oss-120b", kGptOss120b, true}};
  for (const auto& [name, json, moe] : models) {
    INFO(name);
    const std::string sets = " --set model=hf:" + write_config(name, json) + " --set model.layers=4" +
                             (moe ? " --set strategy.ep=4" : "");
    const CommandResult check = run_trainsim("check " + kDefault + sets);
    INFO(check.err);
    CHECK(check.exit_code == 0);
    CHECK(check.out.find("model      " + name + ":") != std::string::npos);
    const CommandResult sim = run_trainsim("simulate " + kDefault + sets);
    INFO(sim.err);
    CHECK(sim.exit_code == 0);
    CHECK(sim.out.find("iteration time") != std::string::npos);
  }
}

TEST_CASE("search --model takes hf:PATH as a run's model: does, the same model as the preset", "[cli]") {
  // Llama 3.1 8B's config.json has the llama3-8b preset's shape (hf_import_test), so the search's
  // formula ranking of the same space is the same.
  const std::string config = write_config("Llama-3.1-8B", kLlama31_8b);
  const std::string space = " --platform dgx-h100-superpod --devices 8 --global-batch 32 --seq 4096 --no-replay --top 2";
  const CommandResult hf = run_trainsim("search --model hf:" + config + space);
  const CommandResult preset = run_trainsim("search --model llama3-8b" + space);
  INFO(hf.err);
  REQUIRE(hf.exit_code == 0);
  REQUIRE(preset.exit_code == 0);
  const auto table = [](const std::string& out) { return out.substr(out.find("rank  formula_s")); };
  CHECK(table(hf.out) == table(preset.out));
  // The winner written with --out names the config as hf:ABSOLUTE-PATH, which a run loads.
  const std::string best = scratch("trainsim_hf_search_best.yaml");
  REQUIRE(run_trainsim("search --model hf:" + config + space + " --out " + best).exit_code == 0);
  CHECK(slurp(best).find("model: \"hf:/") != std::string::npos);
  CHECK(run_trainsim("check " + best).exit_code == 0);
  std::remove(best.c_str());
}

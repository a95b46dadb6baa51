#include <filesystem>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/cli/output_file.hpp"
#include "sim/config/loader.hpp"
#include "sim/config/model_writer.hpp"

namespace trainsim {
namespace {

int run_import_model(const ParsedArgs& a) {
  const std::filesystem::path file = a.positionals().front();
  const ModelSpec m = load_hf_model(file);
  for (const std::string& note : m.notes) std::cerr << "note: " << note << "\n";
  // The folder and file name only: a machine path does not belong in a model file.
  const std::string source = (file.parent_path().filename() / file.filename()).string();
  const std::string text =
      model_yaml(m, {"Imported by `trainsim import-model` from " + source + " (a Hugging Face config.json); every key",
                     "below is mapped from it by sim/config/hf_architectures.cpp. Cite the model's repository here."});
  if (a.has("out")) write_output_file(a.get("out"), "--out", [&](std::ostream& o) { o << text; });
  else std::cout << text;
  return 0;
}

}  // namespace

Command import_model_command() {
  CommandSpec spec;
  spec.name = "import-model";
  spec.usage = "CONFIG.json [--out MODEL.yaml]";
  spec.summary = "turn a Hugging Face config.json into a model YAML (what the schema cannot express: notes)";
  spec.details =
      "Supported model_type values: llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, deepseek_v3, gpt_oss.\n"
      "Each feature the model schema cannot express (DeepSeek's MLA, some sliding windows, attention sinks,\n"
      "biases, ...) is printed as a note on stderr and written as a comment. A run can also name the config\n"
      "directly: `model: hf:path/to/config.json` (relative to the run file's folder first).";
  spec.options = {{"out", "FILE", "write the model YAML to FILE instead of stdout"}};
  spec.min_positionals = spec.max_positionals = 1;
  return {spec, run_import_model};
}

}  // namespace trainsim

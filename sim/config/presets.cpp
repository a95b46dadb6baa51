// Preset discovery: data_dir() and the list_*_presets() scans of platforms/ and workloads/.
#include "sim/config/presets.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "sim/config/loader.hpp"

namespace trainsim {
namespace fs = std::filesystem;
namespace {

// The *.yaml files directly inside `folder`, sorted by path; a missing folder has none.
std::vector<fs::path> yaml_files(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() == ".yaml" && it->is_regular_file(ec)) out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Reads only `name` and `description`; nullopt for a file that does not parse or has no name.
std::optional<PresetInfo> read_info(const fs::path& file) {
  try {
    const YAML::Node root = YAML::LoadFile(file.string());
    if (!root.IsMap() || !root["name"].IsScalar()) return std::nullopt;
    PresetInfo info{root["name"].Scalar(), "", file};
    if (root["description"].IsScalar()) info.description = root["description"].Scalar();
    return info;
  } catch (const std::exception&) {
    return std::nullopt;  // unreadable presets are skipped quietly
  }
}

std::vector<PresetInfo> list_presets(PresetKind kind) {
  std::vector<PresetInfo> out;
  for (const auto& file : yaml_files(preset_folder(kind))) {
    if (auto info = read_info(file)) out.push_back(std::move(*info));
  }
  std::stable_sort(out.begin(), out.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
  return out;
}

}  // namespace

fs::path data_dir() {
  const char* env = std::getenv("TRAINSIM_DATA_DIR");
  if (env != nullptr && *env != '\0') return env;
#ifdef TRAINSIM_DATA_DIR
  return TRAINSIM_DATA_DIR;
#else
  return fs::current_path();
#endif
}

fs::path preset_folder(PresetKind kind) {
  switch (kind) {
    case PresetKind::kPlatform: return data_dir() / "platforms";
    case PresetKind::kModel: return data_dir() / "workloads" / "models";
    case PresetKind::kRun: return data_dir() / "workloads";
    case PresetKind::kFramework: return data_dir() / "workloads" / "frameworks";
  }
  return data_dir();
}

const char* preset_kind_name(PresetKind kind) {
  switch (kind) {
    case PresetKind::kPlatform: return "platform";
    case PresetKind::kModel: return "model";
    case PresetKind::kRun: return "run";
    case PresetKind::kFramework: return "framework";
  }
  return "preset";
}

bool looks_like_path(const std::string& reference) {
  const std::string ext = ".yaml";
  return reference.find('/') != std::string::npos ||
         (reference.size() >= ext.size() && reference.compare(reference.size() - ext.size(), ext.size(), ext) == 0);
}

std::optional<fs::path> find_preset(PresetKind kind, const std::string& name) {
  const fs::path direct = preset_folder(kind) / (name + ".yaml");
  std::error_code ec;
  if (fs::is_regular_file(direct, ec)) return direct;
  for (const auto& info : list_presets(kind)) {
    if (info.name == name) return info.path;
  }
  return std::nullopt;
}

std::vector<std::string> preset_file_names(PresetKind kind) {
  std::vector<std::string> out;
  for (const auto& file : yaml_files(preset_folder(kind))) out.push_back(file.stem().string());
  return out;
}

std::vector<PresetInfo> list_platform_presets() { return list_presets(PresetKind::kPlatform); }
std::vector<PresetInfo> list_model_presets() { return list_presets(PresetKind::kModel); }
std::vector<PresetInfo> list_run_presets() { return list_presets(PresetKind::kRun); }
std::vector<PresetInfo> list_framework_presets() { return list_presets(PresetKind::kFramework); }

}  // namespace trainsim

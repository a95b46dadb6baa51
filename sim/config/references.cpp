// `model:` / `platform:` references -> files (a path, or a preset name under data_dir()).
#include <system_error>

#include "sim/config/spec_parsers.hpp"
#include "sim/config/yaml_reader.hpp"
#include "sim/core/error.hpp"

namespace trainsim {
namespace fs = std::filesystem;
namespace {

std::string preset_list(PresetKind kind) {
  const std::vector<std::string> names = preset_file_names(kind);
  if (names.empty()) return "none found in " + preset_folder(kind).string();
  return join_names(names);
}

}  // namespace

fs::path resolve_reference(const std::string& reference, PresetKind kind, const fs::path& base_dir,
                           const Location& where, const std::string& key_path) {
  std::error_code ec;
  if (looks_like_path(reference)) {
    const fs::path given(reference);
    const fs::path file = (given.is_absolute() || base_dir.empty() ? given : base_dir / given).lexically_normal();
    const fs::file_status st = fs::status(file, ec);
    if (fs::is_regular_file(st)) return file;
    if (fs::exists(st)) {  // there, but not a file: say what it is rather than "not found"
      const std::string what = fs::is_directory(st) ? "is a directory, not a file"
                                                    : "is not a regular file (a device, pipe or socket could be endless)";
      throw ConfigError(where.file, where.line, key_path, std::string(preset_kind_name(kind)) + " path " + what,
                        reference, "a YAML file, or a preset name: " + preset_list(kind));
    }
    throw ConfigError(where.file, where.line, key_path, std::string(preset_kind_name(kind)) + " file not found",
                      reference, "an existing file (looked for " + file.string() + "), or a preset name: " +
                                     preset_list(kind));
  }
  if (auto file = find_preset(kind, reference)) return *file;
  throw ConfigError(where.file, where.line, key_path, std::string("unknown ") + preset_kind_name(kind) + " preset",
                    reference, preset_list(kind));
}

}  // namespace trainsim

// Where the project's files are, for tests that load its presets and examples.
#pragma once
#include <filesystem>
#include <string>

// The project root (tests/ is one level below it).
inline const std::filesystem::path kRoot = std::filesystem::path(TRAINSIM_TEST_DIR).parent_path();
// The bundled default run, workloads/default.yaml.
inline const std::string kDefault = (kRoot / "workloads/default.yaml").string();

// ModelSpec -> model YAML text (the format of workloads/models/*.yaml), every key written, so that
// `trainsim import-model` writes a file the model loader reads back into the same ModelSpec. The
// model's notes (what its source said that the schema cannot express) become comments.
#pragma once
#include <string>
#include <vector>

#include "sim/config/model_spec.hpp"

namespace trainsim {

// `comment` lines head the file, each prefixed with "# ".
[[nodiscard]] std::string model_yaml(const ModelSpec& m, const std::vector<std::string>& comment);

}  // namespace trainsim

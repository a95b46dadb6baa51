// What `trainsim validate` and `trainsim calibrate` share: the measurements file they read,
// --jobs, and progress lines on stderr that are safe to write while another thread forks.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "sim/cli/args.hpp"
#include "sim/config/measurements.hpp"

namespace trainsim {

// The positional MEASUREMENTS.yaml files, else <data dir>/validation/measurements.yaml.
[[nodiscard]] std::vector<std::string> measurements_paths(const ParsedArgs& args);
// The measurement files of measurements_paths(), loaded as one set.
[[nodiscard]] MeasurementSet load_measurement_args(const ParsedArgs& args);
// "a,b,,c" -> {a, b, c}: comma-separated option values (--only, --param).
[[nodiscard]] std::vector<std::string> split_list(const std::string& text);
// --split calibrate|check, or nullopt when not given; UserError on another value.
[[nodiscard]] std::optional<Split> split_option(const ParsedArgs& args);
// --jobs N (1..64; default `fallback`).
[[nodiscard]] int jobs_option(const ParsedArgs& args, int fallback);
[[nodiscard]] OptionSpec jobs_option_spec();
// Writes `text` to file descriptor 2 with write(2): no stdio lock is taken, so a child forked
// by another thread at the same moment cannot inherit a held lock.
void progress_line(const std::string& text);

}  // namespace trainsim

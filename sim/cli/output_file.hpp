// Writing an output file a command was asked for (--json, --trace, --csv, --dot, ...), so that a
// failed write is never reported as success: a full disk or an unwritable path is a WriteError
// (exit 1, with the path and the system's reason), and no partial file is left behind as if it
// were complete. A regular file is written to a temporary beside it and renamed into place once
// everything reached the disk; a device or pipe (/dev/stdout, /dev/full) is written directly.
#pragma once
#include <functional>
#include <initializer_list>
#include <ostream>
#include <string>

#include "sim/cli/args.hpp"

namespace trainsim {

// Writes `path` with `fill`; `option` names the command-line option in messages ("--json").
void write_output_file(const std::string& path, const std::string& option, const std::function<void(std::ostream&)>& fill);

// Throws UserError when two of the given output options name the same file (the second write
// would silently replace the first).
void require_distinct_outputs(const ParsedArgs& a, std::initializer_list<const char*> options);

}  // namespace trainsim

// Entry point of the `trainsim` executable; everything else lives in sim/cli/.
#include <exception>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"

int main(int argc, char** argv) {
  try {
    const int code = trainsim::run_cli(std::vector<std::string>(argv + 1, argv + argc));
    // A report that did not reach its reader (a full disk, a closed pipe) is a failure, as for
    // a file named with --json and the like (output_file.hpp).
    if (!std::cout.flush()) {
      std::cerr << "error: writing to standard output failed; the output is incomplete\n";
      return 1;
    }
    return code;
  } catch (const trainsim::WriteError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
}

// Entry point of the `trainsim` executable; everything else lives in sim/cli/.
#include <exception>
#include <iostream>

#include "sim/cli/commands.hpp"
#include "sim/core/error.hpp"

int main(int argc, char** argv) {
  try {
    return trainsim::run_cli(std::vector<std::string>(argv + 1, argv + argc));
  } catch (const trainsim::WriteError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
}

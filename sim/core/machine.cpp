#include "sim/core/machine.hpp"

#include <fstream>
#include <sstream>
#include <string>

namespace trainsim {

uint64_t available_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) != 0) continue;
    std::istringstream fields(line.substr(13));
    uint64_t kib = 0;
    fields >> kib;  // "MemAvailable:   12345678 kB"
    return kib * 1024;
  }
  return 0;
}

uint64_t max_memory_mappings() {
  std::ifstream in("/proc/sys/vm/max_map_count");
  uint64_t count = 0;
  return (in >> count) && count > 0 ? count : 65530;
}

}  // namespace trainsim

// What the machine running trainsim offers, read from the operating system (Linux /proc), for
// checks that refuse up front what the machine cannot hold instead of failing part-way.
#pragma once
#include <cstdint>

namespace trainsim {

// Memory the kernel says can be allocated without swapping (MemAvailable), bytes; 0 if unknown.
[[nodiscard]] uint64_t available_memory_bytes();
// Memory mappings a process may hold (vm.max_map_count); Linux's default 65,530 if unreadable.
[[nodiscard]] uint64_t max_memory_mappings();

}  // namespace trainsim

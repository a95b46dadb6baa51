// Plausible ranges of the physical quantities in platform, model and run YAML. A value outside
// its range is a ConfigError at load time (naming the file, line, key, value and the range),
// because the stages after loading would turn it into nonsense: a bandwidth of 1e-300 B/s
// deadlocks the replay, an efficiency of 1e-300 or a kernel overhead of 1e300 s gives stage
// times of 1e94 s. Each range spans several orders of magnitude around today's hardware, so
// what-if studies (a 10x faster link, a 100x slower one) stay inside it. docs/schema.md lists
// every range; keep the two in step. Internal to sim/config.
#pragma once
#include <string>

#include "sim/config/yaml_reader.hpp"

namespace trainsim {

// Counts. 2^20 devices is ten times the largest cluster built (about 100,000 accelerators);
// per-device arrays and the rank arithmetic stay far from INT_MAX.
inline constexpr int kMaxDevices = 1 << 20;
inline constexpr int kMaxComputeUnits = 1 << 20;  // SMs / AI cores: an H100 has 132
inline constexpr int kMaxGemmTile = 1 << 16;      // GEMM tiles are 64-256 rows or columns
inline constexpr int kMaxDevicesPerNic = 1 << 10;  // 1-8 today
inline constexpr int kMaxSwitchRadix = 1 << 16;   // 64-512 ports today
inline constexpr int kMaxPlanes = 1 << 10;        // 1-8 network planes today

// Accelerator.
[[nodiscard]] QuantityRange peak_flop_rate_range();     // peak_flops.*: 1 GFLOPS .. 1e6 PFLOPS
[[nodiscard]] QuantityRange device_memory_range();      // memory_capacity: 1 MiB .. 1 PiB
[[nodiscard]] QuantityRange memory_bandwidth_range();   // memory_bandwidth: 1 GBps .. 1 PBps
[[nodiscard]] QuantityRange kernel_overhead_range();    // kernel_overhead: 0 .. 10 ms
// Network tiers.
[[nodiscard]] QuantityRange link_bandwidth_range();     // bandwidth, link_bandwidth: 1 MBps .. 1 PBps
[[nodiscard]] QuantityRange link_latency_range();       // latency: 0 .. 10 ms
// Run.
[[nodiscard]] QuantityRange bucket_size_range();        // strategy.grad_bucket_size: 1 KiB .. 1 TiB
[[nodiscard]] QuantityRange framework_overhead_range(); // framework_overhead: 0 .. 1 PiB
// Framework.
[[nodiscard]] QuantityRange host_time_range();          // host.launch, .pass, .pipeline_instruction: 0 .. 1 s

// Plain numbers.
[[nodiscard]] Bounds efficiency_range();        // *_efficiency, tier efficiency: [0.01, 1]
[[nodiscard]] Bounds k_overhead_range();        // gemm_k_overhead (K-steps), attention_k_overhead (keys): [0, 1e6]
[[nodiscard]] Bounds rng_rate_range();          // dropout_rng_rate, numbers per second: [0, 1e18]
[[nodiscard]] Bounds oversubscription_range();  // [1, 1024]
[[nodiscard]] Bounds host_slowdown_range();     // platform host_slowdown: [0.05, 100]
[[nodiscard]] Bounds comm_slowdown_range();     // accelerator overlap_comm_slowdown: [1, 100]
[[nodiscard]] Bounds capacity_factor_range();   // moe.capacity_factor: [0.01, 1024]
[[nodiscard]] Bounds glu_clamp_range();         // moe.glu_clamp: [0, 1e6] (0 = no clamp)
[[nodiscard]] Bounds expert_imbalance_range();  // run moe.imbalance: [1, 1024]
[[nodiscard]] Bounds allocator_reserve_range(); // framework memory.allocator_reserve: [0, 1]

}  // namespace trainsim

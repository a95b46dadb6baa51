// The ranges of plausible_ranges.hpp, with the reason for each bound. "Today" means the bundled
// presets: H100 989 TFLOPS bf16, 80 GiB, 3.35 TBps; NVLink 450 GBps, InfiniBand 400 Gbps; 1-5 us
// latencies and kernel launch overheads.
#include "sim/config/plausible_ranges.hpp"

namespace trainsim {

// 1 GFLOPS is a phone CPU core; 1e21 FLOP/s (1e6 PFLOPS) is a thousand times a GB200 NVL72 rack.
QuantityRange peak_flop_rate_range() { return {1e9, 1e21, "1GFLOPS", "1000000PFLOPS"}; }
// 1 MiB holds no layer of any model; 1 PiB is a thousand times the largest HBM stack today.
QuantityRange device_memory_range() { return {1048576.0, 1125899906842624.0, "1MiB", "1PiB"}; }
// 1 GBps is DDR3 on one channel; 1 PBps is 300 times an H100's HBM3.
QuantityRange memory_bandwidth_range() { return {1e9, 1e15, "1GBps", "1PBps"}; }
// A kernel launch costs microseconds; 10 ms is a thousand times that (a Python-bound framework).
QuantityRange kernel_overhead_range() { return {0, 1e-2, "0s", "10ms"}; }
// 1 MBps is a 10 Mbps Ethernet link; 1 PBps is 2,000 times NVLink 4.
QuantityRange link_bandwidth_range() { return {1e6, 1e15, "1MBps", "1PBps"}; }
// 10 ms crosses a continent; in-cluster latencies are 0.1-10 us.
QuantityRange link_latency_range() { return {0, 1e-2, "0s", "10ms"}; }
// Megatron's default bucket is 40 MB; a bucket of a whole 1 TiB model is the largest useful one.
QuantityRange bucket_size_range() { return {1024.0, 1099511627776.0, "1KiB", "1TiB"}; }
// Reserved memory per device, at most the largest device memory above.
QuantityRange framework_overhead_range() { return {0, 1125899906842624.0, "0B", "1PiB"}; }
// A launch costs microseconds of host time and a Python-level pass milliseconds; a second per
// launch or pass is a host a thousand times slower than any framework measured.
QuantityRange host_time_range() { return {0, 1, "0s", "1s"}; }

// An efficiency below 1% of peak is a misconfigured input, not a slow kernel.
Bounds efficiency_range() { return {0.01, false, 1, false}; }
// Tile prologue costs are tens of K-steps; 1e6 is far past any K a GEMM runs.
Bounds k_overhead_range() { return {0, false, 1e6, false}; }
// Philox draws ~1e12 numbers per second on an H100; 1e18 is a million times that.
Bounds rng_rate_range() { return {0, false, 1e18, false}; }
// Fat trees are built 1:1 to about 8:1; 1024:1 is no longer a network worth modelling.
Bounds oversubscription_range() { return {1, false, 1024, false}; }
// Hosts differ from the reference x86 server by a few times at most for the same Python and driver work.
Bounds host_slowdown_range() { return {0.05, false, 100, false}; }
// Communication beside a GEMM is slowed, not sped up; a hundredfold is no overlap worth the name.
Bounds comm_slowdown_range() { return {1, false, 100, false}; }
// MoE capacity factors are 1-2; above the expert count every token fits anyway.
Bounds capacity_factor_range() { return {0.01, false, 1024, false}; }
// Clamped activations bound their inputs at a few units (GPT-OSS: 7); 1e6 no longer clamps bf16 sums.
Bounds glu_clamp_range() { return {0, false, 1e6, false}; }
// The busiest expert-parallel rank's routed rows over an even share: 1 (balanced) to every token on
// one rank of a 1024-wide group.
Bounds expert_imbalance_range() { return {1, false, 1024, false}; }
// Reserved beyond the allocated peak, as a fraction of it: 0 (no caching) to doubling it.
Bounds allocator_reserve_range() { return {0, false, 1, false}; }

}  // namespace trainsim

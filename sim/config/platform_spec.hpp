// A cluster, as plain data parsed from platforms/*.yaml. The YAML mirrors this tree:
// every YAML key is the field name below (snake_case); quantities take unit strings.
//
//   name: dgx-h100-superpod
//   description: "..."
//   accelerator: {name, peak_flops: {bf16: 989TFLOPS, ...}, memory_capacity: 80GiB,
//                 memory_bandwidth: 3.35TBps, compute_units: 132, gemm_tile_m: 128, gemm_tile_n: 256,
//                 gemm_wave_quantization: true, gemm_efficiency: 0.8, fp8_gemm_efficiency: 0.7,
//                 gemm_k_overhead: 64,
//                 attention_efficiency: 0.6, attention_k_overhead: 0, memory_efficiency: 0.8, kernel_overhead: 4us,
//                 dropout_rng_rate: 0.8e12, comm_interference: 0.05}
//   tiers:            # innermost first; each tier joins groups of the previous one
//     - {name: nvlink, topology: nvswitch, domain_size: 8, bandwidth: 450GBps, latency: 1us, ...}
//     - {name: ib, topology: rail_optimized, domain_size: 0, bandwidth: 50GBps, latency: 2us,
//        switch_radix: 64, oversubscription: 1}
//   max_devices: 32768
#pragma once
#include <map>
#include <string>
#include <vector>

#include "sim/config/precision.hpp"
#include "sim/core/units.hpp"

namespace trainsim {

struct AcceleratorSpec {
  std::string name;                                  // e.g. "H100-SXM5-80GB"
  std::map<Precision, FlopsPerSecond> peak_flops;    // dense peak per precision, FLOP/s
  Bytes memory_capacity = 0;                         // HBM capacity, bytes
  BytesPerSecond memory_bandwidth = 0;               // HBM bandwidth, bytes/s
  int compute_units = 1;                             // SMs / AI cores, for GEMM wave quantization
  int gemm_tile_m = 128;                             // output tile rows one compute unit handles
  int gemm_tile_n = 128;                             // output tile columns
  bool gemm_wave_quantization = true;                // false: the GEMM library balances the last wave
                                                     // (stream-K / split-K), so no wave is partly idle
  double gemm_efficiency = 0.8;                      // fraction of peak a large, well-shaped GEMM reaches
  double fp8_gemm_efficiency = 0;                    // the same for 8-bit GEMMs (fp8, mxfp8), as a fraction
                                                     // of the 8-bit peak; 0 = not given (a run in fp8 on a
                                                     // card with an 8-bit peak is then refused)
  double mxfp8_gemm_ratio = 1;                       // an MXFP8 GEMM's rate over an fp8 (tensor-scaled) GEMM's
                                                     // of the same shape: its level is fp8_gemm_efficiency x this
  bool fp8_gemm_any_layout = false;                  // the card's tensor-scaled FP8 GEMMs take operands in any
                                                     // layout (Blackwell), so no column-wise FP8 copies are
                                                     // made; false: TN only (Hopper), the backward's GEMMs
                                                     // read transposed copies
  double gemm_k_overhead = 0;                        // fixed cost of each output tile (prologue, epilogue)
                                                     // in K-steps of a 16-bit GEMM: a GEMM of depth K runs
                                                     // at K/(K + this); an 8-bit GEMM's K-steps are shorter
                                                     // by its rate ratio, so the same fixed time is more of them
  double attention_efficiency = 0.6;                 // fraction of peak a fused (flash) attention reaches
  double attention_backward_efficiency = 0;          // the same for its backward; 0: attention_efficiency
  double attention_k_overhead = 0;                   // fixed cost of each query tile of fused attention, in
                                                     // keys: queries attending L keys run at L/(L + this)
  double memory_efficiency = 0.8;                    // fraction of HBM bandwidth memory-bound kernels reach
  Seconds kernel_overhead = 0;                       // fixed cost per kernel launch, seconds
  double dropout_rng_rate = 0;                       // random numbers per second a fused attention kernel
                                                     // draws for its dropout mask (Philox), on top of its
                                                     // math; 0 = not modelled (dropout costs nothing there)
  double comm_interference = 0;                      // compute slowdown while communication overlaps
                                                     // (0.1 = kernels take 10% longer), dimensionless
  double overlap_comm_slowdown = 1;                  // how many times slower than alone a collective
                                                     // pipelined with its GEMM moves its bytes (a fused
                                                     // GEMM + collective contending for memory), >= 1
};

// How the domains of one tier are wired.
enum class Topology {
  kNvswitch,       // every device has one port of `bandwidth` into a crossbar switch (NVSwitch, UB switch)
  kFullMesh,       // a direct link of `link_bandwidth` between every pair (HCCS); bandwidth = sum over peers
  kFatTree,        // leaf/spine tree of switches with `switch_radix` ports, `oversubscription` at the leaves
  kRailOptimized,  // device k of every lower domain on rail switch k; rails joined by a spine
  kClos,           // unified-bus style two-level Clos (CloudMatrix384): every device one hop from any other
};
[[nodiscard]] const char* to_string(Topology t);
[[nodiscard]] bool parse_topology(const std::string& text, Topology* out);

struct TierSpec {
  std::string name;                   // "nvlink", "hccs", "ub", "ib", "roce"
  Topology topology = Topology::kNvswitch;
  int domain_size = 0;                // devices in one domain of this tier; 0 = all devices
  BytesPerSecond bandwidth = 0;       // per device, per direction, bytes/s (NIC or switch port)
  BytesPerSecond link_bandwidth = 0;  // per direct link, per direction (full_mesh only), bytes/s
  Seconds latency = 0;                // one-way end-to-end latency of a transfer on this tier, seconds
  int devices_per_nic = 1;            // devices sharing one NIC (scale-out tiers)
  int switch_radix = 64;              // ports per switch (fat_tree, rail_optimized): a leaf has radix/2 NIC ports
  double oversubscription = 1.0;      // NIC : uplink bandwidth at the leaf (1 = non-blocking); sizes only the
                                      // leaf uplinks, not how many NICs share a leaf
  int planes = 1;                     // parallel identical networks (multi-plane); bandwidth is summed
  bool in_network_reduction = false;  // switch can reduce (NVLink SHARP / IB SHARP)
  double efficiency = 1.0;            // fraction of bandwidth a transfer achieves (protocol and
                                      // NCCL/HCCL overheads), in (0, 1]; calibratable per tier
};

// A parameter no measurement supports (from the platform's `uncalibrated:` list), e.g.
// {"accelerator.gemm_efficiency", "0.65"}: `check` and `simulate` print these.
struct UncalibratedParameter {
  std::string key;    // dotted key path in the platform file
  std::string value;  // its value as written
};

// A key the file left out and the default it took, e.g. {"accelerator.kernel_overhead", "0s"}:
// `check` prints these, since a left-out efficiency or overhead is an optimistic assumption.
struct DefaultedKey {
  std::string key;    // dotted key path in the platform file
  std::string value;  // the default, as YAML would spell it
};

struct PlatformSpec {
  std::string name;
  std::string description;
  std::string source_file;            // where it was loaded from (for messages)
  AcceleratorSpec accelerator;
  std::vector<TierSpec> tiers;        // innermost first
  int max_devices = 0;                // largest device count this platform models (0 = unbounded)
  // How many times longer this platform's host CPU takes than a DGX H100's x86 host (Xeon Platinum
  // 8480C) to issue the same framework work: the frameworks' host costs (framework_spec.hpp) are
  // per that host, and are multiplied by this (1 = as fast).
  double host_slowdown = 1;
  // The host side of one device, for optimizer offload (strategy.offload: optimizer), which moves
  // gradients and weights over it and runs the optimizer step in host memory. 0 = not given: runs
  // that offload are then refused on this platform.
  BytesPerSecond host_link_bandwidth = 0;    // host <-> device (PCIe), per device and direction, bytes/s
  BytesPerSecond host_memory_bandwidth = 0;  // host DRAM bandwidth per device (a node's / its devices), bytes/s
  double host_efficiency = 1;                // fraction of both peaks the copies and the CPU optimizer reach
  // Whether both host figures are given, so that an offloaded optimizer step can be timed.
  [[nodiscard]] bool gives_host_side() const { return host_link_bandwidth > 0 && host_memory_bandwidth > 0; }
  std::vector<UncalibratedParameter> uncalibrated;  // parameters no measurement supports
  std::vector<DefaultedKey> defaulted;              // keys left out that took their default (in file order
                                                    // of their maps: accelerator, then each tier)
};

}  // namespace trainsim

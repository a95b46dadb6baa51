// The keys of a platform file (platforms/*.yaml), read by platform_loader.cpp and printed by
// `trainsim schema platform`. Ranges: sim/config/plausible_ranges.hpp.
#include "sim/config/platform_keys.hpp"

#include "sim/config/enum_names.hpp"
#include "sim/config/plausible_ranges.hpp"

namespace trainsim {
namespace {

using A = AcceleratorSpec;
using T = TierSpec;

bool switched(const TierSpec& t) { return t.topology == Topology::kFatTree || t.topology == Topology::kRailOptimized; }

void read_peak_flops(MapReader& acc, AcceleratorSpec* a) {
  std::vector<std::string> names;
  for (const auto& p : precision_names()) names.emplace_back(p.first);
  auto peaks = acc.map("peak_flops", Need::kRequired, names);
  for (const auto& [name, precision] : precision_names()) {
    double rate = 0;
    if (peaks->read_quantity(name, &rate, Quantity::kFlopRate, Need::kOptional, peak_flop_rate_range())) {
      a->peak_flops[precision] = rate;
    }
  }
  if (a->peak_flops.empty()) {
    acc.fail("peak_flops", "needs the peak rate of at least one precision", "an empty map",
             "a map from precision (" + join_names(names) + ") to a FLOP rate, e.g. {bf16: 989TFLOPS}");
  }
}

// Only a card with an 8-bit peak can leave it out with consequence: then its 8-bit runs are refused.
KeyEntry<A> fp8_gemm_efficiency_key() {
  KeyEntry<A> e = number_key<A>("fp8_gemm_efficiency", &A::fp8_gemm_efficiency, Need::kOptional, efficiency_range(),
                                "fraction of the 8-bit peak (fp8, mxfp8) a large 8-bit GEMM reaches; 0 = not given: "
                                "runs in fp8 or mxfp8 on this card are then refused");
  e.applies = [](const A& a) {
    return a.peak_flops.count(Precision::kFp8) > 0 || a.peak_flops.count(Precision::kMxfp8) > 0;
  };
  e.applies_to = "cards with an fp8 or mxfp8 peak";
  return e;
}

// Block-scaled MMA reads a scale per 32 elements of each operand: only cards with an mxfp8 peak have it.
KeyEntry<A> mxfp8_gemm_ratio_key() {
  KeyEntry<A> e = number_key<A>("mxfp8_gemm_ratio", &A::mxfp8_gemm_ratio, Need::kOptional, efficiency_range(),
                                "an MXFP8 GEMM's rate as a fraction of an fp8 (tensor-scaled) GEMM's of the same shape: "
                                "its level is fp8_gemm_efficiency x this; 1 = the same");
  e.applies = [](const A& a) { return a.peak_flops.count(Precision::kMxfp8) > 0; };
  e.applies_to = "cards with an mxfp8 peak";
  return e;
}

// Transformer Engine asks the card (nvte_is_non_tn_fp8_gemm_supported: compute capability 10.x and 13.x or
// later) and, where it says yes, makes no transposed copy of a tensor-scaled FP8 tensor.
KeyEntry<A> fp8_gemm_any_layout_key() {
  KeyEntry<A> e = bool_key<A>("fp8_gemm_any_layout", &A::fp8_gemm_any_layout, Need::kOptional,
                              "true: tensor-scaled FP8 GEMMs read operands in any layout (Blackwell), so delayed and "
                              "current scaling write one FP8 copy of a tensor and transpose nothing; false: TN only "
                              "(Hopper), the backward's GEMMs need column-wise (transposed) copies");
  e.applies = [](const A& a) { return a.peak_flops.count(Precision::kFp8) > 0; };
  e.applies_to = "cards with an fp8 peak";
  return e;
}

KeyEntry<A> peak_flops_key() {
  KeyEntry<A> e = custom_key<A>(
      "peak_flops", Need::kRequired,
      "a map from precision (fp32, tf32, bf16, fp16, fp8, mxfp8) to a FLOP rate " + peak_flop_rate_range().text() +
          ", at least one entry",
      "dense peak per precision (a phone core .. a thousand GB200 racks); `mxfp8` (OCP MX: a 1-byte scale per 32 "
      "elements, 33/32 bytes per element) only where the card has block-scaled tensor cores, nothing stands in for it");
  e.read = [](MapReader& r, const KeyEntry<A>&, A& a) {
    read_peak_flops(r, &a);
    return true;
  };
  return e;
}

// Required with full_mesh (the bandwidth of each direct link), refused with any other topology.
KeyEntry<T> link_bandwidth_key() {
  KeyEntry<T> e = custom_key<T>("link_bandwidth", Need::kOptional,
                                std::string(quantity_name(Quantity::kBandwidth)) + " " + link_bandwidth_range().text() +
                                    "; required with full_mesh, refused otherwise",
                                "per direct link between two devices, per direction");
  e.read = [](MapReader& r, const KeyEntry<T>& k, T& t) {
    if (t.topology == Topology::kFullMesh)
      return r.read_quantity(k.key, &t.link_bandwidth, Quantity::kBandwidth, Need::kRequired, link_bandwidth_range());
    if (r.has(k.key))
      r.fail(k.key, std::string("is used only by topology full_mesh, not ") + to_string(t.topology), r.text_of(k.key),
             "remove it, or set topology: full_mesh");
    return false;
  };
  return e;
}

// A tree switch splits its ports into at least 2 down and 2 up; below 4 (0 and negatives too) the
// message says so.
KeyEntry<T> switch_radix_key() {
  return int_key<T>("switch_radix", &T::switch_radix, Need::kOptional, 4, kMaxSwitchRadix,
                    "ports per switch: a leaf has radix/2 device ports whatever the oversubscription, so a "
                    "leaf with more is a larger radix (a tree switch needs 2 ports down and 2 up; 64-512 "
                    "today)",
                    "a switch needs at least 4 ports (2 down, 2 up)");
}

std::vector<KeyEntry<A>> accelerator_entries() {
  const Need opt = Need::kOptional;
  return {
      string_key<A>("name", &A::name, Need::kRequired, "a non-empty string", "the card, e.g. H100-SXM5-80GB"),
      peak_flops_key(),
      quantity_key<A>("memory_capacity", &A::memory_capacity, Quantity::kBytes, Need::kRequired, device_memory_range(),
                      "HBM per device (less than 1 MiB holds no layer; 1 PiB is 1000x today's largest HBM)"),
      quantity_key<A>("memory_bandwidth", &A::memory_bandwidth, Quantity::kBandwidth, Need::kRequired,
                      memory_bandwidth_range(), "HBM bandwidth (one DDR3 channel .. 300x H100 HBM3)"),
      int_key<A>("compute_units", &A::compute_units, opt, 1, kMaxComputeUnits,
                 "SMs / AI cores, for GEMM wave quantization (an H100 has 132)"),
      int_key<A>("gemm_tile_m", &A::gemm_tile_m, opt, 1, kMaxGemmTile, "output tile rows one compute unit handles (64-256 today)"),
      int_key<A>("gemm_tile_n", &A::gemm_tile_n, opt, 1, kMaxGemmTile, "output tile columns"),
      bool_key<A>("gemm_wave_quantization", &A::gemm_wave_quantization, opt,
                  "false: the GEMM library balances the last wave (stream-K / split-K), so no wave is partly idle"),
      number_key<A>("gemm_efficiency", &A::gemm_efficiency, opt, efficiency_range(),
                    "fraction of peak a large, well-shaped GEMM reaches (below 1% is a misconfiguration)"),
      fp8_gemm_efficiency_key(),
      mxfp8_gemm_ratio_key(),
      fp8_gemm_any_layout_key(),
      number_key<A>("gemm_k_overhead", &A::gemm_k_overhead, opt, k_overhead_range(),
                    "fixed cost of each output tile in 16-bit K-steps: a GEMM of depth K runs at K/(K + this) (tens "
                    "today); an 8-bit GEMM's K-steps are shorter by its rate ratio, so the same time is more of them"),
      number_key<A>("attention_efficiency", &A::attention_efficiency, opt, efficiency_range(),
                    "fraction of peak a fused (flash) attention reaches"),
      number_key<A>("attention_backward_efficiency", &A::attention_backward_efficiency, opt, efficiency_range(),
                    "the same for the fused attention's backward (dQ, dK, dV); absent: attention_efficiency"),
      number_key<A>("attention_k_overhead", &A::attention_k_overhead, opt, k_overhead_range(),
                    "fixed cost of each query tile of fused attention, in keys: L keys run at L/(L + this)"),
      number_key<A>("memory_efficiency", &A::memory_efficiency, opt, efficiency_range(),
                    "fraction of HBM bandwidth memory-bound kernels reach"),
      quantity_key<A>("kernel_overhead", &A::kernel_overhead, Quantity::kTime, opt, kernel_overhead_range(),
                      "fixed cost per kernel launch (microseconds today; 10 ms is a Python-bound framework)"),
      number_key<A>("dropout_rng_rate", &A::dropout_rng_rate, opt, rng_rate_range(),
                    "random numbers per second a fused attention kernel draws for its dropout mask (~1e12 on an "
                    "H100); 0 = not modelled, dropout inside fused attention costs nothing"),
      number_key<A>("comm_interference", &A::comm_interference, opt, fraction_below_one(),
                    "compute slowdown while the device's own communication moves (0.1 = kernels 10% longer)"),
      number_key<A>("overlap_comm_slowdown", &A::overlap_comm_slowdown, opt, comm_slowdown_range(),
                    "how many times slower than alone a TP collective pipelined with its GEMM (overlap.tp_comm) "
                    "moves its bytes: 1.15 = its flows at 1/1.15 of their route's bandwidth"),
  };
}

std::vector<KeyEntry<T>> tier_entries() {
  const Need opt = Need::kOptional;
  auto mesh = [](const T& t) { return t.topology == Topology::kFullMesh; };
  return {
      string_key<T>("name", &T::name, Need::kRequired, "a non-empty string, unique among the tiers",
                    "e.g. nvlink, hccs, ub, ib, roce"),
      enum_key<T>("topology", &T::topology, Need::kRequired, topology_names(),
                  "how the tier's domains are wired (`trainsim list topologies`)"),
      int_key<T>("domain_size", &T::domain_size, opt, 0, kMaxDevices,
                 "devices in one domain; 0 = all devices (only on the outermost tiers). Each tier's domain is a "
                 "whole number of the tier inside it; a run spanning several domains of a tier fills each"),
      quantity_key<T>("bandwidth", &T::bandwidth, Quantity::kBandwidth, Need::kRequired, link_bandwidth_range(),
                      "per device, per direction (a NIC shared by devices_per_nic devices carries bandwidth x "
                      "devices_per_nic; 10 Mbps Ethernet .. 2000x NVLink 4)"),
      link_bandwidth_key(),
      quantity_key<T>("latency", &T::latency, Quantity::kTime, Need::kRequired, link_latency_range(),
                      "one-way end-to-end latency of a transfer on this tier (0.1-10 us in clusters)"),
      only_for(int_key<T>("devices_per_nic", &T::devices_per_nic, opt, 1, kMaxDevicesPerNic,
                          "devices sharing one NIC (1-8 today); `check` prints the bandwidth per NIC when above 1"),
               std::function<bool(const T&)>(switched), "fat_tree, rail_optimized"),
      only_for(switch_radix_key(), std::function<bool(const T&)>(switched), "fat_tree, rail_optimized"),
      only_for(number_key<T>("oversubscription", &T::oversubscription, opt, oversubscription_range(),
                             "device-port : uplink bandwidth at the leaf (1 = non-blocking); it sizes only the leaf "
                             "uplinks, not how many devices share a leaf (trees are built 1:1 to about 8:1)"),
               std::function<bool(const T&)>(switched), "fat_tree, rail_optimized"),
      int_key<T>("planes", &T::planes, opt, 1, kMaxPlanes, "parallel identical networks; bandwidth is summed (1-8 today)"),
      only_for(bool_key<T>("in_network_reduction", &T::in_network_reduction, opt,
                           "the switch reduces (NVLink SHARP / IB SHARP): all-reduce as NVLS"),
               std::function<bool(const T&)>([mesh](const T& t) { return !mesh(t); }), "nvswitch, fat_tree, rail_optimized, clos"),
      number_key<T>("efficiency", &T::efficiency, opt, efficiency_range(),
                    "fraction of bandwidth a transfer achieves (protocol and NCCL/HCCL overheads)"),
  };
}

std::vector<KeyEntry<PlatformSpec>> platform_entries() {
  using P = PlatformSpec;
  return {
      string_key<P>("name", &P::name, Need::kRequired, "a non-empty string", "the preset's name"),
      string_key<P>("description", &P::description, Need::kOptional, "a string", "one line for `trainsim list`", true),
      custom_key<P>("accelerator", Need::kRequired, "a map with the `accelerator.*` keys", "the device"),
      custom_key<P>("tiers", Need::kRequired, "a list of at least one map with the `tiers.N.*` keys",
                    "the networks, innermost first; each tier joins whole domains of the one inside it"),
      int_key<P>("max_devices", &P::max_devices, Need::kOptional, 0, kMaxDevices,
                 "the largest device count the platform models (0 = unbounded)"),
      number_key<P>("host_slowdown", &P::host_slowdown, Need::kOptional, host_slowdown_range(),
                    "how many times longer the host CPU takes than a DGX H100's x86 host (Xeon Platinum 8480C) to "
                    "issue the same framework work; multiplies the framework's host costs (1 = as fast)"),
      quantity_key<P>("host_link_bandwidth", &P::host_link_bandwidth, Quantity::kBandwidth, Need::kOptional,
                      link_bandwidth_range(),
                      "host <-> device link (PCIe) per device, per direction: optimizer offload moves gradients and "
                      "weights over it; absent: runs with strategy.offload optimizer are refused"),
      quantity_key<P>("host_memory_bandwidth", &P::host_memory_bandwidth, Quantity::kBandwidth, Need::kOptional,
                      memory_bandwidth_range(),
                      "host DRAM bandwidth per device (the node's over its devices): an offloaded optimizer step "
                      "is bound by it; absent: runs with strategy.offload optimizer are refused"),
      number_key<P>("host_efficiency", &P::host_efficiency, Need::kOptional, efficiency_range(),
                    "fraction of host_link_bandwidth and host_memory_bandwidth the offloaded copies and CPU "
                    "optimizer reach"),
      custom_key<P>("uncalibrated", Need::kOptional,
                    "a list of dotted key paths (`accelerator.gemm_efficiency`, `tiers.1.efficiency`), each naming a "
                    "value the file gives, each once",
                    "the parameters no measurement supports; `check` and `simulate` print them with their values, "
                    "`--json` has them as `uncalibrated_parameters`"),
  };
}

}  // namespace

const KeyTable<AcceleratorSpec>& accelerator_keys() {
  static const KeyTable<AcceleratorSpec> table(accelerator_entries());
  return table;
}

const KeyTable<TierSpec>& tier_keys() {
  static const KeyTable<TierSpec> table(tier_entries());
  return table;
}

const KeyTable<PlatformSpec>& platform_keys() {
  static const KeyTable<PlatformSpec> table(platform_entries());
  return table;
}

}  // namespace trainsim

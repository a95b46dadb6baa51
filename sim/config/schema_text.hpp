// The prose around the key tables of the schema page (sim/config/schema_page.cpp): what spans
// several keys, or no key at all. Internal to sim/config.
#pragma once

namespace trainsim {

inline constexpr const char* kSchemaIntro = R"(# Input schema: keys, units and valid ranges

This page is generated from the tables the loaders read their keys with (`build/trainsim schema >
docs/schema.md`; test `cli_schema_test` fails when the two differ), so what it says is what the
loaders accept. Every value in platform, model and run YAML is checked when it is loaded. A value
outside its range is refused with exit code 2 and one message of the shape

    <file>:<line>: <key.path>: <problem> (got '<value>'); valid: <what would be valid>

Quantities are unit strings (`400GBps`, `400Gbps`, `1.5us`, `989TFLOPS`, `80GiB`); a bare number is
refused where the unit is not in the key's name. Hexadecimal, `inf` and `nan` are refused, and a value
that overflows once its unit is applied (`1e308PiB`) is refused at its key. An unknown key is refused,
naming the valid ones.

The ranges are *plausible* ranges: each spans several orders of magnitude around today's hardware
(H100: 989 TFLOPS bf16, 80 GiB, 3.35 TBps; NVLink 450 GBps; InfiniBand 400 Gbps; 1-5 us latencies and
launch overheads), so what-if studies fit inside them, while values that would only produce nonsense
(a 1e-300 Bps link deadlocks the replay; an efficiency of 1e-300 gives stage times of 1e94 s) stop at
the key that holds them. They live in `sim/config/plausible_ranges.hpp`, `sim/config/model_limits.hpp`
and `sim/graph/schedule.hpp`.

A key left out takes the default in its row. For a platform, the defaults a file took are printed by
`trainsim check` and `simulate` (the `defaults` line), because a left-out efficiency (1.0 on a tier),
kernel overhead (0) or interference (0) is an optimistic assumption, not a measurement.

)";

inline constexpr const char* kSchemaPlatformIntro = R"(## Platform (`platforms/*.yaml`)

`tiers.N` is the N-th tier, innermost first. A key marked "only with topology ..." is read (and range
checked) everywhere but means something only there, so only there is it reported as defaulted.

)";

inline constexpr const char* kSchemaModelIntro = R"(
## Model (`workloads/models/*.yaml`)

)";

inline constexpr const char* kSchemaModelSizeNote =
    R"( parameters, 600x the largest published (Switch-C, 1.6e12); this keeps parameter, byte and FLOP
counts exact in 64-bit integers. The error names the key of the largest term (`hidden`, `ffn_hidden`,
`moe.experts` or `vocab`).
)";

inline constexpr const char* kSchemaRunIntro = R"(
## Run (`workloads/*.yaml`)

)";

inline constexpr const char* kSchemaFrameworkIntro = R"(
## Framework (`workloads/frameworks/*.yaml`, or a run's `framework:` map)

Unset keys keep the base preset's value (or the default in their row). `--set
framework.host.launch=20us` changes one key of the run's framework; `--set framework=megatron-lm`
changes the preset.

)";

inline constexpr const char* kSchemaOutro = R"(
## Presets from a base (platforms and models)

A platform or model file may start from another preset of its kind instead of repeating it:

    base: dgx-h100-superpod          # a preset name or a path (relative to this file)
    name: h100-ib-800g
    description: "DGX H100 SuperPOD with 800 Gb/s InfiniBand"
    set: {tiers.1.bandwidth: 800Gbps, accelerator.memory_capacity: 141GiB}

`set:` takes the key paths `--set platform.…` / `--set model.…` take (without the prefix), checked with
the same ranges; an error in one names this file, its line and `set.<path>`. Beside `base:` only `name`,
`description` and `set` are valid. A base may have a base, at most 8 deep (a loop stops there).

## Files

A path that is a directory, a device or pipe (`/dev/zero`), or a file over 16 MiB is refused before
it is read (the largest bundled YAML is a few KiB). YAML nested deeper than yaml-cpp can parse is
refused with a message that says so.

## Results

A non-finite figure (inf, nan) at report time is an internal error (exit 1 with a message), never
a printed number.
)";

}  // namespace trainsim

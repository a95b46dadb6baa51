// How the cost of SimGrid's own primitives grows with the number of actors, apart from anything the
// replay does: N actors, one per host, each waking up the same number of times through one
// primitive, measured in CPU seconds per wake-up. The replay's cost per wake-up grows with the
// device count (README, "Scale"); this says how much of that growth SimGrid 3.32 shows on its own.
// Like every simulation, each measurement needs a process of its own (sim/core/child_process.hpp).
#pragma once
#include <string>

namespace trainsim {

enum class EnginePrimitive {
  kYield,    // this_actor::yield(): a context switch and a scheduling round, no simulated time
  kSleep,    // this_actor::sleep_for(): a timer per wake-up, as the replay's waits on a known date
  kExecute,  // this_actor::execute(): an Exec activity on the actor's host (CPU model, max-min solver)
};

[[nodiscard]] const char* to_string(EnginePrimitive p);

struct EngineBench {
  long wakeups = 0;          // wake-ups of all actors together
  double cpu_seconds = 0;    // CPU time of Engine::run, this process
  double simulated = 0;      // simulated seconds at the end (a check that the actors ran)
};

// Runs `actors` actors that each wake up `per_actor` times through `p` (a sleep or an execution of
// 1-7 us, by actor) and returns the count and the CPU time. Creates the process's SimGrid engine:
// call it once per process.
[[nodiscard]] EngineBench bench_engine_primitive(EnginePrimitive p, int actors, int per_actor);

}  // namespace trainsim

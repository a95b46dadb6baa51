// Folding is exact wherever it is used (issue 12): on every platform kind the folded replay
// gives the full replay's iteration time within 0.5%, either because it folded exactly (the
// mirror flows of sim/replay/fold_plan.hpp) or because it declined and replayed unfolded,
// saying why.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>

#include "sim/config/loader.hpp"
#include "sim/core/child_process.hpp"
#include "sim/graph/builder.hpp"
#include "sim/replay/fold_plan.hpp"
#include "tests/support/paths.hpp"

using namespace trainsim;
namespace fs = std::filesystem;

namespace {


struct Replayed {
  double time = 0;    // iteration time, seconds
  int devices = 0;    // devices replayed
  std::string note;   // why folding was declined ("" if it was not)
};

Replayed replay_run(const std::string& run_file, const std::vector<std::string>& sets, bool fold) {
  const std::string out = call_in_child([&] {
    const RunSpec run = load_run(kRoot / run_file, sets);
    ReplayOptions o;
    o.fold_data_parallel = fold && run.strategy.dp > replicas_kept(run.strategy);
    o.fold_tensor_parallel = fold && run.strategy.tp > 1;
    const Timeline t = replay_exact(run, build_run_graph(run), Mesh(run.strategy), o);
    std::ostringstream s;
    s.precision(17);
    s << t.iteration_time << ' ' << t.devices.size() << ' ' << t.fold_note;
    return s.str();
  });
  std::istringstream in(out);
  Replayed r;
  in >> r.time >> r.devices;
  std::getline(in, r.note);
  if (!r.note.empty() && r.note.front() == ' ') r.note.erase(0, 1);
  return r;
}

// Folded vs full replay of one run; returns the folded result.
Replayed check_fold(const std::string& run_file, const std::vector<std::string>& sets) {
  const Replayed full = replay_run(run_file, sets, false);
  const Replayed folded = replay_run(run_file, sets, true);
  INFO("full " << full.time << " s, folded " << folded.time << " s on " << folded.devices << " devices;" << folded.note);
  CHECK(folded.time == Approx(full.time).epsilon(0.005));
  return folded;
}

// Llama 2 7B on 32 H100 (4 DGX nodes): tp 8 in a node, dp 2 and pp 2 across nodes, so data-
// parallel and pipeline traffic both cross the scale-out tier. 4 micro-batches per pipeline.
const std::vector<std::string> kAcrossNodes = {
    "devices=32", "strategy.tp=8", "strategy.pp=2", "strategy.dp=2", "global_batch=8", "strategy.mesh_order=tp-cp-ep-dp-pp"};

std::vector<std::string> with(std::vector<std::string> sets, const std::string& extra) {
  sets.push_back(extra);
  return sets;
}

}  // namespace

TEST_CASE("folding on a rail-optimized fabric replays 2 of 32 devices and matches the full replay", "[replay][fold]") {
  const Replayed folded = check_fold("workloads/default.yaml", kAcrossNodes);
  CHECK(folded.note.empty());
  CHECK(folded.devices == 2);  // tp rank 0 of dp replica 0 on each of the 2 stages
}

TEST_CASE("folding on a plain fat tree matches the full replay", "[replay][fold]") {
  const Replayed folded = check_fold("workloads/default.yaml", with(kAcrossNodes, "platform.tiers.1.topology=fat_tree"));
  CHECK(folded.note.empty());
  CHECK(folded.devices == 2);
}

TEST_CASE("folding declines on an oversubscribed fabric, where uplinks carry every replica", "[replay][fold]") {
  // 4:1 at the leaf with 4-port switches: 3 NICs per leaf, so the 4 nodes' NICs span leaves.
  auto sets = with(kAcrossNodes, "platform.tiers.1.oversubscription=4");
  sets.push_back("platform.tiers.1.switch_radix=4");
  const Replayed folded = check_fold("workloads/default.yaml", sets);
  CHECK_THAT(folded.note, Catch::Contains("oversubscribed"));
  CHECK(folded.devices == 32);
}

TEST_CASE("folding declines where a NIC serves a replayed and a folded device", "[replay][fold]") {
  const Replayed folded = check_fold("workloads/default.yaml", with(kAcrossNodes, "platform.tiers.1.devices_per_nic=2"));
  CHECK_THAT(folded.note, Catch::Contains("shares a NIC"));
}

TEST_CASE("a MoE run whose expert-parallel groups span nodes folds whole EP groups exactly", "[replay][fold]") {
  // Mixtral 8x7B on 128 H100, pp 8, dp 16, ep 8; the mesh puts pp fastest, so the 8 stages fill
  // a node, each EP group of 8 consecutive dp indices spans 8 nodes and its all-to-all crosses
  // the NICs. Folding keeps ep / gcd(ep, cp) = 8 of the 16 replicas: 64 of 128 devices.
  const Replayed folded = check_fold("workloads/mixtral-8x7b-h100.yaml",
                                     {"devices=128", "strategy.pp=8", "global_batch=128",
                                      "strategy.mesh_order=pp-tp-cp-ep-dp"});
  CHECK(folded.note.empty());
  CHECK(folded.devices == 64);
}

TEST_CASE("collectives slowed beside their GEMMs fold exactly over private pair links, not over shared ones",
          "[replay][fold]") {
  // The 910B example with SP and TP overlap: its pipelined TP collectives move at 1/1.15 of the
  // HCCS pair links (overlap_comm_slowdown). Folding TP keeps one rank per group, whose transfers
  // to its folded peers stand in for theirs on the private pair links: exact.
  const std::vector<std::string> mesh = {"global_batch=8", "strategy.sequence_parallel=true", "strategy.overlap.tp_comm=true",
                                         "platform.accelerator.overlap_comm_slowdown=1.15"};
  const Replayed on_mesh = check_fold("workloads/llama2-70b-910b.yaml", mesh);
  CHECK(on_mesh.note.empty());
  CHECK(on_mesh.devices < 32);
  // The same slowdown on H100 NVLink (a crossbar: every transfer shares the device's port).
  const Replayed on_switch =
      check_fold("workloads/default.yaml", with(with(kAcrossNodes, "strategy.overlap.tp_comm=true"),
                                                 "platform.accelerator.overlap_comm_slowdown=1.15"));
  CHECK_THAT(on_switch.note, Catch::Contains("overlap_comm_slowdown"));
}

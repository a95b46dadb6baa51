// Communication tasks as SimGrid flows: collectives (step or bulk mode, folded groups) and
// pipeline sends/receives. Called from a device's stream actor.
#pragma once
#include "sim/replay/runtime.hpp"

namespace trainsim {

// `dev`'s part of collective `task` on `group` (its ranks in member order), and in *tier the
// tier the group's transfers use (collective_choice.hpp).
const MemberSchedule& member_schedule(ReplayContext& ctx, const DeviceRuntime& dev, const Task& task,
                                      const std::vector<int>& group, int* tier);
// Runs collective task `id` (of dev's stage template) for `dev`; returns payload bytes it sent.
Bytes run_collective(ReplayContext& ctx, DeviceRuntime& dev, const Task& task, TaskId id);
// Sends an activation (+1) or gradient (-1) to the neighbouring stage's device.
void run_send(ReplayContext& ctx, DeviceRuntime& dev, const Task& task);
// Receives the matching message from the neighbouring stage.
void run_recv(ReplayContext& ctx, DeviceRuntime& dev, const Task& task);
// Rank of the device `offset` stages away (wrapping: interleaved chunks pass from the last
// stage back to the first).
int pipeline_peer(const ReplayContext& ctx, int rank, int offset);

}  // namespace trainsim

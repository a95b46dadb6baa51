// Pipeline point-to-point tasks of one pass: the receive of its input (activation or gradient)
// from the stage `offset` away, which the pass's next kernel waits for, and the send of its output.
#pragma once
#include "sim/graph/build_context.hpp"

namespace trainsim {

void add_recv(BuildContext& ctx, int offset, int microbatch, const char* label);
// Sent after the last kernel issued; without overlap.pp_comm the next kernel waits for it.
void add_send(BuildContext& ctx, int offset, int microbatch, const char* label);

// A send or receive (`kind`) of `bytes` to or from the stage `offset` away, on the pipeline
// streams (the offset wraps around the pipeline: -1 from the first stage is the last stage), not
// yet added to the graph. `microbatch` -1: a message of the whole iteration.
[[nodiscard]] Task p2p_message(BuildContext& ctx, TaskKind kind, int offset, Bytes bytes, int microbatch,
                               const char* label);

}  // namespace trainsim

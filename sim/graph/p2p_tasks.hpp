// Pipeline point-to-point tasks of one pass: the receive of its input (activation or gradient)
// from the stage `offset` away, which the pass's next kernel waits for, and the send of its output.
#pragma once
#include "sim/graph/build_context.hpp"

namespace trainsim {

void add_recv(BuildContext& ctx, int offset, int microbatch, const char* label);
// Sent after the last kernel issued; without overlap.pp_comm the next kernel waits for it.
void add_send(BuildContext& ctx, int offset, int microbatch, const char* label);

// A pass of chunk `c`'s pipeline messages: a forward receives the activation from the stage before
// unless it holds the embedding, and sends its output on unless it holds the output layer; a backward
// receives the gradient from the stage after unless it holds the output layer, and sends its input
// gradient back unless it holds the embedding. Each adds its message when the pass has one.
[[nodiscard]] bool sends_output(const ChunkLayers& c, bool backward);
void add_pass_input(BuildContext& ctx, const ChunkLayers& c, int microbatch, bool backward);
void add_pass_output(BuildContext& ctx, const ChunkLayers& c, int microbatch, bool backward);

// A send or receive (`kind`) of `bytes` to or from the stage `offset` away, on the pipeline
// streams (the offset wraps around the pipeline: -1 from the first stage is the last stage), not
// yet added to the graph. `microbatch` -1: a message of the whole iteration.
[[nodiscard]] Task p2p_message(BuildContext& ctx, TaskKind kind, int offset, Bytes bytes, int microbatch,
                               const char* label);

}  // namespace trainsim

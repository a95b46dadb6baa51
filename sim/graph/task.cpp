#include "sim/graph/task.hpp"

namespace trainsim {

const char* to_string(Stream s) {
  switch (s) {
    case Stream::kCompute: return "compute";
    case Stream::kTp: return "tp";
    case Stream::kCp: return "cp";
    case Stream::kEp: return "ep";
    case Stream::kDp: return "dp";
    case Stream::kPpSend: return "pp_send";
    case Stream::kPpRecv: return "pp_recv";
  }
  return "?";
}

const char* to_string(TaskKind k) {
  switch (k) {
    case TaskKind::kCompute: return "compute";
    case TaskKind::kCollective: return "collective";
    case TaskKind::kSend: return "send";
    case TaskKind::kRecv: return "recv";
  }
  return "?";
}

}  // namespace trainsim

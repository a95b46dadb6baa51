#include "sim/core/text_list.hpp"

namespace trainsim {

std::string join_text(const std::vector<std::string>& items, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : separator) + items[i];
  return out;
}

}  // namespace trainsim

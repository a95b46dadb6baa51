#include "sim/strategy/pipeline_layout.hpp"

#include <algorithm>
#include <cctype>

namespace trainsim {
namespace {

constexpr size_t kMaxExpanded = 1 << 20;  // characters after expansion (a million-layer model is none)

// Reads a repeat count after '*' at `i`: -1 when there is no '*'; a '*' without digits sets `error`.
long long repeat_count(const std::string& s, size_t& i, std::string& error) {
  if (i >= s.size() || s[i] != '*') return -1;
  size_t j = ++i;
  long long n = 0;
  while (j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])) && n < static_cast<long long>(kMaxExpanded))
    n = n * 10 + (s[j++] - '0');
  if (j == i) {
    error = "a '*' without its count (write x*n or (group)*n with n a whole number)";
    return -1;
  }
  i = j;
  return n;
}

// Megatron-Core's two passes: every "(group)*n" first (one level of parentheses, the group copied as
// written), then every "x*n" of the result; commas and spaces are dropped before.
std::string expand_groups(const std::string& text, std::string& error) {
  std::string out;
  for (size_t i = 0; i < text.size() && error.empty();) {
    if (text[i] != '(') { out += text[i++]; continue; }
    const size_t close = text.find(')', i);
    if (close == std::string::npos) { error = "an opening '(' without its ')'"; break; }
    const std::string group = text.substr(i + 1, close - i - 1);
    i = close + 1;
    if (group.empty()) { error = "an empty group '()'"; break; }
    const long long n = repeat_count(text, i, error);
    if (n < 0) {
      if (error.empty()) error = "a group '(" + group + ")' without its '*count'";
      break;
    }
    for (long long r = 0; r < n && out.size() <= kMaxExpanded; ++r) out += group;
  }
  return out;
}

std::string expand_characters(const std::string& text, std::string& error) {
  std::string out;
  for (size_t i = 0; i < text.size() && out.size() <= kMaxExpanded && error.empty();) {
    const char c = text[i++];
    if (c == '*') {
      error = "a '*' after nothing to repeat";
      break;
    }
    const long long n = repeat_count(text, i, error);
    out.append(static_cast<size_t>(n < 0 ? 1 : std::min<long long>(n, kMaxExpanded)), c);
  }
  return out;
}

std::string expand(const std::string& text, std::string& error) {
  std::string plain;
  for (char c : text)
    if (c != ',' && c != ' ') plain += c;
  const std::string groups = expand_groups(plain, error);
  if (!error.empty()) return "";
  const std::string out = expand_characters(groups, error);
  if (error.empty() && out.size() > kMaxExpanded) error = "expands to more than " + std::to_string(kMaxExpanded) + " characters";
  return out;
}

}  // namespace

PipelineLayout parse_pipeline_layout(const std::string& text) {
  PipelineLayout layout;
  const std::string expanded = expand(text, layout.error);
  if (!layout.error.empty()) return layout;
  layout.chunks.emplace_back();
  bool any = false, mtp = false, loss = false;  // in layer order: E first, then t, then m, then L last
  for (char c : expanded) {
    LayoutChunk& chunk = layout.chunks.back();
    const bool misplaced = loss || (c == 'E' && any) || (c == 't' && mtp);
    if (misplaced && c != '|') {
      layout.error = std::string("'") + c + "' out of order: the embedding (E) comes first, the layers (t) before " +
                     "the MTP layers (m), the loss (L) last";
      return layout;
    }
    if (c != '|') any = true;
    mtp = mtp || c == 'm';
    loss = loss || c == 'L';
    switch (c) {
      case '|': layout.chunks.emplace_back(); break;
      case 't': ++chunk.decoders; break;
      case 'm': ++chunk.mtp; break;
      case 'E': chunk.embedding = true; break;
      case 'L': chunk.loss = true; break;
      default:
        layout.error = std::string("'") + c + "' is not a layer character (E embedding, t layer, m MTP layer, L loss)";
        return layout;
    }
  }
  return layout;
}

std::string layout_problem(const PipelineLayout& layout, int layers, int mtp_layers, int chunks) {
  if (!layout.error.empty()) return layout.error;
  const auto& c = layout.chunks;
  if (static_cast<int>(c.size()) != chunks)
    return "has " + std::to_string(c.size()) + " chunks, pp x virtual_stages is " + std::to_string(chunks);
  int decoders = 0, mtp = 0, embeddings = 0, losses = 0;
  for (const LayoutChunk& k : c) decoders += k.decoders, mtp += k.mtp, embeddings += k.embedding, losses += k.loss;
  if (embeddings != 1 || !c.front().embedding) return "needs the embedding (E) once, in the first chunk";
  if (losses != 1 || !c.back().loss) return "needs the loss (L) once, in the last chunk";
  if (decoders != layers)
    return "places " + std::to_string(decoders) + " layers (t), the model has " + std::to_string(layers);
  if (mtp != mtp_layers)
    return "places " + std::to_string(mtp) + " MTP layers (m), the model has " + std::to_string(mtp_layers);
  if (c.back().mtp != mtp_layers)
    return "places MTP layers (m) outside the last chunk; trainsim models them beside the loss only";
  return "";
}

}  // namespace trainsim

// validation/kernels/*.yaml -> KernelMeasurementSet.
#include "sim/config/kernel_measurements.hpp"

#include "sim/config/enum_names.hpp"
#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

constexpr double kTera = 1e12;
constexpr double kMicro = 1e-6;

KernelMeasurement read_gemm(YamlSource& source, const YAML::Node& node, const std::string& path) {
  MapReader r(source, node, path, {"batch", "m", "n", "k", "kernels", "tflops"});
  KernelMeasurement g;
  g.line = node.Mark().line + 1;
  int batch = 1, m = 0, n = 0, k = 0;
  double tflops = 0;
  r.read_int("batch", &batch, Need::kOptional, 1);
  r.read_int("m", &m, Need::kRequired, 1);
  r.read_int("n", &n, Need::kRequired, 1);
  r.read_int("k", &k, Need::kRequired, 1);
  r.read_int("kernels", &g.launches, Need::kOptional, 1);
  if (batch % g.launches != 0)
    r.fail("kernels", "must divide batch (each launch runs batch / kernels products)", std::to_string(g.launches),
           "a divisor of " + std::to_string(batch));
  r.read_number("tflops", &tflops, Need::kRequired, positive());
  g.gemm = {m, n, k, batch};
  g.measured_s = 2.0 * batch * m * n * static_cast<double>(k) / (tflops * kTera);
  return g;
}

KernelMeasurement read_attention(YamlSource& source, const YAML::Node& node, const std::string& path) {
  MapReader r(source, node, path, {"pass", "batch", "heads", "seq", "head_dim", "kv_heads", "window", "causal",
                                         "dropout", "us"});
  KernelMeasurement a;
  a.kind = MeasuredKind::kAttention;
  a.line = node.Mark().line + 1;
  int batch = 1, heads = 0, seq = 0, head_dim = 0, kv_heads = 0, window = 0;
  bool causal = true;
  const bool backward = r.read_choice("pass", {"fwd", "bwd"}, Need::kRequired) == 1;
  r.read_int("batch", &batch, Need::kOptional, 1);
  r.read_int("heads", &heads, Need::kRequired, 1);
  r.read_int("seq", &seq, Need::kRequired, 1);
  r.read_int("head_dim", &head_dim, Need::kRequired, 1);
  r.read_int("kv_heads", &kv_heads, Need::kOptional, 1);
  if (kv_heads > 0 && heads % kv_heads != 0)
    r.fail("kv_heads", "must divide heads (each key/value head serves heads / kv_heads query heads)",
           std::to_string(kv_heads), "a divisor of " + std::to_string(heads));
  r.read_int("window", &window, Need::kOptional, 1);
  r.read_bool("causal", &causal, Need::kRequired);
  if (!causal) r.fail("causal", "is not modelled", "false", "true (the catalogue's attention is causal)");
  double dropout = 0;
  r.read_number("dropout", &dropout, Need::kOptional, fraction_below_one());
  r.read_number("us", &a.measured_s, Need::kRequired, positive());
  a.measured_s *= kMicro;
  a.attention = {batch, heads, seq, head_dim, backward, dropout, kv_heads, window};
  return a;
}

KernelMeasurement read_stream(YamlSource& source, const YAML::Node& node, const std::string& path) {
  MapReader r(source, node, path, {"op", "bytes", "us", "kernels"});
  KernelMeasurement s;
  s.kind = MeasuredKind::kStream;
  s.line = node.Mark().line + 1;
  r.read_string("op", &s.op, Need::kRequired);
  r.read_number("bytes", &s.bytes, Need::kRequired, positive());
  r.read_number("us", &s.measured_s, Need::kRequired, positive());
  s.measured_s *= kMicro;
  r.read_int("kernels", &s.launches, Need::kOptional, 1);
  return s;
}

using RowReader = KernelMeasurement (*)(YamlSource&, const YAML::Node&, const std::string&);

void read_section(MapReader& r, const std::string& key, RowReader read, std::vector<KernelMeasurement>* rows) {
  const std::vector<YAML::Node> entries = r.list(key, Need::kOptional);
  for (size_t i = 0; i < entries.size(); ++i) rows->push_back(read(r.source(), entries[i], key + "." + std::to_string(i)));
}

}  // namespace

KernelMeasurementSet load_kernel_measurements(const std::filesystem::path& file) {
  YamlSource source(file.string());
  const YAML::Node root = load_yaml_file(file);
  MapReader r(source, root, "", {"description", "accelerator", "precision", "source", "gemms", "attention", "streams"});
  KernelMeasurementSet set;
  set.file = file.string();
  r.read_string("description", &set.description, Need::kOptional, true);
  r.read_string("accelerator", &set.accelerator, Need::kRequired);
  r.read_enum("precision", &set.precision, Need::kRequired, precision_names());
  r.read_string("source", &set.source, Need::kRequired);
  read_section(r, "gemms", read_gemm, &set.rows);
  read_section(r, "attention", read_attention, &set.rows);
  read_section(r, "streams", read_stream, &set.rows);
  if (set.rows.empty())
    r.fail("gemms", "needs at least one entry in gemms, attention or streams", "no entries",
           "a list of {batch, m, n, k, tflops}, {pass, heads, seq, head_dim, causal, us} or {op, bytes, us}");
  return set;
}

}  // namespace trainsim

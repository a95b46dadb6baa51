// validation/kernels/*.yaml -> GemmMeasurementSet.
#include "sim/config/gemm_measurements.hpp"

#include "sim/config/yaml_reader.hpp"

namespace trainsim {
namespace {

GemmMeasurement read_gemm(YamlSource& source, const YAML::Node& node, const std::string& path) {
  MapReader r(source, node, path, {"batch", "m", "n", "k", "tflops"});
  GemmMeasurement g;
  g.line = node.Mark().line + 1;
  int batch = 1, m = 0, n = 0, k = 0;
  r.read_int("batch", &batch, Need::kOptional, 1);
  r.read_int("m", &m, Need::kRequired, 1);
  r.read_int("n", &n, Need::kRequired, 1);
  r.read_int("k", &k, Need::kRequired, 1);
  r.read_number("tflops", &g.tflops, Need::kRequired, positive());
  g.shape = {m, n, k, batch};
  return g;
}

Precision read_precision(MapReader& r) {
  std::string text;
  r.read_string("precision", &text, Need::kRequired);
  Precision p = Precision::kBf16;
  if (!parse_precision(text, &p)) r.fail("precision", "is not a known precision", text, "fp32, tf32, bf16, fp16, fp8");
  return p;
}

}  // namespace

GemmMeasurementSet load_gemm_measurements(const std::filesystem::path& file) {
  YamlSource source(file.string());
  const YAML::Node root = load_yaml_file(file);
  MapReader r(source, root, "", {"description", "accelerator", "precision", "source", "gemms"});
  GemmMeasurementSet set;
  set.file = file.string();
  r.read_string("description", &set.description, Need::kOptional, true);
  r.read_string("accelerator", &set.accelerator, Need::kRequired);
  set.precision = read_precision(r);
  r.read_string("source", &set.source, Need::kRequired);
  const std::vector<YAML::Node> entries = r.list("gemms", Need::kRequired);
  if (entries.empty())
    r.fail("gemms", "needs at least one entry", "an empty list", "a list of {batch, m, n, k, tflops}");
  for (size_t i = 0; i < entries.size(); ++i)
    set.rows.push_back(read_gemm(source, entries[i], "gemms." + std::to_string(i)));
  return set;
}

}  // namespace trainsim

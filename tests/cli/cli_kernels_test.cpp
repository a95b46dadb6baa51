// `trainsim kernels`, run as a user runs it: the report, the fit and its paste lines, and bad input.
#include <catch2/catch.hpp>
#include <filesystem>

#include "tests/support/run_command.hpp"

using namespace trainsim::test;
namespace fs = std::filesystem;

namespace {
const fs::path kKernels = fs::path(TRAINSIM_TEST_DIR).parent_path() / "validation/kernels";
const std::string kTable = (kKernels / "h100-sxm-bf16-gemm.yaml").string();
}

TEST_CASE("trainsim kernels reports every measured GEMM and, with --fit, the values to paste", "[cli]") {
  const CommandResult report = run_trainsim("kernels " + kTable + " --platform dgx-h100-superpod");
  REQUIRE(report.exit_code == 0);
  CHECK(report.out.find("95 gemm: mean |error|") != std::string::npos);
  CHECK(report.out.find("gemm      1 x 4096 x 4096 x 256 ") != std::string::npos);  // a row: batch 1, 4096 x 4096, k 256
  const CommandResult fit =
      run_trainsim("kernels " + kTable + " --platform dgx-h100-superpod --fit gemm_k_overhead,kernel_overhead");
  REQUIRE(fit.exit_code == 0);
  CHECK(fit.out.find("  gemm_k_overhead: ") != std::string::npos);
  CHECK(fit.out.find("  kernel_overhead: ") != std::string::npos);
  CHECK(fit.out.find("us   # fitted: `trainsim kernels") != std::string::npos);
}

TEST_CASE("trainsim kernels refuses another accelerator's table and bad --fit lists, with exit 2", "[cli]") {
  const CommandResult other = run_trainsim("kernels " + kTable + " --platform dgx-a100-superpod");
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("H100-SXM5-80GB") != std::string::npos);
  const CommandResult unknown = run_trainsim("kernels " + kTable + " --platform dgx-h100-superpod --fit peak_flops");
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("gemm_k_overhead") != std::string::npos);  // the valid ones are listed
  CHECK(run_trainsim("kernels " + kTable + " --platform dgx-h100-superpod --fit gemm_efficiency,gemm_efficiency").exit_code == 2);
  CHECK(run_trainsim("kernels --platform dgx-h100-superpod").exit_code == 2);  // no table
}

TEST_CASE("trainsim kernels takes several tables of kinds together and summarises each kind", "[cli]") {
  const std::string tables = (kKernels / "h100-sxm-attention-cudnn.yaml").string() + " " +
                             (kKernels / "h100-sxm-streams.yaml").string();
  const CommandResult r = run_trainsim("kernels " + tables + " --platform dgx-h100-superpod");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("12 attention: mean |error|") != std::string::npos);
  CHECK(r.out.find("66 stream: mean |error|") != std::string::npos);
  CHECK(r.out.find("78 kernels: mean |error|") != std::string::npos);
  CHECK(r.out.find("attention bwd 1 x 16 x 4096 x 128") != std::string::npos);
  CHECK(r.out.find("stream    gelu.fwd") != std::string::npos);
}

TEST_CASE("kernels --fit refuses a parameter no kernel of the tables depends on, and a bad --evaluations first",
          "[cli][kernels]") {
  // Attention kernels run at attention_efficiency; gemm_efficiency does not enter their time.
  const std::string attention = (kKernels / "h100-sxm-attention-cudnn.yaml").string();
  const CommandResult r = run_trainsim("kernels " + attention + " --platform dgx-h100-superpod --fit gemm_efficiency");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--fit gemm_efficiency: no kernel of the tables depends on it") != std::string::npos);
  CHECK(r.out.find("fitted") == std::string::npos);
  const CommandResult e = run_trainsim("kernels " + attention + " --platform dgx-h100-superpod --fit "
                                       "attention_efficiency --evaluations 0");
  CHECK(e.exit_code == 2);
  CHECK(e.out.empty());  // refused before the tables are printed
}

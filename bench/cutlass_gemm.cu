// CUTLASS's own Hopper GEMMs, the third baseline of bench_gemm (bench/cutlass_gemm.hpp): what a CUTLASS
// user would write for the tutorial's fp16 GEMM, C (M,N) row-major = A (M,K) · B (N,K)ᵀ with A and B
// K-major, fp32 accumulate and out. Each is built with CUTLASS's CollectiveBuilder from the CUTLASS 4.2
// headers the project installs: the mainloop (TMA loads, wgmma, the pipeline) and the epilogue (the TMA
// store) are CUTLASS's choices for the schedule named, with a 2x1 cluster (TMA multicast of B).
//   pingpong_128x128  KernelTmaWarpSpecializedPingpong, a 128x128x64 tile per consumer warpgroup (step 13's idea)
//   coop_128x256      KernelTmaWarpSpecializedCooperative, a 128x256x64 tile on two warpgroups (step 12's)
// Neither reads C (ElementC void: D = A·B, as the tutorial's kernels compute it).
#include "cutlass_gemm.hpp"

#include <stdexcept>
#include <string>

#include <cuda_runtime.h>

#include <cute/tensor.hpp>
#include <cutlass/cutlass.h>
#include <cutlass/epilogue/collective/collective_builder.hpp>
#include <cutlass/gemm/collective/collective_builder.hpp>
#include <cutlass/gemm/device/gemm_universal_adapter.h>
#include <cutlass/gemm/dispatch_policy.hpp>
#include <cutlass/gemm/kernel/gemm_universal.hpp>

namespace bench {

namespace {

using namespace cute;

using ElementAB = cutlass::half_t;
using ElementAcc = float;
using ElementD = float;
using LayoutA = cutlass::layout::RowMajor;     // A (M,K): K contiguous
using LayoutB = cutlass::layout::ColumnMajor;  // B as CUTLASS's K×N operand, K contiguous: our (N,K) K-major
using LayoutD = cutlass::layout::RowMajor;     // C (M,N): N contiguous
constexpr int kAlignAB = 16 / int(sizeof(ElementAB));  // 8 halves: TMA's 16-byte rows
constexpr int kAlignD = 16 / int(sizeof(ElementD));    // 4 floats

//! [builder]
// One CUTLASS GEMM: the tile, the cluster and the two schedules (mainloop and epilogue).
template <class TileShape, class ClusterShape, class MainloopSchedule, class EpilogueSchedule>
struct Built {
  using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
      cutlass::epilogue::collective::EpilogueTileAuto, ElementAcc, ElementAcc,
      void, LayoutD, kAlignD,  // no C
      ElementD, LayoutD, kAlignD, EpilogueSchedule>::CollectiveOp;
  using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
      cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementAB, LayoutA, kAlignAB, ElementAB, LayoutB, kAlignAB,
      ElementAcc, TileShape, ClusterShape,
      cutlass::gemm::collective::StageCountAutoCarveout<int(sizeof(typename Epilogue::SharedStorage))>,
      MainloopSchedule>::CollectiveOp;
  using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
  using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;
};

using PingPong = Built<Shape<_128, _128, _64>, Shape<_2, _1, _1>, cutlass::gemm::KernelTmaWarpSpecializedPingpong,
                       cutlass::epilogue::TmaWarpSpecialized>::Gemm;
using Cooperative = Built<Shape<_128, _256, _64>, Shape<_2, _1, _1>, cutlass::gemm::KernelTmaWarpSpecializedCooperative,
                          cutlass::epilogue::TmaWarpSpecializedCooperative>::Gemm;
//! [builder]

void check(cutlass::Status s, char const* what) {
  if (s != cutlass::Status::kSuccess)
    throw std::runtime_error(std::string("CUTLASS ") + what + ": " + cutlassGetStatusString(s));
}

// \p Gemm set up for one problem: its arguments, its workspace, initialized once; run() launches it.
template <class Gemm>
class Prepared final : public CutlassGemm {
 public:
  Prepared(int M, int N, int K, void const* A, void const* B, float* D) {
    using StrideA = typename Gemm::GemmKernel::StrideA;
    using StrideB = typename Gemm::GemmKernel::StrideB;
    using StrideD = typename Gemm::GemmKernel::StrideD;
    // Packed strides (m,k,l), (n,k,l), (m,n,l): the batch mode l is 1.
    StrideA const sa = make_stride(std::int64_t(K), Int<1>{}, std::int64_t(M) * K);
    StrideB const sb = make_stride(std::int64_t(K), Int<1>{}, std::int64_t(N) * K);
    StrideD const sd = make_stride(std::int64_t(N), Int<1>{}, std::int64_t(M) * N);
    cutlass::KernelHardwareInfo hw;
    hw.device_id = 0;
    hw.sm_count = cutlass::KernelHardwareInfo::query_device_multiprocessor_count(hw.device_id);
    args_ = typename Gemm::Arguments{cutlass::gemm::GemmUniversalMode::kGemm,
                                     {M, N, K, 1},
                                     {static_cast<ElementAB const*>(A), sa, static_cast<ElementAB const*>(B), sb},
                                     {{1.0f, 0.0f}, nullptr, sd, D, sd},
                                     hw};
    check(gemm_.can_implement(args_), "can_implement");
    std::size_t const bytes = Gemm::get_workspace_size(args_);
    if (bytes && cudaMalloc(&workspace_, bytes) != cudaSuccess) throw std::runtime_error("CUTLASS workspace: cudaMalloc failed");
    check(gemm_.initialize(args_, workspace_), "initialize");
  }
  ~Prepared() override { cudaFree(workspace_); }
  void run(cudaStream_t stream) override { check(gemm_.run(stream), "run"); }

 private:
  Gemm gemm_;
  typename Gemm::Arguments args_;
  void* workspace_ = nullptr;
};

}  // namespace

std::vector<std::string> cutlass_kernels() { return {"pingpong_128x128", "coop_128x256"}; }

bool cutlass_runs(int M, int N, int K) { return M >= 1 && N % kAlignD == 0 && K % kAlignAB == 0; }

std::unique_ptr<CutlassGemm> cutlass_gemm(std::string const& name, int M, int N, int K, void const* A, void const* B,
                                          float* C) {
  if (!cutlass_runs(M, N, K))
    throw std::invalid_argument("CUTLASS's TMA needs N a multiple of 4 and K of 8: " + std::to_string(M) + "x" +
                                std::to_string(N) + "x" + std::to_string(K));
  if (name == "pingpong_128x128") return std::make_unique<Prepared<PingPong>>(M, N, K, A, B, C);
  if (name == "coop_128x256") return std::make_unique<Prepared<Cooperative>>(M, N, K, A, B, C);
  throw std::invalid_argument("no CUTLASS kernel " + name);
}

}  // namespace bench

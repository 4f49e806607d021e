// Step 07's one CUDA translation unit: instantiate and launch the kernel.
#include <cstdint>
#include <string>

#include "config.hpp"
#include "kernel.cuh"
#include "step07_multistage.hpp"
#include "tut/cuda_check.hpp"
#include "tut/status.hpp"

namespace step07 {

//! [launch]
// One launch of the kernel built from Cfg. K must be a multiple of 8 and A, B 16-byte aligned: the
// harness and the benchmark only pass such problems (multiple_of) and cudaMalloc'd pointers, and a
// caller that does not gets an error instead of a misaligned cp.async.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto aligned = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (K % kChunk != 0 || !aligned(args.A) || !aligned(args.B))
    throw tut::UsageError("step07_multistage: cp.async needs K a multiple of " + std::to_string(kChunk) +
                          " and 16-byte aligned A and B (got K=" + std::to_string(K) + ")");
  // 128-bit stores of C need every row to start 16-byte aligned.
  bool const vector_c = N % kChunkC == 0 && aligned(args.C);
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  typename Cfg::TiledMma mma;

  auto kernel = gemm_kernel<BUG, typename Cfg::CtaTiler,
                            ElementAB, decltype(make_layout_A(M, K)), typename Cfg::SmemLayoutA,
                            typename Cfg::TiledCopyA, typename Cfg::S2RCopyA,
                            ElementAB, decltype(make_layout_B(N, K)), typename Cfg::SmemLayoutB,
                            typename Cfg::TiledCopyB, typename Cfg::S2RCopyB,
                            ElementC, decltype(make_layout_C(M, N)), typename Cfg::SmemLayoutC,
                            typename Cfg::TiledCopyC, typename Cfg::TiledMma>;
  // Above 48 KB, dynamic shared memory must be asked for, once per kernel: the first launch of each Cfg
  // does it (a function-local static), not every launch the benchmark times.
  static cudaError_t const smem_opt_in =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
  TUT_CUDA_CHECK(smem_opt_in);

  dim3 block(size(mma));                                    // 32 threads per warp of the TiledMMA
  dim3 grid(ceil_div(M, size<0>(cta_tiler)),                // one CTA per BLK_M x BLK_N tile of C
            ceil_div(N, size<1>(cta_tiler)));
  kernel<<<grid, block, Cfg::kSmemBytes, stream>>>(         // dynamic smem: one Cfg::Smem
      cta_tiler,
      static_cast<ElementAB const*>(args.A), make_layout_A(M, K), typename Cfg::SmemLayoutA{},
      typename Cfg::TiledCopyA{}, typename Cfg::S2RCopyA{},
      static_cast<ElementAB const*>(args.B), make_layout_B(N, K), typename Cfg::SmemLayoutB{},
      typename Cfg::TiledCopyB{}, typename Cfg::S2RCopyB{},
      args.C, make_layout_C(M, N), typename Cfg::SmemLayoutC{}, typename Cfg::TiledCopyC{}, vector_c,
      mma, args.store);
}
//! [launch]

// The configurations the benchmark compares (Variants, config.hpp): compiled here, once each.
template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Small, Bug::none>(tut::GemmArgs const&, cudaStream_t);

// The bugs --bug plants (config.hpp), into the default configuration.
template void launch<Default, Bug::wait_one_too_few>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::no_epilogue_barrier>(tut::GemmArgs const&, cudaStream_t);

}  // namespace step07

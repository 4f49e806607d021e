// Step 06's one CUDA translation unit: instantiate and launch the kernel.
#include <cstdint>
#include <string>

#include "config.hpp"
#include "kernel.cuh"
#include "step06_global_gemm.hpp"
#include "tut/status.hpp"

namespace step06 {

// The copies the kernel runs with: the configuration's.
template <class Cfg, Bug BUG>
struct CopiesOf : Cfg {};
//~bug{ no_zero_fill: the plain cp.async, which skips a masked chunk instead of writing zeros
template <class Cfg>
struct CopiesOf<Cfg, Bug::no_zero_fill> {
  using TiledCopyA = decltype(make_tiled_copy_cp_async<size<2>(typename Cfg::CtaTiler{}), Cfg::kThreads,
                                                       SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>>());
  using TiledCopyB = TiledCopyA;
};
//~bug}

//! [launch]
// One launch of the kernel built from Cfg. K must be a multiple of 8 and A, B 16-byte aligned: the
// harness and the benchmark only pass such problems (multiple_of) and cudaMalloc'd pointers, and a
// caller that does not gets an error instead of a misaligned cp.async.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto aligned = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (K % kChunk != 0 || !aligned(args.A) || !aligned(args.B))
    throw tut::UsageError("step06_global_gemm: cp.async needs K a multiple of " + std::to_string(kChunk) +
                          " and 16-byte aligned A and B (got K=" + std::to_string(K) + ")");
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  typename Cfg::TiledMma mma;

  dim3 block(size(mma));                                    // 32 threads per warp of the TiledMMA
  dim3 grid(ceil_div(M, size<0>(cta_tiler)),                // one CTA per BLK_M x BLK_N tile of C
            ceil_div(N, size<1>(cta_tiler)));
  using TiledCopyA = typename CopiesOf<Cfg, BUG>::TiledCopyA;  // gmem -> smem: the configuration's
  using TiledCopyB = typename CopiesOf<Cfg, BUG>::TiledCopyB;
  gemm_kernel<BUG><<<grid, block, Cfg::kSmemBytes, stream>>>(   // dynamic smem: one Cfg::Smem
      cta_tiler,
      static_cast<ElementAB const*>(args.A), make_layout_A(M, K), typename Cfg::SmemLayoutA{}, TiledCopyA{},
      static_cast<ElementAB const*>(args.B), make_layout_B(N, K), typename Cfg::SmemLayoutB{}, TiledCopyB{},
      args.C, make_layout_C(M, N),
      mma, args.store);
}
//! [launch]

// The configurations the benchmark compares (Variants, config.hpp): compiled here, once each.
template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Unswizzled, Bug::none>(tut::GemmArgs const&, cudaStream_t);

// The bugs --bug plants (config.hpp), into the default configuration.
template void launch<Default, Bug::no_zero_fill>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<Default, Bug::no_epilogue_mask>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step06

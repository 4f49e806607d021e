// Step 05's one CUDA translation unit: instantiate and launch the kernel.
#include "config.hpp"
#include "kernel.cuh"
#include "step05_tensorcore_mma.hpp"

namespace step05 {

//! [launch]
// One launch of the kernel built from Cfg.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  typename Cfg::TiledMma mma;

  dim3 block(size(mma));                                    // 32 threads per warp of the TiledMMA
  dim3 grid(M / size<0>(cta_tiler),                         // one CTA per BLK_M x BLK_N tile of C
            N / size<1>(cta_tiler));
  gemm_kernel<BUG><<<grid, block, 0, stream>>>(
      cta_tiler,
      static_cast<ElementAB const*>(args.A), make_layout_A(M, K),
      static_cast<ElementAB const*>(args.B), make_layout_B(N, K),
      args.C, make_layout_C(M, N),
      mma, args.store);
}
//! [launch]

// The configurations the benchmark compares (Variants, config.hpp): compiled here, once each.
template void launch<OneAtom, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Warps2x2, Bug::none>(tut::GemmArgs const&, cudaStream_t);

// The bugs --bug plants (config.hpp), into the default configuration.
template void launch<OneAtom, Bug::swapped_block_index>(tut::GemmArgs const&, cudaStream_t);  //~bug
template void launch<OneAtom, Bug::last_k_tile_dropped>(tut::GemmArgs const&, cudaStream_t);  //~bug

}  // namespace step05

// Step 01's one CUDA translation unit: instantiate and launch the kernel.
#include "config.hpp"
#include "kernel.cuh"
#include "step01_naive.hpp"

namespace step01 {

//! [launch]
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  CtaTiler cta_tiler;                                       // (BLK_M,BLK_N,BLK_K)
  TiledMma mma = make_tiled_mma_fma();

  dim3 block(size(mma));                                    // kThreads
  dim3 grid(ceil_div(M, size<0>(cta_tiler)),                // one CTA per BLK_M x BLK_N tile of C
            ceil_div(N, size<1>(cta_tiler)));
  gemm_kernel<<<grid, block, 0, stream>>>(
      cta_tiler,
      static_cast<Element const*>(args.A), make_layout_A(M, K),
      static_cast<Element const*>(args.B), make_layout_B(N, K),
      args.C, make_layout_C(M, N),
      mma, args.store);
}
//! [launch]

}  // namespace step01

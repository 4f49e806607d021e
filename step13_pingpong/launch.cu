// Step 13's one CUDA translation unit: make the TMA descriptors, instantiate the kernel, and launch it.
// Compiled for sm_90a only (wgmma and setmaxnreg exist nowhere else): see the top CMakeLists.txt.
#include <cstdint>
#include <string>

#include "config.hpp"
#include "kernel.cuh"
#include "step13_pingpong.hpp"
#include "tut/cuda_check.hpp"
#include "tut/status.hpp"

namespace step13 {

//! [launch]
// One launch of the kernel built from Cfg. K must be a multiple of 8 and A, B 16-byte aligned (a TMA
// descriptor's base address and row pitch must be): the harness and the benchmark only pass such problems
// and cudaMalloc'd pointers, and a caller that does not gets an error instead of a failed descriptor.
template <class Cfg, Bug BUG, bool TMA_STORE, class TmaA, class TmaB, class TmaC>
void launch_kernel(tut::GemmArgs const& args, cudaStream_t stream, TmaA const& tma_a, TmaB const& tma_b,
                   TmaC const& tma_c) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto kernel = gemm_kernel<BUG, TMA_STORE, Cfg::kConsumers, typename Cfg::CtaTiler,
                            ElementAB, decltype(make_layout_A(M, K)), typename Cfg::SmemLayoutA, TmaA,
                            ElementAB, decltype(make_layout_B(N, K)), typename Cfg::SmemLayoutB, TmaB,
                            ElementC, decltype(make_layout_C(M, N)), typename Cfg::SmemLayoutC,
                            typename Cfg::TileOnBuffer, TmaC, typename Cfg::TiledMma,
                            Cfg::kProducerRegs, Cfg::kConsumerRegs>;
  // Above 48 KB, dynamic shared memory must be asked for, once per kernel: the first launch of each
  // instantiation does it (a function-local static), not every launch the benchmark times.
  static cudaError_t const smem_opt_in =
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Cfg::kSmemBytes);
  TUT_CUDA_CHECK(smem_opt_in);

  dim3 block(Cfg::kThreads);                                // the consumer warpgroups, then the producer
  tut::GridDims const ctas = Cfg::kSchedule.grid(ceil_div(M, size<0>(typename Cfg::CtaTiler{})),  // min(132, tiles)
                                                  ceil_div(N, size<1>(typename Cfg::CtaTiler{})));  // CTAs, 1-D
  dim3 grid(ctas.x, ctas.y);
  kernel<<<grid, block, Cfg::kSmemBytes, stream>>>(         // dynamic smem: one Cfg::Smem
      typename Cfg::CtaTiler{},
      make_layout_A(M, K), typename Cfg::SmemLayoutA{}, tma_a,
      make_layout_B(N, K), typename Cfg::SmemLayoutB{}, tma_b,
      static_cast<ElementC*>(args.C), make_layout_C(M, N), typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{},
      tma_c, typename Cfg::TiledMma{}, args.store, Cfg::kSchedule);
}

template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream) {
  int const M = int(args.problem.m), N = int(args.problem.n), K = int(args.problem.k);
  auto aligned = [](void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (K % kChunk != 0 || !aligned(args.A) || !aligned(args.B))
    throw tut::UsageError("step13_pingpong: TMA needs K a multiple of " + std::to_string(kChunk) +
                          " and 16-byte aligned A and B (got K=" + std::to_string(K) + ")");
  // A TMA descriptor of C needs every row of C to start 16-byte aligned.
  bool const tma_store = N % kChunkC == 0 && aligned(args.C);
  typename Cfg::SmemLayoutA sA_layout;                      // (BLK_M,BLK_K,STAGES) -> smem_idx
  typename Cfg::SmemLayoutB sB_layout;                      // (BLK_N,BLK_K,STAGES) -> smem_idx

  // The TMA descriptors: A's (and B's) address, extents and strides, and the box one copy moves, which
  // is one stage of the smem layout, swizzle included. make_tma_copy reads all of it off the two CuTe
  // layouts (and encodes it with the driver's cuTensorMapEncodeTiled).
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<ElementAB const*>(args.A)), make_layout_A(M, K));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<ElementAB const*>(args.B)), make_layout_B(N, K));  // (N,K)
  auto tma_a = make_tma_copy(CopyOpG2S{}, mA, sA_layout(_,_,0));  // box: (BLK_M,BLK_K)
  auto tma_b = make_tma_copy(CopyOpG2S{}, mB, sB_layout(_,_,0));  // box: (BLK_N,BLK_K)
  // C's: the box one store moves is one epilogue buffer, (BLK_M,EPI_N), swizzled as sC is.
  Tensor mC = make_tensor(make_gmem_ptr(static_cast<ElementC*>(args.C)), make_layout_C(M, N));  // (M,N)
  if (tma_store)
    launch_kernel<Cfg, BUG, true>(args, stream, tma_a, tma_b,
                                  make_tma_copy(CopyOpS2G{}, mC, typename Cfg::SmemLayoutC{}(_,_,0)));
  else
    launch_kernel<Cfg, BUG, false>(args, stream, tma_a, tma_b, NoTmaStore{});
}
//! [launch]

// The kernel as written, and the bugs --bug plants (config.hpp): compiled here, once each.
template void launch<Default, Bug::none>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::empty_waits_for_both>(tut::GemmArgs const&, cudaStream_t);
template void launch<Default, Bug::store_by_thread_0>(tut::GemmArgs const&, cudaStream_t);

}  // namespace step13

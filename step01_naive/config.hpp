/// \file step01_naive/config.hpp
/// \brief Step 01's one source of truth: the problem layouts, the CTA tiler and the TiledMMA.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these functions,
/// so what is printed is what runs.
#pragma once

#include <cute/tensor.hpp>

namespace step01 {

using namespace cute;

/// \brief Element type of A, B and C.
using Element = float;

/// \brief The CTA tiler (BLK_M, BLK_N, BLK_K): each CTA computes a 128×128 tile of C, 8 k at a time.
using CtaTiler = Shape<_128, _128, _8>;

/// \brief A (M,K), M-major: A(m,k) at m + k·M. (m,k) -> idx
CUTE_HOST_DEVICE auto make_layout_A(int M, int K) { return make_layout(make_shape(M, K), make_stride(Int<1>{}, M)); }
/// \brief B (N,K), N-major: B(n,k) at n + k·N. (n,k) -> idx
CUTE_HOST_DEVICE auto make_layout_B(int N, int K) { return make_layout(make_shape(N, K), make_stride(Int<1>{}, N)); }
/// \brief C (M,N), row-major: C(m,n) at m·N + n. (m,n) -> idx
CUTE_HOST_DEVICE auto make_layout_C(int M, int N) { return make_layout(make_shape(M, N), make_stride(N, Int<1>{})); }

//! [tiled_mma]
/// \brief The permutation of M (and of N): 16 threads × 4 consecutive elements, repeated at +64.
/// (thr,val) -> position in the 64-element block; the rest of the 128 is the second block.
//~ex{ the permutation of M and N: 16 threads, 4 values side by side each. Which stride goes with which?
using PermutationMN = Layout<Shape<_16, _4>, Stride<_4, _1>>;
//~ex= using PermutationMN = Layout<Shape<_16, _4>, Stride<_1, _16>>;  // thread t gets t, t+16, t+32, t+48
//~ex}

/// \brief The threads of the TiledMMA: 16×16, thread t at (t/16, t%16), row-major over (M,N).
using ThrLayout = Layout<Shape<_16, _16, _1>, Stride<_16, _1, _0>>;  // (ThrM,ThrN,ThrK) -> thr_idx

/// \brief The TiledMMA: a 1×1×1 scalar FMA atom, tiled over ThrLayout's 16×16 threads, with the
/// (16,4):(4,1) permutation of M and N.
CUTE_HOST_DEVICE auto make_tiled_mma_fma() {
  return make_tiled_mma(UniversalFMA<Element, Element, Element>{},
                        ThrLayout{},                                         // (ThrM,ThrN,ThrK) -> thr_idx
                        Tile<PermutationMN, PermutationMN, Underscore>{});   // permutation of M, N, (K)
}
//! [tiled_mma]

/// \brief The type of make_tiled_mma_fma().
using TiledMma = decltype(make_tiled_mma_fma());

/// \brief Threads per CTA: one per thread of the TiledMMA.
inline constexpr int kThreads = int(size(TiledMma{}));
static_assert(kThreads == 256, "16x16 threads");

}  // namespace step01

/// \file step01_naive/kernel.cuh
/// \brief Step 01's kernel: every thread loads its A and B values from gmem into registers and
/// accumulates its 8×8 share of the CTA's C tile with scalar FMAs. No shared memory.
#pragma once

#include <cute/tensor.hpp>

#include "tut/harness.hpp"
#include "tut/owner.hpp"

namespace step01 {

using namespace cute;

/// \brief C = A·Bᵀ with one 128×128 C tile per CTA and the TiledMMA's 256 threads.
/// Requires M, N multiples of BLK_M, BLK_N and K a multiple of BLK_K (step02 lifts this).
template <class CtaTiler,
          class TA, class ALayout, class TB, class BLayout, class TC, class CLayout,
          class TiledMma>
__global__ static __launch_bounds__(decltype(size(TiledMma{}))::value)
void gemm_kernel(CtaTiler cta_tiler,
                 TA const* A, ALayout layout_a,
                 TB const* B, BLayout layout_b,
                 TC* C, CLayout layout_c,
                 TiledMma mma, tut::Store store)
{
  //! [preconditions]
  // ---- Preconditions --------------------------------------------------------------------------------
  CUTE_STATIC_ASSERT_V(rank(cta_tiler) == Int<3>{});        // (BLK_M,BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(rank(layout_a) == Int<2>{});         // A is (M,K)
  CUTE_STATIC_ASSERT_V(rank(layout_b) == Int<2>{});         // B is (N,K)
  CUTE_STATIC_ASSERT_V(rank(layout_c) == Int<2>{});         // C is (M,N)
  // The TiledMMA's permuted tile (16 threads x 4 values = 64 in M and in N) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % 64 == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % 64 == 0
  CUTE_STATIC_ASSERT_V(tile_size<0>(mma) == Int<64>{} && tile_size<1>(mma) == Int<64>{});
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  Tensor mA = make_tensor(make_gmem_ptr(A), layout_a);      // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), layout_b);      // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), layout_c);      // (M,N)

  // This CTA's tiles. local_tile = proj (drop the mode the operand lacks) + tile + coord.
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);   // (m,n,:)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
  //! [tiles]

  //! [partition]
  // ---- Math partition: what this thread owns --------------------------------------------------------
  //! [idea]
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgA = thr_mma.partition_A(gA);                    // (MMA,MMA_M,MMA_K,k)
  Tensor tCgB = thr_mma.partition_B(gB);                    // (MMA,MMA_N,MMA_K,k)
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)
  //! [idea]

  // Registers: one k-tile of A and B values, and the accumulators.
  Tensor tCrA = thr_mma.partition_fragment_A(gA(_,_,0));    // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(gB(_,_,0));    // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N)
  CUTE_STATIC_ASSERT_V(size<1>(tCrC) == Int<8>{} && size<2>(tCrC) == Int<8>{});  // 8 rows x 8 cols
  CUTE_STATIC_ASSERT_V(size<2>(tCrA) == Int<8>{});          // 8 k_blocks: BLK_K, one k each
  clear(tCrC);
  //! [partition]

  //! [mainloop]
  // ---- Mainloop -------------------------------------------------------------------------------------
  // TUTORIAL: for each k_tile: load 8 A rows x 8 k and 8 B cols x 8 k, then
  //   for k_block in 0..7: for m in 0..7: for n in 0..7: acc[m][n] += a[m][k_block] * b[n][k_block]
  auto K_TILE_MAX = size<3>(tCgA);
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    copy(tCgA(_,_,_,k_tile), tCrA);                         // gmem -> rmem, 64 values of A
    copy(tCgB(_,_,_,k_tile), tCrB);                         // gmem -> rmem, 64 values of B
    gemm(mma, tCrA, tCrB, tCrC);                            // 8 k_blocks x 64 FMAs
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue -------------------------------------------------------------------------------------
  // Store::owners (tests only): each thread stores its own id instead, through the same copy.
  if (store == tut::Store::owners) tut::fill_owner_id(tCrC);
  copy(tCrC, tCgC);                                         // rmem -> gmem, 8x8 entries
  //! [epilogue]
}

}  // namespace step01

/// \file step05_tensorcore_mma/kernel.cuh
/// \brief Step 05's kernel: a TiledMMA of tensor-core atoms, fed straight from gmem. Each thread loads the
/// A, B values its registers hold in the instruction, the warp issues mma.sync, and each thread stores its
/// accumulators. No shared memory: this step is about the atom.
#pragma once

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/owner.hpp"

namespace step05 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, on tensor cores, one k-tile at a time.
/// M, N, K must be multiples of the CTA tile (the harness checks): there is no predication.
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class CtaTiler,
          class TA, class ALayout,
          class TB, class BLayout,
          class TC, class CLayout,
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
  // The TiledMMA's tile (16 rows x 8 cols x 16 k per atom, times the warps) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (16*WARPS_M) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % (8*WARPS_N) == 0
  CUTE_STATIC_ASSERT_V(size<2>(cta_tiler) % tile_size<2>(mma) == Int<0>{});  // BLK_K % 16 == 0
  // The instruction reads K-major A and B: the two halves of a 32-bit register are neighbours in k.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  Tensor mA = make_tensor(make_gmem_ptr(A), layout_a);      // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), layout_b);      // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), layout_c);      // (M,N)

  // This CTA's tiles. local_tile = proj (drop the mode the operand lacks) + tile + coord.
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);   // (m,n,:)
  if constexpr (BUG == Bug::swapped_block_index)           //~bug swapped_block_index: y taken for m
    cta_coord = make_coord(blockIdx.y, blockIdx.x, _);     //~bug
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
  //! [tiles]

  //! [partition]
  // ---- Math partition: the atom's TV layouts, tiled over the warps and the CTA tile -----------------
  // partition_A gives this thread the A elements its registers hold in every mma.sync of the k-tile:
  // MMA = the atom's 8 values (4 registers of 2 halves), MMA_M x MMA_K = how often gemm() repeats the
  // TiledMMA over the tile. The same for B (4 values, 2 registers) and C (4 floats).
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgA = thr_mma.partition_A(gA);                    // (MMA,MMA_M,MMA_K,k)
  Tensor tCgB = thr_mma.partition_B(gB);                    // (MMA,MMA_N,MMA_K,k)
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)

  // Registers: one k-tile of A and B fragments, and the accumulators.
  Tensor tCrA = thr_mma.partition_fragment_A(gA(_,_,0));    // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(gB(_,_,0));    // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N)
  CUTE_STATIC_ASSERT_V(size<0>(tCrA) == Int<8>{});          // A: 8 halves per atom (uint32_t[4])
  CUTE_STATIC_ASSERT_V(size<0>(tCrB) == Int<4>{});          // B: 4 halves per atom (uint32_t[2])
  CUTE_STATIC_ASSERT_V(size<0>(tCrC) == Int<4>{});          // C: 4 floats per atom (float[4])
  CUTE_STATIC_ASSERT_V(size<1>(tCrC) == size<1>(tCrA));     // MMA_M: the rows of A are the rows of C
  CUTE_STATIC_ASSERT_V(size<2>(tCrC) == size<1>(tCrB));     // MMA_N: the rows of B are the cols of C
  // Each thread owns BLK_M*BLK_N/threads accumulators: the CTA tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  clear(tCrC);
  //! [partition]

  //! [mainloop]
  // ---- Mainloop -------------------------------------------------------------------------------------
  // TUTORIAL: for each k_tile:
  //   each thread: a[...] = its A values of the k-tile, b[...] = its B values (gmem -> registers);
  //   each warp, for each (m, n, k) repeat of the TiledMMA over the tile:
  //     mma.sync(d = a(m,k) * b(n,k) + d): 32 lanes, 16x8x16, the lanes' registers as the atom says.
  // No thread reads what another thread loaded, so there is no barrier: the warp exchanges the values
  // inside the instruction.
  auto K_TILE_MAX = size<3>(tCgA);                          // K/BLK_K
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    if constexpr (BUG == Bug::last_k_tile_dropped)         //~bug last_k_tile_dropped: one k-tile short
      if (k_tile == K_TILE_MAX - 1) break;                 //~bug
    copy(tCgA(_,_,_,k_tile), tCrA);                         // gmem -> rmem, this thread's A values
    copy(tCgB(_,_,_,k_tile), tCrB);                         // gmem -> rmem, this thread's B values
    gemm(mma, tCrA, tCrB, tCrC);                            // MMA_M x MMA_N x MMA_K mma.sync per warp
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue -------------------------------------------------------------------------------------
  // Store::owners (tests only): each thread stores its own id instead, through the same partition.
  if (store == tut::Store::owners) tut::fill_owner_id(tCrC);
  copy(tCrC, tCgC);                                         // rmem -> gmem, every entry of the tile
  //! [epilogue]
}

}  // namespace step05

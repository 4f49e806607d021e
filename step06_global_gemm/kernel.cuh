/// \file step06_global_gemm/kernel.cuh
/// \brief Step 06's kernel: the whole GEMM on tensor cores. Each k-tile of A and B goes gmem -> smem with
/// cp.async (zero-filled outside the problem), smem -> registers through the TiledMMA's partition, and
/// into step 05's 2×2-warp TiledMMA; the accumulators go registers -> gmem, masked at the edge.
#pragma once

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step06 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, staged through smem one k-tile at a time, on
/// tensor cores. Any M, N >= 1: the grid and the k-tiles round up, and elements outside the problem are
/// zero-filled on load and skipped on store. K must be a multiple of 8 and A, B 16-byte aligned (the
/// launcher checks): every cp.async chunk then lies wholly inside a row or wholly outside.
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class CtaTiler,
          class TA, class ALayout, class SmemLayoutA, class TiledCopyA,
          class TB, class BLayout, class SmemLayoutB, class TiledCopyB,
          class TC, class CLayout,
          class TiledMma>
__global__ static __launch_bounds__(decltype(size(TiledMma{}))::value)
void gemm_kernel(CtaTiler cta_tiler,
                 TA const* A, ALayout layout_a, SmemLayoutA sA_layout, TiledCopyA copy_a,
                 TB const* B, BLayout layout_b, SmemLayoutB sB_layout, TiledCopyB copy_b,
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
  // A and B are K-major in gmem: a cp.async chunk is 8 consecutive k of one row.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  // The smem tiles are static and hold exactly one k-tile of A and of B.
  static_assert(is_static<SmemLayoutA>::value && is_static<SmemLayoutB>::value);
  CUTE_STATIC_ASSERT_V((shape(sA_layout) == select<0,2>(cta_tiler)));  // (BLK_M,BLK_K)
  CUTE_STATIC_ASSERT_V((shape(sB_layout) == select<1,2>(cta_tiler)));  // (BLK_N,BLK_K)
  // Every thread of the CTA copies, and every thread computes.
  CUTE_STATIC_ASSERT_V(size(copy_a) == size(mma) && size(copy_b) == size(mma));  // NumThreads
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

  //! [smem]
  // ---- Shared memory: one k-tile of A and of B, shared by all threads of the CTA --------------------
  // One SharedStorage (config.hpp) in dynamic shared memory: the launch passes sizeof(SharedStorage).
  extern __shared__ char shared_memory[];
  using Smem = SharedStorage<TA, TB, SmemLayoutA, SmemLayoutB>;
  Smem& smem = *reinterpret_cast<Smem*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.A.begin()), sA_layout);  // (BLK_M,BLK_K)
  Tensor sB = make_tensor(make_smem_ptr(smem.B.begin()), sB_layout);  // (BLK_N,BLK_K)
  //! [smem]

  //! [copy_partition]
  // ---- Copy partition: this thread's share of moving each k-tile gmem -> smem ----------------------
  // cp.async moves gmem straight into smem: no register tile in between (step 04 had tArA).
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                 // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                 // (CPY,CPY_M,CPY_K)

  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);                 // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_copy_b.partition_D(sB);                 // (CPY,CPY_N,CPY_K)

  CUTE_STATIC_ASSERT_V(size<0>(tAsA) == Int<8>{} && size<0>(tBsB) == Int<8>{});  // CPY: 8 halves, 16 bytes
  CUTE_STATIC_ASSERT_V(size<1>(tAgA) == size<1>(tAsA) && size<2>(tAgA) == size<2>(tAsA));  // CPY_M,CPY_K
  CUTE_STATIC_ASSERT_V(size<1>(tBgB) == size<1>(tBsB) && size<2>(tBgB) == size<2>(tBsB));  // CPY_N,CPY_K
  //! [copy_partition]

  //! [partition]
  // ---- Math partition: what this thread owns --------------------------------------------------------
  // Step 05's partition, now over smem: partition_A(sA) gives this thread the A values its registers
  // hold in every mma.sync of the k-tile, at their (swizzled) smem addresses.
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                    // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)

  // Registers: one k-tile of A and B fragments, and the accumulators.
  Tensor tCrA = thr_mma.partition_fragment_A(sA);           // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB);           // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N)
  CUTE_STATIC_ASSERT_V(size<0>(tCrA) == Int<8>{});          // A: 8 halves per atom (uint32_t[4])
  CUTE_STATIC_ASSERT_V(size<0>(tCrB) == Int<4>{});          // B: 4 halves per atom (uint32_t[2])
  CUTE_STATIC_ASSERT_V(size<0>(tCrC) == Int<4>{});          // C: 4 floats per atom (float[4])
  CUTE_STATIC_ASSERT_V(size<1>(tCrC) == size<1>(tCsA));     // MMA_M: the rows of A are the rows of C
  CUTE_STATIC_ASSERT_V(size<2>(tCrC) == size<1>(tCsB));     // MMA_N: the rows of B are the cols of C
  // Each thread owns BLK_M*BLK_N/threads accumulators: the CTA tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  clear(tCrC);
  //! [partition]

  //! [predicates]
  // ---- Predicates: which of this thread's elements lie inside the problem ---------------------------
  // As in step 04: identity tensors, tiled and partitioned exactly like the data, give each element's
  // global coordinate, and tut::make_mask turns it into elem_less(coord, shape). A copy is masked by
  // its chunk's first element: K % 8 == 0, so the other 7 agree.
  Tensor mcA = make_identity_tensor(shape(mA));             // (M,K) -> (m,k)
  Tensor mcB = make_identity_tensor(shape(mB));             // (N,K) -> (n,k)
  Tensor mcC = make_identity_tensor(shape(mC));             // (M,N) -> (m,n)
  Tensor cA = local_tile(mcA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k) -> (m,k)
  Tensor cB = local_tile(mcB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k) -> (n,k)
  Tensor cC = local_tile(mcC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N) -> (m,n)
  Tensor tAcA = thr_copy_a.partition_S(cA);                 // (CPY,CPY_M,CPY_K,k) -> (m,k)
  Tensor tBcB = thr_copy_b.partition_S(cB);                 // (CPY,CPY_N,CPY_K,k) -> (n,k)
  Tensor tCcC = thr_mma.partition_C(cC);                    // (MMA,MMA_M,MMA_N) -> (m,n)
  Tensor tApA = tut::make_mask(tAcA, shape(mA));            // (CPY,CPY_M,CPY_K,k) -> m<M && k<K
  Tensor tBpB = tut::make_mask(tBcB, shape(mB));            // (CPY,CPY_N,CPY_K,k) -> n<N && k<K
  Tensor tCpC = tut::make_mask(tCcC, shape(mC));            // (MMA,MMA_M,MMA_N) -> m<M && n<N
  // Each mask has the shape of the data partition it guards.
  CUTE_STATIC_ASSERT_V(size<1>(tApA) == size<1>(tAgA) && size<2>(tApA) == size<2>(tAgA));  // CPY_M,CPY_K
  CUTE_STATIC_ASSERT_V(size<1>(tBpB) == size<1>(tBgB) && size<2>(tBpB) == size<2>(tBgB));  // CPY_N,CPY_K
  CUTE_STATIC_ASSERT_V(size(tCpC) == size(tCgC));           // MMA x MMA_M x MMA_N
  //! [predicates]

  //! [mainloop]
  // ---- Mainloop -------------------------------------------------------------------------------------
  // TUTORIAL: for each k_tile:
  //   each thread: for each of its 16-byte chunks of the k-tile: cp.async(smem chunk <- gmem chunk),
  //                or 16 zero bytes where the chunk lies outside A (or B);
  //   wait for this thread's copies; barrier;
  //   each thread: a[...] = its A values of the k-tile, b[...] = its B values (smem -> registers);
  //   each warp: for each (m, n, k) repeat of the TiledMMA over the tile: mma.sync(d = a * b + d);
  //   barrier.
  // A zero-filled value adds 0 to every sum: the ragged edges need no special math.
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    // Copy: issue this thread's cp.async chunks of the k-tile; the ZFILL atom zero-fills a masked one.
    //! [idea]
    copy_if(copy_a, tApA(_,_,_,k_tile), tAgA(_,_,_,k_tile), tAsA);  // gmem -> smem, async
    copy_if(copy_b, tBpB(_,_,_,k_tile), tBgB(_,_,_,k_tile), tBsB);
    // cp.async does not wait: the fence closes this thread's copies into one group, and the wait
    // blocks until the group has landed in smem.
    cp_async_fence();
    cp_async_wait<0>();
    // Barrier 1 (read after write): each thread waited for its own copies only; the barrier makes every
    // thread's chunks visible before any thread reads the k-tile, most of which other threads copied.
    __syncthreads();
    //! [idea]

    // Compute: smem -> registers through the math partition, then MMA_M x MMA_N x MMA_K mma.sync.
    // copy_aligned, not copy: this thread's offset into the swizzled tile leaves some of tCsA's
    // strides run-time values, and copy() then assumes no alignment: in its PTX, 11 of the 64
    // registers load as two 16-bit halves (ptxas happens to merge them back). Each register's pair
    // (k, k+1) starts at an even k of a 16-byte chunk, which the swizzle moves whole, so 32-bit
    // alignment holds: copy_aligned lets CuTe load one 32-bit word per register.
    copy_aligned(tCsA, tCrA);                               // smem -> rmem, this thread's A values
    copy_aligned(tCsB, tCrB);                               // smem -> rmem, this thread's B values
    gemm(mma, tCrA, tCrB, tCrC);                            // 4 x 8 x 2 mma.sync per warp (Default)
    // Barrier 2 (write after read): every thread has read this k-tile before any thread's next
    // cp.async overwrites sA and sB. Without it a fast warp's copies would land under a slow warp's reads.
    __syncthreads();
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue -------------------------------------------------------------------------------------
  // Store::owners (tests only): each thread stores its own id instead, through the same partition.
  if (store == tut::Store::owners) tut::fill_owner_id(tCrC);
  if constexpr (BUG == Bug::no_epilogue_mask)              //~bug no_epilogue_mask: no mask
    copy(tCrC, tCgC);                                      //~bug
  else                                                     //~bug
    copy_if(tCpC, tCrC, tCgC);                              // rmem -> gmem, the entries inside C
  //! [epilogue]
}

}  // namespace step06

/// \file step03_smem_tiling/kernel.cuh
/// \brief Step 03's kernel: step 02's predicated kernel, with each k-tile of A and B staged in shared
/// memory. All threads copy a k-tile gmem -> smem together; each then reads its rows and cols from smem.
#pragma once

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step03 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, staged through smem one k-tile at a time.
/// Any M, N, K >= 1: the grid and the k-tiles round up, and elements outside the problem are masked.
/// With VEC-wide copies, M and N must be multiples of VEC (vector_copies_fit; the launcher checks).
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
  // The TiledMMA's permuted tile (THR_M threads x 4 values in M, THR_N x 4 in N) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (4*THR_M) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % (4*THR_N) == 0
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
  // The values pass through registers (as every load does): tArA holds them, zero where masked.
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                 // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                 // (CPY,CPY_M,CPY_K)
  Tensor tArA = make_fragment_like(tAsA);                   // (CPY,CPY_M,CPY_K)

  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);                 // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_copy_b.partition_D(sB);                 // (CPY,CPY_N,CPY_K)
  Tensor tBrB = make_fragment_like(tBsB);                   // (CPY,CPY_N,CPY_K)

  CUTE_STATIC_ASSERT_V(size<1>(tAgA) == size<1>(tAsA) && size<2>(tAgA) == size<2>(tAsA));  // CPY_M,CPY_K
  CUTE_STATIC_ASSERT_V(size<1>(tBgB) == size<1>(tBsB) && size<2>(tBgB) == size<2>(tBsB));  // CPY_N,CPY_K
  //! [copy_partition]

  //! [partition]
  // ---- Math partition: what this thread owns --------------------------------------------------------
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                    // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)

  // Registers: one k-tile of A and B values, and the accumulators.
  Tensor tCrA = thr_mma.partition_fragment_A(sA);           // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB);           // (MMA,MMA_N,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N)
  // Each thread owns (BLK_M/THR_M) x (BLK_N/THR_N) accumulators: the CTA tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  CUTE_STATIC_ASSERT_V(size<1>(tCrC) == size<1>(tCsA));     // MMA_M: the rows of A are the rows of C
  CUTE_STATIC_ASSERT_V(size<2>(tCrC) == size<1>(tCsB));     // MMA_N: the rows of B are the cols of C
  CUTE_STATIC_ASSERT_V(size<2>(tCrA) == size<2>(cta_tiler));  // BLK_K k_blocks, one k each
  clear(tCrC);
  //! [partition]

  //! [predicates]
  // ---- Predicates: which of this thread's elements lie inside the problem ---------------------------
  // An identity tensor holds coordinates instead of data: mcA(m,k) = (m,k). Tiled and partitioned with
  // exactly the calls the data gets, it gives the global coordinate of every element this thread
  // touches; tut::make_mask turns each into elem_less(coord, shape): 1 inside, 0 outside.
  // The loads are now the copy partition's, so the A and B masks follow it (tAcA, not tCcA).
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
  //   all threads together: sA = this k-tile of A, sB = this k-tile of B (each thread its CPY vectors);
  //   each thread: for k_block in 0..BLK_K-1: a[i] = sA(my rows, k_block), b[j] = sB(my cols, k_block);
  //     for i, j over my BLK_M/THR_M rows and BLK_N/THR_N cols: acc[i][j] += a[i] * b[j]
  // A masked value is zero-filled, so it adds 0 to every sum: the ragged edges need no special math.
  // A copy instruction moves a vector of VEC elements along M (or N), masked by its first element's
  // bit: with VEC = 4, M and N are multiples of 4, so a vector lies wholly inside or wholly outside.
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  auto K_BLOCK_MAX = size<2>(tCrA);                         // BLK_K
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    if constexpr (BUG != Bug::no_zero_fill) {              //~bug no_zero_fill deletes these two lines
      clear(tArA);                                          // zero-fill what the masks skip
      clear(tBrB);
    }                                                      //~bug
    copy_if(copy_a, tApA(_,_,_,k_tile), tAgA(_,_,_,k_tile), tArA);  // gmem -> rmem, the vectors inside A
    copy_if(copy_b, tBpB(_,_,_,k_tile), tBgB(_,_,_,k_tile), tBrB);  // gmem -> rmem, the vectors inside B
    //! [idea]
    copy(tArA, tAsA);                                       // rmem -> smem
    copy(tBrB, tBsB);
    // Barrier 1 (read after write): sA and sB were written by all threads, and each thread is about to
    // read values other threads wrote. Without it a fast warp would read a half-written k-tile.
    __syncthreads();
    //! [idea]

    CUTE_UNROLL
    for (int k_block = 0; k_block < K_BLOCK_MAX; ++k_block) {
      copy(tCsA(_,_,k_block), tCrA(_,_,k_block));           // smem -> rmem, this thread's A rows
      copy(tCsB(_,_,k_block), tCrB(_,_,k_block));           // smem -> rmem, this thread's B rows (C cols)
      gemm(mma, tCrA(_,_,k_block), tCrB(_,_,k_block), tCrC);  // (BLK_M/THR_M) x (BLK_N/THR_N) FMAs
    }
    // Barrier 2 (write after read): every thread has read this k-tile before any thread overwrites
    // sA and sB with the next one. Without it a fast warp's next copy would clobber a slow warp's input.
    if constexpr (BUG != Bug::no_second_barrier)           //~bug no_second_barrier deletes this barrier
      __syncthreads();
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue -------------------------------------------------------------------------------------
  // Store::owners (tests only): each thread stores its own id instead, through the same copy.
  if (store == tut::Store::owners) tut::fill_owner_id(tCrC);
  copy_if(tCpC, tCrC, tCgC);                                // rmem -> gmem, the entries inside C
  //! [epilogue]
}

}  // namespace step03

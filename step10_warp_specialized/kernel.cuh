/// \file step10_warp_specialized/kernel.cuh
/// \brief Step 10's kernel: Hopper's way. One producer warpgroup has the TMA unit copy whole k-tiles into a
/// ring of GMMA-swizzled smem stages; consumer warpgroups multiply them with wgmma, straight from smem.
/// Two mbarriers per stage hand each stage back and forth. Built for sm_90a only.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>       // cutlass::arch::fence_barrier_init
#include <cutlass/arch/reg_reconfig.h>  // setmaxnreg: cutlass::arch::warpgroup_reg_alloc / _dealloc

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step10 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA: a producer warpgroup (the last) loads k-tiles with
/// TMA into a STAGES-deep smem ring; the consumer warpgroups (threads 0..size(mma)-1) multiply them with
/// wgmma and store C. Any M, N >= 1: the TMA unit fills out-of-bounds elements with zeros, and the
/// epilogue skips them. K a multiple of 8 (the launcher checks). \p vector_c: C's rows start 8-byte
/// aligned (N even, C aligned), so whole tiles store pairs of floats. \p schedule says which tile each
/// CTA computes (a 1-D grid: CTA i computes the raster order's tile i).
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class CtaTiler,
          class TA, class ALayout, class SmemLayoutA, class TmaA,
          class TB, class BLayout, class SmemLayoutB, class TmaB,
          class TC, class CLayout, class TiledMma, int PRODUCER_REGS, int CONSUMER_REGS>
__global__ static __launch_bounds__(decltype(size(TiledMma{}))::value + kWarpgroupThreads, 1)
void gemm_kernel(CtaTiler cta_tiler,
                 ALayout layout_a, SmemLayoutA sA_layout, CUTE_GRID_CONSTANT TmaA const tma_a,
                 BLayout layout_b, SmemLayoutB sB_layout, CUTE_GRID_CONSTANT TmaB const tma_b,
                 TC* C, CLayout layout_c, bool vector_c,
                 TiledMma mma, tut::Store store, tut::TileSchedule schedule)
{
  //! [preconditions]
  // ---- Preconditions --------------------------------------------------------------------------------
  CUTE_STATIC_ASSERT_V(rank(cta_tiler) == Int<3>{});        // (BLK_M,BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(rank(layout_a) == Int<2>{});         // A is (M,K)
  CUTE_STATIC_ASSERT_V(rank(layout_b) == Int<2>{});         // B is (N,K)
  CUTE_STATIC_ASSERT_V(rank(layout_c) == Int<2>{});         // C is (M,N)
  // The warpgroups' tile (64·CONSUMERS rows x BLK_N cols x 16 k) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (64*CONSUMERS) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % N of the wgmma == 0
  CUTE_STATIC_ASSERT_V(size<2>(cta_tiler) % tile_size<2>(mma) == Int<0>{});  // BLK_K % 16 == 0
  // A and B are K-major in gmem: TMA boxes of whole 128-byte rows along k.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  // The smem ring: (BLK_MN,BLK_K,STAGES), static.
  static_assert(is_static<SmemLayoutA>::value && is_static<SmemLayoutB>::value);
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sA_layout))) == select<0,2>(cta_tiler)));  // (BLK_M,BLK_K)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sB_layout))) == select<1,2>(cta_tiler)));  // (BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(size<2>(sA_layout) == size<2>(sB_layout));                                 // STAGES
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  // A and B are not read through pointers any more: the TMA descriptors hold their addresses. The
  // "TMA tensors" are tensors of coordinates, (m,k) -> (m,k): a TMA copy is told where its box starts,
  // and the unit works out the addresses (and which elements lie outside A).
  Tensor mA = tma_a.get_tma_tensor(shape(layout_a));        // (M,K) -> (m,k)
  Tensor mB = tma_b.get_tma_tensor(shape(layout_b));        // (N,K) -> (n,k)
  Tensor mC = make_tensor(make_gmem_ptr(C), layout_c);      // (M,N)

  // The grid is 1-D: CTA blockIdx.x computes the tile the schedule names (grouped for L2, config.hpp).
  int const tiles_m = ceil_div(size<0>(layout_c), size<0>(cta_tiler));  // ceil(M/BLK_M)
  int const tiles_n = ceil_div(size<1>(layout_c), size<1>(cta_tiler));  // ceil(N/BLK_N)
  tut::TileCoord const tile = schedule.tile(int(blockIdx.x), 0, tiles_m, tiles_n);
  auto cta_coord = make_coord(tile.m, tile.n, _);           // (m,n,:)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k) -> (m,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k) -> (n,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
  //! [tiles]

  //! [smem]
  // ---- Shared memory: the ring of STAGES k-tiles, and two mbarriers per stage --------------------------
  extern __shared__ char shared_memory[];
  using Smem = SharedStorage<TA, TB, SmemLayoutA, SmemLayoutB>;
  Smem& smem = *reinterpret_cast<Smem*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.A.begin()), sA_layout);  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem.B.begin()), sB_layout);  // (BLK_N,BLK_K,STAGES)
  constexpr int STAGES = size<2>(SmemLayoutA{});
  constexpr int CONSUMERS = size(TiledMma{}) / kWarpgroupThreads;
  //! [smem]

  //! [tma_partition]
  // ---- Copy partition: the TMA's, one box per k-tile and operand ----------------------------------------
  // A TMA copy is issued by one thread for the whole CTA: there is one slice, 0. Its partition of a k-tile
  // is one mode, TMA, that a single cp.async.bulk.tensor instruction moves.
  auto cta_tma_a = tma_a.get_slice(Int<0>{});
  Tensor tAgA = cta_tma_a.partition_S(gA);                  // (TMA,TMA_M,TMA_K,k)
  Tensor tAsA = cta_tma_a.partition_D(sA);                  // (TMA,TMA_M,TMA_K,STAGES)
  auto cta_tma_b = tma_b.get_slice(Int<0>{});
  Tensor tBgB = cta_tma_b.partition_S(gB);                  // (TMA,TMA_N,TMA_K,k)
  Tensor tBsB = cta_tma_b.partition_D(sB);                  // (TMA,TMA_N,TMA_K,STAGES)
  // The whole k-tile in one box: size(TMA) is BLK_M·BLK_K (A) and BLK_N·BLK_K (B).
  CUTE_STATIC_ASSERT_V(size<0>(tAsA) == size<0>(cta_tiler) * size<2>(cta_tiler));
  CUTE_STATIC_ASSERT_V(size<0>(tBsB) == size<1>(cta_tiler) * size<2>(cta_tiler));
  // The bytes a stage's full barrier waits for: both boxes, whole (out-of-bounds zeros count too).
  constexpr std::uint32_t kTmaBytes = sizeof(make_tensor_like(tensor<0>(tAsA)))
                                    + sizeof(make_tensor_like(tensor<0>(tBsB)));
  //! [tma_partition]

  //! [barriers]
  // ---- The barriers: initialized once, by one thread, before anyone uses them ---------------------------
  // full[s]: one arrival (the producer's arrive.expect_tx) plus the TMA's bytes completes a phase.
  // empty[s]: one arrival per consumer warpgroup completes a phase.
  int const warpgroup = int(threadIdx.x) / kWarpgroupThreads;
  if (threadIdx.x == 0) {
    CUTE_UNROLL
    for (int s = 0; s < STAGES; ++s) {
      initialize_barrier(smem.full[s], 1);
      initialize_barrier(smem.empty[s], CONSUMERS);
    }
    cutlass::arch::fence_barrier_init();                    // make the inits visible to the async proxy (TMA)
  }
  __syncthreads();
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  //! [barriers]

  if (warpgroup == CONSUMERS) {
    //! [producer]
    // ---- Producer warpgroup: one thread keeps the ring full ----------------------------------------------
    cutlass::arch::warpgroup_reg_dealloc<PRODUCER_REGS>();  // give registers back to the consumers
    if (threadIdx.x == CONSUMERS * kWarpgroupThreads) {
      // TUTORIAL: for each k-tile: wait until its stage is empty; tell the stage's full barrier how many
      // bytes to expect (this is also the producer's arrival); have the TMA unit copy both boxes, each
      // completing its bytes on that barrier.
      RingState<STAGES> write;                              // stage 0, parity 0
      for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
        // The first lap waits for parity 1: the phase "before" a fresh barrier, which counts as
        // complete, so all STAGES stages are filled at once. Later laps wait for the consumers' release.
        if constexpr (BUG == Bug::producer_parity)         // --bug producer_parity: the consumers' parity
          wait_barrier(smem.empty[write.index], write.consumer_parity());
        else
          wait_barrier(smem.empty[write.index], write.producer_parity());
        set_barrier_transaction_bytes(smem.full[write.index], kTmaBytes);
        copy(tma_a.with(smem.full[write.index]), tAgA(_,_,_,k_tile), tAsA(_,_,_,write.index));
        copy(tma_b.with(smem.full[write.index]), tBgB(_,_,_,k_tile), tBsB(_,_,_,write.index));
        write.advance();
      }
    }
    //! [producer]
  } else {
    cutlass::arch::warpgroup_reg_alloc<CONSUMER_REGS>();    // room for the accumulators

    //! [partition]
    // ---- Math partition: what this thread's warpgroup reads, and what this thread owns ------------------
    ThrMMA thr_mma = mma.get_slice(threadIdx.x);
    Tensor tCsA = thr_mma.partition_A(sA);                  // (MMA,MMA_M,MMA_K,STAGES)
    Tensor tCsB = thr_mma.partition_B(sB);                  // (MMA,MMA_N,MMA_K,STAGES)
    // wgmma reads A and B from smem itself: the "fragments" are 64-bit descriptors of the smem tiles
    // (start address, swizzle mode, strides), one per wgmma and stage, not registers holding data.
    Tensor tCrA = thr_mma.make_fragment_A(tCsA);            // (MMA,MMA_M,MMA_K,STAGES) descriptors
    Tensor tCrB = thr_mma.make_fragment_B(tCsB);            // (MMA,MMA_N,MMA_K,STAGES) descriptors
    Tensor tCgC = thr_mma.partition_C(gC);                  // (MMA,MMA_M,MMA_N)
    Tensor tCrC = thr_mma.make_fragment_C(tCgC);            // (MMA,MMA_M,MMA_N) fp32 accumulators
    // Each thread owns BLK_M*BLK_N/threads accumulators: the CTA tile, shared out evenly.
    CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
    clear(tCrC);
    //! [partition]

    //! [mainloop]
    // ---- Mainloop: wait for a full stage, wgmma on it, release the one before ----------------------------
    // TUTORIAL: for each k-tile: wait until its stage is full; issue MMA_K wgmmas (16 k each) on it as
    // one batch; wait until at most one batch, this one, is still running: the previous k-tile's wgmmas
    // are done reading their stage, so this warpgroup releases it to the producer.
    RingState<STAGES> read;                                 // stage 0, parity 0
    RingState<STAGES> release;                              // the stage read one k-tile earlier
    for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
      wait_barrier(smem.full[read.index], read.consumer_parity());
      warpgroup_fence_operand(tCrC);
      warpgroup_arrive();                                   // the accumulators' registers are ready for wgmma
      gemm(mma, tCrA(_,_,_,read.index), tCrB(_,_,_,read.index), tCrC);  // MMA_K wgmma.mma_async per warpgroup
      warpgroup_commit_batch();
      if constexpr (BUG != Bug::no_warpgroup_wait)         // --bug no_warpgroup_wait deletes this wait
        warpgroup_wait<1>();                                // all but the batch just issued are done
      warpgroup_fence_operand(tCrC);
      if (k_tile > 0) {
        if (threadIdx.x % kWarpgroupThreads == 0) arrive_barrier(smem.empty[release.index]);
        release.advance();
      }
      read.advance();
    }
    warpgroup_wait<0>();                                    // the last batch too
    warpgroup_fence_operand(tCrC);
    //! [mainloop]

    //! [epilogue]
    // ---- Epilogue: registers -> gmem ------------------------------------------------------------------
    // Store::owners (tests only): each thread stores its own id instead (numbered among the TiledMMA's
    // threads), through the same partition.
    if (store == tut::Store::owners) tut::fill_owner_id(tCrC, 0, size(mma));
    // A whole tile with 8-byte aligned rows stores each thread's (v0,v1) pairs, adjacent columns of one
    // row, as 64-bit words; any other tile stores float by float where the mask says the entry is in C.
    bool const whole_tile = (tile.m + 1) * size<0>(cta_tiler) <= size<0>(mC) &&
                            (tile.n + 1) * size<1>(cta_tiler) <= size<1>(mC);
    if (vector_c && whole_tile) {
      copy_aligned(tCrC, tCgC);
    } else {
      Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N) -> (m,n)
      Tensor tCpC = tut::make_mask(thr_mma.partition_C(cC), shape(mC));  // (MMA,MMA_M,MMA_N) -> m<M && n<N
      copy_if(tCpC, tCrC, tCgC);
    }
    //! [epilogue]
  }
}

}  // namespace step10

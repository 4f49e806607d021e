/// \file step10_warp_specialized/kernel.cuh
/// \brief Step 10's kernel: step 09's pipeline with roles. One producer warpgroup has the TMA unit copy
/// whole k-tiles into the ring of GMMA-swizzled stages; consumer warpgroups multiply them with wgmma and
/// store C. Two mbarriers per stage hand each stage back and forth.
/// Built for sm_90a only.
/// In CUTLASS: the atoms are CuTe's (`SM90_64x256x16_F32F16F16_SS`, `GMMA::Layout_K_SW128_Atom`);
/// the mainloop is `MainloopSm90TmaGmmaWarpSpecialized`, with the `KernelTmaWarpSpecialized` schedule; the
/// full and empty barriers are `cutlass::PipelineTmaAsync`'s, and RingState is `cutlass::PipelineState`.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>       // cutlass::arch::fence_barrier_init, NamedBarrier
#include <cutlass/arch/reg_reconfig.h>  // setmaxnreg: cutlass::arch::warpgroup_reg_alloc / _dealloc

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step10 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, on warpgroup tensor cores (wgmma), through a
/// STAGES-deep TMA pipeline with roles: a producer warpgroup (the last) loads k-tiles with TMA; the
/// consumer warpgroups (threads 0..size(mma)-1) multiply them with
/// wgmma and store C. Any M, N >= 1: the TMA unit fills elements outside A and B with zeros, and
/// the epilogue skips them. K must be a multiple of 8 and A, B 16-byte aligned (the launch checks).
/// \p Cfg: the configuration (config.hpp), every type and extent known when it is compiled. \p p: what
/// only the run knows (tut::TmaParams):
/// - the problem's layouts, A's and B's TMA descriptors, and C;
/// - the schedule: a 1-D grid, CTA i computes the raster order's tile i;
/// - p.c_aligned: C's rows start 16-byte aligned (N a multiple of 4, C aligned), so the epilogue stores
///   128 bits at a time; otherwise it stores the same partition one float at a time.
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class Cfg, class Params>
__global__ static __launch_bounds__(Cfg::kThreads, 1)
void gemm_kernel(CUTE_GRID_CONSTANT Params const p)
{
  //! [params]
  // ---- The configuration and the run ---------------------------------------------------------------
  // The types are the configuration's (config.hpp); the extents and addresses are the run's, in p
  // (made by the launch; tut/kernel_params.hpp says what it holds and how it is passed). Here they take
  // the names the kernel uses.
  using TiledMma = typename Cfg::TiledMma;                  // the warpgroups' wgmma
  using SmemLayoutA = typename Cfg::SmemLayoutA;            // (BLK_M,BLK_K,STAGES) -> smem_idx
  using SmemLayoutB = typename Cfg::SmemLayoutB;            // (BLK_N,BLK_K,STAGES) -> smem_idx
  using SmemLayoutC = typename Cfg::SmemLayoutC;            // (BLK_M,BLK_N) -> smem_idx
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  TiledMma mma;
  SmemLayoutA sA_layout;
  SmemLayoutB sB_layout;
  SmemLayoutC sC_layout;
  typename Cfg::TiledCopyC copy_c;                          // smem -> gmem: 16 bytes a store, whole rows
  auto const layout_a = p.layout_a;                         // (M,K) -> idx
  auto const layout_b = p.layout_b;                         // (N,K) -> idx
  auto const layout_c = p.layout_c;                         // (M,N) -> idx
  auto const& tma_a = p.tma_a;                              // the TMA descriptors, in the kernel's parameters
  auto const& tma_b = p.tma_b;
  //! [params]

  //! [preconditions]
  // ---- Preconditions --------------------------------------------------------------------------------
  CUTE_STATIC_ASSERT_V(rank(cta_tiler) == Int<3>{});        // (BLK_M,BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(rank(layout_a) == Int<2>{});         // A is (M,K)
  CUTE_STATIC_ASSERT_V(rank(layout_b) == Int<2>{});         // B is (N,K)
  CUTE_STATIC_ASSERT_V(rank(layout_c) == Int<2>{});         // C is (M,N)
  // The warpgroups' tile (64·WARPGROUPS rows x BLK_N cols x 16 k) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (64*WARPGROUPS) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % N of the wgmma == 0
  CUTE_STATIC_ASSERT_V(size<2>(cta_tiler) % tile_size<2>(mma) == Int<0>{});  // BLK_K % 16 == 0
  // A and B are K-major in gmem: TMA boxes of whole 128-byte rows along k.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  // The smem ring: (BLK_MN,BLK_K,STAGES), static; the C tile: (BLK_M,BLK_N), static.
  static_assert(is_static<SmemLayoutA>::value && is_static<SmemLayoutB>::value && is_static<SmemLayoutC>::value);
  // (tile_to_shape nests the modes it repeats the atom along: config.hpp asserts the default's nested sB
  // shape. product_each flattens them to (BLK_MN,BLK_K,STAGES).)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sA_layout))) == select<0,2>(cta_tiler)));  // (BLK_M,BLK_K)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sB_layout))) == select<1,2>(cta_tiler)));  // (BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(size<2>(sA_layout) == size<2>(sB_layout));                                 // STAGES
  CUTE_STATIC_ASSERT_V((product_each(shape(sC_layout)) == select<0,1>(cta_tiler)));               // (BLK_M,BLK_N)
  // The threads that compute C store it: the epilogue's copy has the TiledMMA's threads.
  CUTE_STATIC_ASSERT_V(size(copy_c) == size(mma));
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  // A and B are not read through pointers any more: the TMA descriptors hold their addresses. The
  // "TMA tensors" are tensors of coordinates, (m,k) -> (m,k): a TMA copy is told where its box starts,
  // and the unit works out the addresses (and which elements lie outside A).
  Tensor mA = tma_a.get_tma_tensor(shape(layout_a));        // (M,K) -> (m,k)
  Tensor mB = tma_b.get_tma_tensor(shape(layout_b));        // (N,K) -> (n,k)
  Tensor mC = make_tensor(make_gmem_ptr(p.C), layout_c);    // (M,N)

  // The grid is 1-D: CTA blockIdx.x computes the tile the schedule names (grouped for L2, config.hpp).
  int const tiles_m = ceil_div(size<0>(layout_c), size<0>(cta_tiler));  // ceil(M/BLK_M)
  int const tiles_n = ceil_div(size<1>(layout_c), size<1>(cta_tiler));  // ceil(N/BLK_N)
  tut::TileCoord const tile = p.schedule.tile(int(blockIdx.x), 0, tiles_m, tiles_n);
  // This CTA's tiles. local_tile = proj (drop the mode the operand lacks) + tile + coord.
  auto cta_coord = make_coord(tile.m, tile.n, _);           // (m,n,:)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k) -> (m,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k) -> (n,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
  //! [tiles]

  //! [smem]
  // ---- Shared memory: a ring of STAGES k-tiles of A and B (later, the C tile), two mbarriers per stage --
  // One SharedStorage (config.hpp) in dynamic shared memory: the launch passes sizeof(SharedStorage) and
  // lifts the 48 KB default limit.
  extern __shared__ char shared_memory[];
  using Smem = typename Cfg::Smem;
  Smem& smem = *reinterpret_cast<Smem*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.mainloop.A.begin()), sA_layout);  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem.mainloop.B.begin()), sB_layout);  // (BLK_N,BLK_K,STAGES)
  constexpr int STAGES = size<2>(SmemLayoutA{});
  constexpr int CONSUMERS = Cfg::kConsumers;                // the consumer warpgroups
  //! [smem]

  //! [tma_partition]
  // ---- Copy partition: the TMA's, one box per k-tile and operand --------------------------------------
  // A TMA copy is issued by one thread for the whole CTA: there is one slice, 0. Its partition of a k-tile
  // is one mode, TMA, that a single cp.async.bulk.tensor instruction moves.
  auto cta_tma_a = tma_a.get_slice(Int<0>{});
  Tensor tAgA = cta_tma_a.partition_S(gA);                  // (TMA,TMA_M,TMA_K,k)
  Tensor tAsA = cta_tma_a.partition_D(sA);                  // (TMA,TMA_M,TMA_K,STAGES)
  auto cta_tma_b = tma_b.get_slice(Int<0>{});
  Tensor tBgB = cta_tma_b.partition_S(gB);                  // (TMA,TMA_N,TMA_K,k)
  Tensor tBsB = cta_tma_b.partition_D(sB);                  // (TMA,TMA_N,TMA_K,STAGES)
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  // The whole k-tile in one box: size(TMA) is BLK_M·BLK_K (A) and BLK_N·BLK_K (B).
  CUTE_STATIC_ASSERT_V(size<0>(tAsA) == size<0>(cta_tiler) * size<2>(cta_tiler));
  CUTE_STATIC_ASSERT_V(size<0>(tBsB) == size<1>(cta_tiler) * size<2>(cta_tiler));
  // The bytes a stage's full barrier waits for: both boxes, whole (out-of-bounds zeros count too).
  constexpr std::uint32_t kTmaBytes = sizeof(make_tensor_like(tensor<0>(tAsA)))
                                    + sizeof(make_tensor_like(tensor<0>(tBsB)));
  //! [tma_partition]

  //! [barriers]
  // ---- The barriers: initialized once, by one thread, before anyone uses them -----------------------
  // full[s]: one arrival (the producer's arrive.expect_tx) plus the TMA's bytes completes a phase.
  // empty[s]: one arrival per consumer warpgroup completes a phase.
  int const warpgroup = int(threadIdx.x) / kWarpgroupThreads;
  int const wg_thread = int(threadIdx.x) % kWarpgroupThreads;  // the thread within its warpgroup
  if (threadIdx.x == 0) {
    CUTE_UNROLL
    for (int s = 0; s < STAGES; ++s) {
      initialize_barrier(smem.full[s], 1);
      initialize_barrier(smem.empty[s], CONSUMERS);
    }
    cutlass::arch::fence_barrier_init();                    // make the inits visible to the async proxy (TMA)
  }
  __syncthreads();
  // One thread issues a k-tile's copies: tell the stage's barrier how many bytes to expect (this is also
  // the thread's arrival), then have the TMA unit copy both boxes, each completing its bytes on it.
  auto tma_load = [&](int k_tile, int stage) {
    set_barrier_transaction_bytes(smem.full[stage], kTmaBytes);
    copy(tma_a.with(smem.full[stage]), tAgA(_,_,_,k_tile), tAsA(_,_,_,stage));
    copy(tma_b.with(smem.full[stage]), tBgB(_,_,_,k_tile), tBsB(_,_,_,stage));
  };
  //! [barriers]

  //! [producer]
  // ---- Producer warpgroup: one thread keeps the ring full ----------------------------------------------
  // TUTORIAL: for each k-tile: wait until its stage is empty; TMA the k-tile into it, completing on
  // full[stage]. The producer runs as far ahead as the ring lets it: STAGES k-tiles, with no prologue.
  if (warpgroup == CONSUMERS) {
    cutlass::arch::warpgroup_reg_dealloc<Cfg::kProducerRegs>();  // give registers back to the consumers
    if (threadIdx.x == CONSUMERS * kWarpgroupThreads) {
      RingState<STAGES> write;                              // stage 0, parity 0
      //! [idea]
      for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
        // The first lap waits for parity 1: the phase "before" a fresh barrier, which counts as
        // complete, so all STAGES stages are filled at once. Later laps wait for the consumers' release.
        if constexpr (BUG == Bug::producer_parity)         //~bug producer_parity: the consumers' parity
          wait_barrier(smem.empty[write.index], write.consumer_parity());  //~bug
        else                                               //~bug
          wait_barrier(smem.empty[write.index], write.producer_parity());
        tma_load(k_tile, write.index);
        write.advance();
      }
      //! [idea]
    }
    return;                                                 // the producer's part is done
  }
  cutlass::arch::warpgroup_reg_alloc<Cfg::kConsumerRegs>();  // the consumers: room for the accumulators
  //! [producer]

  //! [partition]
  // ---- Math partition: what this thread's warpgroup reads, and what this thread owns ----------------
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K,STAGES)
  Tensor tCsB = thr_mma.partition_B(sB);                    // (MMA,MMA_N,MMA_K,STAGES)
  // wgmma reads A and B from smem itself: the "fragments" are 64-bit descriptors of the smem tiles
  // (start address, swizzle mode, strides), one per wgmma and stage, not registers holding data. No
  // ldmatrix, no register double buffer: step 07's tXsA, tXrA and k-block loop are gone.
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);              // (MMA,MMA_M,MMA_K,STAGES) descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);              // (MMA,MMA_N,MMA_K,STAGES) descriptors
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N) fp32 accumulators
  // Each thread owns BLK_M*BLK_N/threads accumulators: the CTA tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  clear(tCrC);
  //! [partition]

  //! [mainloop]
  // ---- Mainloop: wait for a full stage, wgmma on it, release the one before ----------------------------
  // TUTORIAL: for each k_tile:
  //   wait until full[read] completes the phase of this lap: k-tile k_tile has landed;
  //   issue the k-tile's MMA_K wgmmas as one batch; wait until only that batch is still running.
  //   The previous k-tile's wgmmas are then done reading their stage: release it to the producer.
  // No __syncthreads: each consumer warpgroup releases its stages by itself (one arrival each on
  // empty[s]), and the producer refills a stage once all of them have.
  RingState<STAGES> read;                                   // stage 0, parity 0
  RingState<STAGES> release;                                // the stage read one k-tile earlier
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    wait_barrier(smem.full[read.index], read.consumer_parity());  // k-tile k_tile's bytes have landed
    // The math on k-tile k_tile, while the producer's copies are in flight: MMA_M·MMA_K wgmmas (64 rows
    // and 16 k each), issued by the whole warpgroup, asynchronous until waited for.
    warpgroup_fence_operand(tCrC);                          // the compiler keeps tCrC in place around them
    warpgroup_arrive();                                     // the accumulators' registers are ready for wgmma
    gemm(mma, tCrA(_,_,_,read.index), tCrB(_,_,_,read.index), tCrC);  // MMA_M·MMA_K wgmma.mma_async
    warpgroup_commit_batch();                               // close them into one batch
    if constexpr (BUG != Bug::no_warpgroup_wait)           //~bug no_warpgroup_wait deletes this wait
      warpgroup_wait<kWgmmaInFlight>();                     // all but the batch just issued are done
    warpgroup_fence_operand(tCrC);
    if (k_tile > 0) {
      if (wg_thread == 0) arrive_barrier(smem.empty[release.index]);
      release.advance();
    }
    read.advance();
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue: registers -> smem -> gmem ----------------------------------------------------------
  // The ring's bytes become the C tile. Every copy has landed (each k-tile's barrier was waited for), and
  // every wgmma must be done reading the last k-tile before they are reused.
  // The producer has left: the consumers meet at a named barrier of their own instead of __syncthreads.
  warpgroup_wait<0>();                                      // the last batch too
  warpgroup_fence_operand(tCrC);
  cutlass::arch::NamedBarrier::sync(size(mma), 1);          // barrier 1, the consumers' threads
  Tensor sC = make_tensor(make_smem_ptr(smem.C.begin()), sC_layout);  // (BLK_M,BLK_N)
  Tensor tCsC = thr_mma.partition_C(sC);                    // (MMA,MMA_M,MMA_N)
  // Store::owners (tests only): each thread stores its own id instead, through the same partition.
  if (p.store == tut::Store::owners) tut::fill_owner_id(tCrC, 0, size(mma));
  // copy_aligned, as step06's loads: each thread's (v0,v1) pair is two adjacent floats in sC (the
  // swizzle moves 16-byte chunks whole), so CuTe may store it as one 64-bit word. Plain copy() leaves
  // that to the compiler, which did it for some pairs only: 32-bit stores of a pair conflict 2-way.
  copy_aligned(tCrC, tCsC);                                 // registers -> smem, the MMA's partition
  cutlass::arch::NamedBarrier::sync(size(mma), 1);          // the whole C tile is in smem

  // Out through the epilogue's own partition: each thread moves 16-byte chunks of whole rows.
  ThrCopy thr_copy_c = copy_c.get_slice(threadIdx.x);
  Tensor tDsC = thr_copy_c.partition_S(sC);                 // (CPY,CPY_M,CPY_N)
  Tensor tDgC = thr_copy_c.partition_D(gC);                 // (CPY,CPY_M,CPY_N)
  Tensor mcC = make_identity_tensor(shape(mC));             // (M,N) -> (m,n)
  Tensor cC = local_tile(mcC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N) -> (m,n)
  Tensor tDpC = tut::make_mask(thr_copy_c.partition_D(cC), shape(mC));  // (CPY,CPY_M,CPY_N) -> m<M && n<N
  CUTE_STATIC_ASSERT_V(size<0>(tDsC) == Int<4>{});          // CPY: 4 floats, 16 bytes
  if (p.c_aligned) {
    // N % 4 == 0: a chunk starts at n % 4 == 0, so its first float inside means all 4 are.
    copy_if(copy_c, tDpC, tDsC, tDgC);                      // smem -> gmem, 128 bits per chunk inside C
  } else {
    copy_if(tDpC, tDsC, tDgC);                              // the same partition, one float at a time
  }
  //! [epilogue]
}

}  // namespace step10

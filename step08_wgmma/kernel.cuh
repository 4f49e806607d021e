/// \file step08_wgmma/kernel.cuh
/// \brief Step 08's kernel: step 07's pipeline with the math moved to the warpgroup. cp.async keeps a ring
/// of STAGES smem k-tiles filled, now in GMMA's swizzle atom; wgmma multiplies them straight from smem,
/// one batch per k-tile, one batch left running; the accumulators leave through smem as in step 07.
/// Built for sm_90a only.
/// In CUTLASS: the atoms are CuTe's (`SM90_64x256x16_F32F16F16_SS`, `GMMA::Layout_K_SW128_Atom`);
/// CUTLASS's cp.async mainloop for wgmma, `MainloopSm90CpAsyncGmmaWarpSpecialized`, adds step 10's roles.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>  // cutlass::arch::fence_view_async_shared

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step08 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, on warpgroup tensor cores (wgmma), through a
/// STAGES-deep cp.async pipeline. Any M, N >= 1: elements outside the problem are zero-filled on load, and
/// the epilogue skips them. K must be a multiple of 8 and A, B 16-byte aligned (the launch checks).
/// \p Cfg: the configuration (config.hpp), every type and extent known when it is compiled. \p p: what
/// only the run knows (tut::CpAsyncParams):
/// - A, B and C and their layouts;
/// - p.c_aligned: C's rows start 16-byte aligned (N a multiple of 4, C aligned), so the epilogue stores
///   128 bits at a time; otherwise it stores the same partition one float at a time.
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class Cfg, class Params>
__global__ static __launch_bounds__(Cfg::kThreads, 1)
void gemm_kernel(Params const p)
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
  typename Cfg::TiledCopyA copy_a;                          // gmem -> smem: cp.async, 16 bytes a copy
  typename Cfg::TiledCopyB copy_b;
  typename Cfg::TiledCopyC copy_c;                          // smem -> gmem: 16 bytes a store, whole rows
  auto const layout_a = p.layout_a;                         // (M,K) -> idx
  auto const layout_b = p.layout_b;                         // (N,K) -> idx
  auto const layout_c = p.layout_c;                         // (M,N) -> idx
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
  // A and B are K-major in gmem: a cp.async chunk is 8 consecutive k of one row.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  // The smem ring: (BLK_MN,BLK_K,STAGES), static; the C tile: (BLK_M,BLK_N), static.
  static_assert(is_static<SmemLayoutA>::value && is_static<SmemLayoutB>::value && is_static<SmemLayoutC>::value);
  // (tile_to_shape nests the modes it repeats the atom along: config.hpp asserts the default's nested sB
  // shape. product_each flattens them to (BLK_MN,BLK_K,STAGES).)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sA_layout))) == select<0,2>(cta_tiler)));  // (BLK_M,BLK_K)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sB_layout))) == select<1,2>(cta_tiler)));  // (BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(size<2>(sA_layout) == size<2>(sB_layout));                                 // STAGES
  CUTE_STATIC_ASSERT_V((product_each(shape(sC_layout)) == select<0,1>(cta_tiler)));               // (BLK_M,BLK_N)
  // Every thread of the CTA copies, and every thread computes.
  CUTE_STATIC_ASSERT_V(size(copy_a) == size(mma) && size(copy_b) == size(mma) && size(copy_c) == size(mma));
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  Tensor mA = make_tensor(make_gmem_ptr(p.A), layout_a);    // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(p.B), layout_b);    // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(p.C), layout_c);    // (M,N)

  // This CTA's tiles. local_tile = proj (drop the mode the operand lacks) + tile + coord.
  auto cta_coord = make_coord(blockIdx.x, blockIdx.y, _);   // (m,n,:)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1, X>{});  // (BLK_M,BLK_N)
  //! [tiles]

  //! [smem]
  // ---- Shared memory: a ring of STAGES k-tiles of A and B; later, the C tile in the same bytes --------
  // One SharedStorage (config.hpp) in dynamic shared memory: the launch passes sizeof(SharedStorage) and
  // lifts the 48 KB default limit.
  extern __shared__ char shared_memory[];
  using Smem = typename Cfg::Smem;
  Smem& smem = *reinterpret_cast<Smem*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.mainloop.A.begin()), sA_layout);  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem.mainloop.B.begin()), sB_layout);  // (BLK_N,BLK_K,STAGES)
  constexpr int STAGES = size<2>(SmemLayoutA{});
  //! [smem]

  //! [copy_partition]
  // ---- Copy partition: this thread's share of moving each k-tile gmem -> smem ----------------------
  // Step 06's partition, with one more mode: the stage.
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                 // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                 // (CPY,CPY_M,CPY_K,STAGES)

  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);                 // (CPY,CPY_N,CPY_K,k)
  Tensor tBsB = thr_copy_b.partition_D(sB);                 // (CPY,CPY_N,CPY_K,STAGES)
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged

  CUTE_STATIC_ASSERT_V(size<0>(tAsA) == Int<8>{} && size<0>(tBsB) == Int<8>{});  // CPY: 8 halves, 16 bytes
  CUTE_STATIC_ASSERT_V(size<1>(tAgA) == size<1>(tAsA) && size<2>(tAgA) == size<2>(tAsA));  // CPY_M,CPY_K
  CUTE_STATIC_ASSERT_V(size<1>(tBgB) == size<1>(tBsB) && size<2>(tBgB) == size<2>(tBsB));  // CPY_N,CPY_K
  //! [copy_partition]

  //! [predicates]
  // ---- Predicates: which of this thread's elements lie inside the problem ---------------------------
  // Step 06's masks for the cp.async chunks. C's mask is now made for the epilogue's copy partition.
  Tensor mcA = make_identity_tensor(shape(mA));             // (M,K) -> (m,k)
  Tensor mcB = make_identity_tensor(shape(mB));             // (N,K) -> (n,k)
  Tensor cA = local_tile(mcA, cta_tiler, cta_coord, Step<_1, X,_1>{});  // (BLK_M,BLK_K,k) -> (m,k)
  Tensor cB = local_tile(mcB, cta_tiler, cta_coord, Step< X,_1,_1>{});  // (BLK_N,BLK_K,k) -> (n,k)
  Tensor tAcA = thr_copy_a.partition_S(cA);                 // (CPY,CPY_M,CPY_K,k) -> (m,k)
  Tensor tBcB = thr_copy_b.partition_S(cB);                 // (CPY,CPY_N,CPY_K,k) -> (n,k)
  Tensor tApA = tut::make_mask(tAcA, shape(mA));            // (CPY,CPY_M,CPY_K,k) -> m<M && k<K
  Tensor tBpB = tut::make_mask(tBcB, shape(mB));            // (CPY,CPY_N,CPY_K,k) -> n<N && k<K
  //! [predicates]

  //! [prologue]
  // ---- Prologue: fill the first copies_ahead stages ---------------------------------------------------
  // TUTORIAL: for s in 0 .. AHEAD-1: cp.async k-tile s -> stage s; close the copies into group s.
  // A group is committed even when there is no k-tile left to copy (fewer than AHEAD k-tiles): the waits
  // below count groups, so every iteration must commit exactly one.
  constexpr int AHEAD = [] {
    if constexpr (BUG == Bug::copies_one_too_far) return STAGES - 1;  //~bug copies_one_too_far: step 07's
    return copies_ahead<STAGES>();                          // STAGES-2: one batch still reads
  }();
  int k_tile_next = 0;                                      // the next k-tile to copy
  CUTE_UNROLL
  for (int stage = 0; stage < AHEAD; ++stage) {
    if (k_tile_next < K_TILE_MAX) {
      copy_if(copy_a, tApA(_,_,_,k_tile_next), tAgA(_,_,_,k_tile_next), tAsA(_,_,_,stage));
      copy_if(copy_b, tBpB(_,_,_,k_tile_next), tBgB(_,_,_,k_tile_next), tBsB(_,_,_,stage));
    }
    cp_async_fence();
    ++k_tile_next;
  }
  PipeState<STAGES> pipe{0, AHEAD};                         // read = 0, write = AHEAD
  //! [prologue]

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
  // ---- Mainloop: one k-tile per iteration, one barrier per k-tile ----------------------------------
  // TUTORIAL: for each k_tile:
  //   wait for k-tile k_tile (cp_async_wait<AHEAD-1>), fence it for wgmma, barrier;
  //   cp.async k-tile k_tile+AHEAD into stage `write`, commit, move write on;
  //   issue the k-tile's MMA_K wgmmas as one batch; wait until only that batch is still running.
  // The copies of k-tile k_tile+AHEAD overwrite the stage k-tile k_tile-2 was read from. Every
  // warpgroup waited for that batch (warpgroup_wait<1> at the end of iteration k_tile-1) before the
  // barrier it passed at the top of this iteration, so that barrier also guards this write (write after
  // read).
  // Step 07 refilled the stage read one k-tile earlier; here that stage may still be under the batch left
  // running, so the copies run one k-tile less ahead.
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    cp_async_wait<AHEAD - 1>();                             // this thread's chunks of k_tile have landed
    // cp.async wrote the stage through the generic proxy; wgmma reads smem through the async proxy.
    // This fence orders the two, so that wgmma sees the bytes the thread's cp.asyncs wrote.
    if constexpr (BUG != Bug::no_proxy_fence)              //~bug no_proxy_fence deletes this fence
      cutlass::arch::fence_view_async_shared();
    __syncthreads();                                        // every thread's chunks; every older batch done
    // gmem -> smem, AHEAD k-tiles ahead of the math.
    if (k_tile_next < K_TILE_MAX) {
      copy_if(copy_a, tApA(_,_,_,k_tile_next), tAgA(_,_,_,k_tile_next), tAsA(_,_,_,pipe.write));
      copy_if(copy_b, tBpB(_,_,_,k_tile_next), tBgB(_,_,_,k_tile_next), tBsB(_,_,_,pipe.write));
    }
    cp_async_fence();
    ++k_tile_next;
    pipe.advance_write();
    // The math on k-tile k_tile, while the copies above are in flight: MMA_M·MMA_K wgmmas (64 rows
    // and 16 k each), issued by the whole warpgroup, asynchronous until waited for.
    warpgroup_fence_operand(tCrC);                          // the compiler keeps tCrC in place around them
    //! [idea]
    warpgroup_arrive();                                     // the accumulators' registers are ready for wgmma
    gemm(mma, tCrA(_,_,_,pipe.read), tCrB(_,_,_,pipe.read), tCrC);  // MMA_M·MMA_K wgmma.mma_async
    warpgroup_commit_batch();                               // close them into one batch
    warpgroup_wait<kWgmmaInFlight>();                       // all but the batch just issued are done
    //! [idea]
    warpgroup_fence_operand(tCrC);
    pipe.advance_read();
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue: registers -> smem -> gmem ----------------------------------------------------------
  // The ring's bytes become the C tile. Every copy must have landed (only empty groups are left), and
  // every wgmma must be done reading the last k-tile before they are reused.
  warpgroup_wait<0>();                                      // the last batch too
  warpgroup_fence_operand(tCrC);
  cp_async_wait<0>();
  __syncthreads();
  Tensor sC = make_tensor(make_smem_ptr(smem.C.begin()), sC_layout);  // (BLK_M,BLK_N)
  Tensor tCsC = thr_mma.partition_C(sC);                    // (MMA,MMA_M,MMA_N)
  // Store::owners (tests only): each thread stores its own id instead, through the same partition.
  if (p.store == tut::Store::owners) tut::fill_owner_id(tCrC);
  // copy_aligned, as step06's loads: each thread's (v0,v1) pair is two adjacent floats in sC (the
  // swizzle moves 16-byte chunks whole), so CuTe may store it as one 64-bit word. Plain copy() leaves
  // that to the compiler, which did it for some pairs only: 32-bit stores of a pair conflict 2-way.
  copy_aligned(tCrC, tCsC);                                 // registers -> smem, the MMA's partition
  if constexpr (BUG != Bug::no_epilogue_barrier)           //~bug no_epilogue_barrier deletes this barrier
    __syncthreads();                                        // the whole C tile is in smem

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

}  // namespace step08

/// \file step07_multistage/kernel.cuh
/// \brief Step 07's kernel: step 06's GEMM with copy and math overlapped. A ring of STAGES smem k-tiles is
/// kept filled by cp.async while the tensor cores work on the oldest; ldmatrix moves smem -> registers
/// one k-block ahead of the math; the accumulators leave through smem as 128-bit coalesced stores.
#pragma once

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"

namespace step07 {

using namespace cute;

/// \brief C = A·Bᵀ with one BLK_M×BLK_N C tile per CTA, on tensor cores, through a STAGES-deep cp.async
/// pipeline. Any M, N >= 1: elements outside the problem are zero-filled on load and skipped on store.
/// K must be a multiple of 8 and A, B 16-byte aligned (the launch checks).
/// \p Cfg: the configuration (config.hpp), every type and extent known when it is compiled. \p p: what
/// only the run knows (tut::CpAsyncParams):
/// - A, B and C and their layouts;
/// - p.c_aligned: C's rows start 16-byte aligned (N a multiple of 4, C aligned), so the epilogue stores
///   128 bits at a time; otherwise it stores the same partition one float at a time.
/// \p BUG: Bug::none, or a bug planted on purpose (--bug; config.hpp lists them).
template <Bug BUG, class Cfg, class Params>
__global__ static __launch_bounds__(Cfg::kThreads)
void gemm_kernel(Params const p)
{
  //! [params]
  // ---- The configuration and the run ---------------------------------------------------------------
  // The types are the configuration's (config.hpp); the extents and addresses are the run's, in p
  // (made by the launch; tut/kernel_params.hpp says what it holds and how it is passed). Here they take
  // the names the kernel uses.
  using TiledMma = typename Cfg::TiledMma;                  // the warps' mma.sync
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
  typename Cfg::S2RCopyA s2r_copy_a;                        // smem -> registers: ldmatrix
  typename Cfg::S2RCopyB s2r_copy_b;
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
  // The TiledMMA's tile (16·WARPS_M rows x 16·WARPS_N cols x 16 k) must divide the CTA tile.
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (16*WARPS_M) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % (16*WARPS_N) == 0
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
  auto K_TILE_MAX = size<3>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  constexpr int AHEAD = copies_ahead<STAGES>();             // STAGES-1: every stage but the one read
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
  PipeState<STAGES> pipe;                                   // read = 0, write = AHEAD

  // Wait until at most AHEAD-1 groups are in flight: the oldest, k-tile 0, has landed. The barrier
  // makes every thread's chunks of it visible to every warp.
  cp_async_wait<groups_in_flight<STAGES>()>();
  __syncthreads();
  //! [prologue]

  //! [partition]
  // ---- Math partition: what this thread owns --------------------------------------------------------
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);              // (MMA,MMA_M,MMA_N) fp32 accumulators
  // Registers for two k-blocks (16 k each) of A and B: ldmatrix fills one while the tensor cores read the
  // other. The fragments of a (BLK_MN, 2·16) slice of a stage have exactly that shape.
  auto two_k_blocks_a = make_tile(size<0>(sA), Int<2>{} * tile_size<2>(mma));  // (BLK_M,32)
  auto two_k_blocks_b = make_tile(size<0>(sB), Int<2>{} * tile_size<2>(mma));  // (BLK_N,32)
  Tensor tCrA = thr_mma.partition_fragment_A(local_tile(sA(_,_,0), two_k_blocks_a, make_coord(0, 0)));  // (MMA,MMA_M,2)
  Tensor tCrB = thr_mma.partition_fragment_B(local_tile(sB(_,_,0), two_k_blocks_b, make_coord(0, 0)));  // (MMA,MMA_N,2)
  CUTE_STATIC_ASSERT_V(size<0>(tCrA) == Int<8>{});          // A: 8 halves per atom (uint32_t[4])
  CUTE_STATIC_ASSERT_V(size<0>(tCrB) == Int<4>{});          // B: 4 halves per atom (uint32_t[2])
  CUTE_STATIC_ASSERT_V(size<0>(tCrC) == Int<4>{});          // C: 4 floats per atom (float[4])
  CUTE_STATIC_ASSERT_V(size<2>(tCrA) == Int<2>{} && size<2>(tCrB) == Int<2>{});  // two k-blocks
  CUTE_STATIC_ASSERT_V(size<1>(tCrC) == size<1>(tCrA));     // MMA_M: the rows of A are the rows of C
  CUTE_STATIC_ASSERT_V(size<2>(tCrC) == size<1>(tCrB));     // MMA_N: the rows of B are the cols of C
  // Each thread owns BLK_M*BLK_N/threads accumulators: the CTA tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  clear(tCrC);
  //! [partition]

  //! [ldmatrix_partition]
  // ---- ldmatrix partition: smem -> registers ---------------------------------------------------------
  // s2r_copy_a is the ldmatrix atom retiled to the TiledMMA (make_tiled_copy_A): partition_S says which
  // 16-byte smem rows this lane names, and retile_D views the MMA's register fragment in the copy's
  // (CPY,CPY_M,CPY_K) shape, so ldmatrix writes exactly the registers mma.sync reads.
  ThrCopy s2r_thr_copy_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_copy_a.partition_S(sA);             // (CPY,CPY_M,CPY_K,STAGES)
  Tensor tXrA = s2r_thr_copy_a.retile_D(tCrA);              // (CPY,CPY_M,2)

  ThrCopy s2r_thr_copy_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_copy_b.partition_S(sB);             // (CPY,CPY_N,CPY_K,STAGES)
  Tensor tXrB = s2r_thr_copy_b.retile_D(tCrB);              // (CPY,CPY_N,2)

  CUTE_STATIC_ASSERT_V(size<1>(tXsA) == size<1>(tXrA) && size<1>(tXsB) == size<1>(tXrB));  // CPY_M, CPY_N
  // Register pipeline: load k-block 0 of the first k-tile before the loop.
  constexpr int K_BLOCK_MAX = size<2>(tXsA);                // BLK_K/16 k-blocks per k-tile
  copy(s2r_copy_a, tXsA(_,_,0,pipe.read), tXrA(_,_,0));
  copy(s2r_copy_b, tXsB(_,_,0,pipe.read), tXrB(_,_,0));
  //! [ldmatrix_partition]

  //! [mainloop]
  // ---- Mainloop: one k-tile per iteration, one barrier per k-tile ----------------------------------
  // TUTORIAL: for each k_tile:
  //   for each k-block kb of the k-tile (16 k):
  //     if kb is the last: wait for k-tile k_tile+1 (cp_async_wait<AHEAD-1>), barrier, move read on;
  //     ldmatrix k-block kb+1 (of this k-tile, or k-block 0 of the next) into the other registers;
  //     if kb is the first: cp.async k-tile k_tile+AHEAD into stage `write`, commit, move write on;
  //     mma.sync over k-block kb's registers.
  // The cp.async of k-tile k_tile+AHEAD overwrites the stage k-tile k_tile-1 was read from. Every
  // warp finished reading it before the barrier it passed at the end of iteration k_tile-1, so that
  // barrier also guards this write (write after read) — one barrier per k-tile does both jobs.
  for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
    CUTE_UNROLL
    for (int k_block = 0; k_block < K_BLOCK_MAX; ++k_block) {
      //! [idea]
      if (k_block == K_BLOCK_MAX - 1) {
        // The next k-tile must have landed, and be visible, before its first k-block is loaded.
        if constexpr (BUG == Bug::wait_one_too_few)        //~bug wait_one_too_few: STAGES-1 in flight
          cp_async_wait<STAGES - 1>();                     //~bug
        else                                               //~bug
          cp_async_wait<groups_in_flight<STAGES>()>();
        __syncthreads();
        pipe.advance_read();
      }
      //! [idea]
      // smem -> registers, one k-block ahead: k_block+1's fragments go to the other register buffer.
      // (In the last k-tile this loads k-block 0 of the stage after it, which holds no k-tile still to
      // come: no mma.sync reads those registers.)
      int const k_block_next = (k_block + 1) % K_BLOCK_MAX;  // 0: the next k-tile's first (read moved on)
      copy(s2r_copy_a, tXsA(_,_,k_block_next,pipe.read), tXrA(_,_,(k_block + 1) % 2));
      copy(s2r_copy_b, tXsB(_,_,k_block_next,pipe.read), tXrB(_,_,(k_block + 1) % 2));
      if (k_block == 0) {
        // gmem -> smem, AHEAD k-tiles ahead of the math.
        if (k_tile_next < K_TILE_MAX) {
          copy_if(copy_a, tApA(_,_,_,k_tile_next), tAgA(_,_,_,k_tile_next), tAsA(_,_,_,pipe.write));
          copy_if(copy_b, tBpB(_,_,_,k_tile_next), tBgB(_,_,_,k_tile_next), tBsB(_,_,_,pipe.write));
        }
        cp_async_fence();
        ++k_tile_next;
        pipe.advance_write();
      }
      // The math on k-block k_block, while the copies above are in flight.
      gemm(mma, tCrA(_,_,k_block % 2), tCrB(_,_,k_block % 2), tCrC);  // MMA_M x MMA_N mma.sync per warp
    }
  }
  //! [mainloop]

  //! [epilogue]
  // ---- Epilogue: registers -> smem -> gmem ----------------------------------------------------------
  // The ring's bytes become the C tile. Every copy must have landed (only empty groups are left, but
  // the wait costs nothing) and every warp must be done reading the last k-tile before they are reused.
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

}  // namespace step07

/// \file step15_cluster/kernel.cuh
/// \brief Step 15's kernel: step 14's, in clusters. Where Cfg::kClusterM is 2, the CTAs run in pairs
/// along M that compute tiles (m, n) and (m+1, n) together: both need the same k-tiles of B, so each CTA
/// loads half of every k-tile of B and the TMA unit multicasts it into both CTAs' smem. B then crosses
/// L2 once for two tiles. A stage is refilled, in both CTAs at once, only when both CTAs' consumers have
/// released it: each arrives on the empty barriers of both. Built for sm_90a only. In CUTLASS: the
/// ClusterShape of `CollectiveMma<MainloopSm90TmaGmmaWarpSpecialized...>`, whose
/// `PipelineTmaAsync` releases a stage to every CTA that multicasts into it.
#pragma once

#include <cute/tensor.hpp>
#include <cutlass/arch/barrier.h>       // cutlass::arch::fence_barrier_init, NamedBarrier
#include <cutlass/arch/reg_reconfig.h>  // setmaxnreg: cutlass::arch::warpgroup_reg_alloc / _dealloc

#include "config.hpp"
#include "tut/harness.hpp"
#include "tut/mask.hpp"
#include "tut/owner.hpp"
#include "tut/stress.cuh"  //~stress

namespace step15 {

using namespace cute;

/// \brief C = A·Bᵀ with BLK_M×BLK_N C tiles, several per CTA: a producer warpgroup (the last) loads k-tiles with
/// TMA into a STAGES-deep smem ring; the consumer warpgroups (threads 0..255), in kGroups groups, take the
/// tiles in turn, each group multiplying its own with wgmma and storing it. Any M, N >= 1: the TMA unit fills elements outside A and B with zeros, and
/// the epilogue skips them. K must be a multiple of 8 and A, B 16-byte aligned (the launch checks).
/// \p Cfg: the configuration (config.hpp), every type and extent known when it is compiled. \p p: what
/// only the run knows (tut::TmaParams):
/// - the problem's layouts, A's and B's TMA descriptors, and C;
/// - the schedule: persistent, CTA c takes tiles c, c + gridDim.x, ...;
/// - p.tma_c: where C's rows start 16-byte aligned (N a multiple of 4, C aligned), C's descriptor, and the
///   TMA unit stores C (Params::kTmaStore); otherwise (a tut::NoTmaStore) each thread stores its
///   accumulators straight to C, masked.
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
  using TiledMma = typename Cfg::TiledMma;                  // a group's wgmma: one warpgroup's, or both's
  using SmemLayoutA = typename Cfg::SmemLayoutA;            // (BLK_M,BLK_K,STAGES) -> smem_idx
  using SmemLayoutB = typename Cfg::SmemLayoutB;            // (BLK_N,BLK_K,STAGES) -> smem_idx
  using SmemLayoutC = typename Cfg::SmemLayoutC;            // (BLK_M,EPI_N,BUFFERS·GROUPS) -> smem_idx
  typename Cfg::CtaTiler cta_tiler;                         // (BLK_M,BLK_N,BLK_K)
  TiledMma mma;
  SmemLayoutA sA_layout;
  SmemLayoutB sB_layout;
  SmemLayoutC sC_layout;
  typename Cfg::TileOnBuffer c_on_buffer;                   // (BLK_M,BLK_N) -> the subtiles on buffer 0
  auto const layout_a = p.layout_a;                         // (M,K) -> idx
  auto const layout_b = p.layout_b;                         // (N,K) -> idx
  auto const layout_c = p.layout_c;                         // (M,N) -> idx
  auto const& tma_a = p.tma_a;                              // the TMA descriptors, in the kernel's parameters
  auto const& tma_b = p.tma_b;
  auto const& tma_c = p.tma_c;                              // C's, or a NoTmaStore
  constexpr bool TMA_STORE = Params::kTmaStore;             // the TMA unit stores C (C's rows are aligned)
  //! [params]

  //! [preconditions]
  // ---- Preconditions --------------------------------------------------------------------------------
  CUTE_STATIC_ASSERT_V(rank(cta_tiler) == Int<3>{});        // (BLK_M,BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(rank(layout_a) == Int<2>{});         // A is (M,K)
  CUTE_STATIC_ASSERT_V(rank(layout_b) == Int<2>{});         // B is (N,K)
  CUTE_STATIC_ASSERT_V(rank(layout_c) == Int<2>{});         // C is (M,N)
  // One warpgroup's wgmma (64 rows x BLK_N cols x 16 k) must divide the tile.
  CUTE_STATIC_ASSERT_V(size(mma) == Int<Cfg::kMmaThreads>{});                  // a TiledMMA of one group
  CUTE_STATIC_ASSERT_V(size<0>(cta_tiler) % tile_size<0>(mma) == Int<0>{});  // BLK_M % (64*CONSUMERS/GROUPS) == 0
  CUTE_STATIC_ASSERT_V(size<1>(cta_tiler) % tile_size<1>(mma) == Int<0>{});  // BLK_N % N of the wgmma == 0
  CUTE_STATIC_ASSERT_V(size<2>(cta_tiler) % tile_size<2>(mma) == Int<0>{});  // BLK_K % 16 == 0
  // A and B are K-major in gmem: TMA boxes of whole 128-byte rows along k.
  CUTE_STATIC_ASSERT_V(stride<1>(layout_a) == Int<1>{} && stride<1>(layout_b) == Int<1>{});
  // The smem ring: (BLK_MN,BLK_K,STAGES), static; the C buffers: (BLK_M,EPI_N,BUFFERS·GROUPS), static.
  static_assert(is_static<SmemLayoutA>::value && is_static<SmemLayoutB>::value && is_static<SmemLayoutC>::value);
  // (tile_to_shape nests the modes it repeats the atom along: config.hpp asserts the default's nested sB
  // shape. product_each flattens them to (BLK_MN,BLK_K,STAGES).)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sA_layout))) == select<0,2>(cta_tiler)));  // (BLK_M,BLK_K)
  CUTE_STATIC_ASSERT_V((select<0,1>(product_each(shape(sB_layout))) == select<1,2>(cta_tiler)));  // (BLK_N,BLK_K)
  CUTE_STATIC_ASSERT_V(size<2>(sA_layout) == size<2>(sB_layout));                                 // STAGES
  // sC: (BLK_M,EPI_N,BUFFERS·GROUPS), whole subtiles of the tile; c_on_buffer: the tile, (BLK_M,BLK_N), on buffer 0.
  CUTE_STATIC_ASSERT_V(size<0>(sC_layout) == size<0>(cta_tiler) && size<1>(cta_tiler) % size<1>(sC_layout) == Int<0>{});
  CUTE_STATIC_ASSERT_V((product_each(shape(c_on_buffer)) == select<0,1>(cta_tiler)));
  //! [preconditions]

  //! [tiles]
  // ---- Full and tiled tensors -----------------------------------------------------------------------
  // A and B are not read through pointers any more: the TMA descriptors hold their addresses. The
  // "TMA tensors" are tensors of coordinates, (m,k) -> (m,k): a TMA copy is told where its box starts,
  // and the unit works out the addresses (and which elements lie outside A).
  Tensor mA = tma_a.get_tma_tensor(shape(layout_a));        // (M,K) -> (m,k)
  Tensor mB = tma_b.get_tma_tensor(shape(layout_b));        // (N,K) -> (n,k)
  Tensor mC = make_tensor(make_gmem_ptr(p.C), layout_c);    // (M,N)

  // The grid is 1-D and persistent: CTA blockIdx.x computes `visits` tiles, the schedule's (grouped for L2,
  // config.hpp). The tiled tensors keep a mode for every tile, (m,n), indexed per visit. In clusters of
  // two, CTAs 2i and 2i+1 take tiles (m,n) and (m+1,n) on every visit: the schedule counts the tile-rows up
  // to even, and a tile past C's last row is computed from zeros and not stored.
  int const tiles_m = ceil_div(size<0>(layout_c), size<0>(cta_tiler));  // ceil(M/BLK_M)
  int const tiles_n = ceil_div(size<1>(layout_c), size<1>(cta_tiler));  // ceil(N/BLK_N)
  tut::TileSchedule schedule = p.schedule;                  // kSchedule, with its cluster
  if constexpr (BUG == Bug::schedule_unpadded) schedule.cluster_m = 1;  //~bug schedule_unpadded: step 14's
  int const visits = schedule.visits(int(blockIdx.x), tiles_m, tiles_n);
  auto tile_of = [&](int visit) {
    return schedule.tile(int(blockIdx.x), visit, tiles_m, tiles_n);
  };
  Tensor gA = local_tile(mA, cta_tiler, make_coord(_, _, _), Step<_1, X,_1>{});  // (BLK_M,BLK_K,m,k) -> (m,k)
  Tensor gB = local_tile(mB, cta_tiler, make_coord(_, _, _), Step< X,_1,_1>{});  // (BLK_N,BLK_K,n,k) -> (n,k)
  Tensor gC = local_tile(mC, cta_tiler, make_coord(_, _, _), Step<_1,_1, X>{});  // (BLK_M,BLK_N,m,n)
  //! [tiles]

  //! [smem]
  // ---- Shared memory: a ring of STAGES k-tiles of A and B, two C buffers per group, the mbarriers ------
  // One SharedStorage (config.hpp) in dynamic shared memory: the launch passes sizeof(SharedStorage) and
  // lifts the 48 KB default limit.
  extern __shared__ char shared_memory[];
  using Smem = typename Cfg::Smem;
  Smem& smem = *reinterpret_cast<Smem*>(shared_memory);
  Tensor sA = make_tensor(make_smem_ptr(smem.mainloop.A.begin()), sA_layout);  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(smem.mainloop.B.begin()), sB_layout);  // (BLK_N,BLK_K,STAGES)
  Tensor sC = make_tensor(make_smem_ptr(smem.C.begin()), sC_layout);          // (BLK_M,EPI_N,BUFFERS·GROUPS)
  constexpr int STAGES = size<2>(SmemLayoutA{});
  constexpr int CONSUMERS = Cfg::kConsumers;                // the consumer warpgroups
  constexpr int GROUPS = Cfg::kGroups;                      // the tiles they have in flight: 2 ping-pong, 1 cooperative
  //! [smem]

  //! [tma_partition]
  // ---- Copy partition: the TMA's, one box per k-tile and operand --------------------------------------
  // A TMA copy is issued by one thread for the whole CTA: there is one slice, 0. Its partition of a k-tile
  // is one mode, TMA, that a single cp.async.bulk.tensor instruction moves.
  auto cta_tma_a = tma_a.get_slice(Int<0>{});
  Tensor tAgA = cta_tma_a.partition_S(gA);                  // (TMA,TMA_M,TMA_K,m,k)
  Tensor tAsA = cta_tma_a.partition_D(sA);                  // (TMA,TMA_M,TMA_K,STAGES)
  // B's, in a cluster: each CTA's slice is its share of the k-tile's rows, which its copy writes into every
  // CTA of the cluster (the descriptor's box is that share; the partition is the whole k-tile).
  constexpr int CLUSTER = Cfg::kClusterM;
  int const cluster_rank = int(cute::block_rank_in_cluster());  // 0 .. CLUSTER-1
  auto cta_tma_b = tma_b.get_slice(cluster_rank);
  Tensor tBgB = cta_tma_b.partition_S(gB);                  // (TMA,TMA_N,TMA_K,n,k)
  Tensor tBsB = cta_tma_b.partition_D(sB);                  // (TMA,TMA_N,TMA_K,STAGES)
  auto K_TILE_MAX = size<4>(tAgA);                          // ceil(K/BLK_K): the last may be ragged
  // The whole k-tile: size(TMA) is BLK_M·BLK_K (A) and BLK_N·BLK_K (B).
  CUTE_STATIC_ASSERT_V(size<0>(tAsA) == size<0>(cta_tiler) * size<2>(cta_tiler));
  CUTE_STATIC_ASSERT_V(size<0>(tBsB) == size<1>(cta_tiler) * size<2>(cta_tiler));
  // The bytes a stage's full barrier waits for: both k-tiles, whole (out-of-bounds zeros count too), B's
  // from every CTA of the cluster.
  constexpr std::uint32_t kTmaBytes = sizeof(make_tensor_like(tensor<0>(tAsA)))
                                    + sizeof(make_tensor_like(tensor<0>(tBsB)));
  //! [tma_partition]

  //! [barriers]
  // ---- The barriers: initialized once, by one thread, before anyone uses them -----------------------
  // full[s]: one arrival (the producer's arrive.expect_tx) plus the TMA's bytes completes a phase.
  // empty[s]: one arrival per warpgroup of the group whose tile's k-tile the stage held, the only ones
  // that read it, in every CTA of the cluster: the stage is refilled in all of them. The turns are ping-pong's:
  // turn[w]: all 128 threads of the other warpgroup arrive, each after its own turn wait, to let w start a
  // mainloop. (Warps drift apart in the epilogue: with one arrival, a warp a tile ahead could hand on a turn
  // its warps behind have not taken; turn[w] would complete two phases, and their wait never return.)
  int const warpgroup = int(threadIdx.x) / kWarpgroupThreads;
  int const wg_thread = int(threadIdx.x) % kWarpgroupThreads;  // the thread within its warpgroup
  //! [groups]
  int const group = int(threadIdx.x) / int(size(mma));        // the consumers' group: its warpgroup, or 0
  int const mma_thread = int(threadIdx.x) % int(size(mma));   // the thread within its group
  //! [groups]
  //! [idea]
  if (threadIdx.x == 0) {
    CUTE_UNROLL
    for (int s = 0; s < STAGES; ++s) {
      initialize_barrier(smem.full[s], 1);
      if constexpr (BUG == Bug::empty_count_local)        //~bug empty_count_local: step 14's count
        initialize_barrier(smem.empty[s], CONSUMERS / GROUPS);  //~bug
      else                                                  //~bug
        initialize_barrier(smem.empty[s], CONSUMERS / GROUPS * CLUSTER);
    }
    CUTE_UNROLL
    for (int w = 0; w < CONSUMERS; ++w) initialize_barrier(smem.turn[w], kWarpgroupThreads);
    if constexpr (Params::kStress) smem.stress_done = 0;  //~stress
    cutlass::arch::fence_barrier_init();                    // make the inits visible to the async proxy (TMA)
  }
  cute::cluster_sync();                                     // and to the other CTAs of the cluster, before they multicast
  // One thread issues a k-tile's copies: tell the stage's barrier how many bytes to expect (this is also
  // the thread's arrival), then have the TMA unit copy A's box, and this CTA's share of B's into every CTA
  // of the cluster (the mask: bit c for CTA c), each completing its bytes on the stage's barrier there.
  auto tma_load = [&](tut::TileCoord tile, int k_tile, int stage) {
    set_barrier_transaction_bytes(smem.full[stage], kTmaBytes);
    copy(tma_a.with(smem.full[stage]), tAgA(_,_,_,tile.m,k_tile), tAsA(_,_,_,stage));
    std::uint16_t mask = (1u << CLUSTER) - 1;               // every CTA of the cluster
    if constexpr (BUG == Bug::mask_own_only) mask = 1u << cluster_rank;  //~bug mask_own_only: this CTA only
    copy(tma_b.with(smem.full[stage], mask), tBgB(_,_,_,tile.n,k_tile), tBsB(_,_,_,stage));
  };
  //! [idea]
  //! [barriers]

  //! [producer]
  // ---- Producer warpgroup: one thread keeps the ring full ----------------------------------------------
  // TUTORIAL: for each tile, each k-tile: wait until its stage is empty; TMA the k-tile into it, completing
  // on full[stage]. The producer runs as far ahead as the ring lets it, on into the next tile's k-tiles.
  // It does not know which group reads what: it fills the ring with the CTA's tiles in order, and
  // group v % GROUPS takes the k-tiles of visit v.
  if (warpgroup == CONSUMERS) {
    cutlass::arch::warpgroup_reg_dealloc<Cfg::kProducerRegs>();  // give registers back to the consumers
    if (threadIdx.x == CONSUMERS * kWarpgroupThreads) {
      RingState<STAGES> write;                              // stage 0, parity 0: one ring for every tile
      for (int visit = 0; visit < visits; ++visit) {
        tut::TileCoord const tile = tile_of(visit);
        for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
          // The first lap waits for parity 1: the phase "before" a fresh barrier, which counts as
          // complete, so all STAGES stages are filled at once. Later laps wait for the consumers' release.
          wait_barrier(smem.empty[write.index], write.producer_parity());
          tma_load(tile, k_tile, write.index);
          write.advance();
        }
      }
      // The other CTAs arrive on this CTA's empty barriers: it must not exit (and its smem go) before
      // their last arrival, the release of each stage's last k-tile.
      for (int s = 0; s < STAGES; ++s) {
        wait_barrier(smem.empty[write.index], write.producer_parity());
        write.advance();
      }
    }
    if constexpr (Params::kStress)                          //~stress
      if (int const warp = int(threadIdx.x) / 32 % 4; warp != 0)  //~stress: warps 1-3 congest the SM's stores
        tut::stress::congest(&smem.stress_done, CONSUMERS, warp, int(threadIdx.x) % 32);  //~stress
    return;                                                 // the producer's part is done
  }
  cutlass::arch::warpgroup_reg_alloc<Cfg::kConsumerRegs>();  // the consumers: room for the accumulators
  // The thread that issues the TMA stores of its group's C, and waits for them: bulk groups are per thread.
  bool storer = mma_thread == 0;
  //! [producer]

  //! [partition]
  // ---- Math partition: what this thread's warpgroup reads, and what this thread owns ----------------
  ThrMMA thr_mma = mma.get_slice(mma_thread);              // the TiledMMA is one group's
  Tensor tCsA = thr_mma.partition_A(sA);                    // (MMA,MMA_M,MMA_K,STAGES)
  Tensor tCsB = thr_mma.partition_B(sB);                    // (MMA,MMA_N,MMA_K,STAGES)
  // wgmma reads A and B from smem itself: the "fragments" are 64-bit descriptors of the smem tiles
  // (start address, swizzle mode, strides), one per wgmma and stage, not registers holding data.
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);              // (MMA,MMA_M,MMA_K,STAGES) descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);              // (MMA,MMA_N,MMA_K,STAGES) descriptors
  Tensor tCgC = thr_mma.partition_C(gC);                    // (MMA,MMA_M,MMA_N,m,n)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC(_,_,_,0,0));   // (MMA,MMA_M,MMA_N) fp32 accumulators
  // Each thread owns BLK_M*BLK_N/size(mma) accumulators: its group's tile, shared out evenly.
  CUTE_STATIC_ASSERT_V(size(tCrC) * size(mma) == size<0>(cta_tiler) * size<1>(cta_tiler));
  // The epilogue's partition: the MMA's partition of the C tile laid on sC's buffer 0, by subtile.
  constexpr int SUBTILES = size<1>(cta_tiler) / size<1>(SmemLayoutC{});  // BLK_N / EPI_N
  constexpr int BUFFERS = size<2>(SmemLayoutC{}) / GROUPS;                // per group
  static_assert(BUFFERS == kEpiBuffers, "epi_buffer() hands each group kEpiBuffers buffers");

  Tensor sC_tile = make_tensor(make_smem_ptr(smem.C.begin()), composition(sC_layout, c_on_buffer));  // (BLK_M,BLK_N)
  Tensor tCsC = by_subtile<SUBTILES>(thr_mma.partition_C(sC_tile));  // ((PER,MMA_M),SUBTILES) -> buffer 0
  Tensor tCrC_sub = by_subtile<SUBTILES>(tCrC);             // ((PER,MMA_M),SUBTILES)
  constexpr int kBufferElems = size(SmemLayoutC{}) / (BUFFERS * GROUPS);     // one buffer: BLK_M*EPI_N floats
  //! [partition]

  //! [mainloop]
  // ---- Mainloop: this group's tiles, in turn with the other's ----------------------------------------
  // TUTORIAL: for each of this group's tiles (visits group, group + GROUPS, ...), once it has the turn
  // (ping-pong: the other group has seen the last k-tile of its tile land), for each k_tile:
  //   wait until full[read] completes the phase of this lap: k-tile k_tile has landed;
  //   (ping-pong: after the tile's last, hand the turn to the other group;)
  //   issue the k-tile's wgmmas as one batch; wait until only that batch is still running;
  //   the previous k-tile's wgmmas are then done reading their stage: release it to the producers of
  //   the cluster (thread c of the warpgroup arrives on CTA c's empty barrier).
  // The tile's k-tiles lie in the ring after those of the CTA's earlier tiles: RingState::at(visit·K).
  // The turns keep the two warpgroups one lap apart at most: a warpgroup that waited on full[s] for a
  // k-tile two laps ahead would see the parity of the phase one lap before complete, and read a stage
  // that does not hold its k-tile yet.
  for (int visit = group; visit < visits; visit += GROUPS) {
    tut::TileCoord const tile = tile_of(visit);
    RingState<STAGES> read = RingState<STAGES>::at(visit * int(K_TILE_MAX));  // the tile's first k-tile
    RingState<STAGES> release = read;                       // the stage read one k-tile earlier
    if (GROUPS > 1 && visit > 0) wait_barrier(smem.turn[group], turn_parity(visit));  // this group's turn
    clear(tCrC);
    for (int k_tile = 0; k_tile < K_TILE_MAX; ++k_tile) {
      wait_barrier(smem.full[read.index], read.consumer_parity());  // k-tile k_tile's bytes have landed
      if (GROUPS > 1 && k_tile == K_TILE_MAX - 1)           // the tile's last k-tile: the other's turn
        arrive_barrier(smem.turn[(group + 1) % GROUPS]);
      // The math on k-tile k_tile, while the producer's copies are in flight: MMA_M·MMA_K wgmmas (64 rows
      // and 16 k each), issued by the whole warpgroup, asynchronous until waited for.
      warpgroup_fence_operand(tCrC);                        // the compiler keeps tCrC in place around them
      warpgroup_arrive();                                   // the accumulators' registers are ready for wgmma
      gemm(mma, tCrA(_,_,_,read.index), tCrB(_,_,_,read.index), tCrC);  // MMA_M·MMA_K wgmma.mma_async
      warpgroup_commit_batch();                             // close them into one batch
      warpgroup_wait<kWgmmaInFlight>();                     // all but the batch just issued are done
      warpgroup_fence_operand(tCrC);
      //! [release]
      if (k_tile > 0) {
        if (wg_thread < CLUSTER) cutlass::arch::ClusterBarrier::arrive(&smem.empty[release.index], wg_thread, 1);
        release.advance();
      }
      //! [release]
      read.advance();
    }
    //! [mainloop]

    //! [epilogue]
    // ---- Epilogue: registers -> smem -> TMA store, a subtile at a time; the next tile's copies run on --
    // The last k-tile's stage goes back to the producers too (step 10's CTA ended instead), so while the
    // group stores its tile, the producer fills the ring (and, ping-pong, the other group has its turn).
    warpgroup_wait<0>();                                    // the last batch too
    warpgroup_fence_operand(tCrC);
    if (wg_thread < CLUSTER) cutlass::arch::ClusterBarrier::arrive(&smem.empty[release.index], wg_thread, 1);
    release.advance();
    // Store::owners (tests only): each thread stores its own id instead, through the same partition.
    if (p.store == tut::Store::owners) tut::fill_owner_id(tCrC, visit, size(mma), mma_thread);
    if constexpr (TMA_STORE) {
      // The TMA's view of C in (BLK_M,EPI_N) boxes: this tile's subtile e is box (tile.m, tile.n*SUBTILES + e).
      Tensor gC_sub = local_tile(tma_c.get_tma_tensor(shape(layout_c)),
                                 select<0,1>(product_each(shape(sC_layout))), make_coord(_, _));  // (BLK_M,EPI_N,m,e)
      auto cta_tma_c = tma_c.get_slice(Int<0>{});
      Tensor tSsC = cta_tma_c.partition_S(sC);              // (TMA,1,1,BUFFERS·GROUPS)
      Tensor tSgC = cta_tma_c.partition_D(gC_sub);          // (TMA,1,1,m,e)
      CUTE_UNROLL
      for (int e = 0; e < SUBTILES; ++e) {
        int const buffer = epi_buffer(group, visit / GROUPS * SUBTILES + e);  // 2g, 2g + 1, ..., across its tiles
        // The buffer's previous store (subtile e - BUFFERS, perhaps of the tile before) must have read it.
        if (storer) tma_store_wait<BUFFERS - 1>();
        cutlass::arch::NamedBarrier::sync(size(mma), 1 + group);  // barrier 1 + g: this group's threads
        Tensor tCsC_buf = make_tensor(tCsC.data() + buffer * kBufferElems, tCsC.layout());  // ((PER,MMA_M),SUBTILES)
        copy_aligned(tCrC_sub(_,e), tCsC_buf(_,e));         // registers -> smem, the MMA's partition
        // The consumers wrote sC through the generic proxy; the TMA unit reads it through the async one.
        tma_store_fence();                                  // fence.proxy.async.shared::cta, per thread
        cutlass::arch::NamedBarrier::sync(size(mma), 1 + group);  // the whole subtile is in smem
        if (storer) {
          copy(tma_c, tSsC(_,_,_,buffer), tSgC(_,_,_,tile.m,tile.n * SUBTILES + e));  // smem -> gmem, async
          tma_store_arrive();                               // one bulk group per subtile, to wait on later
        }
      }
    } else {
      // C's rows are not 16-byte aligned (N % 4 != 0), which TMA needs: each thread stores its own, masked.
      Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, make_coord(tile.m, tile.n, _),
                             Step<_1,_1, X>{});             // (BLK_M,BLK_N) -> (m,n)
      Tensor tCpC = tut::make_mask(thr_mma.partition_C(cC), shape(mC));  // (MMA,MMA_M,MMA_N) -> m<M && n<N
      copy_if(tCpC, tCrC, tCgC(_,_,_,tile.m,tile.n));       // registers -> gmem
    }
  }
  // The CTA's smem must outlive the TMA's reads of it: wait for the last stores before leaving.
  if (TMA_STORE && storer) tma_store_wait<0>();
  if constexpr (Params::kStress) if (wg_thread == 0) tut::stress::consumer_done(&smem.stress_done);  //~stress
  //! [epilogue]
}

}  // namespace step15

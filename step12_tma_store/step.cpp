// Step 12's printout: sections 2 and 3 from the shared Hopper printers (tut/printout_sm90.hpp), and what
// is new: the tiles each CTA visits, the ring's barrier phases across a tile boundary, and the
// epilogue's subtiles, buffers and TMA stores; then the step itself: its variants, bugs and SASS classes.
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step12_tma_store.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"

namespace step12 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  print_item(os, "config", tut::config_name<Cfg>(), "--variant");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_roles<Cfg>(os, "(threads 0.." + str(Cfg::kMmaThreads - 1) + ")", Cfg::kConsumers,
                        "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  tut::print_tma_store_lines<Cfg>(os, kEpiN, kChunkC, kChunk, "");

  auto const t = tut::print_section3_tiles<ElementAB, ElementC, make_layout_A, make_layout_B, make_layout_C>(
      os, o, cta_tiler, traced, true);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,STAGES)

  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(Cfg::kStages) + " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n",
      true, plain(typename Cfg::SmemLayoutC{}), "(BLK_M,EPI_N,BUFFERS) -> smem_idx, GMMA's 128B atom of floats",
      str(Cfg::kStages) + " stages x " + str(Cfg::kStageBytes) + " + " + str(kEpiBuffers) + " C buffers x " +
          str(Cfg::kSubtileBytes) + ", 2 x " + str(Cfg::kStages) + " mbarriers, 1 KB alignment");
  tut::print_tma_boxes<Cfg>(os, t, o, "one thread");
  int const m0 = o.tile.m * bm, n0 = o.tile.n * bn;  // the tile's first row and col

  ThrMMA thr_mma = mma.get_slice(T);
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % kWarpgroupThreads << " of consumer warpgroup "
     << T / kWarpgroupThreads << " (warp " << T / 32 << "), the warpgroup at " << tut::thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  tut::print_wgmma_partition(os, mma, T, sA, sB, t, "its warpgroup's rows, every k");

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int V = int(decltype(size(thr_mma.partition_C(t.gC)))::value) / Cfg::kSubtiles;
  constexpr int SUBTILES = Cfg::kSubtiles;
  tut::print_subtile_epilogue<Cfg>(os, mma, T, t, [](auto&& p) { return by_subtile<SUBTILES>(p); },
                                   "((PER,MMA_M),SUBTILES) = by_subtile<" + str(SUBTILES) + ">(partition_C(sC_tile))",
                                   "sC's " + str(kEpiBuffers));
  int const k_tiles = int(size<2>(t.gA));
  tut::print_wgmma_counts(os, int(size<2>(thr_mma.partition_A(sA))), bm / Cfg::kConsumers, bn, k_tiles);

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: a TMA-store epilogue beside the ring, which runs on under it");
  tut::print_visits(os, traced);
  int const visits = Cfg::kSchedule.visits(traced.visitor.cta, traced.tiles.m, traced.tiles.n);
  os << "  Step 11 stored each C tile through the ring's bytes, so its producer waited on epi_done before the\n"
     << "  next tile's first load, and the ring stood idle through every epilogue. Here C has smem buffers of\n"
     << "  its own, beside the ring: no epi_done, and the next tile's k-tiles land while this tile is stored.\n\n";
  tut::print_k_edge(os, K, bk);
  os << "\n";
  print_barriers<Cfg>(os, k_tiles, visits);

  bool const tma_store = N % kChunkC == 0;
  os << "\n  The epilogue, per subtile e = 0.." << Cfg::kSubtiles - 1 << " (buffer b = e % " << kEpiBuffers
     << "), by the " << Cfg::kMmaThreads << " consumer threads:\n"
     << "    thread 0: tma_store_wait<" << kEpiBuffers - 1 << ">()  the store that last read buffer b (subtile e-"
     << kEpiBuffers << ") is done reading it\n"
     << "    named barrier 1; every thread copies its " << V << " values of subtile e into buffer b; tma_store_fence()\n"
     << "    named barrier 1; thread 0 issues the TMA store of buffer b to C's box e, and commits it (a bulk group)\n"
     << "  Nobody waits for the last stores: they run on while the consumers start the next tile's mainloop;\n"
     << "  the next tile's first subtile waits only for the store of this tile's subtile " << Cfg::kSubtiles - kEpiBuffers
     << ". Before the CTA\n  exits, thread 0 waits for all of them (tma_store_wait<0>), since they read its smem.\n";
  if (tma_store)
    os << "  This tile's boxes: rows " << m0 << ".." << m0 + bm - 1 << ", cols " << n0 << ".." << n0 + kEpiN - 1 << ", "
       << n0 + kEpiN << ".." << n0 + 2 * kEpiN - 1 << ", ... " << n0 + bn - kEpiN << ".." << n0 + bn - 1
       << "; the TMA unit writes only what lies inside C (" << M << " x " << N << ").\n";
  else
    os << "  N = " << N << " is not a multiple of " << kChunkC << ": C's rows are not 16-byte aligned, no TMA descriptor can\n"
       << "  describe C, and the kernel takes its other branch: copy_if(tCpC, tCrC, tCgC), each thread its own\n"
       << "  accumulators straight to C, masked at the edge.\n";
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &pipeline_pictures<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::no_store_wait), "no_store_wait",
        "thread 0 no longer waits for a buffer's last TMA store (tma_store_wait<1>) before the consumers write "
        "the next subtile into it: the TMA unit may read a buffer half overwritten",
        tut::Check::verification, "", "the consumers overwrite buffers the TMA unit has not read yet, at once",
        launch_of(Bug::no_store_wait)},
       {int(Bug::box_not_scaled), "box_not_scaled",
        "the TMA store of subtile e of tile (m,n) goes to C's box (m, n + e), not (m, n·SUBTILES + e): the "
        "boxes count subtiles, and the tile's column is not scaled to them, so tiles overwrite each other's "
        "columns and most of C is never written",
        tut::Check::verification, "", "", launch_of(Bug::box_not_scaled)},
       {int(Bug::store_wait_one_short), "store_wait_one_short",
        "tma_store_wait<BUFFERS> instead of <BUFFERS-1>: thread 0 lets one more store run on, so the consumers "
        "write a buffer while the TMA store of its last subtile may still be reading it",
        tut::Check::verification, "--m 2048 --n 2048 --k 256",
        "on an H100 verification caught it in 10 of 10 runs at this shape, at 256x1024x64 and at 128x256x64 "
        "(racecheck watches the threads' smem accesses, not the TMA unit's)",
        launch_of(Bug::store_wait_one_short)},
       {int(Bug::store_wait_after_sync), "store_wait_after_sync",
        "thread 0 waits for the buffer's last TMA store below the barrier instead of above it: the other "
        "consumers pass the barrier at once and write the next subtile into a buffer the store may still be "
        "reading",
        tut::Check::verification, "--stress --m 4096 --n 2048 --k 1024",
        "with --stress, the producer warpgroup's idle warps keep the SM's stores busy, so the store is still "
        "reading when the threads write (racecheck does not watch the TMA unit)",
        launch_of(Bug::store_wait_after_sync)}},
      {{"USETMAXREG", "setmaxnreg: the producer gives registers back, the consumers take them"},
       {"SYNCS", "the mbarriers, full and empty: arrive, expect_tx, wait (try_wait)"},
       {"BAR.SYNC.DEFER_BLOCKING 0x9, 0x100",
        "the consumers' named barrier in the epilogue: 256 threads (0x100) at barrier 9, CUTLASS's id 1 past the 8 "
        "it reserves"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), before a stage is released"},
       {"UTMALDG", "the TMA load of a box, as in step 09"},
       {"UTMASTG", "the TMA store of a subtile of C"},
       {"FENCE.VIEW.ASYNC.S", "tma_store_fence(), once per subtile: the consumers' smem writes, seen by the TMA store"},
       {"DEPBAR.LE SB0, 0x1", "tma_store_wait<1>(): the buffer's last TMA store has read it"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"}},
      &stress_launch);
  return s;
}

}  // namespace step12

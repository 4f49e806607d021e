// Step 13's printout: step 12's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), and what
// is new: which warpgroup takes which of the CTA's tiles, where its k-tiles lie in the ring, and the turns.
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step13_pingpong.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"
#include "what_is_new.hpp"

namespace step13 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const K = int(o.problem.k);
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_roles<Cfg>(os, "(threads 0..127, 128..255), each on tiles of its own", 1,
                        "one warpgroup's: each consumer runs it on its own tile");
  tut::print_tma_store_lines<Cfg>(os, kEpiN, kChunkC, kChunk, ", by its warpgroup");

  auto const t = tut::print_section3_tiles<ElementAB, ElementC, make_layout_A, make_layout_B, make_layout_C>(
      os, o, cta_tiler, traced, true);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,STAGES)

  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(S) + " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n", true,
      plain(typename Cfg::SmemLayoutC{}), "(BLK_M,EPI_N,BUFFERS) -> smem_idx: GMMA's 64B atom of floats, 2 buffers per warpgroup",
      str(S) + " stages x " + str(Cfg::kStageBytes) + " + " + str(kEpiBuffers * Cfg::kConsumers) + " C buffers x " +
          str(Cfg::kSubtileBytes) + ", 2 x " + str(S) + " + 2 mbarriers, 1 KB alignment");
  tut::print_tma_boxes<Cfg>(os, t, o, "one thread");

  ThrMMA thr_mma = mma.get_slice(T);
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << " of each consumer warpgroup (CTA threads " << T
     << " and " << T + kWarpgroupThreads << ", warp " << T / 32 << " of its warpgroup), on the tiles its warpgroup takes\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  tut::print_wgmma_partition(os, mma, T, sA, sB, t, "rows of both 64-row halves, every k");

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int SUBTILES = Cfg::kSubtiles;
  tut::print_subtile_epilogue<Cfg>(os, mma, T, t, [](auto&& p) { return by_subtile<SUBTILES>(p); },
                                   "((PER,MMA_M),SUBTILES) = by_subtile<" + str(SUBTILES) + ">(partition_C(sC_tile))",
                                   "its warpgroup's " + str(kEpiBuffers));
  int const mma_k = int(size<2>(thr_mma.partition_A(sA)));
  int const k_tiles = int(size<2>(t.gA));
  int const mma_m = int(size<1>(thr_mma.partition_A(sA)));
  os << "\n  gemm() per k-tile: " << mma_k << " x " << mma_m << " wgmma (MMA_K x MMA_M) per warpgroup, each 64x" << bn
     << "x16; loop counts per tile: " << k_tiles << " k-tiles x " << mma_k * mma_m << " = " << k_tiles * mma_k * mma_m
     << " wgmma\n";

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: two consumer warpgroups, each on tiles of its own, in turn");
  tut::print_visits(os, traced);
  print_turns<Cfg>(os, traced, K);
  tut::print_k_edge(os, K, bk);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &turns_picture<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::empty_waits_for_both), "empty_waits_for_both",
        "each stage's empty barrier waits for two arrivals, as in step 12, where both consumer warpgroups read "
        "every stage: here only the warpgroup whose tile's k-tile it held releases it, so no stage is ever empty "
        "again and the producer stops after one lap of the ring",
        tut::Check::watchdog, "", "K = 512 is 8 k-tiles for 6 stages: the 7th never loads",
        launch_of(Bug::empty_waits_for_both)},
       {int(Bug::store_by_thread_0), "store_by_thread_0",
        "the TMA stores are issued by the CTA's thread 0, as in step 12, where one thread stored every tile: "
        "warpgroup 1 writes its subtiles into its buffers, and nobody stores them",
        tut::Check::verification, "--m 2048 --n 2048 --k 256",
        "256 tiles for 132 CTAs: 124 CTAs take a second tile, warpgroup 1's, and none of those is stored",
        launch_of(Bug::store_by_thread_0)},
       {int(Bug::store_wait_one_short), "store_wait_one_short",
        "tma_store_wait<BUFFERS> instead of <BUFFERS-1>: a warpgroup's storer lets one more store run on, so "
        "the warpgroup writes a buffer while the TMA store of its last subtile may still be reading it",
        tut::Check::verification, "--stress --m 1024 --n 1024 --k 512",
        "64 tiles, one per CTA: plain runs miss it (the store has read its buffer before the next write), "
        "--stress catches it (idle producer warps keep the SM's stores busy, so the store reads slowly)",
        launch_of(Bug::store_wait_one_short)}},
      {{"HGMMA.64x128x16.F32", "each warpgroup's wgmma, m64n128k16, twice per 16 k (its tile's two 64-row halves)"},
       {"UTMALDG", "the TMA loads"},
       {"UTMASTG", "the TMA stores of C's subtiles, by each warpgroup"}},
      &stress_launch);
  return s;
}

}  // namespace step13

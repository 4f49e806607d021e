// Step 13's printout: step 12's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), and what
// is new: which warpgroup takes which of the CTA's tiles, where its k-tiles lie in the ring, and the turns
// (tut/printout_groups.hpp prints them, for step 14 too).
#include <ostream>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step13_pingpong.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_groups.hpp"
#include "tut/printout_sm90.hpp"

namespace step13 {

namespace {

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const K = int(o.problem.k);
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  auto const s = tut::print_group_sections<Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A, make_layout_B, make_layout_C>(
      os, o, kEpiN, kEpiBuffers, kChunkC, kChunk, [](auto&& p) { return by_subtile<Cfg::kSubtiles>(p); });

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: two consumer warpgroups, each on tiles of its own, in turn");
  tut::print_visits_and_turns<Cfg, RingState<Cfg::kStages>>(os, s.traced, K, &turn_parity);
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

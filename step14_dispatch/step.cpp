// Step 14's printout: step 13's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), for the
// configuration the launch picks, and what is new: why it picks that one (and, in ping-pong, the turns).
#include <ostream>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step14_dispatch.hpp"
#include "tut/choice.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_groups.hpp"
#include "tut/printout_sm90.hpp"

namespace step14 {

namespace {

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  static_assert(tut::kGroupsOf<Cfg> == Cfg::kGroups, "the printout counts the groups the kernel has");
  auto const s = tut::print_group_sections<Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A, make_layout_B, make_layout_C>(
      os, o, kEpiN, kEpiBuffers, kChunkC, kChunk, [](auto&& p) { return by_subtile<Cfg::kSubtiles>(p); });

  // ---- What is new: the choice; then, where it picked ping-pong, the turns ---------------------------
  tut::print_section(os, 4, "What is new: the configuration, chosen by the problem's size");
  int const k_row = o.problem.k % 64 == 0 ? 0 : 1;  // kTimePerEntry's row: 0 when K's rows are 128-byte aligned
  tut::print_choice<Variants>(os, o.problem, tut::config_name<Cfg>(), choose(o.problem), kTimePerEntry[k_row],
                              "(busiest CTA: its tiles, and their entries of C; time/entry: relative to " +
                                  tut::config_name<Default>() + "'s, measured, with K " + (k_row ? "not " : "") +
                                  "a multiple of 64.)");
  tut::print_visits_and_turns<Cfg, RingState<Cfg::kStages>>(os, s.traced, int(o.problem.k), &turn_parity);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &choice_picture<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::with_choice(tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::slice_by_warpgroup), "slice_by_warpgroup",
        "mma.get_slice(wg_thread), as in step 13, where a group was one warpgroup: in the cooperative schedule both "
        "warpgroups take warpgroup 0's partition, so rows 64..127 of every tile are never computed or stored",
        tut::Check::verification, "--m 512 --n 512 --k 128",
        "every tile loses half its rows: the sampled entries find them", launch_of(Bug::slice_by_warpgroup)},
       {int(Bug::empty_count_one), "empty_count_one",
        "each stage's empty barrier completes on one arrival, as in step 13, where one warpgroup read each stage: "
        "in the cooperative schedule the producer refills a stage as soon as the first warpgroup releases it, "
        "and the second's arrival completes the next phase early, so the ring's laps slip",
        tut::Check::watchdog, "--m 2048 --n 2048 --k 4096",
        "64 k-tiles per tile on a 4-stage ring: the barriers' phases no longer match the laps, and the GPU stops "
        "the kernel with a launch failure (exit 3; every time on an H200); a hang instead, the watchdog ends",
        launch_of(Bug::empty_count_one)},
       {int(Bug::store_wait_one_short), "store_wait_one_short",
        "tma_store_wait<BUFFERS> instead of <BUFFERS-1>: a group's storer lets one more store run on, so "
        "the group writes a buffer while the TMA store of its last subtile may still be reading it",
        tut::Check::verification, "--stress --m 1024 --n 1024 --k 512",
        "plain runs miss it (the store has read its buffer before the next write), "
        "--stress catches it (idle producer warps keep the SM's stores busy, so the store reads slowly)",
        launch_of(Bug::store_wait_one_short)}},
      {{"HGMMA.64x256x16.F32", "the default's wgmma, m64n256k16, one per warpgroup and 16 k"},
       {"HGMMA.64x128x16.F32", "the other configurations' wgmma, m64n128k16"},
       {"UTMALDG", "the TMA loads"},
       {"UTMASTG", "the TMA stores of C's subtiles, by each group"}},
      &stress_launch), &choose);  // the launch's choice of configuration (config.hpp)
  return s;
}

}  // namespace step14

// Step 16's printout: step 14's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), for the
// configuration the launch picks, and what is new: that the launch lets the next kernel start early,
// where the kernel waits for the one before, and when the next one launches; then why the launch picks
// that configuration (and, in ping-pong, the turns).
#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step16_pdl.hpp"
#include "tut/choice.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_groups.hpp"
#include "tut/printout_sm90.hpp"

namespace step16 {

namespace {

using tut::print_item;
using tut::str;

// The launch's dependence on the grid before it: that the next grid may start early, where every thread
// waits, and when the next grid launches: after the traced CTA's last tile, once every CTA has exited.
template <class Cfg>
void print_dependent_launch(std::ostream& os, tut::TracedTile const& traced) {
  tut::TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, cta = traced.visitor.cta;
  static_assert(Cfg::dependent_launch(tut::Problem{}), "every launch is dependent: what follows says so");
  print_item(os, "launch", "dependent: the next kernel may start early", "every launch; dependent_launch()");
  print_item(os, "attribute", "cudaLaunchAttributeProgrammaticStreamSerialization", "= 1, tut/launch.cuh");
  print_item(os, "wait", "griddepcontrol.wait, in every thread", "after barrier init, before global access");
  print_item(os, "trigger", "none (no griddepcontrol.launch_dependents)", "a CTA's exit counts as its trigger");
  int const visits = s.visits(cta, tm, tn);
  if (visits > 0) {
    tut::TileCoord const last = s.tile(cta, visits - 1, tm, tn);
    print_item(os, "exit", "CTA " + str(cta) + ": after the epilogue of visit " + str(visits - 1),
               "its last tile, (" + str(last.m) + "," + str(last.n) + ")");
  }
  print_item(os, "next grid", "launches once all " + str(s.cta_count(tm, tn)) + " CTAs have exited",
             "before this grid completes; its CTAs wait");
  os << '\n';
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  static_assert(tut::kGroupsOf<Cfg> == Cfg::kGroups, "the printout counts the groups the kernel has");
  auto const s = tut::print_group_sections<Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A, make_layout_B, make_layout_C>(
      os, o, kEpiN, kEpiBuffers, kChunkC, kChunk, [](auto&& p) { return by_subtile<Cfg::kSubtiles>(p); });

  // ---- What is new: the launch that lets the next start early; then the choice and the turns ---------
  tut::print_section(os, 4, "What is new: the next kernel's CTAs start before this one completes");
  print_dependent_launch<Cfg>(os, s.traced);
  int const row = rate_row(o.problem.k);
  // Where M or N leave a partial tile of some configurations, their k-tiles cost more than the K row says.
  std::array<std::int64_t, kVariants> const factors = k_factors(o.problem);
  bool const ragged = !std::equal(factors.begin(), factors.end(), kKTileFactor[row]);
  tut::print_cost_choice<Variants>(os, o.problem, tut::config_name<Cfg>(), choose(o.problem), kCost, factors.data(),
                                   kPowerFactor, tut::k_tile_cost_note(row, ragged));
  tut::print_visits_and_turns<Cfg, RingState<Cfg::kStages>>(os, s.traced, int(o.problem.k), &turn_parity);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>), &trace_config<Cfg>, nullptr,
      Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::with_choice(tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::no_grid_wait), "no_grid_wait",
        "griddepcontrol.wait is gone: launched early, the kernel's TMA loads may read A and B, and its stores "
        "write C, while the kernel before it in the stream still runs",
        tut::Check::sass, "",
        "every launch before it in the step's runs is the same GEMM, on the same A and B, writing the same C: "
        "verification passes, and the missing ACQBULK (griddepcontrol.wait) in the SASS is its trace",
        launch_of(Bug::no_grid_wait)},
       {int(Bug::early_trigger), "early_trigger",
        "griddepcontrol.launch_dependents is the kernel's first instruction: the next kernel launches at once, "
        "and its CTAs queue for the SMs this one's CTAs hold",
        tut::Check::sass, "",
        "the result is the same and only the time changes (on an H100, 6 to 12% slower at 4096³ and 8192³): the "
        "PREEXIT (griddepcontrol.launch_dependents) it puts into the SASS is its trace",
        launch_of(Bug::early_trigger)}},
      {{"HGMMA.64x256x16.F32", "the 128x256 configurations' wgmma, m64n256k16, one per warpgroup and 16 k"},
       {"HGMMA.64x192x16.F32", "the 128x192 configuration's, m64n192k16"},
       {"HGMMA.64x144x16.F32", "the 128x144 configuration's, m64n144k16"},
       {"HGMMA.64x176x16.F32", "the 128x176 ping-pong configuration's, m64n176k16"},
       {"HGMMA.64x128x16.F32", "the 128x128 and 64x128 ping-pong configurations' wgmma, m64n128k16"},
       {"UTMALDG", "the TMA loads, multicast in the clusters"},
       {"UTMASTG", "the TMA stores of C's subtiles, by each group"},
       {"ACQBULK", "griddepcontrol.wait: wait for the grid before, and its stores"},
       {"PREEXIT", "griddepcontrol.launch_dependents: none, the next grid launches as the CTAs exit", true}},
      &stress_launch), &choose);  // the launch's choice of configuration (config.hpp)
  return s;
}

}  // namespace step16

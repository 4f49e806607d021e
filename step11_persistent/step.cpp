// Step 11's printout: sections 2 and 3 from the shared Hopper printers (tut/printout_sm90.hpp), section 4
// from what_is_new.hpp; then the step itself: its variants, its bugs and its SASS classes.
#include <algorithm>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step11_persistent.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"

namespace step11 {

namespace {

using tut::str;

// Sections 2 and 3 are step 10's (tut/printout_sm90.hpp prints them for steps 08-11); section 4 is this step's.
template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  auto const s = tut::print_staged_c_sections<tut::RingCopies::tma_producer, Cfg, ElementAB, ElementC, SmemAtomAB,
                                              make_layout_A, make_layout_B, make_layout_C>(
      os, o, kChunk, "2 x " + str(Cfg::kStages) + " + 1");
  print_what_is_new<Cfg>(os, o, s.t, s.traced);
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
      {{int(Bug::last_stage_kept), "last_stage_kept",
        "the consumers never release a tile's last stage (step 10's kernel did not need to): each tile leaves "
        "one arrival missing on the ring, and by a CTA's fourth tile the producer waits for a stage nobody frees",
        tut::Check::watchdog, "--m 4096 --n 4096 --k 256", "132 CTAs take 512 tiles: most take 4",
        launch_of(Bug::last_stage_kept)},
       {int(Bug::same_tile_every_visit), "same_tile_every_visit",
        "every visit of a CTA computes its first tile again: the tiles the schedule gives it later are never "
        "written",
        tut::Check::verification, "--m 2100 --n 4300 --k 136", "289 tiles for 132 CTAs: 157 are second or third visits",
        launch_of(Bug::same_tile_every_visit)},
       {int(Bug::no_epilogue_wait), "no_epilogue_wait",
        "the producer no longer waits on epi_done before a tile's first k-tile: the next tile's TMA loads land "
        "in the ring's bytes while the consumers still read the C tile out of them",
        tut::Check::verification, "--m 2100 --n 4300 --k 136", "289 tiles for 132 CTAs: every CTA starts a second tile",
        launch_of(Bug::no_epilogue_wait)}},
      {{"USETMAXREG", "setmaxnreg: the producer gives registers back, the consumers take them"},
       {"SYNCS", "the mbarriers, full, empty and epi_done: arrive, expect_tx, wait (try_wait)"},
       {"BAR.SYNC.DEFER_BLOCKING 0x9, 0x100",
        "the consumers' named barrier in the epilogue: 256 threads (0x100) at barrier 9, CUTLASS's id 1 past the 8 "
        "it reserves"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), before a stage is released"},
       {"UTMALDG", "the TMA load of a box, as in step 09"},
       {"FENCE.VIEW.ASYNC.S", "fence_view_async_shared(), once per tile: sC's last reads before the next TMA loads"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"}});
  return s;
}

}  // namespace step11

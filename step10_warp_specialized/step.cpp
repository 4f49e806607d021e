// Step 10's printout: sections 2 and 3 from the shared Hopper printers (tut/printout_sm90.hpp), section 4
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
#include "step10_warp_specialized.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"

namespace step10 {

namespace {

using tut::str;

// Sections 2 and 3 (tut/printout_sm90.hpp prints them, for steps 08-11 alike); section 4 is this step's.
template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  auto const s = tut::print_staged_c_sections<tut::RingCopies::tma_producer, Cfg, ElementAB, ElementC, SmemAtomAB,
                                              make_layout_A, make_layout_B, make_layout_C>(
      os, o, kChunk, "2 x " + str(Cfg::kStages));
  print_what_is_new<Cfg>(os, o, s.t);
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
      {{int(Bug::producer_parity), "producer_parity",
        "the producer waits on empty[stage] for the consumers' parity: on the first lap that phase has not "
        "completed, so the producer never copies, the consumers never get a full stage, and the kernel hangs",
        tut::Check::watchdog, "", "", launch_of(Bug::producer_parity)},
       {int(Bug::no_warpgroup_wait), "no_warpgroup_wait",
        "warpgroup_wait<1> is gone: the consumers release the previous stage without waiting for the wgmmas "
        "that read it, and the producer's next TMA copy may overwrite it under them",
        tut::Check::sass,
        "", "verification and racecheck pass on the GPU: the missing WARPGROUP.DEPBAR.LE gsb0, 0x1 is its only trace",
        launch_of(Bug::no_warpgroup_wait)}},
      {{"USETMAXREG", "setmaxnreg: the producer gives registers back, the consumers take them"},
       {"SYNCS", "the mbarriers, full and empty: arrive, expect_tx, wait (try_wait)"},
       {"BAR.SYNC.DEFER_BLOCKING 0x9, 0x100",
        "the consumers' named barrier in the epilogue: 256 threads (0x100) at barrier 9, CUTLASS's id 1 past the 8 "
        "it reserves"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), before a stage is released"},
       {"UTMALDG", "the TMA load of a box, as in step 09"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"}});
  return s;
}

}  // namespace step10

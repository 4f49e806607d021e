// Step 09's printout: sections 2 and 3 (the CTA tiler and grid, the GMMA smem atom and ring, the TMA boxes,
// one thread's wgmma and epilogue partitions) from the shared printers, section 4 from what_is_new.hpp;
// then the step itself: its variants, its bugs and its SASS classes.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step09_tma.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"
#include "what_is_new.hpp"

namespace step09 {

namespace {

using tut::str;

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  static_assert(std::is_same_v<CopyOpG2S, SM90_TMA_LOAD>, "the name printed below");
  auto const s = tut::print_staged_c_sections<tut::RingCopies::tma, Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A,
                                              make_layout_B, make_layout_C>(os, o, kChunk, str(Cfg::kStages));
  print_what_is_new<Cfg>(os, o, s.t);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::full_parity_flipped), "full_parity_flipped",
        "the wgmmas wait on full[stage] for the other parity: a fresh barrier counts that phase as complete, "
        "so the wait returns before the TMA's bytes land; thread 0 then arms the stage's barrier again before "
        "its phase completed, and a later wait never returns",
        tut::Check::watchdog, "--k 4096",
        "we expected wrong results; on the H100 the kernel hung instead: nothing waits for a phase to complete "
        "before the barrier is armed again (once, under the other GPU tests' load, the GPU stopped it with a "
        "CUDA error, exit 3 too)",
        launch_of(Bug::full_parity_flipped)},
       {int(Bug::tx_bytes_as_floats), "tx_bytes_as_floats",
        "the barrier expects the stage's bytes counted as 4-byte floats: twice what the TMA delivers, so no "
        "phase ever completes and the kernel hangs",
        tut::Check::watchdog, "", "", launch_of(Bug::tx_bytes_as_floats)},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", launch_of(Bug::no_epilogue_barrier)}},
      {{"UTMALDG", "the TMA load of a box (cp.async.bulk.tensor)"},
       {"SYNCS", "the mbarriers: init, arrive with expect_tx, wait (try_wait)"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), as in step 08"},
       {"STS.64", "the epilogue's 64-bit stores of the accumulators into the C tile in smem"},
       {"LDS.128", "the epilogue's 128-bit reads of the C tile, for 128-bit stores to gmem"}});
  return s;
}

}  // namespace step09

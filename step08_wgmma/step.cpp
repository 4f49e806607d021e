// Step 08's printout: sections 2 and 3 (the CTA tiler and grid, the GMMA smem atom and ring, one thread's
// cp.async, wgmma and epilogue partitions) from the shared printers, section 4 from what_is_new.hpp; then
// the step itself: its variants, its bugs and its SASS classes.
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
#include "step08_wgmma.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"
#include "what_is_new.hpp"

namespace step08 {

namespace {

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  static_assert(std::is_same_v<CopyOpG2S, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  auto const s = tut::print_staged_c_sections<tut::RingCopies::cp_async, Cfg, ElementAB, ElementC, SmemAtomAB, make_layout_A,
                                              make_layout_B, make_layout_C>(os, o, kChunk);
  print_what_is_new<Cfg>(os, o, s.t);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<Cfg, ElementAB>>(
      tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
      &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::copies_one_too_far), "copies_one_too_far",
        "cp.async runs STAGES-1 k-tiles ahead, as in step 07: each fill lands in the stage the batch left "
        "running (warpgroup_wait<1>) may still be reading, so a wgmma reads a k-tile half overwritten",
        tut::Check::verification, "--m 2048 --n 2048 --k 4096", "", launch_of(Bug::copies_one_too_far)},
       {int(Bug::no_proxy_fence), "no_proxy_fence",
        "fence_view_async_shared() is gone: wgmma (the async proxy) may read a stage before the bytes "
        "cp.async wrote through the generic proxy are visible to it",
        tut::Check::sass, "",
        "verification passed on an H100 at 2048x2048x4096, 4096^3 and 128x256x8192: the missing "
        "FENCE.VIEW.ASYNC.S is its only trace",
        launch_of(Bug::no_proxy_fence)},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", launch_of(Bug::no_epilogue_barrier)}},
      {{"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16: a warpgroup's MMA, A and B read from smem"},
       {"WARPGROUP.ARRIVE", "warpgroup_arrive(): the accumulators are ready for wgmma"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(): all but the last batch of wgmmas are done"},
       {"FENCE.VIEW.ASYNC.S", "fence_view_async_shared(): cp.async's bytes made visible to wgmma"},
       {"LDGSTS", "cp.async, as in step 07, now STAGES-2 k-tiles ahead"},
       {"DEPBAR.LE SB0, 0x1", "cp_async_wait<STAGES-3>: wait until one group (STAGES = 4) is left in flight"},
       {"STS.64", "the epilogue's 64-bit stores of the accumulators into the C tile in smem"},
       {"LDS.128", "the epilogue's 128-bit reads of the C tile, for 128-bit stores to gmem"}});
  return s;
}

}  // namespace step08

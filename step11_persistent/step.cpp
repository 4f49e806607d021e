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
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"

namespace step11 {

namespace {

using tut::print_item;
using tut::str;

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  print_item(os, "config", tut::config_name<Cfg>(), "--variant");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_roles<Cfg>(os, "(threads 0.." + str(Cfg::kMmaThreads - 1) + ")", Cfg::kConsumers,
                        "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  tut::print_tma_load(os);
  tut::print_tiled_copy<EpilogueThrLayout<size<1>(typename Cfg::CtaTiler{}), Cfg::kMmaThreads>, EpilogueValLayout>(
      os, "epilogue", "UniversalCopy<uint128_t>", "smem -> gmem by the consumers, 16 bytes per store, as step09");
  tut::print_tma_sizes(os, kChunk);

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,STAGES)
  Tensor sC = make_tensor(make_smem_ptr(static_cast<ElementC*>(nullptr)), typename Cfg::SmemLayoutC{});   // (BLK_M,BLK_N)

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_tma_tensors(os, t);
  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(Cfg::kStages) + " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n",
      true, tut::plain(typename Cfg::SmemLayoutC{}), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)",
      str(Cfg::kStages) + " stages x " + str(Cfg::kStageBytes) + " (sC's " + str(bm * bn * int(sizeof(ElementC))) +
          " reuse them), 2 x " + str(Cfg::kStages) + " + 1 mbarriers, 1 KB alignment");
  tut::print_tma_boxes<Cfg>(os, t, o, "one thread");

  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % kWarpgroupThreads << " of consumer warpgroup "
     << T / kWarpgroupThreads << " (warp " << T / 32 << "), the warpgroup at " << tut::thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  tut::print_wgmma_partition(os, mma, T, sA, sB, t, "its warpgroup's rows, every k");
  tut::print_smem_epilogue(os, mma, copy_c, T, sC, t, "(step09's)");
  int const k_tiles = int(size<2>(t.gA));
  tut::print_wgmma_counts(os, int(size<2>(mma.get_slice(T).partition_A(sA))), bm / Cfg::kConsumers, bn, k_tiles);

  print_what_is_new<Cfg>(os, o, t, traced);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &pipeline_pictures<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::last_stage_kept), "last_stage_kept",
        "the consumers never release a tile's last stage (step 10's kernel did not need to): each tile leaves "
        "one arrival missing on the ring, and by a CTA's fourth tile the producer waits for a stage nobody frees",
        tut::Check::watchdog, "--m 4096 --n 4096 --k 256", "132 CTAs take 512 tiles: most take 4", &launch<Default, Bug::last_stage_kept>},
       {int(Bug::same_tile_every_visit), "same_tile_every_visit",
        "every visit of a CTA computes its first tile again: the tiles the schedule gives it later are never "
        "written",
        tut::Check::verification, "--m 2100 --n 4300 --k 136", "289 tiles for 132 CTAs: 157 are second or third visits",
        &launch<Default, Bug::same_tile_every_visit>},
       {int(Bug::no_epilogue_wait), "no_epilogue_wait",
        "the producer no longer waits on epi_done before a tile's first k-tile: the next tile's TMA loads land "
        "in the ring's bytes while the consumers still read the C tile out of them",
        tut::Check::verification, "--m 2100 --n 4300 --k 136", "289 tiles for 132 CTAs: 157 CTAs start a second tile",
        &launch<Default, Bug::no_epilogue_wait>}},
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

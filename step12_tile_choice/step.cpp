// Step 12's printout: the configuration chosen for the problem, then step 11's printout of it (the CTA
// tiler and the persistent grid, the warp roles, the GMMA smem atom and ring, the TMA boxes, one thread's
// wgmma partition and accumulators), and what is new: how choose() weighed the two tiles.
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step12_tile_choice.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"
#include "tut/svg.hpp"

namespace step12 {

namespace {

// print_item, plain and str are tut's: what_is_new.hpp declares them in this step's namespace.

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  print_item(os, "config", tut::config_name<Cfg>(), "chosen by problem size (section 4), or by --variant");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_roles<Cfg>(os, "(threads 0.." + str(Cfg::kMmaThreads - 1) + ")", Cfg::kConsumers,
                        "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  tut::print_tma_load(os);
  print_item(os, "epilogue",
             "SM90_TMA_STORE, make_tma_copy(op, mC, sC(_,_,0)): " + str(Cfg::kSubtiles) + " boxes of " + str(bm) + " x " +
                 str(kEpiN) + " per tile",
             "when N % " + str(kChunkC) + " == 0; else each thread stores its own");
  tut::print_tma_sizes(os, kChunk);

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,STAGES)

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_tma_tensors(os, t);
  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(Cfg::kStages) + " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n",
      true, plain(typename Cfg::SmemLayoutC{}), "(BLK_M,EPI_N,BUFFERS) -> smem_idx, GMMA's 128B atom of floats",
      str(Cfg::kStages) + " stages x " + str(Cfg::kStageBytes) + " + " + str(kEpiBuffers) + " C buffers x " +
          str(Cfg::kSubtileBytes) + ", 2 x " + str(Cfg::kStages) + " mbarriers, 1 KB alignment");
  tut::print_tma_boxes<Cfg>(os, t, o, "one thread");

  ThrMMA thr_mma = mma.get_slice(T);
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % kWarpgroupThreads << " of consumer warpgroup "
     << T / kWarpgroupThreads << " (warp " << T / 32 << "), the warpgroup at " << tut::thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  tut::print_wgmma_partition(os, mma, T, sA, sB, t, "its warpgroup's rows, every k");

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int V = int(decltype(size(thr_mma.partition_C(t.gC)))::value) / Cfg::kSubtiles;
  tut::print_subtile_epilogue<Cfg>(os, mma, T, t, [](auto&& p) { return by_subtile<V>(p); },
                                   "(V,SUBTILES) = by_subtile<" + str(V) + ">(partition_C(sC_tile))",
                                   "sC's " + str(kEpiBuffers));
  int const k_tiles = int(size<2>(t.gA));
  tut::print_wgmma_counts(os, int(size<2>(thr_mma.partition_A(sA))), bm / Cfg::kConsumers, bn, k_tiles);

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: the tile, chosen by problem size");
  print_choice(os, o);
  tut::print_visits(os, traced);
  tut::print_k_edge(os, K, bk);
}

// --svg: 1024 x 1024 cut into each configuration's tiles, numbered by the persistent CTA that takes
// them: 32 tiles of 128x256 leave 100 of the 132 CTAs idle, 64 of 128x128 keep twice as many busy.
// The same two pictures whichever configuration runs.
void choice_pictures(tut::Options const&, std::string const& dir) {
  std::int64_t const M = 1024, N = 1024;
  auto write = [&](auto cfg, std::string const& file) {
    using C = decltype(cfg);
    int const bm = size<0>(typename C::CtaTiler{}), bn = size<1>(typename C::CtaTiler{});
    tut::TileCoord const t = tut::tile_counts(M, N, bm, bn);
    tut::svg::write_file(dir + "/" + file,
                         tut::svg::grid_map(M, N, bm, bn, 0, 0, tut::grid_order(C::kSchedule, t.m, t.n)));
  };
  write(Default{}, "tiles_" + tut::config_name<Default>() + ".svg");
  write(Small{}, "tiles_" + tut::config_name<Small>() + ".svg");
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      tut::config_name<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &choice_pictures, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = [] {
  tut::Step s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::grid_of_other_tile), "grid_of_other_tile",
        "the launch counts its CTAs in the other configuration's tiles: for 1024 x 1024 it starts 32 CTAs, one "
        "per 128x256 tile, for the 64 tiles of 128x128 the kernel computes, and half of C is never written",
        tut::Check::verification, "--m 1024 --n 1024 --k 1024", "the kernel's CTAs c take tiles c, c + 64, ...: with 32 "
        "CTAs, tiles 32..63 have none", &launch_chosen<Bug::grid_of_other_tile>},
       {int(Bug::choice_swapped), "choice_swapped",
        "the launch runs the configuration choose() did not pick: C is right (both are correct kernels), but "
        "slow, and not computed by the tiles, CTAs and threads the printout shows",
        tut::Check::owner_test, "--owners --m 1024 --n 1024 --k 1024",
        "verification cannot see it; the owner test compares who stored each entry with the printout's partition",
        &launch_chosen<Bug::choice_swapped>}},
      {{"HGMMA.64x256x16.F32", "the 128x256 configuration's wgmma, m64n256k16 (step 11's)"},
       {"HGMMA.64x128x16.F32", "the 128x128 configuration's wgmma, m64n128k16: half as wide"},
       {"UTMALDG", "the TMA loads of both configurations"},
       {"UTMASTG", "the TMA stores of C's subtiles"}});
  s.choose = [](tut::Problem const& p) { return choose(p.m, p.n); };  // without --variant: by size
  return s;
  }();
  return s;
}

}  // namespace step12

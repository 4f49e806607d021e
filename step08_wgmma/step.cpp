// Step 08's printout: the CTA tiler and grid, the GMMA smem atom and ring, one thread's cp.async, wgmma and
// epilogue partitions, and what is new: what the atom does to byte addresses, the descriptors that stand
// for fragments, the accumulators' TV layout per warpgroup, and the pipeline with one wgmma batch running.
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
#include "pipeline.hpp"
#include "registered_step.hpp"
#include "step08_wgmma.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"

namespace step08 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "128x256": the name of a configuration (--variant), its CTA tile.
template <class Cfg>
std::string name_of() {
  typename Cfg::CtaTiler t;
  return str(size<0>(t)) + "x" + str(size<1>(t));
}

// The pipeline's first k-tiles: which stage is filled and which is read, as the kernel's PipeState goes,
// and which wgmma batch each iteration leaves running.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = pipeline_schedule<S>(k_tiles);
  int const shown = std::min<int>(int(schedule.size()), copies_ahead<S>() + 7);
  os << "  The pipeline, " << S << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA (group g carries k-tile g; one group per fill,\n  empty when no k-tile is left):\n\n"
     << "    iteration    wgmma reads     cp.async fills            groups  wait<" << groups_in_flight<S>()
     << "> ensures     left running\n";
  auto fill = [](PipeStep const& p) {
    return p.fill_k_tile >= 0 ? "k-tile " + str(p.fill_k_tile) + " -> stage " + str(p.fill_stage)
                              : "nothing (stage " + str(p.fill_stage) + "), empty";
  };
  for (int i = 0; i < shown; ++i) {
    PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    std::string const it = prologue ? "prologue" : "k-tile " + str(p.k_tile);
    std::string const reads = prologue ? "-" : "stage " + str(p.read_stage);
    // The wait at the top of iteration t leaves groups_in_flight groups: those committed before it.
    int const before = p.committed - (prologue ? 0 : 1);
    int const landed = std::min(before - groups_in_flight<S>(), k_tiles);
    std::string const ensures = prologue || landed < 1 ? "" : "k-tiles 0.." + str(landed - 1);
    std::string const running = p.running < 0 ? "" : "k-tile " + str(p.running) + "'s batch";
    os << "    " << std::left;
    os.width(13);
    os << it;
    os.width(16);
    os << reads;
    os.width(26);
    os << fill(p);
    os.width(8);
    os << p.committed;
    os.width(18);
    os << ensures << running << std::right << '\n';
  }
  if (int(schedule.size()) > shown) os << "    ... (the same, round the ring)\n";
  os << "\n  The wgmmas read k-tile t from stage t % " << S << ". The fill in iteration t goes to the stage k-tile\n"
     << "  t-" << kWgmmaInFlight + 1 << " was read from: each warpgroup waited for that batch (warpgroup_wait<"
     << kWgmmaInFlight << "> in iteration t-1)\n  before the barrier at the top of iteration t. Stage (t-1) % " << S
     << " is not refilled yet: k-tile t-1's\n  batch may still be reading it. So cp.async runs " << copies_ahead<S>()
     << " k-tiles ahead, not step 07's STAGES-1 = " << S - 1 << ".\n";
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyA copy_a;
  typename Cfg::TiledCopyB copy_b;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const wg_rows = bm / Cfg::kWarpgroups;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant");
  print_item(os, "warpgroups", str(Cfg::kWarpgroups) + " of 4 warps (" + str(Cfg::kThreads) + " threads)",
             "each copies and computes, as step07's warps did");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_wgmma_atom<Cfg>(os, Cfg::kWarpgroups, "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  static_assert(std::is_same_v<CopyOpG2S, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  tut::print_tiled_copy<CopyThrLayout<size<2>(typename Cfg::CtaTiler{}), Cfg::kThreads>, CopyValLayout>(
      os, "TiledCopy", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>",
      std::string("gmem -> smem, as step07") + (tut::zero_fills_v<CopyOpG2S> ? ", zero-fill" : ", no zero-fill"));
  int const c_thr_n = bn / kChunkC;
  tut::print_tiled_copy<EpilogueThrLayout<size<1>(typename Cfg::CtaTiler{}), Cfg::kThreads>, EpilogueValLayout>(
      os, "epilogue", "UniversalCopy<uint128_t>", "smem -> gmem, 16 bytes per store, as step07");
  print_item(os, "sizes", "any M and N; K a multiple of " + str(kChunk), "whole 16-byte chunks per row");

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K,STAGES)
  Tensor sB = smem.sB();                                // (BLK_N,BLK_K,STAGES)
  Tensor sC = smem.sC();                                // (BLK_M,BLK_N)
  int const c_bytes = bm * bn * int(sizeof(ElementC));

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "  shared memory: a ring of " + str(S) + " k-tiles of A and of B in GMMA's 128-byte swizzle atom, then the C\n"
          "  tile in the same bytes\n",
      false, plain(sC.layout()), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)",
      str(S) + " stages x " + str(Cfg::kStageBytes) + "; sC's " + str(c_bytes) + " reuse them");
  tut::print_copy_partition(os, t, sA, sB, copy_a, copy_b, T, "cp.async chunks of each k-tile", false);

  ThrMMA thr_mma = mma.get_slice(T);
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % kWarpgroupThreads << " of warpgroup " << T / kWarpgroupThreads
     << " (warp " << T / 32 << "), the warpgroup at " << tut::thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps a GMMA smem tensor's swizzle in its pointer.)\n";
  tut::print_wgmma_partition(os, mma, T, sA, sB, t, "its warpgroup's rows, every k");

  auto thr_copy_c = copy_c.get_slice(T);
  tut::print_smem_epilogue(os, mma, copy_c, T, sC, t, "(step07's)");

  int const mma_k = int(size<2>(thr_mma.partition_A(sA)));
  int const k_tiles = int(size<2>(t.gA));
  tut::print_wgmma_counts(os, mma_k, wg_rows, bn, k_tiles);

  // ---- What is new: the warpgroup MMA ----------------------------------------------------------------
  tut::print_section(os, 4, "What is new: wgmma from swizzled smem, descriptors, and one batch in flight");
  os << "  The atom's swizzle, Sw<3,4,3>, acts on the byte address: 16-byte chunk c of 128-byte row r (of 8)\n"
     << "  is stored at chunk c ^ r. Where the first 16-byte chunk of each row of stage 0 lands in sA:\n\n"
     << "    row m   k      smem byte   chunk   bank\n";
  for (int m = 0; m < 8; ++m)
    for (int k : {0, 8}) {
      std::int64_t const byte = smem.offset(&sA(m, k, 0));
      std::string const cells[] = {str(m), str(k), str(byte), str(byte % 128 / 16), str(byte / 4 % 32)};
      int const widths[] = {8, 7, 12, 8, 0};
      os << "    ";
      for (int c = 0; c < 5; ++c)
        os << cells[c] << std::string(std::size_t(std::max<int>(widths[c] - int(cells[c].size()), 0)), ' ');
      os << '\n';
    }
  os << "  The 8 rows' chunks at one k fall in 8 different 16-byte bank groups: a cp.async phase of 8 lanes\n"
     << "  (one per row) writes all 32 banks once, and so do wgmma's own reads.\n\n";

  os << "  A fragment is a descriptor, not registers: make_fragment_A(tCsA) holds, per wgmma and stage, the\n"
     << "  64-bit GmmaDescriptor of its 64x16 slice of sA (start address >> 4, the 128B swizzle, the strides\n"
     << "  between 8-row groups). The " << mma_k << " wgmmas of a k-tile differ only in the start address,\n"
     << "  32 bytes (16 halves) apart inside each 128-byte row: the swizzle is applied by the hardware.\n\n";

  using Atom = typename Cfg::TiledMma::Atom;
  os << "  The wgmma atom's layouts, (thread,value) -> index of its 64x" << bn << "x16 tile:\n";
  print_item(os, "ALayout", plain(typename Atom::Traits::ALayout{}),
             "(T128,V64x16) -> (m,k): stride 0 in T, all of A's tile from smem");
  print_item(os, "BLayout", plain(typename Atom::Traits::BLayout{}), "(T128,V" + str(bn) + "x16) -> (n,k)");
  print_item(os, "CLayout", plain(typename Atom::Traits::CLayout{}),
             "(T128,V" + str(64 * bn / 128) + ") -> m + 64n: the accumulators");
  os << "  Thread t of a warpgroup holds rows 16(t/32) + (t%32)/4 and that + 8, columns 2(t%4), 2(t%4)+1 of every\n"
     << "  8-column group: warp w owns rows 16w..16w+15, as mma.sync's C fragment repeated " << bn / 8 << " times.\n\n";
  auto const cells = tut::tv_cells(typename Atom::Traits::CLayout{}, 64, bn);
  std::vector<std::pair<int, int>> top(cells.begin(), cells.begin() + 16 * bn);  // rows 0..15: warp 0
  for (auto const& line : tut::tv_grid("  C: who holds C(m,n) of a warpgroup's 64x" + str(bn) +
                                           " tile, rows 0..15 (warp 0), cols 0..15",
                                       top, 16, bn, 0, 16, 'm', 'n'))
    os << line << '\n';

  os << "\n  wgmma is asynchronous. Per k-tile each warpgroup runs warpgroup_arrive() (its accumulators are\n"
     << "  ready), issues its " << mma_k << " wgmmas, closes them into one batch (warpgroup_commit_batch()), and\n"
     << "  warpgroup_wait<" << kWgmmaInFlight << ">() returns once all but the newest batch are done. cp.async writes"
     << " through\n  the generic proxy and wgmma reads through the async proxy: fence_view_async_shared() after\n"
     << "  cp_async_wait and before the barrier makes a thread's landed chunks visible to wgmma.\n\n";
  tut::print_k_edge(os, K, bk);
  print_timeline<Cfg>(os, k_tiles);

  // The epilogue's partition and masks, as the kernel makes them.
  Tensor tDcC = thr_copy_c.partition_D(t.cC);           // (CPY,CPY_M,CPY_N) -> (m,n)
  Tensor tDpC = tut::make_mask(tDcC, shape(t.mC));      // (CPY,CPY_M,CPY_N) -> m<M && n<N
  os << "\n  The epilogue is step07's: after warpgroup_wait<0>() and a barrier, copy(tCrC, tCsC) puts the\n"
     << "  accumulators in sC through partition_C, which now follows wgmma's C layout, a barrier, then\n"
     << "  copy_if(copy_c, tDpC, tDsC, tDgC) stores whole rows, " << c_thr_n << " threads per row of " << bn
     << " floats.\n";
  tut::print_chunk_stores(os, tDpC, T, N, kChunkC);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<Cfg, ElementAB>>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::copies_one_too_far), "copies_one_too_far",
        "cp.async runs STAGES-1 k-tiles ahead, as in step 07: each fill lands in the stage the batch left "
        "running (warpgroup_wait<1>) may still be reading, so a wgmma reads a k-tile half overwritten",
        tut::Check::verification, "--m 2048 --n 2048 --k 4096", "", &launch<Default, Bug::copies_one_too_far>},
       {int(Bug::no_proxy_fence), "no_proxy_fence",
        "fence_view_async_shared() is gone: wgmma (the async proxy) may read a stage before the bytes "
        "cp.async wrote through the generic proxy are visible to it",
        tut::Check::sass, "",
        "verification passed on an H100 at 2048x2048x4096, 4096^3 and 128x256x8192: the missing "
        "FENCE.VIEW.ASYNC.S is its only trace",
        &launch<Default, Bug::no_proxy_fence>},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", &launch<Default, Bug::no_epilogue_barrier>}},
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

// Step 09's printout: the CTA tiler and grid, the GMMA smem atom and ring, the TMA boxes, one thread's wgmma
// and epilogue partitions, and what is new: the TMA box and descriptor, the bytes each stage's mbarrier
// expects, and the phase each k-tile is waited for.
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
#include "step09_tma.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"

namespace step09 {

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

// The pipeline's first k-tiles: which stage TMA fills and which the wgmmas read, the barrier phase each
// read waits for, as the kernel's PipeState goes, and which wgmma batch each iteration leaves running.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = pipeline_schedule<S>(k_tiles);
  int const shown = std::min<int>(int(schedule.size()), copies_ahead<S>() + 2 * S + 1);
  os << "  The pipeline, " << S << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA. full[s] completes a phase when thread 0 has arrived\n  (arrive.expect_tx, "
     << Cfg::kStageBytes << " bytes) and the TMA unit has delivered those bytes. wait(full[s], p)\n"
     << "  returns once the phase of parity p has completed: lap L round the ring waits for parity L % 2.\n\n"
     << "    iteration    thread 0: TMA             then wait       wgmma reads   left running\n";
  auto fill = [](PipeStep const& p) {
    return p.fill_k_tile >= 0 ? "k-tile " + str(p.fill_k_tile) + " -> stage " + str(p.fill_stage) : "nothing";
  };
  for (int i = 0; i < shown; ++i) {
    PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    std::string const cells[] = {prologue ? "prologue" : "k-tile " + str(p.k_tile), fill(p),
                                 prologue ? "" : "full[" + str(p.read_stage) + "], " + str(p.parity),
                                 prologue ? "" : "stage " + str(p.read_stage),
                                 p.running < 0 ? "" : "k-tile " + str(p.running) + "'s batch"};
    int const widths[] = {13, 26, 16, 14, 0};
    os << "    ";
    for (int c = 0; c < 5; ++c)
      os << cells[c] << std::string(std::size_t(std::max<int>(widths[c] - int(cells[c].size()), 0)), ' ');
    os << '\n';
  }
  if (int(schedule.size()) > shown) os << "    ... (the same, round the ring; the parity flips every lap)\n";
  os << "\n  The fill in iteration t goes to the stage k-tile t-" << kWgmmaInFlight + 1
     << " was read from, as in step08: each warpgroup\n  waited for that batch (warpgroup_wait<" << kWgmmaInFlight
     << "> in iteration t-1) before the barrier at the top of\n  iteration t."
     << " That __syncthreads is all that guards a stage's reuse: simple, but it makes both\n  warpgroups wait"
     << " for the slower one every k-tile, and thread 0, which issues the copies, also computes.\n";
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const wg_rows = bm / Cfg::kWarpgroups;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant");
  print_item(os, "warpgroups", str(Cfg::kWarpgroups) + " of 4 warps (" + str(Cfg::kThreads) + " threads)",
             "each computes; thread 0 also issues the TMA copies");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  tut::print_wgmma_atom<Cfg>(os, Cfg::kWarpgroups, "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  static_assert(std::is_same_v<CopyOpG2S, SM90_TMA_LOAD>, "the name printed below");
  tut::print_tma_load(os);
  int const c_thr_n = bn / kChunkC;
  tut::print_tiled_copy<EpilogueThrLayout<size<1>(typename Cfg::CtaTiler{}), Cfg::kThreads>, EpilogueValLayout>(
      os, "epilogue", "UniversalCopy<uint128_t>", "smem -> gmem, 16 bytes per store, as step07");
  tut::print_tma_sizes(os, kChunk);

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K,STAGES)
  Tensor sB = smem.sB();                                // (BLK_N,BLK_K,STAGES)
  Tensor sC = smem.sC();                                // (BLK_M,BLK_N)
  int const c_bytes = bm * bn * int(sizeof(ElementC));

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_tma_tensors(os, t);
  tut::print_gmma_ring<Cfg, SmemAtomAB>(
      os, "\n  shared memory: a ring of " + str(S) + " k-tiles of A and of B in GMMA's 128-byte swizzle atom, then the C\n"
          "  tile in the same bytes\n",
      false, plain(sC.layout()), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)",
      str(S) + " stages x " + str(Cfg::kStageBytes) + " (sC's " + str(c_bytes) + " reuse them), " + str(S) +
                 " mbarriers, 1 KB alignment");

  tut::print_tma_boxes<Cfg>(os, t, o, "thread 0");

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

  // ---- What is new: the TMA unit -------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: TMA boxes, a tensor map, and an mbarrier per stage");
  os << "  The tensor map (CUtensorMap, 128 bytes, made on the host by make_tma_copy and passed to the kernel\n"
     << "  as a __grid_constant__ parameter) describes A: its address, extents (K, M), row pitch ("
     << K * int(sizeof(ElementAB)) << " bytes),\n  the box (" << bk << " x " << bm
     << "), the 128-byte swizzle, and zero fill out of bounds. One thread's\n"
     << "  copy(tma_a.with(full[s]), tAgA(_,_,_,k), tAsA(_,_,_,s)) names the box by its first coordinate;\n"
     << "  the unit does the rest.\n\n";
  os << "  Each stage's barrier full[s] expects " << Cfg::kStageBytes << " bytes per phase: A's box "
     << Cfg::kStageBytesA << " + B's box " << Cfg::kStageBytesB << ".\n"
     << "  Rows past M or N and k past K arrive as zeros and count too: every box is whole.\n"
     << "  step08's " << (bm + bn) * bk * int(sizeof(ElementAB)) / 16 / Cfg::kThreads << " cp.async per thread and k-tile, their masks,"
     << " cp_async_wait and the proxy fence are gone.\n\n";
  tut::print_k_edge(os, K, bk);
  os << "  The TMA unit fills what lies outside A and B with zeros (rows past M or N, k past K).\n\n";
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
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
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
        "before the barrier is armed again",
        &launch<Default, Bug::full_parity_flipped>},
       {int(Bug::tx_bytes_as_floats), "tx_bytes_as_floats",
        "the barrier expects the stage's bytes counted as 4-byte floats: twice what the TMA delivers, so no "
        "phase ever completes and the kernel hangs",
        tut::Check::watchdog, "", "", &launch<Default, Bug::tx_bytes_as_floats>},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", &launch<Default, Bug::no_epilogue_barrier>}},
      {{"UTMALDG", "the TMA load of a box (cp.async.bulk.tensor)"},
       {"SYNCS", "the mbarriers: init, arrive with expect_tx, wait (try_wait)"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), as in step 08"},
       {"STS.64", "the epilogue's 64-bit stores of the accumulators into the C tile in smem"},
       {"LDS.128", "the epilogue's 128-bit reads of the C tile, for 128-bit stores to gmem"}});
  return s;
}

}  // namespace step09

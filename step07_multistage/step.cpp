// Step 07's printout: the CTA tiler and grid, the smem ring, one thread's cp.async, ldmatrix, math and
// epilogue partitions, and what is new: smem bytes per stage, the pipeline's stage timeline, ldmatrix's
// lane -> row-address map, the k-blocks double-buffered in registers, and the epilogue through smem.
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
#include "smem_accesses.hpp"
#include "step07_multistage.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step07 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "256x128" or "128x128": the name of a configuration (--variant), its CTA tile.
template <class Cfg>
std::string name_of() {
  typename Cfg::CtaTiler t;
  return str(size<0>(t)) + "x" + str(size<1>(t));
}

// The pipeline's first k-tiles: which stage is filled and which is read, as the kernel's PipeState goes.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = pipeline_schedule<S>(k_tiles);
  int const shown = std::min<int>(int(schedule.size()), S - 1 + 6);
  os << "  The pipeline, " << S << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA (group g carries k-tile g; one group per fill,\n  empty when no k-tile is left):\n\n"
     << "    iteration    math reads      cp.async fills            groups committed  then wait<" << groups_in_flight<S>()
     << "> ensures\n";
  auto fill = [](PipeStep const& p) {
    return p.fill_k_tile >= 0 ? "k-tile " + str(p.fill_k_tile) + " -> stage " + str(p.fill_stage)
                              : "nothing (stage " + str(p.fill_stage) + "), empty";
  };
  for (int i = 0; i < shown; ++i) {
    PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    bool const waits = !prologue || i == S - 2;  // the prologue waits once, after its last fill
    std::string const it = prologue ? "prologue" : "k-tile " + str(p.k_tile);
    std::string const reads = prologue ? "-" : "stage " + str(p.read_stage);
    std::string const landed = !waits               ? ""
                               : p.landed >= 1      ? "k-tiles 0.." + str(std::min(p.landed, k_tiles) - 1) + " landed"
                                                    : "";
    os << "    " << std::left;
    os.width(13);
    os << it;
    os.width(16);
    os << reads;
    os.width(26);
    os << fill(p);
    os.width(18);
    os << p.committed << landed << std::right << '\n';
  }
  if (int(schedule.size()) > shown) os << "    ... (the same, round the ring)\n";
  os << "\n  The math reads k-tile t from stage t % " << S << ". The fill in iteration t goes to the stage k-tile\n"
     << "  t-1 was read from: every warp left it before the barrier at the end of iteration t-1, so one\n"
     << "  __syncthreads per k-tile guards both the read after write and the write after read.\n"
     << "  While the tensor cores work on one stage, up to " << S - 1
     << " k-tiles are on their way into the others.\n";
}

// ldmatrix's lane -> row-address map of warp w's first A instruction, and what each lane receives.
template <class Cfg>
void print_ldmatrix_map(std::ostream& os, tut::HostSmem<Cfg> const& smem, int warp) {
  os << "  ldmatrix.x4 (SM75_U32x4_LDSM_N), warp " << warp << ", its first A instruction of stage 0 (tXsA(_,0,0,0)):\n"
     << "  each lane names one 16-byte row of smem, 8 halves along k; lanes 8j..8j+7 are matrix j's rows.\n\n"
     << "    lane  matrix  row of sA      smem byte  bank  |  lane  matrix  row of sA      smem byte  bank\n";
  auto const rows = ldmatrix_rows<Cfg>(smem, true, warp, 0, 0);
  auto cell = [](LdsmRow const& r) {
    std::string s = "m=" + str(r.mn) + ",k=" + str(r.k) + ".." + str(r.k + kChunk - 1);
    s.resize(15, ' ');
    std::string b = str(r.byte);
    b.insert(0, std::size_t(std::max(0, 9 - int(b.size()))), ' ');
    std::string l = str(r.lane), m = str(r.matrix), bank = str(r.byte / 4 % 32);
    l.insert(0, std::size_t(std::max(0, 4 - int(l.size()))), ' ');
    bank.insert(0, std::size_t(std::max(0, 4 - int(bank.size()))), ' ');
    return l + "  " + m + "       " + s + b + "  " + bank;
  };
  for (int l = 0; l < 16; ++l)
    os << "    " << cell(rows[std::size_t(l)]) << "  | " << cell(rows[std::size_t(l + 16)]) << '\n';
  // A phase of 8 lanes moves 128 bytes: conflict-free when its 8 rows cover the 8 16-byte bank groups.
  for (int phase = 0; phase < 4; ++phase) {
    std::set<std::int64_t> groups;
    for (int l = 8 * phase; l < 8 * phase + 8; ++l) groups.insert(rows[std::size_t(l)].byte / 16 % 8);
    os << (phase == 0 ? "\n  " : "  ") << "lanes " << 8 * phase << ".." << 8 * phase + 7 << ": " << groups.size()
       << " of the 8 16-byte bank groups" << (groups.size() == 8 ? ", all 32 banks once: 1 wavefront\n" : "\n");
  }
  os << "  Lane l receives, of matrix j, row l/4 at halves 2(l%4), 2(l%4)+1, in its register j: the\n"
     << "  16x8x16 atom's A fragment, which is why make_tiled_copy_A can retile ldmatrix onto the MMA.\n";
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
  typename Cfg::S2RCopyA s2r_copy_a;
  typename Cfg::S2RCopyB s2r_copy_b;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant: 256x128 (the default) or 128x128");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  static_assert(std::is_same_v<MmaOp, SM80_16x8x16_F32F16F16F32_TN>, "the name printed below");
  print_item(os, "TiledMMA",
             "SM80_16x8x16_F32F16F16F32_TN x warps " + plain(Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>{}),
             "permutation (" + str(tile_size<0>(mma)) + "," + str(tile_size<1>(mma)) + "," + str(tile_size<2>(mma)) +
                 "): two 8-column atoms per warp");
  int const copy_thr_k = bk / kChunk, copy_thr_m = Cfg::kThreads / copy_thr_k;
  static_assert(std::is_same_v<CopyOpG2S, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  print_item(os, "TiledCopy",
             "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t> x threads (" + str(copy_thr_m) + "," + str(copy_thr_k) +
                 "):(" + str(copy_thr_k) + ",1) x values (1,8)",
             std::string("gmem -> smem, as step06") + (tut::zero_fills_v<CopyOpG2S> ? ", zero-fill" : ", no zero-fill"));
  static_assert(std::is_same_v<CopyOpS2R, SM75_U32x4_LDSM_N>, "the name printed below");
  print_item(os, "ldmatrix", "SM75_U32x4_LDSM_N, make_tiled_copy_A/_B(atom, mma)", "smem -> registers, 4 8x8 matrices");
  int const c_thr_n = bn / kChunkC, c_thr_m = Cfg::kThreads / c_thr_n;
  print_item(os, "epilogue",
             "UniversalCopy<uint128_t> x threads (" + str(c_thr_m) + "," + str(c_thr_n) + "):(" + str(c_thr_n) +
                 ",1) x values (1,4)",
             "smem -> gmem, 16 bytes per store");
  print_item(os, "sizes", "any M and N; K a multiple of " + str(kChunk), "whole 16-byte chunks per row");

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K,STAGES)
  Tensor sB = smem.sB();                                // (BLK_N,BLK_K,STAGES)
  Tensor sC = smem.sC();                                // (BLK_M,BLK_N)
  int const stage_a = bm * bk * int(sizeof(ElementAB)), stage_b = bn * bk * int(sizeof(ElementAB));
  int const c_bytes = bm * bn * int(sizeof(ElementC));

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  os << "  shared memory: a ring of " << S << " k-tiles of A and of B, then the C tile in the same bytes\n";
  print_item(os, "sA", plain(sA.layout()), "(BLK_M,BLK_K,STAGES) -> smem_idx, K-major, swizzled");
  print_item(os, "sB", plain(sB.layout()), "(BLK_N,BLK_K,STAGES) -> smem_idx");
  print_item(os, "sC", plain(sC.layout()), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled");
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(stage_a) + " + of B " + str(stage_b));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             str(S) + " stages x " + str(Cfg::kStageBytes) + "; sC's " + str(c_bytes) + " reuse them");
  tut::print_copy_partition(os, t, sA, sB, copy_a, copy_b, T, "cp.async chunks of each k-tile", true);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor csA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
  Tensor csB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
  auto two_k_blocks_a = make_tile(Int<size<0>(typename Cfg::SmemLayoutA{})>{}, Int<2>{} * tile_size<2>(mma));
  auto two_k_blocks_b = make_tile(Int<size<0>(typename Cfg::SmemLayoutB{})>{}, Int<2>{} * tile_size<2>(mma));
  Tensor tCrA = thr_mma.partition_fragment_A(local_tile(sA(_, _, 0), two_k_blocks_a, make_coord(0, 0)));  // (MMA,MMA_M,2)
  Tensor tCrB = thr_mma.partition_fragment_B(local_tile(sB(_, _, 0), two_k_blocks_b, make_coord(0, 0)));  // (MMA,MMA_N,2)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  os << "\n  thr_mma = mma.get_slice(" << T << "): lane " << T % 32 << " of warp " << T / 32 << ", the warp at "
     << tut::thread_mn(mma, T) << "\n";
  print_item(os, "tCrA", plain(tCrA.layout()), "(MMA,MMA_M,2): two k-blocks of registers");
  print_item(os, "", tut::elements(thr_mma.partition_A(csA), "sA m", "k"), "of every k-tile");
  print_item(os, "tCrB", plain(tCrB.layout()), "(MMA,MMA_N,2)");
  print_item(os, "", tut::elements(thr_mma.partition_B(csB), "sB n", "k"), "of every k-tile");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()), "accumulators: 4 floats per atom");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);

  auto s2r_a = s2r_copy_a.get_slice(T);
  auto s2r_b = s2r_copy_b.get_slice(T);
  os << "\n  s2r_thr_copy_a = s2r_copy_a.get_slice(" << T << "): the rows thread " << T << " names to ldmatrix\n";
  print_item(os, "tXsA", plain(s2r_a.partition_S(sA).layout()), "(CPY,CPY_M,CPY_K,STAGES) = partition_S(sA)");
  print_item(os, "", tut::elements(s2r_a.partition_S(csA), "sA m", "k"), "of every k-tile");
  print_item(os, "tXrA", plain(s2r_a.retile_D(tCrA).layout()), "(CPY,CPY_M,2) = retile_D(tCrA)");
  print_item(os, "tXsB", plain(s2r_b.partition_S(sB).layout()), "(CPY,CPY_N,CPY_K,STAGES) = partition_S(sB)");
  print_item(os, "", tut::elements(s2r_b.partition_S(csB), "sB n", "k"), "of every k-tile");
  print_item(os, "tXrB", plain(s2r_b.retile_D(tCrB).layout()), "(CPY,CPY_N,2) = retile_D(tCrB)");

  auto thr_copy_c = copy_c.get_slice(T);
  Tensor csC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
  os << "\n  epilogue: registers -> sC through partition_C, then thr_copy_c = copy_c.get_slice(" << T << ")\n";
  print_item(os, "tCsC", plain(thr_mma.partition_C(sC).layout()), "(MMA,MMA_M,MMA_N) = partition_C(sC)");
  print_item(os, "tDsC", plain(thr_copy_c.partition_S(sC).layout()), "(CPY,CPY_M,CPY_N) = partition_S(sC)");
  print_item(os, "tDgC", plain(thr_copy_c.partition_D(t.gC).layout()), "(CPY,CPY_M,CPY_N) = partition_D(gC)");
  print_item(os, "", tut::elements(thr_copy_c.partition_D(csC), "sC m", "n"), "the C entries it stores");

  int const k_tiles = int(size<2>(t.gA)), mm = int(size<1>(tCrA)), mn = int(size<1>(tCrB));
  int const k_blocks = bk / int(tile_size<2>(mma));
  os << "\n  gemm() per k-block: " << mm << "x" << mn << " (MMA_M x MMA_N) = " << mm * mn << " mma.sync per warp; "
     << k_blocks << " k-blocks per k-tile\n"
     << "  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << mm * mn << " = "
     << k_tiles * k_blocks * mm * mn << " mma.sync per warp\n";

  // ---- What is new: overlap --------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: copy and math overlapped, ldmatrix, and 128-bit stores of C");
  os << "  smem per stage: A " << stage_a << " + B " << stage_b << " = " << Cfg::kStageBytes << " bytes; " << S
     << " stages = " << Cfg::kSmemBytes << " bytes (" << Cfg::kSmemBytes / 1024 << " KB) per CTA.\n"
     << "  The C tile (" << bm << "x" << bn << " floats, " << c_bytes << " bytes) reuses the ring after the mainloop.\n"
     << "  Above 48 KB the launch must ask: cudaFuncSetAttribute(kernel, MaxDynamicSharedMemorySize, "
     << Cfg::kSmemBytes << ").\n\n";
  tut::print_k_edge(os, K, bk);
  print_timeline<Cfg>(os, k_tiles);

  os << "\n";
  print_ldmatrix_map<Cfg>(os, smem, T / 32);

  os << "\n  Registers, one k-block ahead: each k-tile is " << k_blocks << " k-blocks of 16. While mma.sync works on\n"
     << "  k-block kb from tCrA(_,_,kb%2), ldmatrix fills tCrA(_,_,(kb+1)%2) with k-block kb+1 (the next\n"
     << "  k-tile's k-block 0 after the last): per warp " << mm << " ldmatrix.x4 for A and " << mn / 2
     << " for B per k-block,\n  against " << mm * mn << " mma.sync.\n";

  // The epilogue's partition and masks, as the kernel makes them.
  Tensor tDcC = thr_copy_c.partition_D(t.cC);           // (CPY,CPY_M,CPY_N) -> (m,n)
  Tensor tDpC = tut::make_mask(tDcC, shape(t.mC));      // (CPY,CPY_M,CPY_N) -> m<M && n<N
  os << "\n  The epilogue: copy(tCrC, tCsC) puts the accumulators in sC (the MMA's partition), a barrier,\n"
     << "  then copy_if(copy_c, tDpC, tDsC, tDgC) stores them by the epilogue's partition: " << c_thr_n
     << " threads per\n  row of " << bn << " floats, so a warp's 32 lanes store 512 contiguous bytes of one row per"
     << " instruction\n  (step06 stored 8 bytes per lane, 32 contiguous bytes per row).\n";
  tut::print_chunk_stores(os, tDpC, T, N, kChunkC);
}

// --svg: the stage ring as a timeline, and the lanes of one ldmatrix, from the same schedule and copy the
// printout reads.
template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int((o.problem.k + bk - 1) / bk);
  auto const schedule = pipeline_schedule<S>(k_tiles);
  std::vector<std::string> rows, cols;
  for (int s = 0; s < S; ++s) rows.push_back("stage " + str(s));
  std::vector<tut::svg::Bar> bars;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    PipeStep const& p = schedule[i];
    cols.push_back(p.k_tile < 0 ? "prologue " + str(int(i) + 1) : "k-tile " + str(p.k_tile));
    if (p.fill_k_tile < 0) {
      bars.push_back({p.fill_stage, int(i), int(i) + 1, "empty group", "#eeeeee",
                      "nothing left to copy: an empty cp.async group keeps the count"});
      continue;
    }
    // The k-tile's copy is in flight from its fill up to the iteration that reads it.
    auto const read = std::find_if(schedule.begin(), schedule.end(), [&](PipeStep const& q) { return q.k_tile == p.fill_k_tile; });
    int const read_at = int(read - schedule.begin());
    bars.push_back({p.fill_stage, int(i), read_at, "cp.async k-tile " + str(p.fill_k_tile), "#ffcc80",
                    "cp.async of k-tile " + str(p.fill_k_tile) + " into stage " + str(p.fill_stage) +
                        ", group " + str(p.committed) + "; cp_async_wait<" + str(groups_in_flight<S>()) + "> before its read ensures it landed"});
    bars.push_back({read->read_stage, read_at, read_at + 1, "math k-tile " + str(p.fill_k_tile), "#90caf9",
                    "ldmatrix and mma.sync read k-tile " + str(p.fill_k_tile) + " from stage " + str(read->read_stage)});
  }
  tut::svg::write_file(dir + "/stage_ring.svg",
                       tut::svg::timeline("step07: the ring of " + str(S) + " smem stages, iteration by iteration (K = " +
                                              str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                                          "while the math reads one stage, cp.async fills the others; one barrier "
                                          "per k-tile; read off pipeline_schedule(), the kernel's own PipeState",
                                          rows, cols, bars,
                                          {{"#ffcc80", "cp.async in flight (or landed), not yet read"},
                                           {"#90caf9", "the math reads the stage"},
                                           {"#eeeeee", "an empty group (no k-tile left)"}}));

  tut::HostSmem<Cfg> smem;
  std::vector<tut::svg::LaneRow> lanes;
  for (LdsmRow const& r : ldmatrix_rows<Cfg>(smem, true, 0, 0, 0)) lanes.push_back({r.lane, r.matrix, r.mn, r.k, r.byte});
  tut::svg::write_file(dir + "/ldmatrix.svg",
                       tut::svg::ldmatrix_lanes("step07: one ldmatrix.x4 of A (warp 0, stage 0): the row each lane names",
                                                "each lane gives the address of one 16-byte row of sA (8 halves); lanes "
                                                "8j..8j+7 are matrix j; then lane l receives row l/4, halves 2(l%4) and "
                                                "2(l%4)+1 of every matrix",
                                                lanes, kChunk, 'm'));
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<Cfg, ElementAB>>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 200, 200}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::wait_one_too_few), "wait_one_too_few",
        "cp_async_wait<STAGES-1> in the mainloop: it lets one group too many stay in flight, so the math may "
        "read a stage whose k-tile has not landed yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200",
        "verification passed every time we ran it (1024^3 and this shape): the copy usually lands in time anyway",
        &launch<Default, Bug::wait_one_too_few>},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", &launch<Default, Bug::no_epilogue_barrier>}},
      {{"LDSM", "ldmatrix: a warp loads 8x8 tiles of halves from smem, straight into the MMA's registers"},
       {"LDGSTS", "cp.async, as in step 06, now STAGES-1 k-tiles ahead"},
       {"DEPBAR.LE SB0, 0x1", "cp_async_wait<STAGES-2>: wait until one group (STAGES = 3) is left in flight"},
       {"HMMA.16816.F32", "mma.sync m16n8k16"},
       {"STS.64", "the epilogue's 64-bit stores of the accumulators into the C tile in smem"},
       {"LDS.128", "the epilogue's 128-bit reads of the C tile, for 128-bit stores to gmem"}});
  return s;
}

}  // namespace step07

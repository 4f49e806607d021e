// Step 10's printout: the CTA tiler and grid, the warp roles, the GMMA smem atom and ring, the TMA boxes,
// one thread's wgmma partition and accumulators, and what is new: the accumulators' TV layout, the
// pipeline's barrier phases for the first k-tiles, and the epilogue's stores.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "pipeline.hpp"
#include "registered_step.hpp"
#include "step10_warp_specialized.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step10 {

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

// The barrier phases of the first k-tiles, as the kernel's RingState counters go.
template <class Cfg>
void print_barriers(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = barrier_schedule<S>(k_tiles);
  int const shown = std::min<int>(k_tiles, 2 * S + 1);
  os << "  The pipeline: " << S << " stages, two mbarriers each. full[s] completes a phase when the producer has\n"
     << "  arrived (arrive.expect_tx, " << Cfg::kStageBytes << " bytes) and the TMA unit has delivered those bytes;"
     << " empty[s]\n  when each of the " << Cfg::kConsumers << " consumer warpgroups has arrived."
     << " wait(bar, p) returns once the phase of parity p\n  has completed; a fresh barrier counts its phase \"-1\""
     << " (parity 1) as complete. " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s") << " for this CTA:\n\n"
     << "    k-tile  stage  producer: wait empty[s] for    then     consumers: wait full[s] for  then release\n";
  for (int i = 0; i < shown; ++i) {
    BarrierStep const& b = schedule[std::size_t(i)];
    std::string const wait_empty =
        "parity " + str(b.empty_parity) +
        (b.lap == 0 ? " (passes: fresh)" : " (k-tile " + str(b.k_tile - S) + " read)");
    std::string const released =
        b.released_stage < 0 ? "-" : "empty[" + str(b.released_stage) + "] (k-tile " + str(b.released_k_tile) + ")";
    std::string cells[] = {str(b.k_tile), str(b.stage), wait_empty, "TMA A,B", "parity " + str(b.full_parity),
                           released};
    int const widths[] = {8, 7, 30, 9, 29, 0};
    os << "    ";
    for (int c = 0; c < 6; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  }
  if (k_tiles > shown) os << "    ... (the same, round the ring; the parities flip every lap)\n";
  os << "\n  The consumers release k-tile t-1's stage after issuing k-tile t's wgmmas and waiting for all but\n"
     << "  that batch (warpgroup_wait<1>): the tensor cores always have one batch queued. The last stage is\n"
     << "  never released: nothing waits for it.\n";
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
  int const wg_rows = bm / Cfg::kConsumers;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  print_item(os, "config", name_of<Cfg>(), "--variant");
  print_item(os, "warpgroups",
             str(Cfg::kConsumers) + " consumers (threads 0.." + str(Cfg::kMmaThreads - 1) + ") + 1 producer (threads " +
                 str(Cfg::kMmaThreads) + ".." + str(Cfg::kThreads - 1) + ")",
             "4 warps each");
  print_item(os, "setmaxnreg",
             "producer " + str(Cfg::kProducerRegs) + ", consumers " + str(Cfg::kConsumerRegs) + " registers per thread",
             "128x" + str(Cfg::kProducerRegs) + " + " + str(Cfg::kMmaThreads) + "x" + str(Cfg::kConsumerRegs) + " = " +
                 str(128 * Cfg::kProducerRegs + Cfg::kMmaThreads * Cfg::kConsumerRegs) + " of 65536");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  print_item(os, "TiledMMA",
             "SM90_64x" + str(bn) + "x16_F32F16F16_SS<K,K> x warpgroups " + plain(Shape<Int<Cfg::kConsumers>, _1, _1>{}),
             "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
  print_item(os, "TMA", "SM90_TMA_LOAD, make_tma_copy(op, mA, sA(_,_,0)) and the same for B",
             "one box per operand and k-tile");
  int const c_thr_n = bn / kChunkC, c_thr_m = Cfg::kMmaThreads / c_thr_n;
  print_item(os, "epilogue",
             "UniversalCopy<uint128_t> x threads (" + str(c_thr_m) + "," + str(c_thr_n) + "):(" + str(c_thr_n) +
                 ",1) x values (1,4)",
             "smem -> gmem by the consumers, 16 bytes per store, as step09");
  print_item(os, "sizes", "any M and N; K a multiple of " + str(kChunk), "a TMA row pitch is a multiple of 16 bytes");

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<ElementAB*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,STAGES)

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  os << "  The kernel tiles TMA tensors instead: tma_a.get_tma_tensor((M,K)) holds coordinates, not addresses\n";
  print_item(os, "gA", plain(t.cA.layout()), "(BLK_M,BLK_K,k) -> (m,k): where each k-tile's box starts");
  print_item(os, "gB", plain(t.cB.layout()), "(BLK_N,BLK_K,k) -> (n,k)");

  os << "\n  shared memory: a ring of " << S << " k-tiles of A and of B, in GMMA's 128-byte swizzle atom\n";
  static_assert(std::is_same_v<SmemAtomAB, GMMA::Layout_K_SW128_Atom<half_t>>, "the name printed below");
  print_item(os, "atom", plain(SmemAtomAB{}), "GMMA::Layout_K_SW128_Atom<half_t>: 8 rows x 64 halves, 1 KB");
  os << "  Sw<3,4,3> acts on the byte address: 16-byte chunk c of 128-byte row r (of 8) is stored at chunk c ^ r.\n";
  print_item(os, "sA", plain(typename Cfg::SmemLayoutA{}), "(BLK_M,BLK_K,STAGES) -> smem_idx, the atom tiled");
  print_item(os, "sB", plain(typename Cfg::SmemLayoutB{}), "(BLK_N,BLK_K,STAGES) -> smem_idx");
  print_item(os, "sC", plain(typename Cfg::SmemLayoutC{}), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)");
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(Cfg::kStageBytesA) + " + of B " + str(Cfg::kStageBytesB));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             str(S) + " stages x " + str(Cfg::kStageBytes) + " (sC's " + str(bm * bn * int(sizeof(ElementC))) +
                 " reuse them), 2 x " + str(S) + " mbarriers, 1 KB alignment");

  int const m0 = o.tile.m * bm, n0 = o.tile.n * bn;  // the tile's first row and col
  os << "\n  TMA: one thread issues two copies per k-tile; each moves one box, gmem -> one stage of smem\n";
  print_item(os, "box A", str(bk) + " x " + str(bm) + " halves (k x m), " + str(Cfg::kStageBytesA) + " bytes",
             "= sA(_,_,stage): the box is the stage's layout");
  print_item(os, "box B", str(bk) + " x " + str(bn) + " halves (k x n), " + str(Cfg::kStageBytesB) + " bytes",
             "= sB(_,_,stage)");
  print_item(os, "swizzle", "CU_TENSOR_MAP_SWIZZLE_128B",
             "the TMA unit writes the atom's Sw<3,4,3> as it stores");
  print_item(os, "A rows", tut::box_rows(m0, bm, M), "this CTA's boxes of A");
  print_item(os, "B rows", tut::box_rows(n0, bn, N), "this CTA's boxes of B");
  print_item(os, "tAgA", "(TMA,1,1,k): (" + str(bm * bk) + ",1,1," + str(size<2>(t.gA)) + ")",
             "partition_S(gA): the whole k-tile is one copy");
  print_item(os, "tAsA", "(TMA,1,1,STAGES): (" + str(bm * bk) + ",1,1," + str(S) + ")", "partition_D(sA)");

  ThrMMA thr_mma = mma.get_slice(T);
  int const wg = T / kWarpgroupThreads;
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K,STAGES)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K,STAGES)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  Tensor csA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
  Tensor csB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % kWarpgroupThreads << " of consumer warpgroup " << wg
     << " (warp " << T / 32 << "), the warpgroup at " << tut::thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K,STAGES) = partition_A(sA)");
  print_item(os, "", tut::elements(thr_mma.partition_A(csA), "sA m", "k"), "its warpgroup's rows, every k");
  print_item(os, "tCsB", plain(tCsB.layout()), "(MMA,MMA_N,MMA_K,STAGES) = partition_B(sB)");
  print_item(os, "", tut::elements(thr_mma.partition_B(csB), "sB n", "k"), "all of B's tile");
  print_item(os, "tCrA", "(MMA,MMA_M,MMA_K,STAGES): " + plain(shape(tCsA)) + " descriptors",
             "make_fragment_A(tCsA): one 64-bit smem descriptor per wgmma");
  print_item(os, "tCrB", "(MMA,MMA_N,MMA_K,STAGES): " + plain(shape(tCsB)) + " descriptors", "make_fragment_B(tCsB)");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()),
             str(size(thr_mma.make_fragment_C(tCgC))) + " fp32 accumulators in registers");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);

  Tensor sC = make_tensor(make_smem_ptr(static_cast<ElementC*>(nullptr)), typename Cfg::SmemLayoutC{});  // (BLK_M,BLK_N)
  auto thr_copy_c = copy_c.get_slice(T);
  Tensor csC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
  os << "\n  epilogue (step09's): registers -> sC through partition_C, then thr_copy_c = copy_c.get_slice(" << T << ")\n";
  print_item(os, "tCsC", plain(thr_mma.partition_C(sC).layout()), "(MMA,MMA_M,MMA_N) = partition_C(sC)");
  print_item(os, "tDsC", plain(thr_copy_c.partition_S(sC).layout()), "(CPY,CPY_M,CPY_N) = partition_S(sC)");
  print_item(os, "tDgC", plain(thr_copy_c.partition_D(t.gC).layout()), "(CPY,CPY_M,CPY_N) = partition_D(gC)");
  print_item(os, "", tut::elements(thr_copy_c.partition_D(csC), "sC m", "n"), "the C entries it stores");
  int const mma_k = int(size<2>(tCsA));
  int const k_tiles = int(size<2>(t.gA));
  os << "\n  gemm() per k-tile: " << mma_k << " wgmma (MMA_K) per warpgroup, each " << wg_rows << "x" << bn
     << "x16; loop counts: " << k_tiles << " k-tiles x " << mma_k << " = " << k_tiles * mma_k
     << " wgmma per warpgroup\n";

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: warp roles, setmaxnreg, and empty barriers with their parity");
  os << "  Warp specialization: the producer warpgroup (threads " << Cfg::kMmaThreads << ".." << Cfg::kThreads - 1
     << ", " << Cfg::kProducerRegs << " registers after setmaxnreg) only\n  waits on empty barriers and issues TMA"
     << " copies, from its first thread. The consumers (threads 0.." << Cfg::kMmaThreads - 1 << ",\n  "
     << Cfg::kConsumerRegs << " registers, " << str(size(thr_mma.make_fragment_C(tCgC)))
     << " of them accumulators) only wait on full barriers, issue wgmma, and store C.\n"
     << "  No __syncthreads follows the setup: step09's one per k-tile is gone, and the epilogue's two meet\n"
     << "  the " << Cfg::kMmaThreads << " consumer threads only, at named barrier 1 (the producer has returned).\n\n";
  tut::print_k_edge(os, K, bk);
  os << "  The TMA unit fills what lies outside A and B with zeros (rows past M or N, k past K), and still\n"
     << "  counts the whole box's bytes on the full barrier.\n\n";
  print_barriers<Cfg>(os, k_tiles);

  // The epilogue's partition and masks, as the kernel makes them.
  Tensor tDcC = thr_copy_c.partition_D(t.cC);           // (CPY,CPY_M,CPY_N) -> (m,n)
  Tensor tDpC = tut::make_mask(tDcC, shape(t.mC));      // (CPY,CPY_M,CPY_N) -> m<M && n<N
  os << "\n  The epilogue is step09's, by the consumers: after warpgroup_wait<0>() and their barrier, copy(tCrC, tCsC) puts the\n"
     << "  accumulators in sC through partition_C, which now follows wgmma's C layout, a barrier, then\n"
     << "  copy_if(copy_c, tDpC, tDsC, tDgC) stores whole rows, " << c_thr_n << " threads per row of " << bn
     << " floats.\n";
  tut::print_chunk_stores(os, tDpC, T, N, kChunkC);
}

// --svg: the barrier pipeline as a timeline, the TMA's boxes over A, and the order of the tiles at a
// size where it shows, from the kernel's RingState replay, its tile and its kSchedule.
template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  int const bm = size<0>(typename Cfg::CtaTiler{}), bn = size<1>(typename Cfg::CtaTiler{});
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int((o.problem.k + bk - 1) / bk);
  // Slot j: the producer issues k-tile j's TMA, the consumers' wgmmas take k-tile j-(S-1): the producer
  // as far ahead as the ring lets it, since a stage is refilled only once the consumers released it.
  std::vector<std::string> rows, cols;
  for (int s = 0; s < S; ++s) rows.push_back("stage " + str(s));
  for (int j = 0; j < k_tiles + S - 1; ++j) cols.push_back("slot " + str(j));
  std::vector<tut::svg::Bar> bars;
  for (BarrierStep const& b : barrier_schedule<S>(k_tiles)) {
    int const t = b.k_tile;
    bars.push_back({b.stage, t, t + 1, "TMA " + str(t), "#ffcc80",
                    "producer: wait empty[" + str(b.stage) + "] for parity " + str(b.empty_parity) +
                        ", then one thread issues k-tile " + str(t) + "'s two TMA copies; full[" + str(b.stage) +
                        "] completes when their bytes land"});
    if (S > 2)
      bars.push_back({b.stage, t + 1, t + S - 1, "landed", "#fff3e0",
                      "k-tile " + str(t) + " waits in stage " + str(b.stage) + " for the consumers"});
    bars.push_back({b.stage, t + S - 1, t + S, "wgmma " + str(t), "#90caf9",
                    "consumers: wait full[" + str(b.stage) + "] for parity " + str(b.full_parity) +
                        ", issue k-tile " + str(t) + "'s wgmmas, then arrive on empty of k-tile " + str(t - 1) +
                        "'s stage"});
  }
  tut::svg::write_file(
      dir + "/barriers.svg",
      tut::svg::timeline("step10: k-tiles through the ring of " + str(S) + " stages and their mbarriers (K = " +
                             str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                         "an ideal run: the producer keeps every stage busy and runs " + str(S - 1) +
                             " k-tiles ahead of the wgmmas; hover a bar for the barrier and parity each side waits on "
                             "(barrier_schedule(), the kernel's RingState)",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA into the stage (full[s] arrives)"},
                          {"#fff3e0", "landed, waiting for the consumers"},
                          {"#90caf9", "consumers: wgmma reads it (then empty[s])"}}));

  std::int64_t const tm = o.tile.m;
  tut::svg::write_file(
      dir + "/tma_box.svg",
      tut::svg::tma_boxes("step10: the TMA boxes of A, tile-row " + str(tm) + "'s coloured (M = " + str(o.problem.m) +
                              ", K = " + str(o.problem.k) + ")",
                          "per k-tile one box of " + str(bk) + " x " + str(bm) + " halves (k x m), " +
                              str(Cfg::kStageBytesA) + " bytes, lands whole in one stage; stage = k-tile % " + str(S),
                          o.problem.m, o.problem.k, bm, bk, tm, S));

  // The visiting order at 2048 x 4096 (16 x 16 tiles): small enough to number, large enough for the groups.
  std::int64_t const M = 16 * bm, N = 16 * bn;
  tut::svg::write_file(dir + "/tile_order.svg",
                       tut::svg::grid_map(M, N, bm, bn, 0, 0, tut::grid_order(Cfg::kSchedule, 16, 16)));
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &pipeline_pictures<Cfg>, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::producer_parity), "producer_parity",
        "the producer waits on empty[stage] for the consumers' parity: on the first lap that phase has not "
        "completed, so the producer never copies, the consumers never get a full stage, and the kernel hangs",
        tut::Check::watchdog, "", "", &launch<Default, Bug::producer_parity>},
       {int(Bug::no_warpgroup_wait), "no_warpgroup_wait",
        "warpgroup_wait<1> is gone: the consumers release the previous stage without waiting for the wgmmas "
        "that read it, and the producer's next TMA copy may overwrite it under them",
        tut::Check::sass,
        "", "verification and racecheck pass on the GPU: the missing WARPGROUP.DEPBAR.LE gsb0, 0x1 is its only trace",
        &launch<Default, Bug::no_warpgroup_wait>}},
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

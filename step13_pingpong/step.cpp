// Step 13's printout: step 12's (the tile and the persistent grid, the warp roles, the GMMA smem atom and
// ring, the TMA boxes, one thread's wgmma partition and accumulators, the epilogue's subtiles), and what
// is new: which warpgroup takes which of the CTA's tiles, where its k-tiles lie in the ring, and the turns.
#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step13_pingpong.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step13 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "128x128": the name of the configuration (--variant), its tile.
template <class Cfg>
std::string name_of() {
  typename Cfg::CtaTiler t;
  return str(size<0>(t)) + "x" + str(size<1>(t));
}

// The ping-pong: the traced CTA's tiles, which warpgroup takes each, where its k-tiles lie in the ring,
// and the turn each waits for.
template <class Cfg>
void print_turns(std::ostream& os, tut::TracedTile const& traced, int K) {
  constexpr int S = Cfg::kStages;
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = (K + bk - 1) / bk;
  tut::TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, cta = traced.visitor.cta;
  int const visits = s.visits(cta, tm, tn);
  os << "  Each consumer warpgroup computes whole tiles of its own: warpgroup 0 the CTA's visits 0, 2, 4, ...,\n"
     << "  warpgroup 1 visits 1, 3, 5, ... The producer fills the ring with the visits' k-tiles in order, so\n"
     << "  visit v's k-tiles are the CTA's k-tiles v*" << k_tiles << " .. v*" << k_tiles << "+" << k_tiles - 1
     << ": k-tile p lands in stage p % " << S << ", on lap p / " << S << ".\n"
     << "  The warpgroups take turns: the one of visit v arrives on turn[(v+1) % 2] once its last k-tile has landed,\n"
     << "  and the one of visit v+1 waits on turn[(v+1) % 2] before its mainloop (turn_parity(v+1)). Then, while\n"
     << "  one multiplies, the other stores its tile; and no warpgroup waits for a k-tile more than a lap ahead.\n\n";
  os << "    visit  tile      warpgroup  k-tiles in the ring   first: stage, lap   before its mainloop\n";
  for (int v = 0; v < visits && v < 6; ++v) {
    tut::TileCoord const t = s.tile(cta, v, tm, tn);
    int const first = v * k_tiles;
    RingState<S> const r = RingState<S>::at(first);
    std::string cells[] = {str(v), "(" + str(t.m) + "," + str(t.n) + ")", str(v % 2),
                           str(first) + ".." + str(first + k_tiles - 1),
                           str(r.index) + ", " + str(first / S) + " (parity " + str(r.consumer_parity()) + ")",
                           v == 0 ? std::string("-") : "wait turn[" + str(v % 2) + "], parity " + str(turn_parity(v))};
    int const widths[] = {7, 10, 11, 22, 20, 0};
    os << "    ";
    for (int c = 0; c < 6; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  }
  if (visits > 6) os << "    ...\n";
  os << "  (CTA " << cta << ", " << visits << " visit" << (visits == 1 ? "" : "s")
     << (visits == 1 ? ": warpgroup 1 has no tile" : "") << ".)\n\n";
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
  int const consumer_threads = Cfg::kConsumers * kWarpgroupThreads;
  print_item(os, "warpgroups",
             str(Cfg::kConsumers) + " consumers (threads 0..127, 128..255), each on tiles of its own + 1 producer (threads " +
                 str(consumer_threads) + ".." + str(Cfg::kThreads - 1) + ")",
             "4 warps each");
  print_item(os, "setmaxnreg",
             "producer " + str(Cfg::kProducerRegs) + ", consumers " + str(Cfg::kConsumerRegs) + " registers per thread",
             "128x" + str(Cfg::kProducerRegs) + " + " + str(consumer_threads) + "x" + str(Cfg::kConsumerRegs) + " = " +
                 str(128 * Cfg::kProducerRegs + consumer_threads * Cfg::kConsumerRegs) + " of 65536");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, MmaOp<size<1>(typename Cfg::CtaTiler{})>>);
  print_item(os, "TiledMMA",
             "SM90_64x" + str(bn) + "x16_F32F16F16_SS<K,K> x warpgroups " + plain(Shape<_1, _1, _1>{}),
             "one warpgroup's: each consumer runs it on its own tile");
  print_item(os, "TMA", "SM90_TMA_LOAD, make_tma_copy(op, mA, sA(_,_,0)) and the same for B",
             "one box per operand and k-tile");
  print_item(os, "epilogue",
             "SM90_TMA_STORE, make_tma_copy(op, mC, sC(_,_,0)): " + str(Cfg::kSubtiles) + " boxes of " + str(bm) + " x " +
                 str(kEpiN) + " per tile, by its warpgroup",
             "when N % " + str(kChunkC) + " == 0; else each thread stores its own");
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
  print_item(os, "sC", plain(typename Cfg::SmemLayoutC{}),
             "(BLK_M,EPI_N,BUFFERS) -> smem_idx: GMMA's 64B atom of floats, 2 buffers per warpgroup");
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(Cfg::kStageBytesA) + " + of B " + str(Cfg::kStageBytesB));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             str(S) + " stages x " + str(Cfg::kStageBytes) + " + " + str(kEpiBuffers * Cfg::kConsumers) + " C buffers x " +
                 str(Cfg::kSubtileBytes) + ", 2 x " + str(S) + " + 2 mbarriers, 1 KB alignment");

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
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K,STAGES)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K,STAGES)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  Tensor csA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
  Tensor csB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << " of each consumer warpgroup (CTA threads " << T
     << " and " << T + kWarpgroupThreads << ", warp " << T / 32 << " of its warpgroup), on the tiles its warpgroup takes\n";
  os << "  (Offsets before the swizzle: CuTe keeps an smem tensor's swizzle in its pointer.)\n";
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K,STAGES) = partition_A(sA)");
  print_item(os, "", tut::elements(thr_mma.partition_A(csA), "sA m", "k"), "rows of both 64-row halves, every k");
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

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int SUBTILES = Cfg::kSubtiles;
  Tensor sC_tile = make_tensor(make_smem_ptr(static_cast<ElementC*>(nullptr)),
                               composition(typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{}));  // (BLK_M,BLK_N)
  Tensor tCsC = by_subtile<SUBTILES>(thr_mma.partition_C(sC_tile));  // ((PER,MMA_M),SUBTILES)
  Tensor tCcC = by_subtile<SUBTILES>(thr_mma.partition_C(t.cC));     // ((PER,MMA_M),SUBTILES) -> (m,n)
  int const V = int(size<0>(tCcC));
  os << "\n  epilogue: the C tile in " << Cfg::kSubtiles << " subtiles of " << bm << " x " << kEpiN
     << ", each through one of its warpgroup's " << kEpiBuffers << " buffers\n";
  print_item(os, "sC_tile", plain(typename Cfg::TileOnBuffer{}), "(BLK_M,(EPI_N,SUBTILES)) -> buffer 0: subtile stride 0");
  print_item(os, "tCsC", plain(tCsC.layout()),
             "((PER,MMA_M),SUBTILES) = by_subtile<" + str(SUBTILES) + ">(partition_C(sC_tile))");
  auto [sub_rows, sub_cols] = tut::rows_cols(tut::coords_of(tCcC(_, 0)));
  print_item(os, "subtile 0", "rows " + sub_rows + ", cols " + sub_cols, "this thread's " + str(V) + " values of it");
  auto [last_rows, last_cols] = tut::rows_cols(tut::coords_of(tCcC(_, Cfg::kSubtiles - 1)));
  print_item(os, "subtile " + str(Cfg::kSubtiles - 1), "rows " + last_rows + ", cols " + last_cols);
  int const mma_k = int(size<2>(tCsA));
  int const k_tiles = int(size<2>(t.gA));
  int const mma_m = int(size<1>(tCsA));
  os << "\n  gemm() per k-tile: " << mma_k << " x " << mma_m << " wgmma (MMA_K x MMA_M) per warpgroup, each 64x" << bn
     << "x16; loop counts per tile: " << k_tiles << " k-tiles x " << mma_k * mma_m << " = " << k_tiles * mma_k * mma_m
     << " wgmma\n";

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: two consumer warpgroups, each on tiles of its own, in turn");
  tut::print_visits(os, traced);
  print_turns<Cfg>(os, traced, K);
  tut::print_k_edge(os, K, bk);
}

// --svg: the ping-pong as a timeline, in slots of one k-tile's wgmmas: four tiles of one CTA, 4 k-tiles
// each (a short K, to fit), each epilogue 2 slots. The same picture whatever the problem.
void turns_picture(tut::Options const&, std::string const& dir) {
  constexpr int kKTiles = 4, kEpiSlots = 2, kTiles = 4;
  std::vector<std::string> rows = {"producer: TMA loads", "warpgroup 0: wgmma", "warpgroup 0: C -> smem -> TMA",
                                   "warpgroup 1: wgmma", "warpgroup 1: C -> smem -> TMA"};
  std::vector<tut::svg::Bar> bars;
  int const slots = 1 + kTiles * kKTiles + kEpiSlots;
  std::vector<std::string> cols;
  for (int j = 0; j < slots; ++j) cols.push_back("slot " + str(j));
  std::string const fill[] = {"#90caf9", "#ce93d8"};
  for (int v = 0; v < kTiles; ++v) {
    int const w = v % 2, first = v * kKTiles;  // the tile's first k-tile in the ring: RingState::at(first)
    for (int k = 0; k < kKTiles; ++k) {
      int const p = first + k;
      bars.push_back({0, p, p + 1, "T" + str(v) + " k" + str(k), v % 2 ? "#ffe0b2" : "#ffcc80",
                      "producer: tile " + str(v) + "'s k-tile " + str(k) + " is the CTA's k-tile " + str(p) +
                          " (stage p % STAGES): the producer does not know which warpgroup reads it"});
      bars.push_back({1 + 2 * w, p + 1, p + 2, "T" + str(v) + " k" + str(k), fill[w],
                      "warpgroup " + str(w) + ": wait full[" + str(p) + " % STAGES], wgmma on tile " + str(v) + "'s k-tile " +
                          str(k) + (k == kKTiles - 1 ? "; its last: arrive on turn[" + str((w + 1) % 2) + "]" : "") +
                          (k == 0 && v > 0 ? "; first waited on turn[" + str(w) + "], parity " + str(turn_parity(v)) : "")});
    }
    int const at = first + kKTiles + 1;
    bars.push_back({2 + 2 * w, at, at + kEpiSlots, "T" + str(v) + " C", "#a5d6a7",
                    "warpgroup " + str(w) + " stores tile " + str(v) + " through its own two buffers, while warpgroup " +
                        str((w + 1) % 2) + " multiplies tile " + str(v + 1)});
  }
  tut::svg::write_file(
      dir + "/pingpong.svg",
      tut::svg::timeline("step13: four tiles of one CTA, two consumer warpgroups in turn (4 k-tiles per tile, to fit)",
                         "an ideal run in slots of one k-tile's wgmmas: a warpgroup's epilogue runs while the other's "
                         "mainloop keeps the tensor cores busy; hover a bar for the barriers",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA loads (odd tiles lighter)"},
                          {"#90caf9", "warpgroup 0: wgmma on a k-tile"},
                          {"#ce93d8", "warpgroup 1: wgmma on a k-tile"},
                          {"#a5d6a7", "a warpgroup stores its tile"}}));
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &turns_picture, Cfg::kSchedule)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = [] {
  tut::Step s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 600, 512}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::empty_waits_for_both), "empty_waits_for_both",
        "each stage's empty barrier waits for two arrivals, as in step 12, where both consumer warpgroups read "
        "every stage: here only the warpgroup whose tile's k-tile it held releases it, so no stage is ever empty "
        "again and the producer stops after one lap of the ring",
        tut::Check::watchdog, "", "K = 512 is 8 k-tiles for 6 stages: the 7th never loads",
        &launch<Default, Bug::empty_waits_for_both>},
       {int(Bug::store_by_thread_0), "store_by_thread_0",
        "the TMA stores are issued by the CTA's thread 0, as in step 12, where one thread stored every tile: "
        "warpgroup 1 writes its subtiles into its buffers, and nobody stores them",
        tut::Check::verification, "--m 2048 --n 2048 --k 256",
        "256 tiles for 132 CTAs: 124 CTAs take a second tile, warpgroup 1's, and none of those is stored",
        &launch<Default, Bug::store_by_thread_0>}},
      {{"HGMMA.64x128x16.F32", "each warpgroup's wgmma, m64n128k16, twice per 16 k (its tile's two 64-row halves)"},
       {"UTMALDG", "the TMA loads"},
       {"UTMASTG", "the TMA stores of C's subtiles, by each warpgroup"}});
  return s;
  }();
  return s;
}

}  // namespace step13

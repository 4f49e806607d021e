// Step 11's printout: the CTA tiler and the persistent grid, the warp roles, the GMMA smem atom and ring,
// the TMA boxes, one thread's wgmma partition and accumulators, and what is new: the tiles each CTA
// visits, the ring's barrier phases across a tile boundary, and the epilogue's subtiles, buffers and
// TMA stores.
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
#include "step11_persistent.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step11 {

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

// The barrier phases around the traced CTA's first tile boundary, as the kernel's RingState counters go.
template <class Cfg>
void print_barriers(std::ostream& os, int k_tiles, int visits) {
  constexpr int S = Cfg::kStages;
  int const tiles = std::min(visits, 2);
  auto const schedule = barrier_schedule<S>(k_tiles, tiles);
  os << "  The pipeline: " << S << " stages, two mbarriers each, step 10's. full[s] completes a phase when the producer\n"
     << "  has arrived (arrive.expect_tx, " << Cfg::kStageBytes << " bytes) and the TMA unit has delivered them; empty[s] when each\n"
     << "  of the " << Cfg::kConsumers << " consumer warpgroups has arrived. The ring does not start again for the next tile: both sides\n"
     << "  count on, so a tile's first k-tile takes the stage after the last one's.\n  " << k_tiles << " k-tile"
     << (k_tiles == 1 ? "" : "s") << " per tile, " << visits << " tile" << (visits == 1 ? "" : "s") << " for this CTA";
  // Rows shown: the first tile's last S+1 k-tiles and the next tile's first S+1 (all when that is fewer).
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    BarrierStep const& b = schedule[i];
    bool const near_end = b.visit == 0 && b.k_tile >= k_tiles - (S + 1);
    bool const near_start = b.visit == 1 && b.k_tile <= S;
    if (schedule.size() <= std::size_t(2 * S + 2) || near_end || near_start) shown.push_back(i);
  }
  os << (tiles == 2 ? "; around its first tile boundary:\n\n" : ":\n\n")
     << "    visit  k-tile  stage  producer: wait empty[s] for        consumers: wait full[s] for  then release\n";
  std::size_t last = 0;
  for (std::size_t i : shown) {
    if (i > last + 1 || (i > 0 && last == 0 && shown.front() != 0)) os << "    ...\n";
    last = i;
    BarrierStep const& b = schedule[i];
    std::string const wait_empty =
        "parity " + str(b.empty_parity) + (b.lap == 0 ? " (passes: fresh)" : " (" + str(S) + " k-tiles earlier read)");
    std::string released =
        b.released_stage < 0 ? "" : "empty[" + str(b.released_stage) + "] (k-tile " + str(b.released_k_tile) + ")";
    if (b.epilogue_released_stage >= 0)
      released += (released.empty() ? "" : ", ") + std::string("empty[") + str(b.epilogue_released_stage) +
                  "] in the epilogue";
    std::string cells[] = {str(b.visit), str(b.k_tile), str(b.stage), wait_empty, "parity " + str(b.full_parity),
                           released.empty() ? "-" : released};
    int const widths[] = {7, 8, 7, 35, 29, 0};
    os << "    ";
    for (int c = 0; c < 6; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  }
  if (last + 1 < schedule.size()) os << "    ...\n";
  os << "\n  Step 10 never released a tile's last stage: its CTA ended there. Here the consumers release it once\n"
     << "  warpgroup_wait<0>() says its wgmmas are done, at the start of the epilogue, so that the producer can\n"
     << "  fill it with the next tile's k-tiles while the consumers store this tile.\n";
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
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
  print_item(os, "epilogue",
             "SM90_TMA_STORE, make_tma_copy(op, mC, sC(_,_,0)): " + str(Cfg::kSubtiles) + " boxes of " + str(bm) + " x " +
                 str(kEpiN) + " per tile",
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
  print_item(os, "sC", plain(typename Cfg::SmemLayoutC{}), "(BLK_M,EPI_N,BUFFERS) -> smem_idx, GMMA's 128B atom of floats");
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(Cfg::kStageBytesA) + " + of B " + str(Cfg::kStageBytesB));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             str(S) + " stages x " + str(Cfg::kStageBytes) + " + " + str(kEpiBuffers) + " C buffers x " +
                 str(Cfg::kSubtileBytes) + ", 2 x " + str(S) + " mbarriers, 1 KB alignment");

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

  // The epilogue's partition, as the kernel makes it: the tile laid on buffer 0, by subtile.
  constexpr int V = int(decltype(size(thr_mma.make_fragment_C(tCgC)))::value) / Cfg::kSubtiles;
  Tensor sC_tile = make_tensor(make_smem_ptr(static_cast<ElementC*>(nullptr)),
                               composition(typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{}));  // (BLK_M,BLK_N)
  Tensor tCsC = by_subtile<V>(thr_mma.partition_C(sC_tile));      // (V,SUBTILES)
  Tensor tCcC = by_subtile<V>(thr_mma.partition_C(t.cC));         // (V,SUBTILES) -> (m,n)
  os << "\n  epilogue: the C tile in " << Cfg::kSubtiles << " subtiles of " << bm << " x " << kEpiN
     << ", each through one of sC's " << kEpiBuffers << " buffers\n";
  print_item(os, "sC_tile", plain(typename Cfg::TileOnBuffer{}), "(BLK_M,(EPI_N,SUBTILES)) -> buffer 0: subtile stride 0");
  print_item(os, "tCsC", plain(tCsC.layout()), "(V,SUBTILES) = by_subtile<" + str(V) + ">(partition_C(sC_tile))");
  auto [sub_rows, sub_cols] = tut::rows_cols(tut::coords_of(tCcC(_, 0)));
  print_item(os, "subtile 0", "rows " + sub_rows + ", cols " + sub_cols, "this thread's " + str(V) + " values of it");
  auto [last_rows, last_cols] = tut::rows_cols(tut::coords_of(tCcC(_, Cfg::kSubtiles - 1)));
  print_item(os, "subtile " + str(Cfg::kSubtiles - 1), "rows " + last_rows + ", cols " + last_cols);
  int const mma_k = int(size<2>(tCsA));
  int const k_tiles = int(size<2>(t.gA));
  os << "\n  gemm() per k-tile: " << mma_k << " wgmma (MMA_K) per warpgroup, each " << wg_rows << "x" << bn
     << "x16; loop counts: " << k_tiles << " k-tiles x " << mma_k << " = " << k_tiles * mma_k
     << " wgmma per warpgroup\n";

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: persistent CTAs, one ring across tiles, and a TMA-store epilogue");
  tut::print_visits(os, traced);
  int const visits = Cfg::kSchedule.visits(traced.visitor.cta, traced.tiles.m, traced.tiles.n);
  os << "  Both roles loop over the same visits: the producer loads every k-tile of every tile, the consumers\n"
     << "  clear the accumulators, run the mainloop and store C, once per tile. Step 10 launched one CTA per\n"
     << "  tile: each paid its setup (barriers, setmaxnreg, the first k-tiles' latency) and idled through its\n"
     << "  epilogue. Here the next tile's k-tiles are already landing while this tile is stored.\n\n";
  tut::print_k_edge(os, K, bk);
  os << "  The TMA unit fills what lies outside A and B with zeros (rows past M or N, k past K), and still\n"
     << "  counts the whole box's bytes on the full barrier.\n\n";
  print_barriers<Cfg>(os, k_tiles, visits);

  bool const tma_store = N % kChunkC == 0;
  os << "\n  The epilogue, per subtile e = 0.." << Cfg::kSubtiles - 1 << " (buffer b = e % " << kEpiBuffers
     << "), by the " << Cfg::kMmaThreads << " consumer threads:\n"
     << "    thread 0: tma_store_wait<" << kEpiBuffers - 1 << ">()  the store that last read buffer b (subtile e-"
     << kEpiBuffers << ") is done reading it\n"
     << "    named barrier 1; every thread copies its " << V << " values of subtile e into buffer b; tma_store_fence()\n"
     << "    named barrier 1; thread 0 issues the TMA store of buffer b to C's box e, and commits it (a bulk group)\n"
     << "  Nobody waits for the last stores: they run on while the consumers start the next tile's mainloop;\n"
     << "  the next tile's first subtile waits only for the store of this tile's subtile " << Cfg::kSubtiles - kEpiBuffers
     << ". Before the CTA\n  exits, thread 0 waits for all of them (tma_store_wait<0>), since they read its smem.\n";
  if (tma_store)
    os << "  This tile's boxes: rows " << m0 << ".." << m0 + bm - 1 << ", cols " << n0 << ".." << n0 + kEpiN - 1 << ", "
       << n0 + kEpiN << ".." << n0 + 2 * kEpiN - 1 << ", ... " << n0 + bn - kEpiN << ".." << n0 + bn - 1
       << "; the TMA unit writes only what lies inside C (" << M << " x " << N << ").\n";
  else
    os << "  N = " << N << " is not a multiple of " << kChunkC << ": C's rows are not 16-byte aligned, no TMA descriptor can\n"
       << "  describe C, and the kernel takes its other branch: copy_if(tCpC, tCrC, tCgC), each thread its own\n"
       << "  accumulators straight to C, masked at the edge.\n";
}

// --svg: the ring across two tiles, the epilogue's overlap with the next tile, and the order in which the
// persistent CTAs take the tiles, from the kernel's RingState replay, its subtiles and its kSchedule.
template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  int const bm = size<0>(typename Cfg::CtaTiler{}), bn = size<1>(typename Cfg::CtaTiler{});
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int((o.problem.k + bk - 1) / bk);
  auto const schedule = barrier_schedule<S>(k_tiles, 2);  // a CTA's first two tiles
  auto const name = [](BarrierStep const& b) { return "T" + str(b.visit) + " k" + str(b.k_tile); };

  // An ideal run in slots of one k-tile's wgmmas. The producer issues the c-th k-tile (counting across
  // tiles) as soon as its stage was released, c - S k-tiles earlier; it lands a slot later. The
  // consumers take it once it has landed and they are free; a tile's epilogue takes kEpiSlots slots,
  // and each half of its subtiles is stored by the TMA unit in the slot after it was written.
  constexpr int kEpiSlots = 2;
  int const n = int(schedule.size());
  std::vector<int> load(static_cast<std::size_t>(n)), math(load), freed(load);
  std::vector<int> epilogue_at(2);
  int consumers_free = 0;
  for (int c = 0; c < n; ++c) {
    BarrierStep const& b = schedule[std::size_t(c)];
    int const reuse = c >= S ? freed[std::size_t(c - S)] : 0;         // the stage's previous k-tile released
    load[std::size_t(c)] = std::max(c == 0 ? 0 : load[std::size_t(c - 1)] + 1, reuse);
    math[std::size_t(c)] = std::max(consumers_free, load[std::size_t(c)] + 1);
    consumers_free = math[std::size_t(c)] + 1;
    if (b.k_tile > 0) freed[std::size_t(c - 1)] = consumers_free;    // released after warpgroup_wait<1>
    if (b.k_tile == k_tiles - 1) {                                   // warpgroup_wait<0>, release, epilogue
      freed[std::size_t(c)] = consumers_free;
      epilogue_at[std::size_t(b.visit)] = consumers_free;
      consumers_free += kEpiSlots;
    }
  }
  int const slots = epilogue_at[1] + kEpiSlots + 1;
  std::vector<std::string> rows = {"producer: TMA loads", "consumers: wgmma", "consumers: C -> smem",
                                   "TMA unit: C stores"};
  std::vector<std::string> cols;
  for (int j = 0; j < slots; ++j) cols.push_back("slot " + str(j));
  std::vector<tut::svg::Bar> bars;
  for (int c = 0; c < n; ++c) {
    BarrierStep const& b = schedule[std::size_t(c)];
    bars.push_back({0, load[std::size_t(c)], load[std::size_t(c)] + 1, name(b), b.visit ? "#ffe0b2" : "#ffcc80",
                    "producer: wait empty[" + str(b.stage) + "] for parity " + str(b.empty_parity) + ", TMA tile " +
                        str(b.visit) + "'s k-tile " + str(b.k_tile) + " into stage " + str(b.stage)});
    bars.push_back({1, math[std::size_t(c)], math[std::size_t(c)] + 1, name(b), b.visit ? "#bbdefb" : "#90caf9",
                    "consumers: wait full[" + str(b.stage) + "] for parity " + str(b.full_parity) +
                        ", wgmma on tile " + str(b.visit) + "'s k-tile " + str(b.k_tile)});
  }
  int const half = Cfg::kSubtiles / kEpiSlots;
  for (int v = 0; v < 2; ++v)
    for (int h = 0; h < kEpiSlots; ++h) {
      int const at = epilogue_at[std::size_t(v)] + h;
      std::string const subtiles = str(h * half) + ".." + str(h * half + half - 1);
      bars.push_back({2, at, at + 1, "T" + str(v) + " e" + subtiles, "#c5e1a5",
                      "tile " + str(v) + ": subtiles " + subtiles + " into the two buffers in turn (wait for the "
                      "buffer's last store, barrier, copy, tma_store_fence, barrier)"});
      bars.push_back({3, at + 1, at + 2, "T" + str(v) + " e" + subtiles, "#a5d6a7",
                      "thread 0's TMA stores of tile " + str(v) + "'s subtiles " + subtiles + ": smem -> C, while the "
                      "consumers go on"});
    }
  tut::svg::write_file(
      dir + "/epilogue_overlap.svg",
      tut::svg::timeline("step11: two tiles of one CTA, their mainloops and epilogues (K = " + str(o.problem.k) + ": " +
                             str(k_tiles) + " k-tiles per tile, " + str(S) + " stages, " + str(Cfg::kSubtiles) +
                             " subtiles per tile)",
                         "an ideal run in slots of one k-tile's wgmmas: the producer runs on into the next tile while "
                         "the consumers store this one, the next tile's first k-tiles are in smem before its mainloop "
                         "starts, and the TMA stores of C run under it; hover a bar",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA loads (tile 0; tile 1 lighter)"},
                          {"#90caf9", "consumers: wgmma on a k-tile"},
                          {"#c5e1a5", "consumers: accumulators into sC"},
                          {"#a5d6a7", "TMA unit: a subtile of C to gmem"}}));

  // The ring, k-tile by k-tile across the boundary (as step 10's picture, two tiles long).
  std::vector<std::string> stage_rows;
  for (int s = 0; s < S; ++s) stage_rows.push_back("stage " + str(s));
  std::vector<tut::svg::Bar> ring;
  for (int c = 0; c < n; ++c) {
    BarrierStep const& b = schedule[std::size_t(c)];
    ring.push_back({b.stage, load[std::size_t(c)], load[std::size_t(c)] + 1, "TMA " + name(b), "#ffcc80",
                    "producer: wait empty[" + str(b.stage) + "] for parity " + str(b.empty_parity) +
                        ", then one thread issues the two TMA copies; full[" + str(b.stage) + "] completes when they land"});
    if (math[std::size_t(c)] > load[std::size_t(c)] + 1)
      ring.push_back({b.stage, load[std::size_t(c)] + 1, math[std::size_t(c)], "landed", "#fff3e0",
                      name(b) + " waits in stage " + str(b.stage) + " for the consumers"});
    ring.push_back({b.stage, math[std::size_t(c)], math[std::size_t(c)] + 1, "wgmma " + name(b), "#90caf9",
                    "consumers: wait full[" + str(b.stage) + "] for parity " + str(b.full_parity) + ", then wgmma" +
                        (b.epilogue_released_stage >= 0 ? "; the tile's last: released in its epilogue" : "")});
  }
  tut::svg::write_file(
      dir + "/barriers.svg",
      tut::svg::timeline("step11: two tiles' k-tiles through the ring of " + str(S) + " stages (K = " +
                             str(o.problem.k) + ": " + str(k_tiles) + " k-tiles per tile)",
                         "the same ideal run: T1's first k-tiles go into the stages T0's last ones leave, while T0's "
                         "epilogue runs; hover a bar for the barrier and parity each side waits on (barrier_schedule())",
                         stage_rows, cols, ring,
                         {{"#ffcc80", "producer: TMA into the stage (full[s] arrives)"},
                          {"#fff3e0", "landed, waiting for the consumers"},
                          {"#90caf9", "consumers: wgmma reads it (then empty[s])"}}));

  // The persistent order at 2048 x 4096 (16 x 16 tiles): 256 tiles for 132 CTAs, two visits for most.
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
      {{int(Bug::last_stage_kept), "last_stage_kept",
        "the consumers never release a tile's last stage (step 10's kernel did not need to): each tile leaves "
        "one arrival missing on the ring, and by a CTA's fourth tile the producer waits for a stage nobody frees",
        tut::Check::watchdog, "--m 4096 --n 4096 --k 256", "132 CTAs take 512 tiles: most take 4", &launch<Default, Bug::last_stage_kept>},
       {int(Bug::same_tile_every_visit), "same_tile_every_visit",
        "every visit of a CTA computes its first tile again: the tiles the schedule gives it later are never "
        "written",
        tut::Check::verification, "--m 2100 --n 4300 --k 136", "289 tiles for 132 CTAs: 157 are second or third visits",
        &launch<Default, Bug::same_tile_every_visit>},
       {int(Bug::no_store_wait), "no_store_wait",
        "thread 0 no longer waits for a buffer's last TMA store (tma_store_wait<1>) before the consumers write "
        "the next subtile into it: the TMA unit may read a buffer half overwritten",
        tut::Check::verification, "", "the consumers overwrite buffers the TMA unit has not read yet, at once",
        &launch<Default, Bug::no_store_wait>}},
      {{"USETMAXREG", "setmaxnreg: the producer gives registers back, the consumers take them"},
       {"SYNCS", "the mbarriers, full and empty: arrive, expect_tx, wait (try_wait)"},
       {"BAR.SYNC.DEFER_BLOCKING 0x9, 0x100",
        "the consumers' named barrier in the epilogue: 256 threads (0x100) at barrier 9, CUTLASS's id 1 past the 8 "
        "it reserves"},
       {"WARPGROUP.DEPBAR.LE gsb0, 0x1", "warpgroup_wait<1>(), before a stage is released"},
       {"UTMALDG", "the TMA load of a box, as in step 09"},
       {"UTMASTG", "the TMA store of a subtile of C"},
       {"FENCE.VIEW.ASYNC.S", "tma_store_fence(), once per subtile: the consumers' smem writes, seen by the TMA store"},
       {"DEPBAR.LE SB0, 0x1", "tma_store_wait<1>(): the buffer's last TMA store has read it"},
       {"HGMMA.64x256x16.F32", "wgmma.mma_async m64n256k16, as in step 08"}});
  return s;
}

}  // namespace step11

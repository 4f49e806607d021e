// Step 12's printout: the configuration chosen for the problem, then step 11's printout of it (the CTA
// tiler and the persistent grid, the warp roles, the GMMA smem atom and ring, the TMA boxes, one thread's
// wgmma partition and accumulators), and what is new: how choose() weighed the two tiles.
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
#include "step12_tile_choice.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step12 {

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

// How choose() weighed the two configurations for this problem: each one's tiles, CTAs, and the work of
// its busiest CTA.
void print_choice(std::ostream& os, tut::Options const& o) {
  std::int64_t const M = o.problem.m, N = o.problem.n;
  int const chosen = choose(M, N);
  os << "  Both configurations are step 11's kernel; only the CTA tile differs. The kernel takes as long as\n"
     << "  its busiest CTA, so choose() compares that CTA's work, ceil(tiles / 132) tiles of BLK_M x BLK_N:\n\n"
     << "    config   tiles          CTAs   busiest CTA             work (entries of C, x K)\n";
  auto row = [&](auto cfg, int index) {
    using C = decltype(cfg);
    int const bm = size<0>(typename C::CtaTiler{}), bn = size<1>(typename C::CtaTiler{});
    tut::TileCoord const t = tut::tile_counts(M, N, bm, bn);
    int const tiles = t.m * t.n, ctas = C::kSchedule.cta_count(t.m, t.n);
    int const most = (tiles + C::kCtas - 1) / C::kCtas;
    std::string cells[] = {name_of<C>(), str(tiles) + " (" + str(t.m) + " x " + str(t.n) + ")", str(ctas),
                           str(most) + " tile" + (most == 1 ? "" : "s") + " of " + str(bm) + "x" + str(bn),
                           str(busiest_cta_work(M, N, bm, bn, C::kCtas)) + (index == chosen ? "   <- chosen" : "")};
    int const widths[] = {9, 15, 7, 24, 0};
    os << "    ";
    for (int c = 0; c < 5; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  };
  row(Default{}, 0);
  row(Small{}, 1);
  os << "\n  " << (chosen == 1 ? "128x128: its busiest CTA does less, since 128x256 tiles would leave CTAs idle."
                               : "128x256: no less work for the busiest CTA with 128x128 tiles (a tie goes to the\n"
                                 "  larger tile, which loads 48 KB per k-tile for twice the math of 128x128's 32 KB).")
     << "\n  --variant 128x256 or --variant 128x128 runs the other one.\n\n";
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
  print_item(os, "config", name_of<Cfg>(), "chosen by problem size (section 4), or by --variant");
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
  write(Default{}, "tiles_" + name_of<Default>() + ".svg");
  write(Small{}, "tiles_" + name_of<Small>() + ".svg");
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &choice_pictures, Cfg::kSchedule)...};
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

// Step 05's printout: the CTA tiler and grid, one thread's partitions of the gmem tiles, and what is new:
// the tensor-core atom's thread-value layouts, one thread's registers, and the TiledMMA of 2x2 warps.
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step05_tensorcore_mma.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"

namespace step05 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "atom" or "warps2x2": the name of a configuration (--variant).
template <class Cfg>
std::string name_of() {
  return Cfg::kWarpsM * Cfg::kWarpsN == 1 ? "atom" : "warps" + str(Cfg::kWarpsM) + "x" + str(Cfg::kWarpsN);
}

// What each flat sub-mode of one mode of a TV layout does: "t%4: k+2" for a mode of shape (4,8) and
// strides (32,1) into a column-major tile of `rows` rows. x names the mode's index (t or v).
template <class Shape, class Stride>
std::string mode_steps(char x, Shape const& shape, Stride const& stride, int rows, char row, char col) {
  auto const s = flatten(shape);
  auto const d = flatten(stride);
  std::vector<int> sizes, strides;
  for_each(s, [&](auto e) { sizes.push_back(int(e)); });
  for_each(d, [&](auto e) { strides.push_back(int(e)); });
  std::string out;
  int div = 1;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    std::string const xs(1, x);
    bool const last = i + 1 == sizes.size();
    std::string name = div == 1 ? xs : (last ? xs + "/" + str(div) : "(" + xs + "/" + str(div) + ")");
    if (!last) name += "%" + str(sizes[i]);
    std::string step;
    if (strides[i] == 0) {
      step = "nothing (a broadcast)";
    } else {
      int const dr = strides[i] % rows, dc = strides[i] / rows;
      if (dr) step += std::string(1, row) + "+" + str(dr);
      if (dc) step += (dr ? "," : "") + std::string(1, col) + "+" + str(dc);
    }
    out += (i ? ", " : "") + name + ": " + step;
    div *= sizes[i];
  }
  return out;
}

// One of the atom's TV layouts as CuTe prints it, and what its modes mean.
template <class TV>
void print_tv_layout(std::ostream& os, char const* name, TV const& tv, char const* domain, int rows, char row,
                     char col) {
  print_item(os, name, plain(tv), std::string("(T32,V") + str(size<1>(tv)) + ") -> " + domain);
  print_item(os, "", "thread " + mode_steps('t', shape<0>(tv), stride<0>(tv), rows, row, col));
  print_item(os, "", "value  " + mode_steps('v', shape<1>(tv), stride<1>(tv), rows, row, col));
}

// The (row,col) that (t,v) of a TV layout into a column-major tile of `rows` rows names.
template <class TV>
std::pair<int, int> rc_of(TV const& tv, int rows, int t, int v) {
  int const idx = int(tv(t, v));
  return {idx % rows, idx / rows};
}

// Thread T's registers in one mma.sync: the (row,col) of each half of each register.
template <class TV>
void print_registers(std::ostream& os, char const* reg, char const* regs_type, TV const& tv, int rows, int lane,
                     char row, char col) {
  auto const halves = register_halves(int(size<1>(tv)));
  os << "    " << reg << ": " << regs_type << ", two halves per register (bits 0..15 | bits 16..31)\n";
  for (std::size_t r = 0; r < halves.size(); ++r) {
    auto const [lo, hi] = halves[r];
    auto const [lr, lc] = rc_of(tv, rows, lane, lo);
    auto const [hr, hc] = rc_of(tv, rows, lane, hi);
    os << "      " << reg << r << " = V" << lo << " | V" << hi << "   (" << row << "," << col << ") = (" << lr << ","
       << lc << ") | (" << hr << "," << hc << ")\n";
  }
}

// The 2x2-warp TiledMMA over Warps2x2's CTA tile: which warp stores which 16x8 piece of C.
void print_warp_map(std::ostream& os, int thread) {
  using Cfg = Warps2x2;
  typename Cfg::TiledMma mma;
  typename Cfg::CtaTiler tiler;
  int const bm = size<0>(tiler), bn = size<1>(tiler);
  Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
  tut::CharGrid warps(bm / 16, bn / 8, ' ');
  for (int t = 0; t < Cfg::kThreads; ++t) {
    Tensor tCcC = mma.get_slice(t).partition_C(cC);       // (MMA,MMA_M,MMA_N) -> (m,n)
    char const w = char('0' + t / 32);
    for (int i = 0; i < int(size(tCcC)); ++i) {
      char& cell = warps.at(get<0>(tCcC(i)) / 16, get<1>(tCcC(i)) / 8);
      cell = cell == ' ' || cell == w ? w : '?';
    }
  }
  print_item(os, "TiledMMA", "make_tiled_mma(MmaOp{}, " + plain(Layout<Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>>{}) + ")",
             "warp w at (w%2, w/2)");
  print_item(os, "", "tile " + str(tile_size<0>(mma)) + "x" + str(tile_size<1>(mma)) + "x" + str(tile_size<2>(mma)),
             "2 atoms down M, 2 across N");
  print_item(os, "thr_layout", plain(mma.get_thr_layout_vmnk()),
             "(lane,wm,wn,wk) -> lane + 32wm + 64wn");
  os << "  Which warp stores which 16x8 piece of the " << bm << "x" << bn << " CTA tile (--variant warps2x2):\n";
  tut::print_grid(os, warps, 16, 8, "  ");
  Tensor tCcC = mma.get_slice(thread).partition_C(cC);
  auto [rows, cols] = tut::rows_cols(tut::coords_of(tCcC));
  os << "  thread " << thread << " is lane " << thread % 32 << " of warp " << thread / 32
     << "; in every piece of its warp it holds lane " << thread % 32 << "'s 4 accumulators:\n";
  Tensor gC = make_tensor(make_gmem_ptr(static_cast<ElementC*>(nullptr)),
                          make_layout(select<0, 1>(tiler), LayoutRight{}));  // (BLK_M,BLK_N), row-major
  print_item(os, "tCgC", plain(mma.get_slice(thread).partition_C(gC).layout()),
             "(MMA,MMA_M,MMA_N), row-major " + str(bm) + "x" + str(bn) + " C");
  print_item(os, "C rows", rows, "in the CTA tile");
  print_item(os, "C cols", cols);
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread), lane = T % 32;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant atom | warps2x2");
  static_assert(std::is_same_v<MmaOp, SM80_16x8x16_F32F16F16F32_TN>, "the name printed below");
  print_item(os, "TiledMMA",
             "SM80_16x8x16_F32F16F16F32_TN x warps " + plain(Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>{}),
             "tile " + str(tile_size<0>(mma)) + "x" + str(tile_size<1>(mma)) + "x" + str(tile_size<2>(mma)));
  print_item(os, "sizes", "M, N, K multiples of " + str(multiple_of().m) + ", " + str(multiple_of().n) + ", " +
                              str(multiple_of().k),
             "no predication: step06 runs any M, N");

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                    make_layout_C(M, N), o.tile.m, o.tile.n);
  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgA = thr_mma.partition_A(t.gA);              // (MMA,MMA_M,MMA_K,k)
  Tensor tCgB = thr_mma.partition_B(t.gB);              // (MMA,MMA_N,MMA_K,k)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  os << "\n  thr_mma = mma.get_slice(" << T << "): lane " << lane << " of warp " << T / 32 << ", the warp at "
     << tut::thread_mn(mma, T) << "\n";
  print_item(os, "tCgA", plain(tCgA.layout()), "(MMA,MMA_M,MMA_K,k) = partition_A(gA)");
  print_item(os, "", tut::elements(thr_mma.partition_A(t.cA(_, _, 0)), "A m", "k"), "in k-tile 0");
  print_item(os, "tCgB", plain(tCgB.layout()), "(MMA,MMA_N,MMA_K,k) = partition_B(gB)");
  print_item(os, "", tut::elements(thr_mma.partition_B(t.cB(_, _, 0)), "B n", "k"), "in k-tile 0");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols, "not B's rows: the warp trades values (section 4)");
  print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(t.gA(_, _, 0)).layout()),
             "8 halves per atom: uint32_t[4]");
  print_item(os, "tCrB", plain(thr_mma.partition_fragment_B(t.gB(_, _, 0)).layout()),
             "4 halves per atom: uint32_t[2]");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()), "4 floats per atom: float[4]");
  int const k_tiles = int(size<3>(tCgA)), mm = int(size<1>(tCgA)), mn = int(size<1>(tCgB)), mk = int(size<2>(tCgA));
  os << "\n  loop counts: " << k_tiles << " k-tiles x " << mm << "x" << mn << "x" << mk << " (MMA_M x MMA_N x MMA_K) = "
     << k_tiles * mm * mn * mk << " mma.sync per warp\n               of 16x8x16 = "
     << k_tiles * mm * mn * mk * 16 * 8 * 16 << " multiply-adds per warp\n";

  // ---- What is new: the tensor-core atom -------------------------------------------------------------
  tut::print_section(os, 4, "What is new: one tensor-core instruction, and every register of it");
  using TvA = Atom::LayoutA_TV;
  using TvB = Atom::LayoutB_TV;
  using TvC = Atom::LayoutC_TV;
  os << "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: one warp, D(16x8) = A(16x16) * B(16x8) + C.\n"
     << "  No lane holds a whole row: the 32 lanes each bring 4 registers of A (8 halves), 2 of B (4 halves)\n"
     << "  and 4 floats of C, and the instruction exchanges them. CuTe's MMA_Traits say which lane and\n"
     << "  register hold which element, as TV layouts: (thread, value) -> index in the tile, column-major.\n";
  print_item(os, "Shape_MNK", plain(typename Atom::Shape_MNK{}), "(M,N,K) of one instruction");
  print_item(os, "ThrID", plain(typename Atom::ThrID{}), "the 32 lanes of one warp");
  print_tv_layout(os, "ALayout", TvA{}, "(M16,K16), index m + 16k", 16, 'm', 'k');
  print_tv_layout(os, "BLayout", TvB{}, "(N8,K16), index n + 8k", 8, 'n', 'k');
  print_tv_layout(os, "CLayout", TvC{}, "(M16,N8), index m + 16n", 16, 'm', 'n');

  auto const cells_c = tut::tv_cells(TvC{}, 16, 8);
  auto const cells_a = tut::tv_cells(TvA{}, 16, 16);
  auto const cells_b = tut::transpose_cells(tut::tv_cells(TvB{}, 8, 16), 8, 16);  // drawn k down, n across
  os << '\n';
  for (auto const& line : tut::tv_grid("  C (and D): who holds C(m,n), 16x8 fp32", cells_c, 16, 8, 0, 8, 'm', 'n'))
    os << line << '\n';
  os << '\n';
  for (auto const& line : tut::tv_grid("  A: who holds A(m,k), 16x16 fp16, k 0..7", cells_a, 16, 16, 0, 8, 'm', 'k'))
    os << line << '\n';
  os << '\n';
  for (auto const& line : tut::tv_grid("  A, k 8..15", cells_a, 16, 16, 8, 16, 'm', 'k')) os << line << '\n';
  os << '\n';
  for (auto const& line : tut::tv_grid("  B: who holds B(n,k), drawn k down and n across as the PTX ISA draws it", cells_b,
                                       16, 8, 0, 8, 'k', 'n'))
    os << line << '\n';

  os << "\n  Thread " << T << " is lane " << lane << ". Its registers in each mma.sync (the atom's own tile):\n";
  print_registers(os, "a", "uint32_t[4]", TvA{}, 16, lane, 'm', 'k');
  print_registers(os, "b", "uint32_t[2]", TvB{}, 8, lane, 'n', 'k');
  os << "    c, d: float[4], one value per register\n      ";
  for (int v = 0; v < int(size<1>(TvC{})); ++v) {
    auto const [r, c] = rc_of(TvC{}, 16, lane, v);
    os << (v == 2 ? "\n      " : v ? "   " : "") << "c" << v << " = V" << v << "   (m,n) = (" << r << "," << c << ")";
  }
  os << "\n  A register packs two neighbours in k, so K-major A and B load one register per 32-bit word.\n";

  // The slides' 16x8x8 atom beside the 16x8x16.
  using Tv8A = Atom16x8x8::LayoutA_TV;
  using Tv8B = Atom16x8x8::LayoutB_TV;
  bool same_a = true, same_b = true;
  for (int l = 0; l < 32; ++l) {
    for (int v = 0; v < int(size<1>(Tv8A{})); ++v) same_a = same_a && rc_of(Tv8A{}, 16, l, v) == rc_of(TvA{}, 16, l, v);
    for (int v = 0; v < int(size<1>(Tv8B{})); ++v) same_b = same_b && rc_of(Tv8B{}, 8, l, v) == rc_of(TvB{}, 8, l, v);
  }
  os << "\n  The slides' atom, SM80_16x8x8_F32F16F16F32_TN (m16n8k8), beside this one:\n";
  print_item(os, "16x8x8 A", plain(Tv8A{}), "(T32,V4) -> (M16,K8): uint32_t[2]");
  print_item(os, "16x8x16 A", plain(TvA{}), "(T32,V8) -> (M16,K16): uint32_t[4]");
  print_item(os, "16x8x8 B", plain(Tv8B{}), "(T32,V2) -> (N8,K8): uint32_t[1]");
  print_item(os, "16x8x16 B", plain(TvB{}), "(T32,V4) -> (N8,K16): uint32_t[2]");
  print_item(os, "C", plain(typename Atom16x8x8::LayoutC_TV{}) + (std::is_same_v<typename Atom16x8x8::LayoutC_TV, TvC>
                                                                      ? " in both"
                                                                      : " and " + plain(TvC{})),
             "(T32,V4) -> (M16,N8)");
  os << "  " << (same_a ? "A's values 0..3 in the 16x8x16 are the 16x8x8's A, element for element"
                        : "A's values 0..3 differ from the 16x8x8's A")
     << ";\n  values 4..7 repeat them at k+8 (the mode of size 2 and stride 128 = 8 columns of 16).\n  "
     << (same_b ? "B's values 0..1 are the 16x8x8's B" : "B's values 0..1 differ from the 16x8x8's B")
     << "; values 2..3 repeat them at k+8.\n  One m16n8k16 does the work of two m16n8k8.\n";

  os << "\n  The 2x2-warp TiledMMA: four atoms side by side, one per warp, then repeated over the tile.\n";
  print_warp_map(os, T % Warps2x2::kThreads);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(name_of<Cfg>(), &launch<Cfg, Bug::none>,
                                                                            &trace_config<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {128, 128, 64}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::swapped_block_index), "swapped_block_index",
        "the CTA takes tile (blockIdx.y, blockIdx.x): on a square grid of tiles every tile is still computed, "
        "by the wrong CTA; on any other grid CTAs read and write outside A, B and C",
        tut::Check::owner_test, "--owners --m 128 --n 64 --k 64",
        "verification passes on this square grid (8x8 tiles): every sum is right, only who stores it is wrong",
        &launch<OneAtom, Bug::swapped_block_index>},
       {int(Bug::last_k_tile_dropped), "last_k_tile_dropped",
        "the k loop stops one k-tile early: every sum misses BLK_K of its K products",
        tut::Check::verification, "--m 128 --n 128 --k 64", "", &launch<OneAtom, Bug::last_k_tile_dropped>}},
      {{"HMMA.16816.F32", "mma.sync m16n8k16, fp16 in, fp32 accumulate: one tensor-core instruction per warp"}});
  return s;
}

}  // namespace step05

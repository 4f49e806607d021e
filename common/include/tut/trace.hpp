/// \file trace.hpp
/// \brief The printout's building blocks: one CTA's tensors built with the kernel's own calls, and the
/// section printers that several steps share (host only).
///
/// A step's trace.cpp strings these together in the same order in every step, so that a diff between
/// two steps' printouts shows only what the later one adds.
#pragma once

#include <cstdint>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/cli.hpp"
#include "tut/print.hpp"

namespace tut {

/// \brief One CTA's view of the problem: the full tensors (over null pointers: never dereferenced on the
/// host), the CTA's tiles as the kernel cuts them with local_tile, and the same tiling of identity
/// tensors, which gives the global (m,k), (n,k) and (m,n) of every element.
template <class MA, class MB, class MC, class GA, class GB, class GC, class CA, class CB, class CC>
struct CtaTiles {
  MA mA;  ///< (M,K)
  MB mB;  ///< (N,K)
  MC mC;  ///< (M,N)
  GA gA;  ///< (BLK_M,BLK_K,k)
  GB gB;  ///< (BLK_N,BLK_K,k)
  GC gC;  ///< (BLK_M,BLK_N)
  CA cA;  ///< (BLK_M,BLK_K,k) -> (m,k)
  CB cB;  ///< (BLK_N,BLK_K,k) -> (n,k)
  CC cC;  ///< (BLK_M,BLK_N) -> (m,n)
};

/// \brief CtaTiles of CTA (\p bx, \p by) for operands of layouts \p la (M,K), \p lb (N,K), \p lc (M,N) and
/// element types \p TA (A and B) and \p TC (C): the calls of the kernel's "full and tiled tensors".
template <class TA, class TC, class CtaTiler, class LayoutA, class LayoutB, class LayoutC>
auto tile_cta(CtaTiler const& cta_tiler, LayoutA const& la, LayoutB const& lb, LayoutC const& lc, int bx, int by) {
  using namespace cute;
  auto cta_coord = make_coord(bx, by, _);                                          // (m,n,:)
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<TA const*>(nullptr)), la);     // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<TA const*>(nullptr)), lb);     // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(static_cast<TC*>(nullptr)), lc);           // (M,N)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, cute::Step<_1, X, _1>{});             // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, cute::Step<X, _1, _1>{});             // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, cute::Step<_1, _1, X>{});             // (BLK_M,BLK_N)
  Tensor cA = local_tile(make_identity_tensor(shape(mA)), cta_tiler, cta_coord, cute::Step<_1, X, _1>{});  // -> (m,k)
  Tensor cB = local_tile(make_identity_tensor(shape(mB)), cta_tiler, cta_coord, cute::Step<X, _1, _1>{});  // -> (n,k)
  Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, cta_coord, cute::Step<_1, _1, X>{});  // -> (m,n)
  return CtaTiles<decltype(mA), decltype(mB), decltype(mC), decltype(gA), decltype(gB), decltype(gC), decltype(cA),
                  decltype(cB), decltype(cC)>{mA, mB, mC, gA, gB, gC, cA, cB, cC};
}

/// \brief std::to_string for any integer, CuTe's static ones included.
template <class I>
std::string str(I const& v) {
  return std::to_string(static_cast<long long>(v));
}

/// \brief "CTA (x,y)" of the traced block.
inline std::string cta_name(Options const& o) { return "CTA (" + str(o.block_x) + "," + str(o.block_y) + ")"; }

/// \brief "(tm=1, tn=1)": where thread \p thread sits in \p mma's (ThrM,ThrN) thread layout.
template <class TiledMma>
std::string thread_mn(TiledMma const& mma, int thread) {
  auto const c = mma.get_thr_layout_vmnk().get_flat_coord(thread);  // (v,tm,tn,tk)
  return "(tm=" + str(cute::get<1>(c)) + ", tn=" + str(cute::get<2>(c)) + ")";
}

/// \brief Section 2's first lines: the CTA tiler, the grid it makes of \p p, and the k-tiles per CTA.
template <class CtaTiler>
void print_tiler_and_grid(std::ostream& os, CtaTiler const& cta_tiler, Options const& o, int threads) {
  using namespace cute;
  auto const& p = o.problem;
  print_section(os, 2, "CTA tiler and grid");
  print_item(os, "cta_tiler", plain(cta_tiler), "(BLK_M,BLK_N,BLK_K)");
  print_item(os, "grid",
             "(" + str(ceil_div(p.m, std::int64_t(size<0>(cta_tiler)))) + "," +
                 str(ceil_div(p.n, std::int64_t(size<1>(cta_tiler)))) + ")",
             "ceil(M/BLK_M), ceil(N/BLK_N) CTAs of " + str(threads) + " threads");
  print_item(os, "k-tiles", str(ceil_div(p.k, std::int64_t(size<2>(cta_tiler)))), "ceil(K/BLK_K) per CTA");
}

/// \brief The TiledMMA's thread layout and permutation, for a scalar-FMA TiledMMA: "threads
/// (16,16,1):(16,1,0)", thread t -> (tm,tn), and the permutations of M and N.
template <class TiledMma>
void print_fma_tiled_mma(std::ostream& os, TiledMma const& mma, std::string const& note) {
  using namespace cute;
  auto const thr = mma.get_thr_layout_vmnk();  // (V,M,N,K) -> thr_idx
  int const thr_n = size<2>(thr);
  print_item(os, "TiledMMA",
             "FMA 1x1x1 x threads " + plain(make_layout(select<1, 2, 3>(thr.shape()), select<1, 2, 3>(thr.stride()))),
             "thread t -> (tm,tn) = (t/" + str(thr_n) + ", t%" + str(thr_n) + ")");
  std::string const pm = plain(mma.template permutation_mnk<0>()), pn = plain(mma.template permutation_mnk<1>());
  print_item(os, "", pm == pn ? "permutation M,N " + pm : "permutation M " + pm + ", N " + pn, note);
}

/// \brief "rows R x k K": the distinct first and second coordinates of a partitioned identity tensor.
template <class CoordTensor>
std::string elements(CoordTensor const& c, char const* row, char const* col) {
  std::vector<std::int64_t> r, k;
  for (auto const& [i, j] : coords_of(c)) {
    r.push_back(i);
    k.push_back(j);
  }
  return std::string(row) + " " + ranges_compact(r) + " x " + col + " " + ranges_compact(k);
}

/// \brief The traced CTA's tiles (gA, gB, gC, each with the projection local_tile used) and the rows and
/// cols of C it covers.
template <class Tiles>
void print_cta_tiles(std::ostream& os, Tiles const& t, Options const& o) {
  os << "  local_tile(mX, cta_tiler, (" << o.block_x << "," << o.block_y << ",_), proj): this CTA's tiles\n";
  print_item(os, "gA", plain(t.gA.layout()), "(BLK_M,BLK_K,k)  proj Step<_1,X,_1>");
  print_item(os, "gB", plain(t.gB.layout()), "(BLK_N,BLK_K,k)  proj Step<X,_1,_1>");
  print_item(os, "gC", plain(t.gC.layout()), "(BLK_M,BLK_N)    proj Step<_1,_1,X>");
  auto [rows, cols] = rows_cols(coords_of(t.cC));
  os << "  " << cta_name(o) << " covers rows " << rows << " and cols " << cols << " of C\n";
}

/// \brief Thread \p T's share of copying each k-tile from gmem into smem: tAgA, tAsA, tBgB and tBsB, with the
/// elements they address. \p sA and \p sB are the kernel's smem tensors: one k-tile (BLK_MN,BLK_K), or a
/// ring of them (BLK_MN,BLK_K,STAGES), whose stage 0 then stands for every stage. \p copy_words says what
/// the share is; with \p smem_idx, also where tAsA's elements go (then sA must point at memory, as a
/// HostSmem's).
template <class Tiles, class SA, class SB, class CopyA, class CopyB>
void print_copy_partition(std::ostream& os, Tiles const& t, SA const& sA, SB const& sB, CopyA const& copy_a,
                          CopyB const& copy_b, int T, std::string const& copy_words, bool smem_idx) {
  using namespace cute;
  constexpr bool ring = decltype(rank(sA))::value == 3;
  static_assert(ring || decltype(rank(sA))::value == 2, "one k-tile, or a ring of stages");
  auto stage0 = [](auto const& s) {
    if constexpr (ring) return s(_, _, 0);
    else return s;
  };
  std::string const modes = ring ? ",STAGES) = partition_D(s" : ") = partition_D(s";
  std::string const every = ring ? "of every k-tile, in every stage" : "of every k-tile";
  // product_each: a tiled smem layout's modes may be nested ((8,16),64); its coordinates should not be.
  Tensor csA = make_identity_tensor(product_each(shape(stage0(sA))));  // (BLK_M,BLK_K) -> (m,k) in the tile
  Tensor csB = make_identity_tensor(product_each(shape(stage0(sB))));  // (BLK_N,BLK_K) -> (n,k) in the tile
  auto thr_copy_a = copy_a.get_slice(T);
  auto thr_copy_b = copy_b.get_slice(T);
  os << "\n  thr_copy_a = copy_a.get_slice(" << T << "): thread " << T << "'s " << copy_words << "\n";
  print_item(os, "tAgA", plain(thr_copy_a.partition_S(t.gA).layout()), "(CPY,CPY_M,CPY_K,k) = partition_S(gA)");
  print_item(os, "tAsA", plain(thr_copy_a.partition_D(sA).layout()), "(CPY,CPY_M,CPY_K" + modes + "A)");
  print_item(os, "", elements(thr_copy_a.partition_D(csA), "sA m", "k"), every);
  if (smem_idx) {
    Tensor tAsA = thr_copy_a.partition_D(stage0(sA));
    std::vector<std::int64_t> idx;
    for (int i = 0; i < int(size(tAsA)); ++i) idx.push_back(&tAsA(i) - raw_pointer_cast(sA.data()));
    print_item(os, "", "smem_idx " + ranges_compact(idx), ring ? "where they go in stage 0" : "where they go");
  }
  print_item(os, "", elements(thr_copy_a.partition_S(t.cA(_, _, 0)), "A m", "k"), "in k-tile 0");
  print_item(os, "tBgB", plain(thr_copy_b.partition_S(t.gB).layout()), "(CPY,CPY_N,CPY_K,k) = partition_S(gB)");
  print_item(os, "tBsB", plain(thr_copy_b.partition_D(sB).layout()), "(CPY,CPY_N,CPY_K" + modes + "B)");
  print_item(os, "", elements(thr_copy_b.partition_D(csB), "sB n", "k"), every);
  print_item(os, "", elements(thr_copy_b.partition_S(t.cB(_, _, 0)), "B n", "k"), "in k-tile 0");
}

/// \brief The smem tiles of one k-tile (layouts and bytes), then thread \p T's share of copying each k-tile
/// from gmem into them (print_copy_partition). \p sA and \p sB are the kernel's smem tensors, laid out as
/// \p major_a and \p major_b say in words.
template <class Tiles, class SA, class SB, class CopyA, class CopyB>
void print_smem_and_copy(std::ostream& os, Tiles const& t, SA const& sA, SB const& sB, std::string const& major_a,
                         std::string const& major_b, int smem_bytes, CopyA const& copy_a, CopyB const& copy_b, int T,
                         std::string const& copy_words, bool smem_idx) {
  using namespace cute;
  int const elem = int(sizeof(typename SA::value_type));
  os << "  shared memory: one k-tile of A and of B (config.hpp, static), in one SharedStorage\n";
  print_item(os, "sA", plain(sA.layout()), "(BLK_M,BLK_K): (m,k) -> smem_idx, " + major_a);
  print_item(os, "sB", plain(sB.layout()), "(BLK_N,BLK_K): (n,k) -> smem_idx, " + major_b);
  print_item(os, "smem", str(smem_bytes) + " bytes per CTA",
             "sizeof(SharedStorage) = sA " + str(size(sA) * elem) + " + sB " + str(size(sB) * elem));
  print_copy_partition(os, t, sA, sB, copy_a, copy_b, T, copy_words, smem_idx);
}

/// \brief Thread T's ownership of the CTA's C tile: one cell per 4×4 elements ('#' owned, '.' not).
template <class ThrMma, class CtaTiler>
void print_c_ownership(std::ostream& os, ThrMma const& thr_mma, CtaTiler const& cta_tiler, int thread) {
  using namespace cute;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler);
  auto local = coords_of(thr_mma.partition_C(make_identity_tensor(make_shape(bm, bn))));
  os << "\n  thread " << thread << "'s ownership of the " << bm << "x" << bn
     << " C tile, one cell = 4x4 elements (# owned, . not):\n";
  print_grid(os, ownership_grid(local, bm, bn, 4, 4), 4, 4, "  ");
}

/// \brief How partition_C derives thread \p thread's tCgC from the CTA tile \p gC, in five stages made
/// with the same calls TiledMMA::thrfrg_C makes: divide by the permutation, by the atom, compose with the
/// atom's C TV layout, divide by the thread layout, slice the thread.
template <class GCLayout, class TiledMma>
void print_partition_c_derivation(std::ostream& os, GCLayout const& gC, TiledMma const& mma, int thread) {
  using namespace cute;
  auto const thr_vmnk = mma.get_thr_layout_vmnk();          // (V,M,N,K) -> thr_idx
  auto const thr_coord = thr_vmnk.get_flat_coord(thread);   // (v,tm,tn,tk)
  int const tm = get<1>(thr_coord), tn = get<2>(thr_coord);
  auto const perm_m = mma.template permutation_mnk<0>(), perm_n = mma.template permutation_mnk<1>();
  // Per-mode flattening writes the nested results the way one would by hand.
  auto flat2 = [](auto const& l) { return make_layout(flatten(layout<0>(l)), flatten(layout<1>(l))); };

  os << "  input    gC = " << plain(gC) << "   (BLK_M,BLK_N) -> idx\n";
  auto s1 = logical_divide(gC, make_tile(perm_m, perm_n));
  std::string const perms = plain(perm_m) == plain(perm_n)
                                ? plain(perm_m) + " in M and in N"
                                : plain(perm_m) + " in M and " + plain(perm_n) + " in N";
  os << "  (1) logical_divide(gC, permutation " << perms << ")\n"
     << "      " << plain(flat2(s1)) << '\n'
     << "      per mode of M: " << str(size<0>(perm_m)) << " thread groups x " << str(size<1>(perm_m))
     << " consecutive x " << str(size<0>(gC) / size(perm_m)) << " repeats at +" << str(size(perm_m)) << "\n";

  using AtomShape = typename TiledMma::AtomShape_MNK;
  auto s2 = zipped_divide(s1, make_tile(make_layout(size<0>(AtomShape{})), make_layout(size<1>(AtomShape{}))));
  os << "  (2) zipped_divide by the atom's (" << str(size<0>(AtomShape{})) << "," << str(size<1>(AtomShape{}))
     << ") footprint: ((AtomM,AtomN),(RestM,RestN))\n"
     << "      " << plain(make_layout(layout<0>(s2), flatten(layout<1>(s2)))) << '\n';

  using AtomLayoutC_TV = typename TiledMma::Atom::LayoutC_TV;
  auto s3 = s2.compose(AtomLayoutC_TV{}, _);
  os << "  (3) compose mode 0 with the atom's LayoutC_TV " << plain(AtomLayoutC_TV{})
     << ": ((ThrV,FrgV),(RestM,RestN))\n";
  if (size(AtomLayoutC_TV{}) == 1)
    os << "      (a relabelling, trivial for the scalar atom: 1 thread, 1 value; a tensor-core atom's is not)\n";
  os << "      " << plain(make_layout(layout<0>(s3), flatten(layout<1>(s3)))) << '\n';

  auto s4 = zipped_divide(s3, make_tile(_, make_tile(make_layout(size<1>(thr_vmnk)), make_layout(size<2>(thr_vmnk)))));
  os << "  (4) zipped_divide by the (" << str(size<1>(thr_vmnk)) << "," << str(size<2>(thr_vmnk))
     << ") thread layout: ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))\n"
     << "      thread mode   " << plain(layout<0>(s4)) << '\n'
     << "      fragment mode " << plain(layout<1>(s4)) << '\n';

  auto [frag, offset] = slice_and_offset(make_coord(make_coord(0, make_coord(tm, tn)), _), s4);
  os << "  (5) slice thread " << thread << " = (v=0,tm=" << tm << ",tn=" << tn << "): offset " << tm << "*"
     << plain(get<0, 1, 0>(s4.stride())) << " + " << tn << "*" << plain(get<0, 1, 1>(s4.stride())) << " = "
     << offset << '\n'
     << "      fragment " << plain(layout<0>(frag)) << '\n'
     << "      tCgC     "
     << plain(mma.get_slice(thread).partition_C(make_tensor(counting_iterator<int>(0), gC)).layout())
     << "   = (FrgV,RestM,RestN)\n";
}

/// \brief The rows of C that thread \p thread owns in a \p TILE × \p TILE tile when the scalar-FMA TiledMMA
/// of thread layout \p ThrLayout uses permutation \p perm in M and in N.
template <int TILE, class ThrLayout, class Perm>
std::string rows_with_permutation(Perm const&, int thread) {
  using namespace cute;
  auto mma = make_tiled_mma(UniversalFMA<float, float, float>{}, ThrLayout{}, Tile<Perm, Perm, Underscore>{});
  Tensor cC = make_identity_tensor(make_shape(Int<TILE>{}, Int<TILE>{}));  // (BLK_M,BLK_N) -> (m,n)
  return rows_cols(coords_of(mma.get_slice(thread).partition_C(cC))).first;
}

/// \brief One line of the permutation comparison: the permutation, how it divides the \p TILE rows of a
/// C tile with row stride \p TILE, and the rows thread \p thread gets.
template <int TILE, class ThrLayout, class Perm>
void print_permutation_row(std::ostream& os, Perm const& perm, int thread) {
  using namespace cute;
  auto div = logical_divide(Layout<Int<TILE>, Int<TILE>>{}, perm);
  auto flat = make_layout(flatten(div.shape()), flatten(div.stride()));
  std::string const d = size<2>(flat) == 1 ? plain(take<0, 2>(flat)) : plain(flat);  // no rest mode when it is 1
  os << "    " << std::left << std::setw(16) << plain(perm) << std::setw(36) << d << std::right
     << rows_with_permutation<TILE, ThrLayout>(perm, thread) << '\n';
}

/// \brief local_tile(m, cta_tiler, cta_coord, proj), spelled out with the three calls it makes: dice
/// (proj), zipped_divide (tile) and a slice of the tiles mode (coord), checked against local_tile itself.
template <class MTensor, class CtaTiler, class Proj>
void print_local_tile(std::ostream& os, char op, MTensor const& m, CtaTiler const& cta_tiler, Proj proj,
                      char const* proj_name, std::string const& coord_name, Options const& o, char const* modes) {
  using namespace cute;
  auto cta_coord = make_coord(int(o.block_x), int(o.block_y), _);
  auto tile = dice(proj, cta_tiler);                        // proj: the tiler modes this operand has
  auto tiled = zipped_divide(m, tile);                      // tile: ((tile),(tiles))
  auto coord = dice(proj, cta_coord);                       // coord: which tile; '_' keeps a mode
  auto sliced = tiled(repeat<2>(_), append<2>(coord, _));   // what local_tile returns
  auto ident = local_tile(make_identity_tensor(shape(m)), cta_tiler, cta_coord, proj);
  bool const same = sliced.layout() == local_tile(m, cta_tiler, cta_coord, proj).layout();
  std::string const mname = std::string("m") + op;
  auto line = [&](char const* what, std::string const& call, std::string const& value) {
    os << "    " << std::left << std::setw(7) << what << std::setw(35) << call << std::right << value << '\n';
  };
  auto const first = ident(0);
  os << "  g" << op << " = local_tile(" << mname << ", cta_tiler, (" << o.block_x << "," << o.block_y << ",_), "
     << proj_name << ")\n";
  line("proj", std::string("dice(") + proj_name + ", " + plain(cta_tiler) + ")", plain(tile));
  line("tile", "zipped_divide(" + mname + ", " + plain(tile) + ")", plain(tiled.layout()));
  line("coord", "slice ((_,_)," + coord_name + ")", plain(sliced.layout()) + (same ? "" : "  (not local_tile's!)"));
  line("", "", std::string(modes) + ", from " + op + "(" + str(get<0>(first)) + "," + str(get<1>(first)) + ")");
}

/// \brief One 0/1 grid of a thread's mask \p p over coordinates \p c, both (X,ROWS,COLS): rows are mode 1,
/// columns mode 2, under a title and a header naming the columns' coordinates.
template <class Coords, class Mask>
TextBlock mask_grid(std::string const& title, char row_name, char col_name, Coords const& c, Mask const& p) {
  using namespace cute;
  std::vector<std::int64_t> cols;
  for (int j = 0; j < int(size<2>(c)); ++j) cols.push_back(get<1>(c(0, 0, j)));
  TextBlock g{title, std::string(1, row_name) + " \\ " + col_name + " " + ranges(cols)};
  for (int i = 0; i < int(size<1>(c)); ++i) {
    std::ostringstream line;
    line << std::setw(6) << get<0>(c(0, i, 0)) << "  ";
    for (int j = 0; j < int(size<2>(c)); ++j) line << (j && j % 4 == 0 ? " " : "") << (p(0, i, j) ? '1' : '0');
    g.push_back(line.str());
  }
  return g;
}

/// \brief Which (thread, value) of the TV layout \p tv holds each element of a \p rows × \p cols tile, in
/// row-major order of the tile: tv maps (t,v) to the tile's column-major index r + rows·c, as an MMA atom's
/// ALayout, BLayout and CLayout do. A cell no (t,v) reaches holds {-1,-1}; one reached twice, {-2,-2}.
template <class TVLayout>
std::vector<std::pair<int, int>> tv_cells(TVLayout const& tv, int rows, int cols) {
  using namespace cute;
  std::vector<std::pair<int, int>> cells(std::size_t(rows) * std::size_t(cols), {-1, -1});
  for (int t = 0; t < int(size<0>(tv)); ++t)
    for (int v = 0; v < int(size<1>(tv)); ++v) {
      int const idx = int(tv(t, v)), r = idx % rows, c = idx / rows;
      auto& cell = cells[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
      cell = cell.first == -1 ? std::pair{t, v} : std::pair{-2, -2};
    }
  return cells;
}

/// \brief \p cells (rows × cols, row-major) transposed: cols × rows.
std::vector<std::pair<int, int>> transpose_cells(std::vector<std::pair<int, int>> const& cells, int rows, int cols);

/// \brief A TV grid as the slides draw one: a title, a line naming the columns, then one line per row,
/// "<row> | T0V0 T0V1 T1V0 ...": each cell is the thread and value that hold the element; columns [c0, c1).
TextBlock tv_grid(std::string const& title, std::vector<std::pair<int, int>> const& cells, int rows, int cols,
                  int c0, int c1, char row_name, char col_name);

/// \brief Swizzle<\p B,\p M,\p S> as a function of a plain smem index i whose lowest \p low_bits bits
/// count \p low and the next \p high_bits count \p high (i = \p index): the function, the bits of i by
/// name, and which bits it XORs into which. Three lines.
void print_swizzle_bits(std::ostream& os, int B, int M, int S, int low_bits, int high_bits, char low, char high,
                        std::string const& index);

/// \brief The grid of CTAs of an M×N problem in BLK_M×BLK_N tiles: one cell per CTA (or group of CTAs,
/// at most 32×32 cells), marking the CTAs cut by the ragged edges.
void print_grid_map(std::ostream& os, std::int64_t M, std::int64_t N, int blk_m, int blk_n);

/// \brief The ragged k-tile, if any: which k the last k-tile holds and how many of them exist.
void print_k_edge(std::ostream& os, std::int64_t K, int blk_k);

}  // namespace tut

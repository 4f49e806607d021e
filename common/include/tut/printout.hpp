/// \file printout.hpp
/// \brief The printout's sections that two or more steps share, built from CuTe objects with the
/// kernel's own calls: one tile's tensors, the tiler and the schedule, copy partitions, TV grids, the
/// ragged edges (host only). A section only one step prints lives in that step.
///
/// A step's step.cpp strings these together in the same order in every step (with printout_sm80.hpp's
/// and printout_sm90.hpp's), so that a diff between two steps' printouts shows only what the later one
/// adds.
#pragma once

#include <cstdint>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/cli.hpp"
#include "tut/format.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief A configuration's CTA tile in numbers, (BLK_M,BLK_N,BLK_K), and the k-tiles ceil(K/BLK_K)
/// a problem's K makes: where the pipelined steps' pictures and timelines start.
struct CtaTileSize {
  int m;        ///< BLK_M
  int n;        ///< BLK_N
  int k;        ///< BLK_K
  int k_tiles;  ///< ceil(K / BLK_K): the last may be ragged
};

/// \brief The CtaTileSize of \p Cfg's CtaTiler, for a problem of depth \p K.
template <class Cfg>
CtaTileSize cta_tile_size(std::int64_t K) {
  typename Cfg::CtaTiler const tiler;
  int const bk = int(cute::size<2>(tiler));
  return {int(cute::size<0>(tiler)), int(cute::size<1>(tiler)), bk, int((K + bk - 1) / bk)};
}

/// \brief One C tile's view of the problem, as the CTA that computes it sees it: the full tensors (over null
/// pointers: never dereferenced on the host), the tiles of A, B and C as the kernel cuts them with
/// local_tile, and the same tiling of identity tensors, which gives the global (m,k), (n,k) and (m,n) of
/// every element.
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

/// \brief CtaTiles of C tile (\p tm, \p tn) for operands of layouts \p la (M,K), \p lb (N,K), \p lc (M,N)
/// and element types \p TA (A and B) and \p TC (C): the calls of the kernel's "full and tiled tensors".
template <class TA, class TC, class CtaTiler, class LayoutA, class LayoutB, class LayoutC>
auto tile_cta(CtaTiler const& cta_tiler, LayoutA const& la, LayoutB const& lb, LayoutC const& lc, int tm, int tn) {
  using namespace cute;
  auto cta_coord = make_coord(tm, tn, _);                                          // (m,n,:)
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

/// \brief The traced tile and the CTA that computes it, as the step's TileSchedule says.
struct TracedTile {
  TileCoord tile;         ///< --tile
  TileCoord tiles;        ///< the tiles of C: (⌈M/BLK_M⌉, ⌈N/BLK_N⌉)
  TileSchedule schedule;  ///< how the CTAs visit the tiles
  TileVisitor visitor;    ///< the CTA that computes the tile, and on which of its visits
  std::string name;       ///< "CTA (1,0)" for a 2-D grid (the CTA is the tile); "tile (2,1) (CTA 5)" otherwise
};

/// \brief TracedTile of \p o's tile, for tiles of \p cta_tiler under schedule \p s.
template <class CtaTiler>
TracedTile traced_tile(CtaTiler const& cta_tiler, Options const& o, TileSchedule const& s) {
  using namespace cute;
  TracedTile t;
  t.tile = o.tile;
  t.tiles = tile_counts(o.problem.m, o.problem.n, size<0>(cta_tiler), size<1>(cta_tiler));
  t.schedule = s;
  t.visitor = visitor_of(s, t.tile, t.tiles.m, t.tiles.n);
  std::string const cta = cta_label(s, t.visitor.cta, t.tiles.m);
  t.name = s.kind == Visit::grid_2d ? cta : "tile (" + str(t.tile.m) + "," + str(t.tile.n) + ") (" + cta + ")";
  return t;
}

/// \brief Section 2's grid lines for \p t: the CTAs the launch starts and the tiles they visit.
void print_schedule(std::ostream& os, TracedTile const& t, int threads);

/// \brief A persistent schedule in words: how many CTAs the launch starts for how many tiles, how many
/// tiles each computes, and the traced CTA's tiles in the order it visits them (at most 8).
void print_visits(std::ostream& os, TracedTile const& traced);

/// \brief "(tm=1, tn=1)": where thread \p thread sits in \p mma's (ThrM,ThrN) thread layout.
template <class TiledMma>
std::string thread_mn(TiledMma const& mma, int thread) {
  auto const c = mma.get_thr_layout_vmnk().get_flat_coord(thread);  // (v,tm,tn,tk)
  return "(tm=" + str(cute::get<1>(c)) + ", tn=" + str(cute::get<2>(c)) + ")";
}

/// \brief Section 2's first lines: the CTA tiler, the tiles it makes of the problem, the grid of CTAs that
/// visit them as \p schedule says, and the k-tiles per tile. Returns the traced tile and its CTA.
template <class CtaTiler>
TracedTile print_tiler_and_grid(std::ostream& os, CtaTiler const& cta_tiler, Options const& o, int threads,
                                TileSchedule const& schedule = {}) {
  using namespace cute;
  TracedTile const t = traced_tile(cta_tiler, o, schedule);
  print_section(os, 2, "CTA tiler and grid");
  print_item(os, "cta_tiler", plain(cta_tiler), "(BLK_M,BLK_N,BLK_K)");
  print_schedule(os, t, threads);
  print_item(os, "k-tiles", str(ceil_div(o.problem.k, std::int64_t(size<2>(cta_tiler)))),
             schedule.kind == Visit::grid_2d ? "ceil(K/BLK_K) per CTA" : "ceil(K/BLK_K) per tile");
  return t;
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

/// \brief The traced tile's CTA (when the grid is not the tiles), its tiles (gA, gB, gC, each with the
/// projection local_tile used) and the rows and cols of C they cover.
template <class Tiles>
void print_cta_tiles(std::ostream& os, Tiles const& t, TracedTile const& traced) {
  bool const grid = traced.schedule.kind == Visit::grid_2d;
  if (!grid)
    os << "  Tile (" << traced.tile.m << "," << traced.tile.n << ") is computed by CTA blockIdx.x = "
       << traced.visitor.cta
       << (traced.schedule.kind == Visit::persistent ? ", on its visit " + str(traced.visitor.visit) : "") << ".\n";
  std::string const whose = grid ? "this CTA's" : "CTA " + str(traced.visitor.cta) + "'s";
  os << "  local_tile(mX, cta_tiler, (" << traced.tile.m << "," << traced.tile.n << ",_), proj): " << whose
     << " tiles\n";
  print_item(os, "gA", plain(t.gA.layout()), "(BLK_M,BLK_K,k)  proj Step<_1,X,_1>");
  print_item(os, "gB", plain(t.gB.layout()), "(BLK_N,BLK_K,k)  proj Step<X,_1,_1>");
  print_item(os, "gC", plain(t.gC.layout()), "(BLK_M,BLK_N)    proj Step<_1,_1,X>");
  auto [rows, cols] = rows_cols(coords_of(t.cC));
  os << "  " << (grid ? traced.name : "Tile (" + str(traced.tile.m) + "," + str(traced.tile.n) + ")") << " covers rows "
     << rows << " and cols " << cols << " of C\n";
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
  // product_each: a tiled smem layout's modes may be nested, ((8,16),(64,1)); its coordinates should not be.
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

/// \brief The 2-D grid of CTAs of an M×N problem in BLK_M×BLK_N tiles, one CTA per tile: one cell per CTA
/// (or group of CTAs, at most 32×32 cells), marking the CTAs cut by the ragged edges.
void print_grid_map(std::ostream& os, std::int64_t M, std::int64_t N, int blk_m, int blk_n);

/// \brief The ragged k-tile, if any: which k the last k-tile holds and how many of them exist.
void print_k_edge(std::ostream& os, std::int64_t K, int blk_k);

/// \brief What one TMA box of \p rows rows starting at row \p first covers of an operand with \p extent
/// rows: "256..383, of which 256..299 exist; 84 rows of zeros" (the rest the TMA unit fills with zeros).
std::string box_rows(int first, int rows, int extent);

/// \brief The text of print_chunk_stores, from its counts: \p chunks of the thread, \p inside of them
/// whose first float lies inside C, \p floats of its floats inside C.
void print_chunk_stores(std::ostream& os, int T, std::int64_t N, int chunk, int chunks, int inside, int floats);

/// \brief The epilogue's stores of thread \p T from its copy partition's mask \p mask, (CPY,...) with CPY
/// = \p chunk floats (16 bytes): with N % chunk == 0 one 128-bit store per chunk whose first float lies
/// inside C, otherwise float by float. Says how many it stores, of how many.
template <class MaskTensor>
void print_chunk_stores(std::ostream& os, MaskTensor const& mask, int T, std::int64_t N, int chunk) {
  int chunks = 0, inside = 0, floats = 0;
  for (int j = 0; j < int(cute::size(mask)) / chunk; ++j) {
    ++chunks;
    inside += mask(chunk * j) ? 1 : 0;
    for (int v = 0; v < chunk; ++v) floats += mask(chunk * j + v) ? 1 : 0;
  }
  print_chunk_stores(os, T, N, chunk, chunks, inside, floats);
}

}  // namespace tut

// Step 02's printout: local_tile's three operations, one thread's partitions, and the masks at the edge.
#include <algorithm>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step02_local_tile.hpp"
#include "tut/operands.hpp"
#include "tut/print.hpp"

namespace step02 {

namespace {

using tut::plain;
using tut::print_item;

std::string str(long long v) { return std::to_string(v); }

// "(m,k)" of an identity tensor's element.
template <class Coord>
std::string coord_str(Coord const& c) {
  return "(" + str(get<0>(c)) + "," + str(get<1>(c)) + ")";
}

// local_tile(m, cta_tiler, cta_coord, proj), spelled out with the three calls it makes: dice (proj),
// zipped_divide (tile) and a slice of the tiles mode (coord). Checks that the result is local_tile's.
template <class MTensor, class Proj>
void print_local_tile(std::ostream& os, char op, MTensor const& m, Proj proj, char const* proj_name,
                      std::string const& coord_name, int bx, int by, char const* modes) {
  CtaTiler cta_tiler;
  auto cta_coord = make_coord(bx, by, _);
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
  os << "  g" << op << " = local_tile(" << mname << ", cta_tiler, (" << bx << "," << by << ",_), " << proj_name
     << ")\n";
  line("proj", std::string("dice(") + proj_name + ", " + plain(cta_tiler) + ")", plain(tile));
  line("tile", "zipped_divide(" + mname + ", " + plain(tile) + ")", plain(tiled.layout()));
  line("coord", "slice ((_,_)," + coord_name + ")", plain(sliced.layout()) + (same ? "" : "  (not local_tile's!)"));
  line("", "", std::string(modes) + ", from " + op + coord_str(ident(0)));
}

// One 0/1 grid of a thread's mask: rows = the mask's mode 1, columns = its mode 2, under two header lines.
template <class Coords, class Mask>
tut::TextBlock mask_grid(std::string const& title, char row_name, char col_name, Coords const& c, Mask const& p) {
  std::vector<std::int64_t> cols;
  for (int j = 0; j < int(size<2>(c)); ++j) cols.push_back(get<1>(c(0, 0, j)));
  tut::TextBlock g{title, std::string(1, row_name) + " \\ " + col_name + " " + tut::ranges(cols)};
  for (int i = 0; i < int(size<1>(c)); ++i) {
    std::ostringstream line;
    line << std::setw(6) << get<0>(c(0, i, 0)) << "  ";
    for (int j = 0; j < int(size<2>(c)); ++j) line << (j && j % 4 == 0 ? " " : "") << (p(0, i, j) ? '1' : '0');
    g.push_back(line.str());
  }
  return g;
}

// The grid of CTAs: one cell per CTA (or per group of CTAs, at most 32x32 cells), marking partial tiles.
void print_grid_map(std::ostream& os, int M, int N, int gx, int gy) {
  int const bm = size<0>(CtaTiler{}), bn = size<1>(CtaTiler{});
  constexpr int kMaxCells = 32;
  int const per_x = (gx + kMaxCells - 1) / kMaxCells, per_y = (gy + kMaxCells - 1) / kMaxCells;
  int const rows = (gx + per_x - 1) / per_x, cols = (gy + per_y - 1) / per_y;
  bool const ragged_m = M % bm != 0, ragged_n = N % bn != 0;
  tut::CharGrid g(rows, cols, '#');
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      bool const cut_m = ragged_m && r == rows - 1;  // the last x holds the CTAs whose rows pass M
      bool const cut_n = ragged_n && c == cols - 1;
      g.at(r, c) = cut_m && cut_n ? '+' : cut_m ? 'm' : cut_n ? 'n' : '#';
    }
  os << "  The grid of " << gx << "x" << gy << " CTAs: x = blockIdx.x runs down along M, y across along N.\n";
  if (per_x == 1 && per_y == 1)
    os << "  One cell per CTA.\n";
  else
    os << "  One cell per " << per_x << "x" << per_y << " CTAs (the map has at most 32x32 cells).\n";
  os
     << "  # whole tile   m rows past M   n cols past N   + both;  labels are the first row/col of a cell\n";
  tut::print_grid(os, g, bm * per_x, bn * per_y, "  ");
  if (ragged_m)
    os << "  CTAs (" << gx - 1 << ",*) hold rows " << (gx - 1) * bm << ".." << (gx - 1) * bm + bm - 1 << ", of which "
       << (gx - 1) * bm << ".." << M - 1 << " exist (" << M - (gx - 1) * bm << " of " << bm << ")\n";
  if (ragged_n)
    os << "  CTAs (*," << gy - 1 << ") hold cols " << (gy - 1) * bn << ".." << (gy - 1) * bn + bn - 1 << ", of which "
       << (gy - 1) * bn << ".." << N - 1 << " exist (" << N - (gy - 1) * bn << " of " << bn << ")\n";
  if (!ragged_m && !ragged_n) os << "  No CTA is partial in M or N: both are multiples of the tile.\n";
}

void trace(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread), bx = int(o.block_x), by = int(o.block_y);
  CtaTiler cta_tiler;
  TiledMma mma = make_tiled_mma_fma();
  auto cta_coord = make_coord(bx, by, _);
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const gx = ceil_div(M, bm), gy = ceil_div(N, bn), k_tiles = ceil_div(K, bk);

  tut::print_section(os, 2, "CTA tiler and grid");
  print_item(os, "cta_tiler", plain(cta_tiler), "(BLK_M,BLK_N,BLK_K)");
  print_item(os, "grid", "(" + str(gx) + "," + str(gy) + ")",
             "ceil(M/BLK_M), ceil(N/BLK_N); " + str(kThreads) + " threads");
  print_item(os, "k-tiles", str(k_tiles), "ceil(K/BLK_K) per CTA");
  print_item(os, "TiledMMA", "FMA 1x1x1 x threads (16,16,1):(16,1,0)", "thread t -> (tm,tn) = (t/16, t%16)");
  print_item(os, "", "permutation M,N " + plain(PermutationMN{}), "as in step01");

  // The data tensors. Pointers are never dereferenced on the host.
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_A(M, K));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_B(N, K));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(static_cast<float*>(nullptr)), make_layout_C(M, N));        // (M,N)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  // The same tiling of identity tensors gives the global (m,k), (n,k), (m,n) of every element.
  Tensor cA = local_tile(make_identity_tensor(shape(mA)), cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor cB = local_tile(make_identity_tensor(shape(mB)), cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)

  std::string const cta = "CTA (" + str(bx) + "," + str(by) + ")";
  tut::print_section(os, 3, "Partitions of " + cta + ", thread " + str(T));
  os << "  local_tile = proj (keep the tiler modes that the Step marks _1)\n"
     << "             + tile (zipped_divide: ((tile),(tiles)))\n"
     << "             + coord (slice the tiles mode; '_' keeps that mode, here the k-tiles):\n";
  print_local_tile(os, 'A', mA, Step<_1, X, _1>{}, "Step<_1,X,_1>", "(" + str(bx) + ",_)", bx, by, "(BLK_M,BLK_K,k)");
  print_local_tile(os, 'B', mB, Step<X, _1, _1>{}, "Step<X,_1,_1>", "(" + str(by) + ",_)", bx, by, "(BLK_N,BLK_K,k)");
  print_local_tile(os, 'C', mC, Step<_1, _1, X>{}, "Step<_1,_1,X>", "(" + str(bx) + "," + str(by) + ")", bx, by, "(BLK_M,BLK_N)");
  os << "  zipped_divide rounds up (ceil_div), so the tiles reach past the edges:\n"
     << "    A " << gx * bm << "x" << k_tiles * bk << " for " << M << "x" << K << ",  B " << gy * bn << "x"
     << k_tiles * bk << " for " << N << "x" << K << ",  C " << gx * bm << "x" << gy * bn << " for " << M << "x" << N
     << "\n  The elements past an edge get addresses but are never read or written (section 4).\n";

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgC = thr_mma.partition_C(gC);                // (MMA,MMA_M,MMA_N)
  Tensor tCgA = thr_mma.partition_A(gA(_, _, 0));       // (MMA,MMA_M,MMA_K)
  Tensor tCgB = thr_mma.partition_B(gB(_, _, 0));       // (MMA,MMA_N,MMA_K)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << "'s share (tm=" << T / 16 << ", tn=" << T % 16
     << ")\n";
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N)  partition_C(gC)");
  print_item(os, "tCgA", plain(tCgA.layout()), "(MMA,MMA_M,MMA_K)  partition_A(gA(_,_,k))");
  print_item(os, "tCgB", plain(tCgB.layout()), "(MMA,MMA_N,MMA_K)  partition_B(gB(_,_,k))");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);
  int const fmas = int(size<1>(tCgC) * size<2>(tCgC)), k_blocks = int(size<2>(tCgA));
  os << "  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << fmas
     << " FMAs = " << k_tiles * k_blocks * fmas << " FMAs per thread (zero-fills included)\n";

  // ---- What is new: the masks ------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: predication at the ragged edges");
  print_grid_map(os, M, N, gx, gy);
  int const k_last = k_tiles - 1;
  if (K % bk != 0)
    os << "  Every CTA's last k-tile (" << k_last << ") holds k " << k_last * bk << ".." << k_last * bk + bk - 1
       << ", of which " << k_last * bk << ".." << K - 1 << " exist (" << K - k_last * bk << " of " << bk << ")\n";
  else
    os << "  No k-tile is ragged: K is a multiple of BLK_K.\n";

  // The same calls as the kernel: partition the identity tiles, then make_mask.
  Tensor tCcA = thr_mma.partition_A(cA);                // (MMA,MMA_M,MMA_K,k) -> (m,k)
  Tensor tCcB = thr_mma.partition_B(cB);                // (MMA,MMA_N,MMA_K,k) -> (n,k)
  Tensor tCcC = thr_mma.partition_C(cC);                // (MMA,MMA_M,MMA_N) -> (m,n)
  Tensor tCpA = make_mask(tCcA, shape(mA));             // (MMA,MMA_M,MMA_K,k) -> m<M && k<K
  Tensor tCpB = make_mask(tCcB, shape(mB));             // (MMA,MMA_N,MMA_K,k) -> n<N && k<K
  Tensor tCpC = make_mask(tCcC, shape(mC));             // (MMA,MMA_M,MMA_N) -> m<M && n<N

  os << "\n  Thread " << T << "'s masks in " << cta << ": make_mask(tCcX, shape(mX)) = elem_less(coord, shape)\n"
     << "  1 = inside (load / store it), 0 = outside (load 0 instead / skip the store)\n";
  tut::print_side_by_side(os,
                     {mask_grid("tCpA(_,_,_," + str(k_last) + ")", 'm', 'k', tCcA(_, _, _, k_last), tCpA(_, _, _, k_last)),
                      mask_grid("tCpB(_,_,_," + str(k_last) + ")", 'n', 'k', tCcB(_, _, _, k_last), tCpB(_, _, _, k_last)),
                      mask_grid("tCpC", 'm', 'n', tCcC, tCpC)},
                     26, "   ");

  std::vector<std::pair<std::int64_t, std::int64_t>> inside;
  for (int i = 0; i < int(size(tCpC)); ++i)
    if (tCpC(i)) inside.emplace_back(get<0>(tCcC(i)), get<1>(tCcC(i)));
  if (inside.empty()) {
    os << "  Thread " << T << " stores none of its " << int(size(tCpC)) << " C entries: all lie outside C.\n";
  } else {
    auto [in_rows, in_cols] = tut::rows_cols(inside);
    os << "  Thread " << T << " stores " << inside.size() << " of its " << int(size(tCpC)) << " C entries:\n"
       << "    rows " << in_rows << " x cols " << in_cols << "\n";
  }
  bool const whole = (bx + 1) * bm <= M && (by + 1) * bn <= N;
  if (whole && (M % bm != 0 || N % bn != 0))
    os << "  " << cta << " is whole in M and N; see a cut one with --block " << gx - 1 << "," << gy - 1 << "\n";
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s{
      "step02_local_tile",
      "CTA tiling with local_tile, and predication at the ragged edge",
      tut::DType::f32,
      /*min_cc=*/0,
      /*defaults=*/{200, 150, 20},
      kThreads,
      size<0>(CtaTiler{}),
      size<1>(CtaTiler{}),
      &unsupported,
      &tut::strides_for<make_layout_A, make_layout_B, make_layout_C>,
      &trace,
      &launch,
  };
  return s;
}

}  // namespace step02

// Step 02's printout: the CTA tiler and grid, one thread's partitions, and the masks at the ragged edges.
#include <iomanip>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step02_local_tile.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"

namespace step02 {

namespace {

using tut::plain;
using tut::str;

/// \brief local_tile(m, cta_tiler, cta_coord, proj), spelled out with the three calls it makes: dice
/// (proj), zipped_divide (tile) and a slice of the tiles mode (coord), checked against local_tile itself.
template <class MTensor, class CtaTiler, class Proj>
void print_local_tile(std::ostream& os, char op, MTensor const& m, CtaTiler const& cta_tiler, Proj proj,
                      char const* proj_name, std::string const& coord_name, tut::Options const& o, char const* modes) {
  using namespace cute;
  auto cta_coord = make_coord(o.tile.m, o.tile.n, _);
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
  os << "  g" << op << " = local_tile(" << mname << ", cta_tiler, (" << o.tile.m << "," << o.tile.n << ",_), "
     << proj_name << ")\n";
  line("proj", std::string("dice(") + proj_name + ", " + plain(cta_tiler) + ")", plain(tile));
  line("tile", "zipped_divide(" + mname + ", " + plain(tile) + ")", plain(tiled.layout()));
  line("coord", "slice ((_,_)," + coord_name + ")", plain(sliced.layout()) + (same ? "" : "  (not local_tile's!)"));
  line("", "", std::string(modes) + ", from " + op + "(" + str(get<0>(first)) + "," + str(get<1>(first)) + ")");
}

/// \brief One 0/1 grid of a thread's mask \p p over coordinates \p c, both (X,ROWS,COLS): rows are mode 1,
/// columns mode 2, under a title and a header naming the columns' coordinates.
template <class Coords, class Mask>
tut::TextBlock mask_grid(std::string const& title, char row_name, char col_name, Coords const& c, Mask const& p) {
  using namespace cute;
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

void trace(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread);
  CtaTiler cta_tiler;
  TiledMma mma = make_tiled_mma_fma();
  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, kThreads);
  tut::print_fma_tiled_mma(os, mma, "as in step01");

  auto const t = tut::traced_tiles<Element, Element, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  tut::print_partitions_header(os, t, traced, T);
  int const k_tiles = tut::print_fma_partitions(os, mma, T, t, t.gA(_, _, 0), t.gB(_, _, 0), t.cA(_, _, 0),
                                                t.cB(_, _, 0)).k_tiles;

  // ---- What is new: the ragged edges -----------------------------------------------------------------
  tut::print_section(os, 4, "What is new: local_tile at the ragged edges, and the masks that guard them");
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  os << "  local_tile = proj (keep the tiler modes that the Step marks _1)\n"
     << "             + tile (zipped_divide: ((tile),(tiles)))\n"
     << "             + coord (slice the tiles mode; '_' keeps that mode, here the k-tiles):\n";
  std::string const bx = str(o.tile.m), by = str(o.tile.n);
  print_local_tile(os, 'A', t.mA, cta_tiler, Step<_1, X, _1>{}, "Step<_1,X,_1>", "(" + bx + ",_)", o, "(BLK_M,BLK_K,k)");
  print_local_tile(os, 'B', t.mB, cta_tiler, Step<X, _1, _1>{}, "Step<X,_1,_1>", "(" + by + ",_)", o, "(BLK_N,BLK_K,k)");
  print_local_tile(os, 'C', t.mC, cta_tiler, Step<_1, _1, X>{}, "Step<_1,_1,X>", "(" + bx + "," + by + ")", o, "(BLK_M,BLK_N)");
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const gx = ceil_div(M, bm), gy = ceil_div(N, bn);
  os << "  zipped_divide rounds up (ceil_div), so the tiles reach past the edges:\n"
     << "    A " << gx * bm << "x" << k_tiles * bk << " for " << M << "x" << K << ",  B " << gy * bn << "x"
     << k_tiles * bk << " for " << N << "x" << K << ",  C " << gx * bm << "x" << gy * bn << " for " << M << "x" << N
     << "\n  The elements past an edge get addresses but are never read or written.\n\n";
  tut::print_grid_map(os, M, N, bm, bn);
  tut::print_k_edge(os, K, bk);

  // The same calls as the kernel: partition the identity tiles, then make_mask.
  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCcA = thr_mma.partition_A(t.cA);              // (MMA,MMA_M,MMA_K,k) -> (m,k)
  Tensor tCcB = thr_mma.partition_B(t.cB);              // (MMA,MMA_N,MMA_K,k) -> (n,k)
  Tensor tCcC = thr_mma.partition_C(t.cC);              // (MMA,MMA_M,MMA_N) -> (m,n)
  Tensor tCpA = tut::make_mask(tCcA, shape(t.mA));      // (MMA,MMA_M,MMA_K,k) -> m<M && k<K
  Tensor tCpB = tut::make_mask(tCcB, shape(t.mB));      // (MMA,MMA_N,MMA_K,k) -> n<N && k<K
  Tensor tCpC = tut::make_mask(tCcC, shape(t.mC));      // (MMA,MMA_M,MMA_N) -> m<M && n<N
  int const k_last = k_tiles - 1;
  os << "\n  Thread " << T << "'s masks in " << traced.name
     << ": make_mask(tCcX, shape(mX)) = elem_less(coord, shape)\n"
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
  bool const whole = (o.tile.m + 1) * bm <= M && (o.tile.n + 1) * bn <= N;
  if (whole && (M % bm != 0 || N % bn != 0))
    os << "  " << traced.name << " is whole in M and N; see a cut one with --tile " << gx - 1 << "," << gy - 1
       << "\n";
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<Element, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {200, 150, 20}, {tut::Major::mn, tut::Major::mn, tut::Order::row}, {1, 1, 1},
      {tut::make_variant<CtaTiler, TiledMma>("default", &launch, &trace)}, {},
      {{"FFMA", "fp32 fused multiply-add: the math, as in step 01"}});
  return s;
}

}  // namespace step02

/// \file step05_tensorcore_mma/what_is_new.hpp
/// \brief Step 05's own printers for section 4 of its printout, what is new: the tensor-core atom's TV
/// layouts in words, one lane's registers in an mma.sync, and the 2x2-warp TiledMMA's map of C (host only).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/format.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"

namespace step05 {

using tut::plain;
using tut::print_item;
using tut::str;

/// \brief What each flat sub-mode of one mode of a TV layout does: "t%4: k+2" for a mode of shape (4,8) and
/// strides (32,1) into a column-major tile of \p rows rows. \p x names the mode's index (t or v), \p row
/// and \p col the tile's.
template <class Shape, class Stride>
std::string mode_steps(char x, Shape const& shape, Stride const& stride, int rows, char row, char col) {
  std::vector<int> sizes, strides;
  cute::for_each(cute::flatten(shape), [&](auto e) { sizes.push_back(int(e)); });
  cute::for_each(cute::flatten(stride), [&](auto e) { strides.push_back(int(e)); });
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

/// \brief One of the atom's TV layouts, \p tv (into a column-major tile of \p rows rows, \p domain in words),
/// as CuTe prints it, and what its modes mean.
template <class TV>
void print_tv_layout(std::ostream& os, char const* name, TV const& tv, char const* domain, int rows, char row,
                     char col) {
  using cute::shape;
  using cute::stride;
  print_item(os, name, plain(tv), std::string("(T32,V") + str(cute::size<1>(tv)) + ") -> " + domain);
  print_item(os, "", "thread " + mode_steps('t', shape<0>(tv), stride<0>(tv), rows, row, col));
  print_item(os, "", "value  " + mode_steps('v', shape<1>(tv), stride<1>(tv), rows, row, col));
}

/// \brief The (row,col) that (\p t,\p v) of a TV layout into a column-major tile of \p rows rows names.
template <class TV>
std::pair<int, int> rc_of(TV const& tv, int rows, int t, int v) {
  int const idx = int(tv(t, v));
  return {idx % rows, idx / rows};
}

/// \brief Lane \p lane's registers \p reg (of type \p regs_type) of A or B in one mma.sync: the (row,col) of
/// each half of each register.
template <class TV>
void print_registers(std::ostream& os, char const* reg, char const* regs_type, TV const& tv, int rows, int lane,
                     char row, char col) {
  auto const halves = register_halves(int(cute::size<1>(tv)));
  os << "    " << reg << ": " << regs_type << ", two halves per register (bits 0..15 | bits 16..31)\n";
  for (std::size_t r = 0; r < halves.size(); ++r) {
    auto const [lo, hi] = halves[r];
    auto const [lr, lc] = rc_of(tv, rows, lane, lo);
    auto const [hr, hc] = rc_of(tv, rows, lane, hi);
    os << "      " << reg << r << " = V" << lo << " | V" << hi << "   (" << row << "," << col << ") = (" << lr << ","
       << lc << ") | (" << hr << "," << hc << ")\n";
  }
}

/// \brief Lane \p lane's accumulators in one mma.sync, C of the TV layout \p tv (16 rows): the (m,n) of each
/// of its float registers, two a line.
template <class TV>
void print_accumulators(std::ostream& os, TV const& tv, int lane) {
  os << "    c, d: float[4], one value per register\n      ";
  for (int v = 0; v < int(cute::size<1>(tv)); ++v) {
    auto const [r, c] = rc_of(tv, 16, lane, v);
    os << (v == 2 ? "\n      " : v ? "   " : "") << "c" << v << " = V" << v << "   (m,n) = (" << r << "," << c << ")";
  }
}

/// \brief The 2x2-warp TiledMMA over Warps2x2's CTA tile: which warp stores which 16x8 piece of C, and
/// thread \p thread's accumulators.
inline void print_warp_map(std::ostream& os, int thread) {
  using namespace cute;
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
  using WarpLayout = Layout<Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>>;  // (WarpM,WarpN,WarpK) -> warp
  print_item(os, "TiledMMA", "make_tiled_mma(MmaOp{}, " + plain(WarpLayout{}) + ")", "warp w at (w%2, w/2)");
  print_item(os, "", "tile " + tut::mma_tile(mma), "2 atoms down M, 2 across N");
  print_item(os, "thr_layout", plain(mma.get_thr_layout_vmnk()), "(lane,wm,wn,wk) -> lane + 32wm + 64wn");
  os << "  Which warp stores which 16x8 piece of the " << bm << "x" << bn << " CTA tile (--variant warps2x2):\n";
  tut::print_grid(os, warps, 16, 8, "  ");
  os << "  thread " << thread << " is lane " << thread % 32 << " of warp " << thread / 32
     << "; in every piece of its warp it holds lane " << thread % 32 << "'s 4 accumulators:\n";
  Tensor gC = make_tensor(make_gmem_ptr(static_cast<ElementC*>(nullptr)),
                          make_layout(select<0, 1>(tiler), LayoutRight{}));  // (BLK_M,BLK_N), row-major
  print_item(os, "tCgC", plain(mma.get_slice(thread).partition_C(gC).layout()),
             "(MMA,MMA_M,MMA_N), row-major " + str(bm) + "x" + str(bn) + " C");
  tut::print_c_rows_cols(os, mma.get_slice(thread).partition_C(cC), "in the CTA tile");
}

}  // namespace step05

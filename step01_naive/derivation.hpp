/// \file step01_naive/derivation.hpp
/// \brief Step 01's own printers, for its printout and its tests: thread T's ownership of the C tile,
/// the five-stage derivation of tCgC, and the permutation comparison (host only).
#pragma once

#include <iomanip>
#include <ostream>
#include <string>

#include <cute/tensor.hpp>

#include "tut/format.hpp"
#include "tut/printout.hpp"

namespace step01 {

using tut::plain;
using tut::str;

/// \brief Thread T's ownership of the CTA's C tile: one cell per 4×4 elements ('#' owned, '.' not).
template <class ThrMma, class CtaTiler>
void print_c_ownership(std::ostream& os, ThrMma const& thr_mma, CtaTiler const& cta_tiler, int thread) {
  using namespace cute;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler);
  auto local = tut::coords_of(thr_mma.partition_C(make_identity_tensor(make_shape(bm, bn))));
  os << "\n  thread " << thread << "'s ownership of the " << bm << "x" << bn
     << " C tile, one cell = 4x4 elements (# owned, . not):\n";
  tut::print_grid(os, tut::ownership_grid(local, bm, bn, 4, 4), 4, 4, "  ");
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
  return tut::rows_cols(tut::coords_of(mma.get_slice(thread).partition_C(cC))).first;
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

}  // namespace step01

// Step 01's printout: the CTA tiler and grid, one thread's partitions, and how partition_C derives them.
#include <ostream>
#include <string>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "derivation.hpp"
#include "registered_step.hpp"
#include "step01_naive.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"

namespace step01 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

void trace(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  CtaTiler cta_tiler;
  TiledMma mma = make_tiled_mma_fma();

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, kThreads);
  tut::print_fma_tiled_mma(os, mma, "see section 4");

  // The kernel's tensors for the traced CTA (gA, gB, gC), and the same tiling of identity tensors
  // (cA, cB, cC), which gives the global (m,k), (n,k), (m,n) of every element.
  auto const t = tut::tile_cta<Element, Element>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                 make_layout_C(M, N), o.tile.m, o.tile.n);

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  Tensor tCgA = thr_mma.partition_A(t.gA(_, _, 0));     // (MMA,MMA_M,MMA_K)
  Tensor tCgB = thr_mma.partition_B(t.gB(_, _, 0));     // (MMA,MMA_N,MMA_K)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << "'s share " << tut::thread_mn(mma, T) << "\n";
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N)  partition_C(gC)");
  print_item(os, "tCgA", plain(tCgA.layout()), "(MMA,MMA_M,MMA_K)  partition_A(gA(_,_,k))");
  print_item(os, "tCgB", plain(tCgB.layout()), "(MMA,MMA_N,MMA_K)  partition_B(gB(_,_,k))");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  auto [a_rows, a_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_A(t.cA(_, _, 0))));
  auto [b_rows, b_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_B(t.cB(_, _, 0))));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);
  print_item(os, "A rows", a_rows, "k " + a_ks + " of k-tile 0: the same rows as C");
  print_item(os, "B rows", b_rows, "k " + b_ks + " of k-tile 0: the same cols as C");
  print_c_ownership(os, thr_mma, cta_tiler, T);
  int const k_tiles = int(size<2>(t.gA)), k_blocks = int(size<2>(tCgA)), fmas = int(size(tCgC));
  os << "\n  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << fmas << " FMAs = "
     << k_tiles * k_blocks * fmas << " FMAs per thread (" << fmas << " outputs x " << k_tiles * k_blocks << " k)\n";

  // ---- What is new: the thread -> element mapping ---------------------------------------------------
  tut::print_section(os, 4, "What is new: how partition_C derives tCgC, and the permutation that shapes it");
  print_partition_c_derivation(os, t.gC.layout(), mma, T);
  constexpr int kBlkM = size<0>(CtaTiler{});
  os << "\n  The permutation is the one free choice. Three of them for the " << kBlkM << " rows (16 threads, stride "
     << kBlkM << "):\n"
     << "    permutation     logical_divide(" << kBlkM << ":" << kBlkM << ", perm)       rows of thread " << T << '\n';
  print_permutation_row<kBlkM, ThrLayout>(os, PermutationMN{}, T);
  print_permutation_row<kBlkM, ThrLayout>(os, Layout<Shape<_16, _4>, Stride<_1, _16>>{}, T);
  print_permutation_row<kBlkM, ThrLayout>(os, Layout<Shape<_16, _8>, Stride<_8, _1>>{}, T);
  os << "    (thread " << T << " is row group tm = " << T / 16 << "; step01 uses the first)\n";
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<Element, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {256, 128, 32}, {tut::Major::mn, tut::Major::mn, tut::Order::row}, {size<0>(CtaTiler{}), size<1>(CtaTiler{}), size<2>(CtaTiler{})},
      {tut::make_variant<CtaTiler, TiledMma>("default", &launch, &trace)}, {},
      {{"FFMA", "fp32 fused multiply-add: one per output and k, 64 outputs x 8 k of a k-tile (unrolled)"}});
  return s;
}

}  // namespace step01

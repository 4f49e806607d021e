// Step 01's printout: the CTA tiler and grid, one thread's partitions, and how partition_C derives them.
#include <iomanip>
#include <ostream>
#include <string>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step01_naive.hpp"
#include "tut/operands.hpp"
#include "tut/print.hpp"

namespace step01 {

namespace {

using tut::plain;
using tut::print_item;

// Seed 003's five stages, spelled out with the same calls TiledMMA::thrfrg_C makes.
template <class CLayout>
void print_derivation(std::ostream& os, CLayout const& gC, TiledMma const& mma, int thread) {
  auto const thr_vmnk = mma.get_thr_layout_vmnk();        // (V,M,N,K) -> thr_idx
  auto const thr_coord = thr_vmnk.get_flat_coord(thread); // (v,tm,tn,tk)
  int const tm = get<1>(thr_coord), tn = get<2>(thr_coord);
  // Per-mode flattening writes the nested results the way seed 003 does.
  auto flat2 = [](auto const& l) { return make_layout(flatten(layout<0>(l)), flatten(layout<1>(l))); };

  tut::print_section(os, 4, "What is new: how partition_C derives tCgC (seed 003)");
  os << "  input    gC = " << plain(gC) << "   (BLK_M,BLK_N) -> idx\n";

  auto s1 = logical_divide(gC, make_tile(PermutationMN{}, PermutationMN{}));
  os << "  (1) logical_divide(gC, permutation (16,4):(4,1) in M and in N)\n"
     << "      " << plain(flat2(s1)) << '\n'
     << "      per mode: 16 thread groups x 4 consecutive x 2 repeats at +64\n";

  auto s2 = zipped_divide(s1, make_tile(Layout<_1>{}, Layout<_1>{}));
  os << "  (2) zipped_divide by the atom's (1,1) footprint: ((AtomM,AtomN),(RestM,RestN))\n"
     << "      " << plain(make_layout(layout<0>(s2), flatten(layout<1>(s2)))) << '\n';

  using AtomLayoutC_TV = typename TiledMma::Atom::LayoutC_TV;
  auto s3 = s2.compose(AtomLayoutC_TV{}, _);
  os << "  (3) compose mode 0 with the atom's LayoutC_TV " << plain(AtomLayoutC_TV{})
     << ": ((ThrV,FrgV),(RestM,RestN))\n"
     << "      (a relabelling, trivial for the scalar atom: 1 thread, 1 value; a tensor-core atom's is not)\n"
     << "      " << plain(make_layout(layout<0>(s3), flatten(layout<1>(s3)))) << '\n';

  auto s4 = zipped_divide(s3, make_tile(_, make_tile(make_layout(size<1>(thr_vmnk)), make_layout(size<2>(thr_vmnk)))));
  os << "  (4) zipped_divide by the (16,16) thread layout: ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN)))\n"
     << "      thread mode   " << plain(layout<0>(s4)) << '\n'
     << "      fragment mode " << plain(layout<1>(s4)) << '\n';

  auto [frag, offset] = slice_and_offset(make_coord(make_coord(0, make_coord(tm, tn)), _), s4);
  os << "  (5) slice thread " << thread << " = (v=0,tm=" << tm << ",tn=" << tn << "): offset " << tm << "*"
     << plain(get<0, 1, 0>(s4.stride())) << " + " << tn << "*" << plain(get<0, 1, 1>(s4.stride())) << " = "
     << offset << '\n'
     << "      fragment " << plain(layout<0>(frag)) << '\n'
     << "      tCgC     " << plain(mma.get_slice(thread).partition_C(make_tensor(counting_iterator<int>(0), gC)).layout())
     << "   = (FrgV,RestM,RestN)\n";
}

// Seed 003's comparison: three permutations of the 128 M positions among 16 threads.
void print_permutations(std::ostream& os, int thread) {
  os << "\n  The permutation is the one free choice. Three of them for the 128 rows (16 threads, stride "
        "128):\n";
  os << "    permutation     logical_divide(128:128, perm)       rows of thread " << thread << '\n';
  int const tm = thread / 16;
  auto row_of = [&](auto perm) {
    // Build the TiledMMA with this permutation and read thread T's rows off partition_C of an identity tile.
    auto mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>, Stride<_16, _1, _0>>{},
                              Tile<decltype(perm), decltype(perm), Underscore>{});
    Tensor cC = make_identity_tensor(make_shape(_128{}, _128{}));  // (BLK_M,BLK_N) -> (m,n)
    auto rc = tut::rows_cols(tut::coords_of(mma.get_slice(thread).partition_C(cC)));
    return rc.first;
  };
  auto line = [&](auto perm) {
    auto div = logical_divide(Layout<_128, _128>{}, perm);
    auto flat = make_layout(flatten(div.shape()), flatten(div.stride()));
    std::string d = size<2>(flat) == 1 ? plain(take<0, 2>(flat)) : plain(flat);  // no rest mode when it is 1
    os << "    " << std::left << std::setw(16) << plain(perm) << std::setw(36) << d << std::right << row_of(perm)
       << '\n';
  };
  line(Layout<Shape<_16, _4>, Stride<_4, _1>>{});
  line(Layout<Shape<_16, _4>, Stride<_1, _16>>{});
  line(Layout<Shape<_16, _8>, Stride<_8, _1>>{});
  os << "    (thread " << thread << " is row group tm = " << tm << "; step01 uses the first)\n";
}

void trace(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  CtaTiler cta_tiler;
  TiledMma mma = make_tiled_mma_fma();
  auto cta_coord = make_coord(int(o.block_x), int(o.block_y), _);

  tut::print_section(os, 2, "CTA tiler and grid");
  print_item(os, "cta_tiler", plain(cta_tiler), "(BLK_M,BLK_N,BLK_K)");
  print_item(os, "grid",
             "(" + std::to_string(ceil_div(M, size<0>(cta_tiler))) + "," + std::to_string(ceil_div(N, size<1>(cta_tiler))) + ")",
             "(M/BLK_M, N/BLK_N) CTAs of " + std::to_string(kThreads) + " threads");
  print_item(os, "TiledMMA", "FMA 1x1x1 x threads (16,16,1):(16,1,0)", "thread t -> (tm,tn) = (t/16, t%16)");
  print_item(os, "", "permutation M,N " + plain(PermutationMN{}), "see section 4");

  // The data tensors, tiled for the traced CTA. Pointers are never dereferenced on the host.
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_A(M, K));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_B(N, K));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(static_cast<float*>(nullptr)), make_layout_C(M, N));        // (M,N)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  // The same tiling of identity tensors gives the global (m,k), (n,k), (m,n) of every element.
  Tensor cA = local_tile(make_identity_tensor(shape(mA)), cta_tiler, cta_coord, Step<_1, X, _1>{});
  Tensor cB = local_tile(make_identity_tensor(shape(mB)), cta_tiler, cta_coord, Step<X, _1, _1>{});
  Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, cta_coord, Step<_1, _1, X>{});

  std::string const cta = "CTA (" + std::to_string(o.block_x) + "," + std::to_string(o.block_y) + ")";
  tut::print_section(os, 3, "Partitions of " + cta + ", thread " + std::to_string(T));
  os << "  local_tile(mX, cta_tiler, (" << o.block_x << "," << o.block_y << ",_), proj): this CTA's tiles\n";
  print_item(os, "gA", plain(gA.layout()), "(BLK_M,BLK_K,k)  proj Step<_1,X,_1>");
  print_item(os, "gB", plain(gB.layout()), "(BLK_N,BLK_K,k)  proj Step<X,_1,_1>");
  print_item(os, "gC", plain(gC.layout()), "(BLK_M,BLK_N)    proj Step<_1,_1,X>");
  auto [c_rows, c_cols] = tut::rows_cols(tut::coords_of(cC));
  os << "  " << cta << " covers rows " << c_rows << " and cols " << c_cols << " of C\n";

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgC = thr_mma.partition_C(gC);                // (MMA,MMA_M,MMA_N)
  Tensor tCgA = thr_mma.partition_A(gA(_, _, 0));       // (MMA,MMA_M,MMA_K)
  Tensor tCgB = thr_mma.partition_B(gB(_, _, 0));       // (MMA,MMA_N,MMA_K)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << "'s share (tm=" << T / 16 << ", tn=" << T % 16
     << ")\n";
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N)  partition_C(gC)");
  print_item(os, "tCgA", plain(tCgA.layout()), "(MMA,MMA_M,MMA_K)  partition_A(gA(_,_,k))");
  print_item(os, "tCgB", plain(tCgB.layout()), "(MMA,MMA_N,MMA_K)  partition_B(gB(_,_,k))");

  auto c_own = tut::coords_of(thr_mma.partition_C(cC));
  auto [rows, cols] = tut::rows_cols(c_own);
  auto [a_rows, a_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_A(cA(_, _, 0))));
  auto [b_cols, b_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_B(cB(_, _, 0))));
  print_item(os, "C rows", rows, "4 consecutive, then 4 more at +64");
  print_item(os, "C cols", cols);
  print_item(os, "A rows", a_rows, "k " + a_ks + " of k-tile 0: the same rows as C");
  print_item(os, "B rows", b_cols, "k " + b_ks + " of k-tile 0: the same cols as C");

  // Ownership map, in tile-local coordinates.
  auto local = tut::coords_of(thr_mma.partition_C(make_identity_tensor(shape(gC))));
  os << "\n  thread " << T << "'s ownership of the 128x128 C tile, one cell = 4x4 elements (# owned, . not):\n";
  tut::print_grid(os, tut::ownership_grid(local, 128, 128, 4, 4), 4, 4, "  ");

  int const k_tiles = int(size<2>(gA)), k_blocks = int(size<2>(tCgA));
  int const fmas = int(size<1>(tCgC) * size<2>(tCgC));
  os << "\n  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << fmas
     << " FMAs = " << k_tiles * k_blocks * fmas << " FMAs per thread (" << int(size(tCgC)) << " outputs x K=" << K
     << ")\n";

  print_derivation(os, gC.layout(), mma, T);
  print_permutations(os, T);
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s{
      "step01_naive",
      "scalar FMA, and one thread's trace through the GEMM",
      tut::DType::f32,
      /*min_cc=*/0,
      /*defaults=*/{256, 128, 32},
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

}  // namespace step01

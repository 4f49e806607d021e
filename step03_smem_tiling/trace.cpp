// Step 03's printout: the smem tiles, one thread's copy and math partitions, and the two-barrier loop.
#include <algorithm>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step03_smem_tiling.hpp"
#include "tut/operands.hpp"
#include "tut/print.hpp"

namespace step03 {

namespace {

using tut::plain;
using tut::print_item;

std::string str(long long v) { return std::to_string(v); }

// "rows R x k K" of a partitioned identity tensor (first mode of each coordinate, then the second).
template <class CoordTensor>
std::string elements(CoordTensor const& c, char const* row, char const* col) {
  std::vector<std::int64_t> r, k;
  for (auto const& [i, j] : tut::coords_of(c)) {
    r.push_back(i);
    k.push_back(j);
  }
  return std::string(row) + " " + tut::ranges_compact(r) + " x " + col + " " + tut::ranges_compact(k);
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o, char const* cfg_name) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread), bx = int(o.block_x), by = int(o.block_y);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyA copy_a;
  typename Cfg::TiledCopyB copy_b;
  typename Cfg::SmemLayoutA sA_layout;
  typename Cfg::SmemLayoutB sB_layout;
  auto cta_coord = make_coord(bx, by, _);
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const gx = ceil_div(M, bm), gy = ceil_div(N, bn), k_tiles = ceil_div(K, bk);
  int const thr_m = size<1>(mma.get_thr_layout_vmnk()), thr_n = size<2>(mma.get_thr_layout_vmnk());
  int const vec = Cfg::kVec, copy_thr_m = bm / vec, copy_thr_k = Cfg::kThreads / copy_thr_m;

  tut::print_section(os, 2, "CTA tiler and grid");
  std::string const cfg = "Config<" + str(bm) + "," + str(bn) + "," + str(bk) + ", " + str(thr_m) + "," + str(thr_n) +
                          ", " + str(vec) + ">";
  print_item(os, "config", cfg + " = " + cfg_name, "<BLK_M,BLK_N,BLK_K, THR_M,THR_N, VEC>");
  print_item(os, "cta_tiler", plain(cta_tiler), "(BLK_M,BLK_N,BLK_K)");
  print_item(os, "grid", "(" + str(gx) + "," + str(gy) + ")",
             "ceil(M/BLK_M), ceil(N/BLK_N); " + str(Cfg::kThreads) + " threads");
  print_item(os, "k-tiles", str(k_tiles), "ceil(K/BLK_K) per CTA");
  auto const thr = mma.get_thr_layout_vmnk();           // (V,M,N,K) -> thr_idx
  print_item(os, "TiledMMA", "FMA 1x1x1 x threads " + plain(make_layout(select<1, 2, 3>(thr.shape()),
                                                                        select<1, 2, 3>(thr.stride()))),
             "thread t -> (tm,tn) = (t/" + str(thr_n) + ", t%" + str(thr_n) + ")");
  print_item(os, "", "permutation M " + plain(mma.template permutation_mnk<0>()) + ", N " +
                         plain(mma.template permutation_mnk<1>()),
             "runs of 4 rows, 4 cols");
  std::string const op = vec == 4 ? "uint128_t" : vec == 2 ? "uint64_t" : "uint32_t";
  print_item(os, "TiledCopy", "UniversalCopy<" + op + "> x threads (" + str(copy_thr_m) + "," + str(copy_thr_k) + ")",
             "thread t -> (t%" + str(copy_thr_m) + ", t/" + str(copy_thr_m) + "), M-major");
  print_item(os, "", "x values (" + str(vec) + ",1): " + str(vec) + " floats per copy", "the same for A and B");

  // The data tensors. Pointers are never dereferenced on the host.
  Tensor mA = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_A(M, K));  // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(static_cast<float const*>(nullptr)), make_layout_B(N, K));  // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(static_cast<float*>(nullptr)), make_layout_C(M, N));        // (M,N)
  Tensor gA = local_tile(mA, cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor gB = local_tile(mB, cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor gC = local_tile(mC, cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  Tensor sA = make_tensor(make_smem_ptr(static_cast<float*>(nullptr)), sA_layout);  // (BLK_M,BLK_K)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<float*>(nullptr)), sB_layout);  // (BLK_N,BLK_K)
  // The same tiling of identity tensors gives the global (m,k), (n,k), (m,n) of every element, and the
  // identity of the smem tile's shape gives its tile-local (m,k).
  Tensor cA = local_tile(make_identity_tensor(shape(mA)), cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
  Tensor cB = local_tile(make_identity_tensor(shape(mB)), cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
  Tensor cC = local_tile(make_identity_tensor(shape(mC)), cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
  Tensor csA = make_identity_tensor(shape(sA));         // (BLK_M,BLK_K) -> (m,k) in the tile
  Tensor csB = make_identity_tensor(shape(sB));         // (BLK_N,BLK_K) -> (n,k) in the tile

  std::string const cta = "CTA (" + str(bx) + "," + str(by) + ")";
  tut::print_section(os, 3, "Partitions of " + cta + ", thread " + str(T));
  os << "  local_tile(mX, cta_tiler, (" << bx << "," << by << ",_), proj): this CTA's tiles, as in step02\n";
  print_item(os, "gA", plain(gA.layout()), "(BLK_M,BLK_K,k)");
  print_item(os, "gB", plain(gB.layout()), "(BLK_N,BLK_K,k)");
  print_item(os, "gC", plain(gC.layout()), "(BLK_M,BLK_N)");
  os << "  shared memory: one k-tile of A and of B (config.hpp, static)\n";
  print_item(os, "sA", plain(sA.layout()), "(BLK_M,BLK_K): (m,k) -> smem_idx, M-major");
  print_item(os, "sB", plain(sB.layout()), "(BLK_N,BLK_K): (n,k) -> smem_idx, N-major");
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             "sA " + str(int(cosize(sA_layout)) * 4) + " + sB " + str(int(cosize(sB_layout)) * 4));

  auto thr_copy_a = copy_a.get_slice(T);
  auto thr_copy_b = copy_b.get_slice(T);
  os << "\n  thr_copy_a = copy_a.get_slice(" << T << "): thread " << T << "'s share of each k-tile, gmem -> smem\n";
  print_item(os, "tAgA", plain(thr_copy_a.partition_S(gA).layout()), "(CPY,CPY_M,CPY_K,k) = partition_S(gA)");
  print_item(os, "tAsA", plain(thr_copy_a.partition_D(sA).layout()), "(CPY,CPY_M,CPY_K) = partition_D(sA)");
  print_item(os, "", elements(thr_copy_a.partition_D(csA), "sA m", "k"), "of every k-tile");
  print_item(os, "", elements(thr_copy_a.partition_S(cA(_, _, 0)), "A m", "k"), "in k-tile 0");
  print_item(os, "tBgB", plain(thr_copy_b.partition_S(gB).layout()), "(CPY,CPY_N,CPY_K,k) = partition_S(gB)");
  print_item(os, "tBsB", plain(thr_copy_b.partition_D(sB).layout()), "(CPY,CPY_N,CPY_K) = partition_D(sB)");
  print_item(os, "", elements(thr_copy_b.partition_D(csB), "sB n", "k"), "of every k-tile");
  print_item(os, "", elements(thr_copy_b.partition_S(cB(_, _, 0)), "B n", "k"), "in k-tile 0");

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA);       // (MMA,MMA_M,MMA_K)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);          // (MMA,MMA_M,MMA_N)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << "'s math partition over smem (tm=" << T / thr_n
     << ", tn=" << T % thr_n << ")\n";
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K) = partition_A(sA)");
  print_item(os, "", elements(thr_mma.partition_A(csA), "sA m", "k"));
  print_item(os, "tCsB", plain(tCsB.layout()), "(MMA,MMA_N,MMA_K) = partition_B(sB)");
  print_item(os, "", elements(thr_mma.partition_B(csB), "sB n", "k"));
  print_item(os, "tCrA", plain(tCrA.layout()), "registers; tCrB alike");
  print_item(os, "tCrC", plain(tCrC.layout()), "(MMA,MMA_M,MMA_N) accumulators, registers");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "", elements(thr_mma.partition_C(cC), "C m", "n"), "A's rows x B's rows");
  int const fmas = int(size(tCrC)), k_blocks = int(size<2>(tCsA));
  os << "  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << fmas << " FMAs = "
     << k_tiles * k_blocks * fmas << " FMAs per thread (zero-fills included)\n";

  // ---- What is new: shared memory -------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: shared memory, a copy partition and a math partition");
  int const cpy_a = int(size(thr_copy_a.partition_D(sA))), cpy_b = int(size(thr_copy_b.partition_D(sB)));
  int const rd_a = int(size<1>(tCsA)), rd_b = int(size<1>(tCsB));
  os << "  Per k-tile, the CTA loads sA and sB once from gmem; each thread then reads its rows from smem:\n"
     << "    for k_tile in 0.." << k_tiles - 1 << ":\n"
     << "      copy_if  gmem -> rmem   tArA, tBrB: " << cpy_a / vec << "+" << cpy_b / vec << " loads of " << vec
     << " floats (" << cpy_a << "+" << cpy_b << " values), 0 where masked\n"
     << "      copy     rmem -> smem   tAsA, tBsB\n"
     << "      __syncthreads()         1, read after write: sA, sB are complete before anyone reads them\n"
     << "      for k_block in 0.." << k_blocks - 1 << ":  tCsA -> tCrA, tCsB -> tCrB (" << rd_a << "+" << rd_b
     << " values), " << fmas << " FMAs\n"
     << "      __syncthreads()         2, write after read: all reads are done before the next copy\n";
  long long const step02_loads = (long long)Cfg::kThreads * (rd_a + rd_b) * bk;
  long long const step03_loads = (long long)(bm + bn) * bk;
  os << "  gmem loads per CTA and k-tile: " << step03_loads << " values, each once. Loading from gmem as in step02,\n"
     << "  the threads would load " << step02_loads << ": every A value once for each of the " << thr_n
     << " threads of its row,\n  every B value once for each of the " << thr_m << " of its col. "
     << step02_loads / step03_loads << "x fewer loads: smem serves the reuse.\n";

  // Thread T's two partitions of sA, side by side: which elements it writes, which it reads.
  auto written = tut::coords_of(thr_copy_a.partition_D(csA));
  auto read = tut::coords_of(thr_mma.partition_A(csA));
  os << "\n  Thread " << T << " in sA (one cell = 4 rows x 1 k; # all, + some, . none of the 4):\n";
  auto map = [&](auto const& owned, std::string const& title) {
    tut::TextBlock b = tut::grid_lines(tut::ownership_grid(owned, bm, bk, 4, 1), 4, 1, "k");
    b.insert(b.begin(), "      " + title);
    return b;
  };
  tut::print_side_by_side(os, {map(written, "writes (tAsA)"), map(read, "reads (tCsA)")}, 46);
  os << "  It reads values that other threads wrote: hence barrier 1. It writes values that other threads\n"
     << "  read: hence barrier 2 before the next k-tile's copy.\n";

  if (vec > 1)
    os << "  Copies move " << vec << " floats at once: M=" << M << " and N=" << N << " are multiples of " << vec
       << ", so a vector lies\n  wholly inside or wholly outside its operand, and its first element's mask bit "
          "decides.\n";
  else
    os << "  Copies move one float at a time: " << (M % Default::kVec ? "M" : "N") << " is not a multiple of "
       << Default::kVec << ", so the launcher runs Default::Scalar.\n  (With M and N multiples of " << Default::kVec
       << ", Default moves 4 floats per copy.)\n";
}

void trace(std::ostream& os, tut::Options const& o) {
  // The configuration the launcher runs for this problem (launch.cu also checks the pointers' alignment).
  if (vector_copies_fit(Default::kVec, o.problem))
    trace_config<Default>(os, o, "Default");
  else
    trace_config<Default::Scalar>(os, o, "Default::Scalar");
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s{
      "step03_smem_tiling",
      "shared-memory tiling: a copy partition, two barriers, a math partition",
      tut::DType::f32,
      /*min_cc=*/0,
      /*defaults=*/{200, 152, 40},
      Default::kThreads,
      size<0>(Default::CtaTiler{}),
      size<1>(Default::CtaTiler{}),
      &unsupported,
      &tut::strides_for<make_layout_A, make_layout_B, make_layout_C>,
      &trace,
      &launch,
  };
  return s;
}

}  // namespace step03

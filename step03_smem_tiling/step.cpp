// Step 03's printout: the CTA tiler and grid, the smem tiles, one thread's copy and math partitions.
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step03_smem_tiling.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"

namespace step03 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "128x128x16_t128_vec4": the name of a configuration.
template <class Cfg>
std::string name_of() {
  typename Cfg::CtaTiler tiler;
  return str(size<0>(tiler)) + "x" + str(size<1>(tiler)) + "x" + str(size<2>(tiler)) + "_t" + str(Cfg::kThreads) +
         (Cfg::kVec == 1 ? std::string("_scalar") : "_vec" + str(Cfg::kVec));
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyA copy_a;
  typename Cfg::TiledCopyB copy_b;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant: BLK_MxBLK_NxBLK_K_t<threads>_vec<VEC>");
  tut::print_fma_tiled_mma(os, mma, "runs of 4 rows, 4 cols, as in step02");
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler), vec = Cfg::kVec;
  int const copy_thr_m = bm / vec, copy_thr_k = Cfg::kThreads / copy_thr_m;
  std::string const op = vec == 4 ? "uint128_t" : vec == 2 ? "uint64_t" : "uint32_t";
  print_item(os, "TiledCopy", "UniversalCopy<" + op + "> x threads (" + str(copy_thr_m) + "," + str(copy_thr_k) + ")",
             "thread t -> (t%" + str(copy_thr_m) + ", t/" + str(copy_thr_m) + "), M-major");
  print_item(os, "", "x values (" + str(vec) + ",1): " + str(vec) + " floats per copy", "the same for A and B");

  // The kernel's tensors for the traced CTA (gA, gB, gC), and the same tiling of identity tensors
  // (cA, cB, cC), which gives the global (m,k), (n,k), (m,n) of every element.
  auto const t = tut::tile_cta<Element, Element>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                 make_layout_C(M, N), o.tile.m, o.tile.n);
  // The smem tiles (never dereferenced on the host), and identity tensors of their shapes: (m,k) in the tile.
  Tensor sA = make_tensor(make_smem_ptr(static_cast<Element*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<Element*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K)
  Tensor csA = make_identity_tensor(shape(sA));         // (BLK_M,BLK_K) -> (m,k) in the tile
  Tensor csB = make_identity_tensor(shape(sB));         // (BLK_N,BLK_K) -> (n,k) in the tile

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_smem_and_copy(os, t, sA, sB, "M-major", "N-major", Cfg::kSmemBytes, copy_a, copy_b, T,
                           "share of each k-tile, gmem -> smem", false);
  auto thr_copy_a = copy_a.get_slice(T);
  auto thr_copy_b = copy_b.get_slice(T);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K)
  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T << "'s share " << tut::thread_mn(mma, T) << "\n";
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N)  partition_C(gC)");
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K)  partition_A(sA)");
  print_item(os, "tCsB", plain(tCsB.layout()), "(MMA,MMA_N,MMA_K)  partition_B(sB)");
  print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(sA).layout()), "registers; tCrB alike");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  auto [a_rows, a_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_A(csA)));
  auto [b_rows, b_ks] = tut::rows_cols(tut::coords_of(thr_mma.partition_B(csB)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);
  print_item(os, "sA rows", a_rows, "k " + a_ks + " of every k-tile: C's rows, in the tile");
  print_item(os, "sB rows", b_rows, "k " + b_ks + " of every k-tile: C's cols, in the tile");
  int const k_tiles = int(size<2>(t.gA)), k_blocks = int(size<2>(tCsA)), fmas = int(size(tCgC));
  os << "\n  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << fmas << " FMAs = "
     << k_tiles * k_blocks * fmas << " FMAs per thread (" << fmas << " outputs x " << k_tiles * k_blocks << " k)\n";

  // ---- What is new: shared memory --------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: shared memory, a copy partition and a math partition");
  int const cpy_a = int(size(thr_copy_a.partition_D(sA))), cpy_b = int(size(thr_copy_b.partition_D(sB)));
  int const rd_a = int(size<1>(tCsA)), rd_b = int(size<1>(tCsB));
  int const thr_m = size<1>(mma.get_thr_layout_vmnk()), thr_n = size<2>(mma.get_thr_layout_vmnk());
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
    os << "  Copies move one float at a time" << (vector_copies_fit(Default::kVec, o.problem)
                                                      ? ": this configuration's copies are scalar.\n"
                                                      : std::string(": ") + (M % Default::kVec ? "M" : "N") +
                                                            " is not a multiple of " + str(Default::kVec) +
                                                            ", so the launcher runs the scalar twin.\n");
}

// The configuration the launcher runs for this problem (launch.cu also checks the pointers' alignment).
template <class Cfg>
void trace(std::ostream& os, tut::Options const& o) {
  if (vector_copies_fit(Cfg::kVec, o.problem))
    trace_config<Cfg>(os, o);
  else
    trace_config<typename Cfg::Scalar>(os, o);
}

// --svg: the pictures of the configuration the launcher runs for this problem, as trace() prints it.
template <class Cfg>
void pictures(tut::Options const& o, tut::OperandStrides const& st, std::string const& step,
              tut::TileSchedule const& schedule) {
  if (vector_copies_fit(Cfg::kVec, o.problem))
    tut::write_pictures<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<Cfg, Element>>(o, st, step, schedule);
  else
    tut::write_pictures<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<typename Cfg::Scalar, Element>>(o, st, step, schedule);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  std::vector<tut::Variant> v{tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch_vector_or_scalar<Cfg, Bug::none>, &trace<Cfg>)...};
  std::size_t i = 0;
  ((v[i++].pictures = &pictures<Cfg>), ...);
  return v;
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<Element, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {200, 152, 40}, {tut::Major::mn, tut::Major::mn, tut::Order::row}, {1, 1, 1},
      variants_of(Variants{}),
      {{int(Bug::no_second_barrier), "no_second_barrier",
        "the barrier after the math is gone: a fast warp's next copy overwrites sA and sB while slow warps "
        "still read them",
        tut::Check::racecheck, "--m 259 --n 131 --k 37",
        "",
        &launch_vector_or_scalar<Default, Bug::no_second_barrier>},
       {int(Bug::no_zero_fill), "no_zero_fill",
        "the registers are not cleared before the masked loads: past the ragged edge of K, an element the "
        "mask skips keeps the last k-tile's value, and adds it to the sums",
        tut::Check::verification, "--m 200 --n 150 --k 37", "", &launch_vector_or_scalar<Default, Bug::no_zero_fill>}},
      {{"FFMA", "fp32 fused multiply-add: the math, as in steps 01-02"},
       {"LDS", "load from shared memory (the math's reads of sA and sB)"},
       {"STS", "store to shared memory (the copy's writes of sA and sB)"},
       {"BAR.SYNC", "__syncthreads(): the two barriers of every k-tile"}});
  return s;
}

}  // namespace step03

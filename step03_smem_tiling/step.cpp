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
#include "tut/printout_sm80.hpp"
#include "tut/printout_sm90.hpp"

namespace step03 {

namespace {

using tut::print_item;
using tut::str;

// "128x128x16_t128_vec4": the name of a configuration.
template <class Cfg>
std::string name_of() {
  return tut::config_name<Cfg>() + "x" + str(size<2>(typename Cfg::CtaTiler{})) + "_t" + str(Cfg::kThreads) +
         (Cfg::kVec == 1 ? std::string("_scalar") : "_vec" + str(Cfg::kVec));
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread), vec = Cfg::kVec;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant: BLK_MxBLK_NxBLK_K_t<threads>_vec<VEC>");
  tut::print_fma_tiled_mma(os, mma, "runs of 4 rows, 4 cols, as in step02");
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const copy_thr_m = bm / vec;
  tut::print_tiled_copy_lines<CopyThrLayout<size<0>(typename Cfg::CtaTiler{}), Cfg::kThreads, Cfg::kVec>,
                              CopyValLayout<Cfg::kVec>>(
      os, tut::universal_copy(8 * int(sizeof(Element)) * vec),
      "thread t -> (t%" + str(copy_thr_m) + ", t/" + str(copy_thr_m) + "), M-major", str(vec) + " floats per copy",
      "the same for A and B");

  auto const t = tut::traced_tiles<Element, Element, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  // The smem tiles (never dereferenced on the host), and an identity tensor of sA's shape: (m,k) in the tile.
  Tensor sA = make_tensor(make_smem_ptr(static_cast<Element*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<Element*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K)
  Tensor csA = make_identity_tensor(shape(sA));         // (BLK_M,BLK_K) -> (m,k) in the tile
  auto const [k_tiles, k_blocks, fmas] =
      tut::print_fma_smem_partitions<Cfg>(os, t, traced, sA, sB, "M-major", "N-major", T, false);
  auto thr_copy_a = typename Cfg::TiledCopyA{}.get_slice(T);
  auto thr_copy_b = typename Cfg::TiledCopyB{}.get_slice(T);
  ThrMMA thr_mma = mma.get_slice(T);

  // ---- What is new: shared memory --------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: shared memory, a copy partition and a math partition");
  int const M = int(o.problem.m), N = int(o.problem.n);
  int const cpy_a = int(size(thr_copy_a.partition_D(sA))), cpy_b = int(size(thr_copy_b.partition_D(sB)));
  int const rd_a = int(size<1>(thr_mma.partition_A(sA))), rd_b = int(size<1>(thr_mma.partition_B(sB)));
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

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::vector_or_scalar_variant<Cfg, Element, vector_copies_fit, &trace_config<Cfg>,
                                        &trace_config<typename Cfg::Scalar>>(
      name_of<Cfg>(), &launch_vector_or_scalar<Cfg, Bug::none>)...};
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

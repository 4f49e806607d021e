// Step 04's printout: the CTA tiler and grid, the smem tiles, one thread's copy and math partitions,
// the swizzle, and the bank-conflict model's counts on those partitions.
#include <ostream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "smem_accesses.hpp"
#include "step04_swizzle.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"

namespace step04 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "swizzled", "unswizzled" or "kmajor": the name of a configuration (--variant).
template <class Cfg>
std::string name_of() {
  return Cfg::kSmem == SmemKind::swizzled ? "swizzled" : Cfg::kSmem == SmemKind::plain ? "unswizzled" : "kmajor";
}

// What a configuration's smem layout is, in words.
template <class Cfg>
std::string smem_words() {
  return Cfg::kSmem == SmemKind::swizzled ? "M-major, swizzled"
                                          : Cfg::kSmem == SmemKind::plain ? "M-major" : "K-major, as gmem";
}

// Swizzle<B,M,S> as a function of the plain index i, and which bits of i = mn + BLK_MN*k it moves.
template <int B, int M, int S>
void print_swizzle_function(std::ostream& os, Swizzle<B, M, S>, int blk_mn, int blk_k) {
  tut::print_swizzle_bits(os, B, M, S, log_2(unsigned(blk_mn)), log_2(unsigned(blk_k)), 'm', 'k',
                          "m + " + str(blk_mn) + "k");
  os << "    the 16-byte piece of m, m/4 mod 8, is XORed with k/4 mod 8\n";
  os << "    M = " << M << ": 2^" << M << " = " << (1 << M) << " floats (16 bytes, one 128-bit load) stay together\n"
     << "    B = " << B << ": 2^" << B << " = " << (1 << B) << " pieces of 16 bytes = 128 bytes = all 32 banks\n"
     << "    S = " << S << " = log2(BLK_M): the source bits start at 2^(M+S) = " << (1 << (M + S))
     << " floats = 4 k, so they are k/4 mod 8,\n"
     << "        the piece of its row that tells apart the lanes of a warp's store\n";
}

// One warp's instruction before and after the swizzle: the bank maps of the model.
template <class Cfg>
void print_bank_maps(std::ostream& os, int which, int i, std::string const& title) {
  using Plain = typename Cfg::template WithSmem<SmemKind::plain>;
  using Swizzled = typename Cfg::template WithSmem<SmemKind::swizzled>;
  tut::banks::print_bank_maps(os, title, warp_instruction<Plain>(which, 0, i), warp_instruction<Swizzled>(which, 0, i));
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
  print_item(os, "config", name_of<Cfg>() + (Cfg::kVec == 1 ? ", scalar loads" : ""),
             "--variant: swizzled, unswizzled or kmajor smem");
  tut::print_fma_tiled_mma(os, mma, "runs of 4 rows, 4 cols, as in step03");
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler), vec = Cfg::kVec;
  int const copy_thr_k = bk / 4, copy_thr_m = Cfg::kThreads / copy_thr_k;
  std::string const op = vec == 4 ? "uint128_t" : "uint32_t";
  print_item(os, "TiledCopy",
             "UniversalCopy<" + op + "> x threads (" + str(copy_thr_m) + "," + str(copy_thr_k) + "):(" + str(copy_thr_k) +
                 ",1)",
             "thread t -> (t/" + str(copy_thr_k) + ", t%" + str(copy_thr_k) + "), K-major");
  print_item(os, "", "x values (1,4): 4 floats along k, " + std::string(vec == 4 ? "one load" : "one load each"),
             "the same for A and B");

  // The kernel's tensors for the traced CTA (gA, gB, gC), and the same tiling of identity tensors
  // (cA, cB, cC), which gives the global (m,k), (n,k), (m,n) of every element.
  auto const t = tut::tile_cta<Element, Element>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
                                                 make_layout_C(M, N), o.tile.m, o.tile.n);
  // The smem tiles, as the kernel makes them (over host memory, never written), and identity tensors of
  // their shapes: (m,k) in the tile.
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K)
  Tensor sB = smem.sB();                                // (BLK_N,BLK_K)
  Tensor csA = make_identity_tensor(shape(sA));         // (BLK_M,BLK_K) -> (m,k) in the tile
  Tensor csB = make_identity_tensor(shape(sB));         // (BLK_N,BLK_K) -> (n,k) in the tile

  tut::print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  tut::print_cta_tiles(os, t, traced);
  tut::print_smem_and_copy(os, t, sA, sB, smem_words<Cfg>(), smem_words<Cfg>(), Cfg::kSmemBytes, copy_a, copy_b, T,
                           "share of each k-tile, gmem -> smem", true);
  auto thr_copy_a = copy_a.get_slice(T);

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

  // ---- What is new: K-major operands, bank conflicts, the swizzle -------------------------------------
  tut::print_section(os, 4, "What is new: K-major operands, bank conflicts, and the swizzle");
  os << "  A and B are K-major: a thread loads 4 consecutive k of one row" << (vec == 4 ? " (one 128-bit load)" : "")
     << ", and " << copy_thr_k << " threads\n  side by side load a whole " << bk
     << "-float row of the k-tile. The math wants 4 consecutive m (or n) at one k,\n"
     << "  as in step03, so the copy stores the 4 floats into 4 columns of an M-major sA, one float each:\n"
     << "  the transposing store. A warp's 32 lanes then write 4 rows x 8 pieces of 4 k. Plain, all 8 pieces\n"
     << "  of a row land in one bank: 8 different words, 8 wavefronts instead of 1.\n\n";
  using Plain = typename Cfg::template WithSmem<SmemKind::plain>;
  using Swizzled = typename Cfg::template WithSmem<SmemKind::swizzled>;
  using KMaj = typename Cfg::template WithSmem<SmemKind::k_major>;
  print_item(os, "plain", plain(typename Plain::SmemLayoutA{}), "smem_idx = i = m + " + str(bm) + "k");
  print_item(os, "swizzled", plain(typename Swizzled::SmemLayoutA{}), "smem_idx = Swizzle(i)");
  print_swizzle_function(os, typename Swizzled::SmemLayoutA{}.layout_a(), bm, bk);

  int const store_instr = int(size(thr_copy_a.partition_D(sA)));  // one float per store
  print_bank_maps<Cfg>(os, 0, 0, "One warp's store: warp 0, tAsA, instruction 0 of " + str(store_instr) +
                                     " (32-bit: the 32 lanes in one phase)");
  int const kb = 4, loads_per_k = int(size<1>(tCsB)) / 4;  // 128-bit loads of 4 n per k_block
  print_bank_maps<Cfg>(os, 3, kb * loads_per_k,
                       "One warp's load: warp 0, tCsB at k_block " + str(kb) +
                           " (128-bit: 4 phases of 8 lanes; each lane's first of 4 banks)");

  os << "\n  The model (tut/banks.hpp) on the kernel's own partitions, per CTA (" << Cfg::kThreads / 32
     << " warps) and k-tile:\n";
  auto const plain_counts = model_counts<Plain>(), swizzled_counts = model_counts<Swizzled>();
  tut::banks::print_model_lines(os, plain_counts, swizzled_counts);
  long long const ctas = (long long)ceil_div(M, bm) * ceil_div(N, bn);
  auto totals = [&](auto const& counts) {  // {store, load} extra wavefronts over the whole problem
    long long st = 0, ld = 0;
    for (auto const& c : counts) (c.partition[1] == 'C' ? ld : st) += c.waves.extra();
    return std::pair{st * k_tiles * ctas, ld * k_tiles * ctas};
  };
  auto const [plain_st, plain_ld] = totals(plain_counts);
  auto const [swz_st, swz_ld] = totals(swizzled_counts);
  os << "  For this problem, " << k_tiles << " k-tiles x " << ctas << " CTAs: unswizzled " << plain_st << " store and "
     << plain_ld << " load conflicts, swizzled " << swz_st << " and " << swz_ld << "\n"
     << "  (what Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st/ld.sum count).\n";
  // The totals Nsight Compute must reproduce (scripts/bank_check.sh): for the M-major layouts, whose
  // conflicts the model predicts exactly. The K-major layout's are below, per k-tile.
  if constexpr (Cfg::kSmem != SmemKind::k_major) tut::banks::print_run_totals(os, model_counts<Cfg>(), k_tiles * ctas, "st");

  auto const kmajor_counts = model_counts<KMaj>();
  os << "\n  K-major smem, laid out like gmem (--variant kmajor), is the design step04 did not take. Its\n"
     << "  copy stores 4 floats at once, conflict-free. The math reads one float per k_block down a column;\n"
     << "  nvcc merges 4 k_blocks into one 128-bit load along k, but a quarter-warp's 8 lanes read rows\n"
     << "  n = 4*tn of sB, " << 4 * bk * int(sizeof(Element)) << " bytes apart: the same 4 banks, 8-way. The model, per k-tile:";
  std::string sep = " ";
  for (auto const& c : kmajor_counts)
    if (c.waves.extra() > 0) {
      os << sep << c.partition << " " << c.waves.extra();
      sep = ", ";
    }
  os << " extra wavefronts.\n";
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

// --svg: the bank maps of the printout's two instructions, and the smem tiles coloured by bank, before
// and after the swizzle.
template <class Cfg>
void bank_pictures(tut::Options const&, std::string const& dir) {
  using Plain = typename Cfg::template WithSmem<SmemKind::plain>;
  using Swizzled = typename Cfg::template WithSmem<SmemKind::swizzled>;
  int const loads_per_k = int(size<1>(typename Cfg::TiledMma{}.get_slice(0).partition_B(tut::HostSmem<Cfg>{}.sB()))) / 4;
  tut::svg::write_file(dir + "/banks_store.svg",
                       tut::svg::bank_maps("step04: one warp's store into smem (warp 0, tAsA, instruction 0)",
                                           warp_instruction<Plain>(0, 0, 0), warp_instruction<Swizzled>(0, 0, 0)));
  tut::svg::write_file(dir + "/banks_load.svg",
                       tut::svg::bank_maps("step04: one warp's 128-bit load (warp 0, tCsB, k_block 4)",
                                           warp_instruction<Plain>(3, 0, 4 * loads_per_k),
                                           warp_instruction<Swizzled>(3, 0, 4 * loads_per_k)));
  tut::svg::write_file(
      dir + "/banks_tile.svg",
      tut::svg::bank_tiles("step04: sA and sB before and after the swizzle, each element coloured by its bank",
                           "one k-tile each; plain: an M-major column of 128 floats is 4 bank rows, so every k "
                           "starts in bank 0; swizzled: Swizzle<3,2,7> moves the columns apart",
                           {tut::bank_panel<typename Plain::SmemLayoutA, Element>("sA, plain", 'm', 'k'),
                            tut::bank_panel<typename Swizzled::SmemLayoutA, Element>("sA, swizzled", 'm', 'k'),
                            tut::bank_panel<typename Plain::SmemLayoutB, Element>("sB, plain", 'n', 'k'),
                            tut::bank_panel<typename Swizzled::SmemLayoutB, Element>("sB, swizzled", 'n', 'k')}));
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  std::vector<tut::Variant> v{tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      name_of<Cfg>(), &launch_vector_or_scalar<Cfg, Bug::none>, &trace<Cfg>, &bank_pictures<Cfg>)...};
  std::size_t i = 0;
  ((v[i++].pictures = &pictures<Cfg>), ...);
  return v;
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<Element, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {200, 152, 40}, {tut::Major::k, tut::Major::k, tut::Order::row}, {1, 1, 1},
      variants_of(Variants{}),
      {{int(Bug::no_first_barrier), "no_first_barrier",
        "the barrier between the copy and the math is gone: a fast warp reads sA and sB before the other "
        "warps have stored their share of the k-tile",
        tut::Check::racecheck, "--m 259 --n 131 --k 36", "",
        &launch_vector_or_scalar<Default, Bug::no_first_barrier>},
       {int(Bug::swizzle_off_by_one), "swizzle_off_by_one",
        "Swizzle<2,2,S> instead of Swizzle<3,2,S>: the XOR reaches 4 of the 8 16-byte pieces, so the sums "
        "stay right but the transposing store is 2-way conflicted again",
        tut::Check::bank_model, "--m 1024 --n 1024 --k 1024",
        "verification cannot see it, the results are right; only the conflict counts differ from the model's",
        &launch_vector_or_scalar<Default, Bug::swizzle_off_by_one>}},
      {{"LDS.128", "the math's 128-bit loads from smem: the swizzle keeps 4 floats together"},
       {"STS", "the transposing store into sA and sB, one float at a time"}});
  return s;
}

}  // namespace step04

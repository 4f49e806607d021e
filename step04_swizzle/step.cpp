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
#include "tut/printout_sm80.hpp"

namespace step04 {

namespace {

using tut::print_item;
using tut::str;

// Swizzle<B,M,S> as a function of the plain index i, and which bits of i = mn + BLK_MN*k it moves.
template <int B, int M, int S>
void print_swizzle_function(std::ostream& os, Swizzle<B, M, S> sw, int blk_mn, int blk_k) {
  tut::print_swizzle_bits(os, B, M, S, log_2(unsigned(blk_mn)), log_2(unsigned(blk_k)), 'm', 'k',
                          "m + " + str(blk_mn) + "k");
  os << "    the 16-byte piece of m, m/4 mod 8, is XORed with k/4 mod 8\n";
  tut::print_swizzle_m_b(os, sw, "floats", "one 128-bit load", "pieces");
  os << "    S = " << S << " = log2(BLK_M): the source bits start at 2^(M+S) = " << (1 << (M + S))
     << " floats = 4 k, so they are k/4 mod 8,\n"
     << "        the piece of its row that tells apart the lanes of a warp's store\n";
}

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

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread), vec = Cfg::kVec;
  typename Cfg::CtaTiler cta_tiler;
  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>() + (vec == 1 ? ", scalar loads" : ""),
             "--variant: swizzled, unswizzled or kmajor smem");
  tut::print_fma_tiled_mma(os, typename Cfg::TiledMma{}, "runs of 4 rows, 4 cols, as in step03");
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler), copy_thr_k = bk / 4;
  tut::print_tiled_copy_lines<CopyThrLayout<size<2>(typename Cfg::CtaTiler{}), Cfg::kThreads>, CopyValLayout>(
      os, tut::universal_copy(8 * int(sizeof(Element)) * vec), tut::row_major_thread_at(copy_thr_k) + ", K-major",
      "4 floats along k, " + std::string(vec == 4 ? "one load" : "one load each"), "the same for A and B");

  auto const t = tut::traced_tiles<Element, Element, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  tut::HostSmem<Cfg> smem;  // the smem tiles, as the kernel makes them (over host memory, never written)
  Tensor sA = smem.sA();    // (BLK_M,BLK_K)
  Tensor sB = smem.sB();    // (BLK_N,BLK_K)
  int const k_tiles =
      tut::print_fma_smem_partitions<Cfg>(os, t, traced, sA, sB, smem_words<Cfg>(), smem_words<Cfg>(), T, true).k_tiles;

  // ---- What is new: K-major operands, bank conflicts, the swizzle -------------------------------------
  tut::print_section(os, 4, "What is new: K-major operands, bank conflicts, and the swizzle");
  int const M = int(o.problem.m), N = int(o.problem.n);
  os << "  A and B are K-major: a thread loads 4 consecutive k of one row" << (vec == 4 ? " (one 128-bit load)" : "")
     << ", and " << copy_thr_k << " threads\n  side by side load a whole " << bk
     << "-float row of the k-tile. The math wants 4 consecutive m (or n) at one k,\n"
     << "  as in step03, so the copy stores the 4 floats into 4 columns of an M-major sA, one float each:\n"
     << "  the transposing store. A warp's 32 lanes then write 4 rows x 8 pieces of 4 k. Plain, all 8 pieces\n"
     << "  of a row land in one bank: 8 different words, 8 wavefronts instead of 1.\n\n";
  using Plain = typename Cfg::template WithSmem<SmemKind::plain>;
  using Swizzled = typename Cfg::template WithSmem<SmemKind::swizzled>;
  auto const swizzle = tut::print_plain_and_swizzled<Plain, Swizzled>(os, "m + " + str(bm) + "k");
  print_swizzle_function(os, swizzle, bm, bk);

  // One warp's instruction before and after the swizzle: the bank maps of the model.
  int const store_instr = int(size(typename Cfg::TiledCopyA{}.get_slice(T).partition_D(sA)));  // one float per store
  tut::banks::print_bank_maps(os, "One warp's store: warp 0, tAsA, instruction 0 of " + str(store_instr) +
                                      " (32-bit: the 32 lanes in one phase)",
                              Model<Plain>::warp_instruction(0, 0, 0),
                              Model<Swizzled>::warp_instruction(0, 0, 0));
  // 128-bit loads of 4 n per k_block: tCsB's MMA_N / 4 of them
  int const kb = 4, loads_per_k = int(size<1>(typename Cfg::TiledMma{}.get_slice(T).partition_B(sB))) / 4;
  tut::banks::print_bank_maps(os, "One warp's load: warp 0, tCsB at k_block " + str(kb) +
                                      " (128-bit: 4 phases of 8 lanes; each lane's first of 4 banks)",
                              Model<Plain>::warp_instruction(3, 0, kb * loads_per_k),
                              Model<Swizzled>::warp_instruction(3, 0, kb * loads_per_k));

  long long const ctas = (long long)ceil_div(M, bm) * ceil_div(N, bn);
  auto const [unswizzled, swizzled] =
      tut::print_bank_model(os, Cfg::kThreads, Model<Plain>::counts(), Model<Swizzled>::counts(), k_tiles * ctas);
  os << "  For this problem, " << k_tiles << " k-tiles x " << ctas << " CTAs: unswizzled " << unswizzled.stores
     << " store and " << unswizzled.loads << " load conflicts, swizzled " << swizzled.stores << " and "
     << swizzled.loads << "\n"
     << "  (what Nsight Compute's l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st/ld.sum count).\n";
  // The totals Nsight Compute must reproduce (scripts/bank_check.sh): for the M-major layouts, whose
  // conflicts the model predicts exactly. The K-major layout's are below, per k-tile.
  if constexpr (Cfg::kSmem != SmemKind::k_major)
    tut::banks::print_run_totals(os, Model<Cfg>::counts(), k_tiles * ctas, "st");

  os << "\n  K-major smem, laid out like gmem (--variant kmajor), is the design step04 did not take. Its\n"
     << "  copy stores 4 floats at once, conflict-free. The math reads one float per k_block down a column;\n"
     << "  nvcc merges 4 k_blocks into one 128-bit load along k, but a quarter-warp's 8 lanes read rows\n"
     << "  n = 4*tn of sB, " << 4 * bk * int(sizeof(Element)) << " bytes apart: the same 4 banks, 8-way. The model, per k-tile:";
  char const* sep = " ";
  for (auto const& c : Model<typename Cfg::template WithSmem<SmemKind::k_major>>::counts())
    if (c.waves.extra() > 0) os << std::exchange(sep, ", ") << c.partition << " " << c.waves.extra();
  os << " extra wavefronts.\n";
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::vector_or_scalar_variant<Cfg, Element, vector_copies_fit, &trace_config<Cfg>,
                                        &trace_config<typename Cfg::Scalar>>(
      name_of<Cfg>(), &launch_vector_or_scalar<Cfg, Bug::none>, &bank_pictures<Cfg>)...};
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

// Step 06's printout: the CTA tiler and grid, the smem tiles, one thread's cp.async copy partitions and
// its math partitions over smem, and what is new: the three levels of tiling, the zero-filled chunks at
// the edge, the swizzle for K-major halves, and the bank-conflict model on the kernel's own partitions.
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "smem_accesses.hpp"
#include "step06_global_gemm.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"
#include "what_is_new.hpp"

namespace step06 {

namespace {

// print_item, plain and str are tut's: what_is_new.hpp declares them in this step's namespace.

// "swizzled" or "unswizzled": the name of a configuration (--variant).
template <class Cfg>
std::string name_of() {
  return Cfg::kSwizzle ? "swizzled" : "unswizzled";
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant: swizzled or unswizzled smem");
  tut::print_mma_sync_atom<Cfg>(os, "tile " + tut::mma_tile(mma) + ", as step05's warps2x2");
  static_assert(std::is_same_v<CopyOp, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  using CopyThr = tut::RowThrLayout<ElementAB, size<2>(typename Cfg::CtaTiler{}), Cfg::kThreads>;
  tut::print_tiled_copy_lines<CopyThr, tut::RowValLayout<ElementAB>>(
      os, "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", tut::row_major_thread_at(bk / kChunk),
      "8 halves along k, 16 bytes, one cp.async",
      std::string(tut::zero_fills_v<CopyOp> ? "zero-fills masked chunks; " : "skips masked chunks; ") + "A and B alike");
  tut::print_chunk_sizes(os, kChunk);

  auto const t = tut::traced_tiles<ElementAB, ElementC, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  tut::HostSmem<Cfg> smem;  // the smem tiles, as the kernel makes them (over host memory, never written)
  Tensor sA = smem.sA();    // (BLK_M,BLK_K)
  Tensor sB = smem.sB();    // (BLK_N,BLK_K)
  tut::print_partitions_header(os, t, traced, T);
  std::string const words = Cfg::kSwizzle ? "K-major, swizzled" : "K-major";
  tut::print_smem_and_copy(os, t, sA, sB, words, words, Cfg::kSmemBytes, typename Cfg::TiledCopyA{},
                           typename Cfg::TiledCopyB{}, T, "cp.async chunks of each k-tile", true);

  ThrMMA thr_mma = mma.get_slice(T);
  tut::print_mma_ab(os, mma, T, sA, sB, make_identity_tensor(shape(sA)), make_identity_tensor(shape(sB)));
  print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(sA).layout()), "registers: 8 halves per atom");
  print_item(os, "tCrB", plain(thr_mma.partition_fragment_B(sB).layout()), "registers: 4 halves per atom");
  tut::print_mma_accumulators(os, thr_mma, t);
  int const k_tiles = int(size<2>(t.gA)), mm = int(size<1>(thr_mma.partition_A(sA)));
  int const mn = int(size<1>(thr_mma.partition_B(sB))), mk = int(size<2>(thr_mma.partition_A(sA)));
  os << "\n  gemm() per k-tile: " << mm << "x" << mn << "x" << mk << " (MMA_M x MMA_N x MMA_K) = " << mm * mn * mk
     << " mma.sync per warp, " << mm * mn * mk * 16 * 8 * 16 << " multiply-adds\n"
     << "  loop counts: " << k_tiles << " k-tiles x " << mm * mn * mk << " = " << k_tiles * mm * mn * mk
     << " mma.sync per warp\n";

  // ---- What is new: the whole GEMM ------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: the whole GEMM, staged through smem by cp.async, at any M and N");
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  os << "  Three levels of tiling:\n"
     << "    1. the CTA grid: C in " << bm << "x" << bn << " tiles, one CTA each (local_tile + blockIdx)\n"
     << "    2. the k-loop: each CTA walks K in k-tiles of " << bk << ", gmem -> smem -> registers\n"
     << "    3. the warps: the TiledMMA's " << tut::mma_tile(mma) << " tile, repeated " << mm << "x" << mn << "x"
     << mk << " over the k-tile by gemm()\n\n";
  tut::print_grid_map(os, M, N, bm, bn);
  tut::print_k_edge(os, K, bk);

  int const k_last = k_tiles - 1;
  os << "\n  cp.async copies 16 bytes gmem -> smem without passing through registers, and does not wait.\n"
     << "  Its zero-fill form takes a src_size: 16 copies the chunk, 0 reads nothing and writes 16 zero\n"
     << "  bytes. copy_if(copy_a, tApA, tAgA, tAsA) passes each chunk's mask bit as that choice, so the\n"
     << "  tiles past the edges hold zeros, which add nothing to the sums. Thread " << T << "'s chunks in "
     << traced.name << ",\n  last k-tile (" << k_last << "):\n";
  // The kernel's masks: the copy partitions of the identity tiles, then make_mask (in print_chunks).
  print_chunks(os, 'A', 'm', typename Cfg::TiledCopyA{}.get_slice(T).partition_S(t.cA), shape(t.mA), k_last);
  print_chunks(os, 'B', 'n', typename Cfg::TiledCopyB{}.get_slice(T).partition_S(t.cB), shape(t.mB), k_last);
  Tensor tCpC = tut::make_mask(thr_mma.partition_C(t.cC), shape(t.mC));  // (MMA,MMA_M,MMA_N) -> m<M && n<N
  int stored = 0;
  for (int i = 0; i < int(size(tCpC)); ++i) stored += tCpC(i) ? 1 : 0;
  os << "  In the epilogue, copy_if(tCpC, tCrC, tCgC) stores " << stored << " of its " << int(size(tCpC))
     << " accumulators" << (stored == int(size(tCpC)) ? ": all lie inside C.\n" : "; the rest lie outside C.\n");
  os << "  The mainloop, per k-tile: copy_if (cp.async) -> cp_async_fence -> cp_async_wait<0> ->\n"
     << "  __syncthreads -> copy smem -> registers -> gemm -> __syncthreads. Copy and math take turns.\n";

  // The swizzle, and the model on the kernel's own partitions.
  using Plain = typename Cfg::template WithSwizzle<false>;
  using Swizzled = typename Cfg::template WithSwizzle<true>;
  os << "\n  smem is K-major like gmem, so a chunk lands as it was read. The math reads 32-bit words, one\n"
     << "  register of 2 halves each: lanes 4g..4g+3 read row g at k = 0, 2, 4, 6. Plain, rows g and g+2\n"
     << "  lie " << 2 * bk * int(sizeof(ElementAB)) << " bytes apart, in the same banks: 4 rows share each bank, 4-way.\n\n";
  auto const swizzle = tut::print_plain_and_swizzled<Plain, Swizzled>(os, str(bk) + "m + k");
  print_swizzle_function(os, swizzle, bm, bk);
  // One warp's instruction before and after the swizzle: the bank maps of the model.
  tut::banks::print_bank_maps(os, "One warp's cp.async: warp 0, tAsA, instruction 0 (16 bytes: 4 phases of 8 lanes)",
                              Model<Plain>::warp_instruction(0, 0, 0),
                              Model<Swizzled>::warp_instruction(0, 0, 0));
  tut::banks::print_bank_maps(os, "One warp's load: warp 0, tCsA, instruction 0 (32-bit: the 32 lanes in one phase)",
                              Model<Plain>::warp_instruction(2, 0, 0),
                              Model<Swizzled>::warp_instruction(2, 0, 0));

  long long const ctas = (long long)ceil_div(M, bm) * ceil_div(N, bn);
  auto const [unswizzled, swizzled] =
      tut::print_bank_model(os, Cfg::kThreads, Model<Plain>::counts(), Model<Swizzled>::counts(), k_tiles * ctas);
  os << "  For this problem, " << k_tiles << " k-tiles x " << ctas << " CTAs: unswizzled " << unswizzled.stores
     << " cp.async and " << unswizzled.loads << " load\n  conflicts, swizzled " << swizzled.stores
     << " cp.async and " << swizzled.loads << ".\n";
  tut::banks::print_run_totals(os, Model<Cfg>::counts(), k_tiles * ctas, "ldgsts");
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::smem_variant<Cfg, ElementAB>(name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>,
                                            &bank_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {200, 150, 40}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::no_zero_fill), "no_zero_fill",
        "the plain cp.async instead of the zero-fill one: a masked chunk is skipped, so past the ragged edge "
        "of K smem keeps the last k-tile's values, and they join the sums",
        tut::Check::verification, "--m 128 --n 128 --k 40", "", &launch<Default, Bug::no_zero_fill>},
       {int(Bug::no_epilogue_mask), "no_epilogue_mask",
        "the epilogue stores the whole tile: on a ragged edge its rows past M land past the end of C, its "
        "columns past N in the next row",
        tut::Check::memcheck, "--m 259 --n 131 --k 200", "", &launch<Default, Bug::no_epilogue_mask>}},
      {{"LDGSTS", "cp.async: gmem -> smem without passing through registers"},
       {"LDGDEPBAR", "cp.async.commit_group (cp_async_fence)"},
       {"DEPBAR", "cp.async.wait_group (cp_async_wait)"},
       {"HMMA.16816.F32", "mma.sync m16n8k16, as in step 05"}});
  return s;
}

}  // namespace step06

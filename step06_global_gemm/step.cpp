// Step 06's printout: the CTA tiler and grid, the smem tiles, one thread's cp.async copy partitions and
// its math partitions over smem, and what is new: the three levels of tiling, the zero-filled chunks at
// the edge, the swizzle for K-major halves, and the bank-conflict model on the kernel's own partitions.
#include <cstdint>
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "smem_accesses.hpp"
#include "step06_global_gemm.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step06 {

namespace {

using tut::plain;
using tut::print_item;
using tut::str;

// "swizzled" or "unswizzled": the name of a configuration (--variant).
template <class Cfg>
std::string name_of() {
  return Cfg::kSwizzle ? "swizzled" : "unswizzled";
}

// Swizzle<B,M,S> as a function of the plain index i = BLK_K*mn + k of a K-major tile of halves.
template <int B, int M, int S>
void print_swizzle_function(std::ostream& os, Swizzle<B, M, S>, int blk_mn, int blk_k) {
  tut::print_swizzle_bits(os, B, M, S, log_2(unsigned(blk_k)), log_2(unsigned(blk_mn)), 'k', 'm',
                          str(blk_k) + "m + k");
  int const row_bytes = blk_k * int(sizeof(ElementAB));
  os << "    the 16-byte chunk of a 128-byte bank row is XORed with m/" << 128 / row_bytes << " mod 8\n"
     << "    M = " << M << ": 2^" << M << " = " << (1 << M) << " halves (16 bytes, one cp.async) stay together\n"
     << "    B = " << B << ": 2^" << B << " = " << (1 << B) << " chunks of 16 bytes = 128 bytes = all 32 banks\n"
     << "    S = " << S << ": the source bits start at 2^(M+S) = " << (1 << (M + S)) << " halves = 128 bytes = "
     << 128 / row_bytes << " rows of " << row_bytes << " bytes:\n"
     << "        the bank row a chunk lies in, which tells apart the rows a warp reads at one k\n";
}

// One warp's instruction before and after the swizzle: the bank maps of the model.
template <class Cfg>
void print_bank_maps(std::ostream& os, int which, int i, std::string const& title) {
  using Plain = typename Cfg::template WithSwizzle<false>;
  using Swizzled = typename Cfg::template WithSwizzle<true>;
  tut::banks::print_bank_maps(os, title, warp_instruction<Plain>(which, 0, i), warp_instruction<Swizzled>(which, 0, i));
}

// Thread T's cp.async chunks of one operand in k-tile k: where each lands and whether it copies.
template <class CoordTensor, class MaskTensor>
void print_chunks(std::ostream& os, char op, char row, CoordTensor const& tXcX, MaskTensor const& tXpX) {
  Tensor c = group_modes<1, 3>(tXcX);  // (CPY,chunk) -> (mn,k)
  Tensor p = group_modes<1, 3>(tXpX);  // (CPY,chunk) -> inside?
  for (int j = 0; j < int(size<1>(c)); ++j) {
    int const mn = get<0>(c(0, j)), k = get<1>(c(0, j));
    os << "    " << op << "(" << row << "=" << mn << ", k=" << k << ".." << k + kChunk - 1 << ")  "
       << (p(0, j) ? "copy 16 bytes" : "zero-fill (src_size 0)") << '\n';
  }
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyA copy_a;
  typename Cfg::TiledCopyB copy_b;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant: swizzled or unswizzled smem");
  static_assert(std::is_same_v<MmaOp, SM80_16x8x16_F32F16F16F32_TN>, "the name printed below");
  print_item(os, "TiledMMA",
             "SM80_16x8x16_F32F16F16F32_TN x warps " + plain(Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>{}),
             "tile " + str(tile_size<0>(mma)) + "x" + str(tile_size<1>(mma)) + "x" + str(tile_size<2>(mma)) +
                 ", as step05's warps2x2");
  int const copy_thr_k = bk / kChunk, copy_thr_m = Cfg::kThreads / copy_thr_k;
  static_assert(std::is_same_v<CopyOp, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  print_item(os, "TiledCopy",
             "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t> x threads (" + str(copy_thr_m) + "," + str(copy_thr_k) +
                 "):(" + str(copy_thr_k) + ",1)",
             "thread t -> (t/" + str(copy_thr_k) + ", t%" + str(copy_thr_k) + ")");
  print_item(os, "", "x values (1," + str(kChunk) + "): 8 halves along k, 16 bytes, one cp.async",
             std::string(tut::zero_fills_v<CopyOp> ? "zero-fills masked chunks; " : "skips masked chunks; ") +
                 "A and B alike");
  print_item(os, "sizes", "any M and N; K a multiple of " + str(kChunk), "whole 16-byte chunks per row");

  auto const t = tut::tile_cta<ElementAB, ElementC>(cta_tiler, make_layout_A(M, K), make_layout_B(N, K),
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
  std::string const words = Cfg::kSwizzle ? "K-major, swizzled" : "K-major";
  tut::print_smem_and_copy(os, t, sA, sB, words, words, Cfg::kSmemBytes, copy_a, copy_b, T,
                           "cp.async chunks of each k-tile", true);
  auto thr_copy_a = copy_a.get_slice(T);
  auto thr_copy_b = copy_b.get_slice(T);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCsA = thr_mma.partition_A(sA);                // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  os << "\n  thr_mma = mma.get_slice(" << T << "): lane " << T % 32 << " of warp " << T / 32 << ", the warp at "
     << tut::thread_mn(mma, T) << "\n";
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K) = partition_A(sA)");
  print_item(os, "", tut::elements(thr_mma.partition_A(csA), "sA m", "k"), "of every k-tile");
  print_item(os, "tCsB", plain(tCsB.layout()), "(MMA,MMA_N,MMA_K) = partition_B(sB)");
  print_item(os, "", tut::elements(thr_mma.partition_B(csB), "sB n", "k"), "of every k-tile");
  print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(sA).layout()), "registers: 8 halves per atom");
  print_item(os, "tCrB", plain(thr_mma.partition_fragment_B(sB).layout()), "registers: 4 halves per atom");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()), "accumulators: 4 floats per atom");
  auto [rows, cols] = tut::rows_cols(tut::coords_of(thr_mma.partition_C(t.cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);
  int const k_tiles = int(size<2>(t.gA)), mm = int(size<1>(tCsA)), mn = int(size<1>(tCsB)), mk = int(size<2>(tCsA));
  os << "\n  gemm() per k-tile: " << mm << "x" << mn << "x" << mk << " (MMA_M x MMA_N x MMA_K) = " << mm * mn * mk
     << " mma.sync per warp, " << mm * mn * mk * 16 * 8 * 16 << " multiply-adds\n"
     << "  loop counts: " << k_tiles << " k-tiles x " << mm * mn * mk << " = " << k_tiles * mm * mn * mk
     << " mma.sync per warp\n";

  // ---- What is new: the whole GEMM ------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: the whole GEMM, staged through smem by cp.async, at any M and N");
  os << "  Three levels of tiling:\n"
     << "    1. the CTA grid: C in " << bm << "x" << bn << " tiles, one CTA each (local_tile + blockIdx)\n"
     << "    2. the k-loop: each CTA walks K in k-tiles of " << bk << ", gmem -> smem -> registers\n"
     << "    3. the warps: the TiledMMA's " << str(tile_size<0>(mma)) << "x" << str(tile_size<1>(mma)) << "x"
     << str(tile_size<2>(mma)) << " tile, repeated " << mm << "x" << mn << "x" << mk
     << " over the k-tile by gemm()\n\n";
  tut::print_grid_map(os, M, N, bm, bn);
  tut::print_k_edge(os, K, bk);

  // The same calls as the kernel: partition the identity tiles, then make_mask.
  Tensor tAcA = thr_copy_a.partition_S(t.cA);           // (CPY,CPY_M,CPY_K,k) -> (m,k)
  Tensor tBcB = thr_copy_b.partition_S(t.cB);           // (CPY,CPY_N,CPY_K,k) -> (n,k)
  Tensor tApA = tut::make_mask(tAcA, shape(t.mA));      // (CPY,CPY_M,CPY_K,k) -> m<M && k<K
  Tensor tBpB = tut::make_mask(tBcB, shape(t.mB));      // (CPY,CPY_N,CPY_K,k) -> n<N && k<K
  int const k_last = k_tiles - 1;
  os << "\n  cp.async copies 16 bytes gmem -> smem without passing through registers, and does not wait.\n"
     << "  Its zero-fill form takes a src_size: 16 copies the chunk, 0 reads nothing and writes 16 zero\n"
     << "  bytes. copy_if(copy_a, tApA, tAgA, tAsA) passes each chunk's mask bit as that choice, so the\n"
     << "  tiles past the edges hold zeros, which add nothing to the sums. Thread " << T << "'s chunks in "
     << traced.name << ",\n  last k-tile (" << k_last << "):\n";
  print_chunks(os, 'A', 'm', tAcA(_, _, _, k_last), tApA(_, _, _, k_last));
  print_chunks(os, 'B', 'n', tBcB(_, _, _, k_last), tBpB(_, _, _, k_last));
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
  print_item(os, "plain", plain(typename Plain::SmemLayoutA{}), "smem_idx = i = " + str(bk) + "m + k");
  print_item(os, "swizzled", plain(typename Swizzled::SmemLayoutA{}), "smem_idx = Swizzle(i)");
  print_swizzle_function(os, typename Swizzled::SmemLayoutA{}.layout_a(), bm, bk);
  print_bank_maps<Cfg>(os, 0, 0, "One warp's cp.async: warp 0, tAsA, instruction 0 (16 bytes: 4 phases of 8 lanes)");
  print_bank_maps<Cfg>(os, 2, 0, "One warp's load: warp 0, tCsA, instruction 0 (32-bit: the 32 lanes in one phase)");

  os << "\n  The model (tut/banks.hpp) on the kernel's own partitions, per CTA (" << Cfg::kThreads / 32
     << " warps) and k-tile:\n";
  auto const plain_counts = model_counts<Plain>(), swizzled_counts = model_counts<Swizzled>();
  tut::banks::print_model_lines(os, plain_counts, swizzled_counts);
  long long const ctas = (long long)ceil_div(M, bm) * ceil_div(N, bn);
  auto totals = [&](auto const& counts) {  // {cp.async, load} extra wavefronts over the whole problem
    long long st = 0, ld = 0;
    for (auto const& c : counts) (c.partition[1] == 'C' ? ld : st) += c.waves.extra();
    return std::to_string(st * k_tiles * ctas) + " cp.async and " + std::to_string(ld * k_tiles * ctas);
  };
  os << "  For this problem, " << k_tiles << " k-tiles x " << ctas << " CTAs: unswizzled " << totals(plain_counts)
     << " load\n  conflicts, swizzled " << totals(swizzled_counts) << ".\n";
  tut::banks::print_run_totals(os, model_counts<Cfg>(), k_tiles * ctas, "ldgsts");
}

// --svg: the bank maps of the printout's two instructions, and sA coloured by bank, before and after the
// swizzle.
template <class Cfg>
void bank_pictures(tut::Options const&, std::string const& dir) {
  using Plain = typename Cfg::template WithSwizzle<false>;
  using Swizzled = typename Cfg::template WithSwizzle<true>;
  tut::svg::write_file(dir + "/banks_store.svg",
                       tut::svg::bank_maps("step06: one warp's cp.async into smem (warp 0, tAsA, instruction 0)",
                                           warp_instruction<Plain>(0, 0, 0), warp_instruction<Swizzled>(0, 0, 0)));
  tut::svg::write_file(dir + "/banks_load.svg",
                       tut::svg::bank_maps("step06: one warp's 32-bit load (warp 0, tCsA, instruction 0)",
                                           warp_instruction<Plain>(2, 0, 0), warp_instruction<Swizzled>(2, 0, 0)));
  tut::svg::write_file(
      dir + "/banks_tile.svg",
      tut::svg::bank_tiles("step06: sA before and after the swizzle, each element coloured by its bank",
                           "one k-tile; two halves share a 4-byte bank word; plain: rows of 64 bytes, so rows m and "
                           "m+2 start in the same bank; swizzled: Swizzle<3,3,3> spreads 8 rows over all 32 banks",
                           {tut::bank_panel<typename Plain::SmemLayoutA, ElementAB>("sA, plain", 'm', 'k'),
                            tut::bank_panel<typename Swizzled::SmemLayoutA, ElementAB>("sA, swizzled", 'm', 'k')}));
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma, tut::SmemSideOf<Cfg, ElementAB>>(
      name_of<Cfg>(), &launch<Cfg, Bug::none>, &trace_config<Cfg>, &bank_pictures<Cfg>)...};
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

// Step 07's printout: the CTA tiler and grid, the smem ring, one thread's cp.async, ldmatrix, math and
// epilogue partitions, and what is new: smem bytes per stage, the pipeline's stage timeline, ldmatrix's
// lane -> row-address map, the k-blocks double-buffered in registers, and the epilogue through smem.
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step07_multistage.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"
#include "tut/printout_sm90.hpp"
#include "what_is_new.hpp"

namespace step07 {

namespace {

// print_item, plain and str are tut's: what_is_new.hpp declares them in this step's namespace.

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", tut::config_name<Cfg>(), "--variant: 256x128 (the default) or 128x128");
  print_item(os, "stages", str(S), "k-tiles in the smem ring");
  tut::print_mma_sync_atom<Cfg>(os, "permutation (" + tut::mma_tile(mma, ",") + "): two 8-column atoms per warp");
  static_assert(std::is_same_v<CopyOpG2S, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>>, "the name printed below");
  tut::print_row_copy<ElementAB, size<2>(typename Cfg::CtaTiler{}), Cfg::kThreads>(
      os, "TiledCopy", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", "gmem -> smem, as step06, zero-fill");
  static_assert(std::is_same_v<CopyOpS2R, SM75_U32x4_LDSM_N>, "the name printed below");
  print_item(os, "ldmatrix", "SM75_U32x4_LDSM_N, make_tiled_copy_A/_B(atom, mma)", "smem -> registers, 4 8x8 matrices");
  tut::print_row_copy<ElementC, size<1>(typename Cfg::CtaTiler{}), Cfg::kThreads>(
      os, "epilogue", "UniversalCopy<uint128_t>", "smem -> gmem, 16 bytes per store");
  tut::print_chunk_sizes(os, kChunk);

  auto const t = tut::traced_tiles<ElementAB, ElementC, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K,STAGES)
  Tensor sB = smem.sB();                                // (BLK_N,BLK_K,STAGES)
  Tensor sC = smem.sC();                                // (BLK_M,BLK_N)
  tut::print_partitions_header(os, t, traced, T);
  tut::print_smem_ring<Cfg>(os, sA, sB, sC, "K-major, swizzled", "row-major, swizzled");
  tut::print_copy_partition(os, t, sA, sB, typename Cfg::TiledCopyA{}, typename Cfg::TiledCopyB{}, T,
                            "cp.async chunks of each k-tile", true);

  ThrMMA thr_mma = mma.get_slice(T);
  Tensor csA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
  Tensor csB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
  auto two_k_blocks_a = make_tile(Int<size<0>(typename Cfg::SmemLayoutA{})>{}, Int<2>{} * tile_size<2>(mma));
  auto two_k_blocks_b = make_tile(Int<size<0>(typename Cfg::SmemLayoutB{})>{}, Int<2>{} * tile_size<2>(mma));
  Tensor tCrA = thr_mma.partition_fragment_A(local_tile(sA(_, _, 0), two_k_blocks_a, make_coord(0, 0)));  // (MMA,MMA_M,2)
  Tensor tCrB = thr_mma.partition_fragment_B(local_tile(sB(_, _, 0), two_k_blocks_b, make_coord(0, 0)));  // (MMA,MMA_N,2)
  tut::print_thr_mma(os, mma, T);
  tut::print_partition(os, "tCrA", tCrA, "(MMA,MMA_M,2): two k-blocks of registers", thr_mma.partition_A(csA), "sA m",
                       "k", "of every k-tile");
  tut::print_partition(os, "tCrB", tCrB, "(MMA,MMA_N,2)", thr_mma.partition_B(csB), "sB n", "k", "of every k-tile");
  tut::print_mma_accumulators(os, thr_mma, t);

  auto s2r_a = typename Cfg::S2RCopyA{}.get_slice(T);
  auto s2r_b = typename Cfg::S2RCopyB{}.get_slice(T);
  os << "\n  s2r_thr_copy_a = s2r_copy_a.get_slice(" << T << "): the rows thread " << T << " names to ldmatrix\n";
  tut::print_partition(os, "tXsA", s2r_a.partition_S(sA), "(CPY,CPY_M,CPY_K,STAGES) = partition_S(sA)",
                       s2r_a.partition_S(csA), "sA m", "k", "of every k-tile");
  print_item(os, "tXrA", plain(s2r_a.retile_D(tCrA).layout()), "(CPY,CPY_M,2) = retile_D(tCrA)");
  tut::print_partition(os, "tXsB", s2r_b.partition_S(sB), "(CPY,CPY_N,CPY_K,STAGES) = partition_S(sB)",
                       s2r_b.partition_S(csB), "sB n", "k", "of every k-tile");
  print_item(os, "tXrB", plain(s2r_b.retile_D(tCrB).layout()), "(CPY,CPY_N,2) = retile_D(tCrB)");
  tut::print_epilogue_partitions(os, mma, typename Cfg::TiledCopyC{}, T, sC, t);

  int const k_tiles = int(size<2>(t.gA)), mm = int(size<1>(tCrA)), mn = int(size<1>(tCrB));
  int const k_blocks = bk / int(tile_size<2>(mma));
  os << "\n  gemm() per k-block: " << mm << "x" << mn << " (MMA_M x MMA_N) = " << mm * mn << " mma.sync per warp; "
     << k_blocks << " k-blocks per k-tile\n"
     << "  loop counts: " << k_tiles << " k-tiles x " << k_blocks << " k-blocks x " << mm * mn << " = "
     << k_tiles * k_blocks * mm * mn << " mma.sync per warp\n";

  // ---- What is new: overlap --------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: copy and math overlapped, ldmatrix, and 128-bit stores of C");
  int const N = int(o.problem.n), K = int(o.problem.k);
  int const stage_a = bm * bk * int(sizeof(ElementAB)), stage_b = bn * bk * int(sizeof(ElementAB));
  int const c_bytes = bm * bn * int(sizeof(ElementC)), c_thr_n = bn / kChunkC;
  os << "  smem per stage: A " << stage_a << " + B " << stage_b << " = " << Cfg::kStageBytes << " bytes; " << S
     << " stages = " << Cfg::kSmemBytes << " bytes (" << Cfg::kSmemBytes / 1024 << " KB) per CTA.\n"
     << "  The C tile (" << bm << "x" << bn << " floats, " << c_bytes << " bytes) reuses the ring after the mainloop.\n"
     << "  Above 48 KB the launch must ask: cudaFuncSetAttribute(kernel, MaxDynamicSharedMemorySize, "
     << Cfg::kSmemBytes << ").\n\n";
  tut::print_k_edge(os, K, bk);
  print_timeline<Cfg>(os, k_tiles);
  print_ldmatrix_map<Cfg>(os, smem, T / 32);

  os << "\n  Registers, one k-block ahead: each k-tile is " << k_blocks << " k-blocks of 16. While mma.sync works on\n"
     << "  k-block kb from tCrA(_,_,kb%2), ldmatrix fills tCrA(_,_,(kb+1)%2) with k-block kb+1 (the next\n"
     << "  k-tile's k-block 0 after the last): per warp " << mm << " ldmatrix.x4 for A and " << mn / 2
     << " for B per k-block,\n  against " << mm * mn << " mma.sync.\n";

  // The epilogue's partition and masks, as the kernel makes them.
  Tensor tDcC = typename Cfg::TiledCopyC{}.get_slice(T).partition_D(t.cC);  // (CPY,CPY_M,CPY_N) -> (m,n)
  Tensor tDpC = tut::make_mask(tDcC, shape(t.mC));                            // (CPY,CPY_M,CPY_N) -> m<M && n<N
  os << "\n  The epilogue: copy(tCrC, tCsC) puts the accumulators in sC (the MMA's partition), a barrier,\n"
     << "  then copy_if(copy_c, tDpC, tDsC, tDgC) stores them by the epilogue's partition: " << c_thr_n
     << " threads per\n  row of " << bn << " floats, so a warp's 32 lanes store 512 contiguous bytes of one row per"
     << " instruction\n  (step06 stored 8 bytes per lane, 32 contiguous bytes per row).\n";
  tut::print_chunk_stores(os, tDpC, T, N, kChunkC);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::smem_variant<Cfg, ElementAB>(tut::config_name<Cfg>(), launch_of(tut::index_in_v<Cfg, Variants>),
                                            &trace_config<Cfg>, &pipeline_pictures<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {300, 200, 200}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::wait_one_too_few), "wait_one_too_few",
        "cp_async_wait<STAGES-1> in the mainloop: it lets one group too many stay in flight, so the math may "
        "read a stage whose k-tile has not landed yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200",
        "verification passed every time we ran it (1024^3 and this shape): the copy usually lands in time anyway",
        launch_of(Bug::wait_one_too_few)},
       {int(Bug::no_epilogue_barrier), "no_epilogue_barrier",
        "the barrier between the MMA partition's stores of the C tile into smem and the 128-bit copy's reads "
        "of it is gone: a warp reads rows other warps have not stored yet",
        tut::Check::racecheck, "--m 259 --n 131 --k 200", "", launch_of(Bug::no_epilogue_barrier)}},
      {{"LDSM", "ldmatrix: a warp loads 8x8 tiles of halves from smem, straight into the MMA's registers"},
       {"LDGSTS", "cp.async, as in step 06, now STAGES-1 k-tiles ahead"},
       {"DEPBAR.LE SB0, 0x1", "cp_async_wait<STAGES-2>: wait until one group (STAGES = 3) is left in flight"},
       {"HMMA.16816.F32", "mma.sync m16n8k16"},
       {"STS.64", "the epilogue's 64-bit stores of the accumulators into the C tile in smem"},
       {"LDS.128", "the epilogue's 128-bit reads of the C tile, for 128-bit stores to gmem"}});
  return s;
}

}  // namespace step07

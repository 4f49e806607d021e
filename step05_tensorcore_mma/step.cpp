// Step 05's printout: the CTA tiler and grid, one thread's partitions of the gmem tiles, and what is new:
// the tensor-core atom's thread-value layouts, one thread's registers, and the TiledMMA of 2x2 warps.
#include <ostream>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "registered_step.hpp"
#include "step05_tensorcore_mma.hpp"
#include "tut/make_step.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"
#include "what_is_new.hpp"

namespace step05 {

namespace {

// print_item, plain and str are tut's: what_is_new.hpp declares them in this step's namespace.

// "atom" or "warps2x2": the name of a configuration (--variant).
template <class Cfg>
std::string name_of() {
  return Cfg::kWarpsM * Cfg::kWarpsN == 1 ? "atom" : "warps" + str(Cfg::kWarpsM) + "x" + str(Cfg::kWarpsN);
}

template <class Cfg>
void trace_config(std::ostream& os, tut::Options const& o) {
  int const T = int(o.thread), lane = T % 32;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;

  auto const traced = tut::print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", name_of<Cfg>(), "--variant atom | warps2x2");
  tut::print_mma_sync_atom<Cfg>(os, "tile " + tut::mma_tile(mma));
  print_item(os, "sizes", "M, N, K multiples of " + str(multiple_of().m) + ", " + str(multiple_of().n) + ", " +
                              str(multiple_of().k),
             "no predication: step06 runs any M, N");

  auto const t = tut::traced_tiles<ElementAB, ElementC, make_layout_A, make_layout_B, make_layout_C>(cta_tiler, o);
  tut::print_partitions_header(os, t, traced, T);
  ThrMMA thr_mma = mma.get_slice(T);
  Tensor tCgA = thr_mma.partition_A(t.gA);              // (MMA,MMA_M,MMA_K,k)
  Tensor tCgB = thr_mma.partition_B(t.gB);              // (MMA,MMA_N,MMA_K,k)
  Tensor tCgC = thr_mma.partition_C(t.gC);              // (MMA,MMA_M,MMA_N)
  tut::print_mma_ab(os, mma, T, t.gA, t.gB, t.cA(_, _, 0), t.cB(_, _, 0));
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  tut::print_c_rows_cols(os, thr_mma.partition_C(t.cC), "global rows, as partition_C(cC) says",
                         "not B's rows: the warp trades values (section 4)");
  print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(t.gA(_, _, 0)).layout()),
             "8 halves per atom: uint32_t[4]");
  print_item(os, "tCrB", plain(thr_mma.partition_fragment_B(t.gB(_, _, 0)).layout()),
             "4 halves per atom: uint32_t[2]");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()), "4 floats per atom: float[4]");
  int const k_tiles = int(size<3>(tCgA)), mm = int(size<1>(tCgA)), mn = int(size<1>(tCgB)), mk = int(size<2>(tCgA));
  os << "\n  loop counts: " << k_tiles << " k-tiles x " << mm << "x" << mn << "x" << mk << " (MMA_M x MMA_N x MMA_K) = "
     << k_tiles * mm * mn * mk << " mma.sync per warp\n               of 16x8x16 = "
     << k_tiles * mm * mn * mk * 16 * 8 * 16 << " multiply-adds per warp\n";

  // ---- What is new: the tensor-core atom -------------------------------------------------------------
  tut::print_section(os, 4, "What is new: one tensor-core instruction, and every register of it");
  using TvA = Atom::LayoutA_TV;
  using TvB = Atom::LayoutB_TV;
  using TvC = Atom::LayoutC_TV;
  os << "  mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32: one warp, D(16x8) = A(16x16) * B(16x8) + C.\n"
     << "  No lane holds a whole row: the 32 lanes each bring 4 registers of A (8 halves), 2 of B (4 halves)\n"
     << "  and 4 floats of C, and the instruction exchanges them. CuTe's MMA_Traits say which lane and\n"
     << "  register hold which element, as TV layouts: (thread, value) -> index in the tile, column-major.\n";
  print_item(os, "Shape_MNK", plain(typename Atom::Shape_MNK{}), "(M,N,K) of one instruction");
  print_item(os, "ThrID", plain(typename Atom::ThrID{}), "the 32 lanes of one warp");
  print_tv_layout(os, "ALayout", TvA{}, "(M16,K16), index m + 16k", 16, 'm', 'k');
  print_tv_layout(os, "BLayout", TvB{}, "(N8,K16), index n + 8k", 8, 'n', 'k');
  print_tv_layout(os, "CLayout", TvC{}, "(M16,N8), index m + 16n", 16, 'm', 'n');

  auto const cells_c = tut::tv_cells(TvC{}, 16, 8);
  auto const cells_a = tut::tv_cells(TvA{}, 16, 16);
  auto const cells_b = tut::transpose_cells(tut::tv_cells(TvB{}, 8, 16), 8, 16);  // drawn k down, n across
  tut::print_tv_grid(os, "  C (and D): who holds C(m,n), 16x8 fp32", cells_c, 16, 8, 0, 8, 'm', 'n');
  tut::print_tv_grid(os, "  A: who holds A(m,k), 16x16 fp16, k 0..7", cells_a, 16, 16, 0, 8, 'm', 'k');
  tut::print_tv_grid(os, "  A, k 8..15", cells_a, 16, 16, 8, 16, 'm', 'k');
  tut::print_tv_grid(os, "  B: who holds B(n,k), drawn k down and n across as the PTX ISA draws it", cells_b, 16, 8,
                     0, 8, 'k', 'n');

  os << "\n  Thread " << T << " is lane " << lane << ". Its registers in each mma.sync (the atom's own tile):\n";
  print_registers(os, "a", "uint32_t[4]", TvA{}, 16, lane, 'm', 'k');
  print_registers(os, "b", "uint32_t[2]", TvB{}, 8, lane, 'n', 'k');
  print_accumulators(os, TvC{}, lane);
  os << "\n  A register packs two neighbours in k, so K-major A and B load one register per 32-bit word.\n";

  // The slides' 16x8x8 atom beside the 16x8x16.
  using Tv8A = Atom16x8x8::LayoutA_TV;
  using Tv8B = Atom16x8x8::LayoutB_TV;
  bool same_a = true, same_b = true;
  for (int l = 0; l < 32; ++l) {
    for (int v = 0; v < int(size<1>(Tv8A{})); ++v) same_a = same_a && rc_of(Tv8A{}, 16, l, v) == rc_of(TvA{}, 16, l, v);
    for (int v = 0; v < int(size<1>(Tv8B{})); ++v) same_b = same_b && rc_of(Tv8B{}, 8, l, v) == rc_of(TvB{}, 8, l, v);
  }
  os << "\n  The slides' atom, SM80_16x8x8_F32F16F16F32_TN (m16n8k8), beside this one:\n";
  print_item(os, "16x8x8 A", plain(Tv8A{}), "(T32,V4) -> (M16,K8): uint32_t[2]");
  print_item(os, "16x8x16 A", plain(TvA{}), "(T32,V8) -> (M16,K16): uint32_t[4]");
  print_item(os, "16x8x8 B", plain(Tv8B{}), "(T32,V2) -> (N8,K8): uint32_t[1]");
  print_item(os, "16x8x16 B", plain(TvB{}), "(T32,V4) -> (N8,K16): uint32_t[2]");
  bool const same_c = std::is_same_v<typename Atom16x8x8::LayoutC_TV, TvC>;
  print_item(os, "C", plain(typename Atom16x8x8::LayoutC_TV{}) + (same_c ? " in both" : " and " + plain(TvC{})),
             "(T32,V4) -> (M16,N8)");
  os << "  " << (same_a ? "A's values 0..3 in the 16x8x16 are the 16x8x8's A, element for element"
                        : "A's values 0..3 differ from the 16x8x8's A")
     << ";\n  values 4..7 repeat them at k+8 (the mode of size 2 and stride 128 = 8 columns of 16).\n  "
     << (same_b ? "B's values 0..1 are the 16x8x8's B" : "B's values 0..1 differ from the 16x8x8's B")
     << "; values 2..3 repeat them at k+8.\n  One m16n8k16 does the work of two m16n8k8.\n";

  os << "\n  The 2x2-warp TiledMMA: four atoms side by side, one per warp, then repeated over the tile.\n";
  print_warp_map(os, T % Warps2x2::kThreads);
}

template <class... Cfg>
std::vector<tut::Variant> variants_of(std::tuple<Cfg...> const&) {
  return {tut::make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(name_of<Cfg>(), &launch<Cfg, Bug::none>,
                                                                            &trace_config<Cfg>)...};
}

}  // namespace

tut::Step const& step() {
  static tut::Step const s = tut::make_step<ElementAB, make_layout_A, make_layout_B, make_layout_C>(
      kRegistration, {128, 128, 64}, {tut::Major::k, tut::Major::k, tut::Order::row}, multiple_of(),
      variants_of(Variants{}),
      {{int(Bug::swapped_block_index), "swapped_block_index",
        "the CTA takes tile (blockIdx.y, blockIdx.x): on a square grid of tiles every tile is still computed, "
        "by the wrong CTA; on any other grid CTAs read and write outside A, B and C",
        tut::Check::owner_test, "--owners --m 128 --n 64 --k 64",
        "verification passes on this square grid (8x8 tiles): every sum is right, only who stores it is wrong",
        &launch<OneAtom, Bug::swapped_block_index>},
       {int(Bug::last_k_tile_dropped), "last_k_tile_dropped",
        "the k loop stops one k-tile early: every sum misses BLK_K of its K products",
        tut::Check::verification, "--m 128 --n 128 --k 64", "", &launch<OneAtom, Bug::last_k_tile_dropped>}},
      {{"HMMA.16816.F32", "mma.sync m16n8k16, fp16 in, fp32 accumulate: one tensor-core instruction per warp"}});
  return s;
}

}  // namespace step05

/// \file printout_sm90.hpp
/// \brief The printout sections that the Hopper steps (08 on) share, each printed from the step's
/// configuration type and the objects its kernel builds (host only): the warp roles, the ring of
/// GMMA-swizzled stages, the TMA boxes and partitions, one thread's wgmma partition and its epilogue.
/// A step's own printout (its step.cpp) calls these and prints what is new in it.
#pragma once

#include <algorithm>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/format.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/row_copy.hpp"
#include "tut/ring_schedule.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief "128x256": the name of a configuration (--variant), its CTA tile; "2x128x256" where its CTAs
/// work in clusters of two along M (step 15).
template <class Cfg>
std::string config_name() {
  typename Cfg::CtaTiler t;
  int const cluster = kScheduleOf<Cfg>.cluster_m;
  return (cluster > 1 ? str(cluster) + "x" : "") + str(cute::size<0>(t)) + "x" + str(cute::size<1>(t));
}

/// \brief One row of a table: each cell padded to its width (at least one space after it), the last as it is.
inline void print_row(std::ostream& os, std::vector<std::string> const& cells, std::vector<int> const& widths) {
  os << "    ";
  for (std::size_t c = 0; c < cells.size(); ++c) {
    os << cells[c];
    if (c + 1 < cells.size()) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
  }
  os << '\n';
}

/// \brief Section 2's line of a copy by rows (tut::make_row_tiled_copy<Op, T, ROW, THREADS>): its copy
/// operation \p op, laid over the threads RowThrLayout, each moving the values RowValLayout (the two
/// layouts make_tiled_copy was given).
template <class T, int ROW, int THREADS>
void print_row_copy(std::ostream& os, std::string const& name, std::string const& op, std::string const& note) {
  print_item(os, name,
             op + " x threads " + plain(RowThrLayout<T, ROW, THREADS>{}) + " x values " +
                 plain(cute::shape(RowValLayout<T>{})),
             note);
}

/// \brief Section 2's TiledMMA line: the wgmma atom of Cfg, laid over \p warpgroups warpgroups along M.
template <class Cfg>
void print_wgmma_atom(std::ostream& os, int warpgroups, std::string const& note) {
  int const bn = cute::size<1>(typename Cfg::CtaTiler{});
  print_item(os, "TiledMMA",
             "SM90_64x" + str(bn) + "x16_F32F16F16_SS<K,K> x warpgroups (" + str(warpgroups) + ",1,1)", note);
}

/// \brief Section 2's lines of a warp-specialized kernel (steps 10 on): the consumer and producer
/// warpgroups (\p consumers says which threads the consumers are), setmaxnreg's split of the register file, the
/// ring's stages, and the TiledMMA (over \p mma_warpgroups warpgroups, \p mma_note).
template <class Cfg>
void print_roles(std::ostream& os, std::string const& consumers, int mma_warpgroups, std::string const& mma_note) {
  int const consumer_threads = Cfg::kConsumers * 128;
  print_item(os, "warpgroups",
             str(Cfg::kConsumers) + " consumers " + consumers + " + 1 producer (threads " + str(consumer_threads) +
                 ".." + str(Cfg::kThreads - 1) + ")",
             "4 warps each");
  print_item(os, "setmaxnreg",
             "producer " + str(Cfg::kProducerRegs) + ", consumers " + str(Cfg::kConsumerRegs) + " registers per thread",
             "128x" + str(Cfg::kProducerRegs) + " + " + str(consumer_threads) + "x" + str(Cfg::kConsumerRegs) + " = " +
                 str(128 * Cfg::kProducerRegs + consumer_threads * Cfg::kConsumerRegs) + " of 65536");
  print_item(os, "stages", str(Cfg::kStages), "k-tiles in the smem ring");
  print_wgmma_atom<Cfg>(os, mma_warpgroups, mma_note);
}

/// \brief Section 2's TMA line of a kernel whose A and B arrive by TMA (steps 09 on).
inline void print_tma_load(std::ostream& os) {
  print_item(os, "TMA", "SM90_TMA_LOAD, make_tma_copy(op, mA, sA(_,_,0)) and the same for B",
             "one box per operand and k-tile");
}
/// \brief The sizes line of a TMA kernel: K in whole 16-byte rows of \p chunk elements.
inline void print_tma_sizes(std::ostream& os, int chunk) {
  print_item(os, "sizes", "any M and N; K a multiple of " + str(chunk), "a TMA row pitch is a multiple of 16 bytes");
}

/// \brief Section 3's ring: \p intro, then GMMA's 128-byte swizzle atom (and, with \p sw_line, what its
/// swizzle does), sA and sB, sC (printed as \p sc, with \p sc_note), a stage's bytes and the CTA's
/// (\p smem_note).
template <class Cfg, class Atom>
void print_gmma_ring(std::ostream& os, std::string const& intro, bool sw_line, std::string const& sc,
                     std::string const& sc_note, std::string const& smem_note) {
  using TA = typename Cfg::TiledMma::ValTypeA;
  typename Cfg::CtaTiler tiler;
  int const bm = cute::size<0>(tiler), bn = cute::size<1>(tiler), bk = cute::size<2>(tiler);
  static_assert(std::is_same_v<Atom, cute::GMMA::Layout_K_SW128_Atom<cute::half_t>>, "the name printed below");
  os << intro;
  print_item(os, "atom", plain(Atom{}), "GMMA::Layout_K_SW128_Atom<half_t>: 8 rows x 64 halves, 1 KB");
  if (sw_line)
    os << "  Sw<3,4,3> acts on the byte address: 16-byte chunk c of 128-byte row r (of 8) is stored at chunk c ^ r.\n";
  print_item(os, "sA", plain(typename Cfg::SmemLayoutA{}), "(BLK_M,BLK_K,STAGES) -> smem_idx, the atom tiled");
  print_item(os, "sB", plain(typename Cfg::SmemLayoutB{}), "(BLK_N,BLK_K,STAGES) -> smem_idx");
  print_item(os, "sC", sc, sc_note);
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(bm * bk * int(sizeof(TA))) + " + of B " + str(bn * bk * int(sizeof(TA))));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA", smem_note);
}

/// \brief The TMA tensors of section 3: the kernel tiles coordinates, not addresses (steps 09 on).
template <class Tiles>
void print_tma_tensors(std::ostream& os, Tiles const& t) {
  os << "  The kernel tiles TMA tensors instead: tma_a.get_tma_tensor((M,K)) holds coordinates, not addresses\n";
  print_item(os, "gA", plain(t.cA.layout()), "(BLK_M,BLK_K,k) -> (m,k): where each k-tile's box starts");
  print_item(os, "gB", plain(t.cB.layout()), "(BLK_N,BLK_K,k) -> (n,k)");
}

/// \brief Section 3's TMA boxes of the traced tile (\p t, of problem \p o), and the TMA partitions of A,
/// printed from a TMA copy made as the launch makes it (tut/launch.cuh). On the host, in code nvcc does
/// not compile, make_tma_copy encodes no descriptor: the layouts need none. \p who issues the copies.
template <class Cfg, class Tiles>
void print_tma_boxes(std::ostream& os, Tiles const& t, Options const& o, std::string const& who) {
  using namespace cute;
  using TA = typename Cfg::TiledMma::ValTypeA;
  typename Cfg::CtaTiler tiler;
  int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
  int const m0 = o.tile.m * bm, n0 = o.tile.n * bn;  // the tile's first row and col
  int const bytes_a = bm * bk * int(sizeof(TA)), bytes_b = bn * bk * int(sizeof(TA));
  os << "\n  TMA: " << who << " issues two copies per k-tile; each moves one box, gmem -> one stage of smem\n";
  print_item(os, "box A", str(bk) + " x " + str(bm) + " halves (k x m), " + str(bytes_a) + " bytes",
             "= sA(_,_,stage): the box is the stage's layout");
  print_item(os, "box B", str(bk) + " x " + str(bn) + " halves (k x n), " + str(bytes_b) + " bytes", "= sB(_,_,stage)");
  print_item(os, "swizzle", "CU_TENSOR_MAP_SWIZZLE_128B", "the TMA unit writes the atom's Sw<3,4,3> as it stores");
  print_item(os, "A rows", box_rows(m0, bm, int(o.problem.m)), "this CTA's boxes of A");
  print_item(os, "B rows", box_rows(n0, bn, int(o.problem.n)), "this CTA's boxes of B");
  auto tma_a = make_tma_copy(SM90_TMA_LOAD{}, t.mA, typename Cfg::SmemLayoutA{}(_, _, 0));
  Tensor gA = local_tile(tma_a.get_tma_tensor(shape(t.mA)), tiler, make_coord(o.tile.m, o.tile.n, _),
                         cute::Step<_1, X, _1>{});                              // (BLK_M,BLK_K,k) -> (m,k)
  Tensor sA = make_tensor(make_smem_ptr(static_cast<TA*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,STAGES)
  auto cta_tma_a = tma_a.get_slice(Int<0>{});
  print_item(os, "tAgA", plain(cta_tma_a.partition_S(gA).layout()), "(TMA,TMA_M,TMA_K,k) = partition_S(gA)");
  print_item(os, "tAsA", plain(cta_tma_a.partition_D(sA).layout()), "(TMA,TMA_M,TMA_K,STAGES) = partition_D(sA)");
  os << "  Mode TMA is the whole k-tile, one copy. TMA's coordinates count k first: 1@0 is one k, 1@1 one row.\n";
}

/// \brief Section 3's wgmma partition of thread \p T of \p mma (the caller has said whose thread it is):
/// what it reads of sA and sB, its descriptors, and the accumulators it owns in the traced tile \p t.
/// \p a_rows says which rows of sA its warpgroup reads.
template <class Mma, class SA, class SB, class Tiles>
void print_wgmma_partition(std::ostream& os, Mma const& mma, int T, SA const& sA, SB const& sB, Tiles const& t,
                           std::string const& a_rows) {
  using namespace cute;
  auto thr_mma = mma.get_slice(T);
  Tensor tCsA = thr_mma.partition_A(sA);                   // (MMA,MMA_M,MMA_K,STAGES)
  Tensor tCsB = thr_mma.partition_B(sB);                   // (MMA,MMA_N,MMA_K,STAGES)
  Tensor tCgC = thr_mma.partition_C(t.gC);                 // (MMA,MMA_M,MMA_N)
  Tensor csA = make_identity_tensor(make_shape(size<0>(sA), size<1>(sA)));  // (BLK_M,BLK_K) -> (m,k)
  Tensor csB = make_identity_tensor(make_shape(size<0>(sB), size<1>(sB)));  // (BLK_N,BLK_K) -> (n,k)
  print_item(os, "tCsA", plain(tCsA.layout()), "(MMA,MMA_M,MMA_K,STAGES) = partition_A(sA)");
  print_item(os, "", elements(thr_mma.partition_A(csA), "sA m", "k"), a_rows);
  print_item(os, "tCsB", plain(tCsB.layout()), "(MMA,MMA_N,MMA_K,STAGES) = partition_B(sB)");
  print_item(os, "", elements(thr_mma.partition_B(csB), "sB n", "k"), "all of B's tile");
  print_item(os, "tCrA", "(MMA,MMA_M,MMA_K,STAGES): " + plain(shape(tCsA)) + " descriptors",
             "make_fragment_A(tCsA): one 64-bit smem descriptor per wgmma");
  print_item(os, "tCrB", "(MMA,MMA_N,MMA_K,STAGES): " + plain(shape(tCsB)) + " descriptors", "make_fragment_B(tCsB)");
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()),
             str(size(thr_mma.make_fragment_C(tCgC))) + " fp32 accumulators in registers");
  auto [rows, cols] = rows_cols(coords_of(thr_mma.partition_C(t.cC)));
  print_item(os, "C rows", rows, "global rows, as partition_C(cC) says");
  print_item(os, "C cols", cols);
}

/// \brief Section 3's epilogue through smem by the threads (steps 08-10): thread \p T's accumulators into
/// \p sC through \p mma's partition_C, then out through \p copy_c's partition (\p intro says whose).
template <class Mma, class SC, class CopyC, class Tiles>
void print_smem_epilogue(std::ostream& os, Mma const& mma, CopyC const& copy_c, int T, SC const& sC, Tiles const& t,
                         std::string const& intro) {
  using namespace cute;
  auto thr_copy_c = copy_c.get_slice(T);
  Tensor csC = make_identity_tensor(make_shape(size<0>(sC), size<1>(sC)));  // (BLK_M,BLK_N) -> (m,n)
  os << "\n  epilogue " << intro << ": registers -> sC through partition_C, then thr_copy_c = copy_c.get_slice(" << T
     << ")\n";
  print_item(os, "tCsC", plain(mma.get_slice(T).partition_C(sC).layout()), "(MMA,MMA_M,MMA_N) = partition_C(sC)");
  print_item(os, "tDsC", plain(thr_copy_c.partition_S(sC).layout()), "(CPY,CPY_M,CPY_N) = partition_S(sC)");
  print_item(os, "tDgC", plain(thr_copy_c.partition_D(t.gC).layout()), "(CPY,CPY_M,CPY_N) = partition_D(gC)");
  print_item(os, "", elements(thr_copy_c.partition_D(csC), "sC m", "n"), "the C entries it stores");
}

/// \brief Section 4's close in steps 08-10, whose epilogue is step 07's: it \p intro ("is step07's"), then
/// how \p copy_c's partition stores C in whole rows of the \p bn floats of the CTA's tile (\p chunk floats
/// a store), and which of thread \p T's stores stay inside the problem's N (print_chunk_stores).
template <class CopyC, class Tiles>
void print_smem_epilogue_stores(std::ostream& os, CopyC const& copy_c, int T, Tiles const& t, int bn, int chunk,
                                std::string const& intro, std::string const& barrier) {
  using namespace cute;
  // The epilogue's partition and masks, as the kernel makes them.
  Tensor tDpC = make_mask(copy_c.get_slice(T).partition_D(t.cC), shape(t.mC));  // (CPY,CPY_M,CPY_N) -> m<M && n<N
  os << "\n  The epilogue " << intro << ": after warpgroup_wait<0>() and " << barrier
     << ", copy(tCrC, tCsC) puts the\n"
     << "  accumulators in sC through partition_C, which now follows wgmma's C layout, a barrier, then\n"
     << "  copy_if(copy_c, tDpC, tDsC, tDgC) stores whole rows, " << bn / chunk << " threads per row of " << bn
     << " floats.\n";
  print_chunk_stores(os, tDpC, T, size<1>(t.mC), chunk);
}

/// \brief Section 3's epilogue through smem subtiles stored by TMA (steps 11 on): thread \p T's accumulators
/// of the traced tile \p t, by subtile, laid on buffer 0 of sC (Cfg::TileOnBuffer); \p by_subtile is the
/// kernel's regrouping of a partition by subtile (its result printed with \p label), \p buffers whose
/// buffers they are.
template <class Cfg, class Mma, class Tiles, class BySubtile>
void print_subtile_epilogue(std::ostream& os, Mma const& mma, int T, Tiles const& t, BySubtile by_subtile,
                            std::string const& label, std::string const& buffers) {
  using namespace cute;
  using TC = typename Cfg::TiledMma::ValTypeC;
  auto thr_mma = mma.get_slice(T);
  Tensor sC_tile = make_tensor(make_smem_ptr(static_cast<TC*>(nullptr)),
                               composition(typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{}));  // (BLK_M,BLK_N)
  Tensor tCsC = by_subtile(thr_mma.partition_C(sC_tile));  // (V,SUBTILES) -> buffer 0
  Tensor tCcC = by_subtile(thr_mma.partition_C(t.cC));     // (V,SUBTILES) -> (m,n)
  int const subtiles = Cfg::kSubtiles, bm = size<0>(typename Cfg::CtaTiler{});
  int const epi_n = size<1>(typename Cfg::CtaTiler{}) / subtiles;
  os << "\n  epilogue: the C tile in " << subtiles << " subtiles of " << bm << " x " << epi_n << ", each through one of "
     << buffers << " buffers\n";
  print_item(os, "sC_tile", plain(typename Cfg::TileOnBuffer{}), "(BLK_M,(EPI_N,SUBTILES)) -> buffer 0: subtile stride 0");
  print_item(os, "tCsC", plain(tCsC.layout()), label);
  auto [sub_rows, sub_cols] = rows_cols(coords_of(tCcC(_, 0)));
  print_item(os, "subtile 0", "rows " + sub_rows + ", cols " + sub_cols,
             "this thread's " + str(size<0>(tCcC)) + " values of it");
  auto [last_rows, last_cols] = rows_cols(coords_of(tCcC(_, subtiles - 1)));
  print_item(os, "subtile " + str(subtiles - 1), "rows " + last_rows + ", cols " + last_cols);
}

/// \brief The loop counts of the mainloop: per k-tile, \p mma_k wgmmas of \p rows x \p bn x 16 per warpgroup.
inline void print_wgmma_counts(std::ostream& os, int mma_k, int rows, int bn, int k_tiles) {
  os << "\n  gemm() per k-tile: " << mma_k << " wgmma (MMA_K) per warpgroup, each " << rows << "x" << bn
     << "x16; loop counts: " << k_tiles << " k-tiles x " << mma_k << " = " << k_tiles * mma_k
     << " wgmma per warpgroup\n";
}

}  // namespace tut

namespace tut {

/// \brief The ring's barrier phases around a CTA's first tile boundary (a persistent kernel's): the first
/// tile's last \p stages+1 k-tiles and the next tile's first \p stages+1, from \p schedule (ring_schedule).
inline void print_ring_across_tiles(std::ostream& os, std::vector<RingStep> const& schedule, int stages, int k_tiles) {
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    RingStep const& b = schedule[i];
    bool const near_end = b.visit == 0 && b.k_tile >= k_tiles - (stages + 1);
    bool const near_start = b.visit == 1 && b.k_tile <= stages;
    if (schedule.size() <= std::size_t(2 * stages + 2) || near_end || near_start) shown.push_back(i);
  }
  os << "    visit  k-tile  stage  producer: wait empty[s] for        consumers: wait full[s] for  then release\n";
  std::size_t last = 0;
  for (std::size_t i : shown) {
    if (i > last + 1 || (i > 0 && last == 0 && shown.front() != 0)) os << "    ...\n";
    last = i;
    RingStep const& b = schedule[i];
    if (b.epi_parity >= 0)
      print_row(os, {"", "", "", "(first: epi_done, parity " + str(b.epi_parity) + ")"}, {7, 8, 7, 35});
    std::string const wait_empty = "parity " + str(b.empty_parity) +
                                   (b.lap == 0 ? " (passes: fresh)" : " (" + str(stages) + " k-tiles earlier read)");
    std::string released =
        b.released_stage < 0 ? "" : "empty[" + str(b.released_stage) + "] (k-tile " + str(b.released_k_tile) + ")";
    if (b.epilogue_released_stage >= 0)
      released += (released.empty() ? "" : ", ") + std::string("empty[") + str(b.epilogue_released_stage) +
                  "] in the epilogue";
    print_row(os, {str(b.visit), str(b.k_tile), str(b.stage), wait_empty, "parity " + str(b.full_parity),
                   released.empty() ? "-" : released},
              {7, 8, 7, 35, 29});
  }
  if (last + 1 < schedule.size()) os << "    ...\n";
}

}  // namespace tut

namespace tut {

/// \brief Section 2's opening for the kernels whose warpgroups all compute (steps 08, 09): the tiler and
/// grid, the configuration, the warpgroups (what else they do: \p roles), the stages and the wgmma atom.
/// Returns the traced CTA.
template <class Cfg>
TracedTile print_warpgroups_head(std::ostream& os, Options const& o, std::string const& roles) {
  typename Cfg::CtaTiler cta_tiler;
  auto const traced = print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads);
  print_item(os, "config", config_name<Cfg>(), "--variant");
  print_item(os, "warpgroups", str(Cfg::kWarpgroups) + " of 4 warps (" + str(Cfg::kThreads) + " threads)", roles);
  print_item(os, "stages", str(Cfg::kStages), "k-tiles in the smem ring");
  print_wgmma_atom<Cfg>(os, Cfg::kWarpgroups,
                        "wgmma.mma_async m64n" + str(cute::size<1>(cta_tiler)) + "k16, A and B from smem");
  return traced;
}

/// \brief Section 2's copy lines of a kernel whose C leaves by TMA stores (steps 12, 13): the TMA load, the
/// epilogue's Cfg::kSubtiles boxes of BLK_M × \p epi_n floats per tile (\p who: by whom, or ""), stored by
/// TMA where N is a multiple of \p chunk_c, and the sizes the step runs (K a multiple of \p chunk).
template <class Cfg>
void print_tma_store_lines(std::ostream& os, int epi_n, int chunk_c, int chunk, std::string const& who) {
  int const bm = cute::size<0>(typename Cfg::CtaTiler{});
  print_tma_load(os);
  print_item(os, "epilogue",
             "SM90_TMA_STORE, make_tma_copy(op, mC, sC(_,_,0)): " + str(Cfg::kSubtiles) + " boxes of " + str(bm) +
                 " x " + str(epi_n) + " per tile" + who,
             "when N % " + str(chunk_c) + " == 0; else each thread stores its own");
  print_tma_sizes(os, chunk);
}

/// \brief Section 3's opening, as every Hopper step prints it: the traced CTA's tiles of the problem laid
/// out by the step's \p MakeA, \p MakeB, \p MakeC (tile_cta), the section's title, the CTA's tiles and,
/// for a step whose copies the TMA unit makes (\p tma), its coordinate tensors. Returns the tiles.
template <class TA, class TC, auto MakeA, auto MakeB, auto MakeC, class CtaTiler>
auto print_section3_tiles(std::ostream& os, Options const& o, CtaTiler const& cta_tiler, TracedTile const& traced,
                          bool tma) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  auto const t = tile_cta<TA, TC>(cta_tiler, MakeA(M, K), MakeB(N, K), MakeC(M, N), o.tile.m, o.tile.n);
  print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(o.thread));
  print_cta_tiles(os, t, traced);
  if (tma) print_tma_tensors(os, t);
  return t;
}

/// \brief What sections 2 and 3 leave for section 4: the traced CTA's tiles (tile_cta) and its place in
/// the schedule.
template <class Tiles>
struct TracedSections {
  Tiles t;            ///< the traced CTA's tiles of A, B and C
  TracedTile traced;  ///< which CTA, tile and visit
};

/// \brief How a kernel with the C tile staged in the ring's smem (steps 08–11) gets A and B there: by
/// cp.async (step 08), by the TMA unit (step 09), or by the TMA unit in a producer warpgroup of its own
/// (steps 10 and 11).
enum class RingCopies { cp_async, tma, tma_producer };

/// \brief Sections 2 and 3 of a wgmma kernel whose epilogue stores the C tile through the ring's smem with
/// a TiledCopy (steps 08–11): the tiler and grid, the warpgroups (or roles), the copies, the ring and sC,
/// one thread's copy partition (or the TMA's boxes), its wgmma partition and its epilogue. \p TA, \p TC:
/// the element types; \p SmemAtomAB: the GMMA atom of sA and sB; \p MakeA, \p MakeB, \p MakeC: the step's
/// problem layouts; \p COPIES: how A and B arrive; \p chunk: K's multiple; \p barriers: the mbarriers, as
/// the smem line counts them (TMA kernels only).
template <RingCopies COPIES, class Cfg, class TA, class TC, class SmemAtomAB, auto MakeA, auto MakeB, auto MakeC>
auto print_staged_c_sections(std::ostream& os, Options const& o, int chunk, std::string const& barriers = "") {
  using namespace cute;
  int const T = int(o.thread);
  constexpr int S = Cfg::kStages;
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  typename Cfg::TiledCopyC copy_c;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler);
  constexpr bool producer = COPIES == RingCopies::tma_producer;
  int const consumers = int(size(mma)) / 128;  // the warpgroups that compute (and store C)

  TracedTile const traced = [&] {
    if constexpr (producer) {
      TracedTile const tr = print_tiler_and_grid(os, cta_tiler, o, Cfg::kThreads, Cfg::kSchedule);
      print_item(os, "config", config_name<Cfg>(), "--variant");
      print_roles<Cfg>(os, "(threads 0.." + str(int(size(mma)) - 1) + ")", consumers,
                       "wgmma.mma_async m64n" + str(bn) + "k16, A and B from smem");
      return tr;
    } else {
      return print_warpgroups_head<Cfg>(os, o,
                                        COPIES == RingCopies::tma ? "each computes; thread 0 also issues the TMA copies"
                                                                  : "each copies and computes, as step07's warps did");
    }
  }();
  if constexpr (COPIES == RingCopies::cp_async)
    print_row_copy<TA, size<2>(typename Cfg::CtaTiler{}), int(size(typename Cfg::TiledMma{}))>(
        os, "TiledCopy", "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>", "gmem -> smem, as step07, zero-fill");
  else
    print_tma_load(os);
  print_row_copy<TC, size<1>(typename Cfg::CtaTiler{}), int(size(typename Cfg::TiledMma{}))>(
      os, "epilogue", "UniversalCopy<uint128_t>",
      producer ? "smem -> gmem by the consumers, 16 bytes per store, as step09"
               : "smem -> gmem, 16 bytes per store, as step07");
  if constexpr (COPIES == RingCopies::cp_async)
    print_item(os, "sizes", "any M and N; K a multiple of " + str(chunk), "whole 16-byte chunks per row");
  else
    print_tma_sizes(os, chunk);

  auto const t =
      print_section3_tiles<TA, TC, MakeA, MakeB, MakeC>(os, o, cta_tiler, traced, COPIES != RingCopies::cp_async);
  Tensor sA = make_tensor(make_smem_ptr(static_cast<TA*>(nullptr)), typename Cfg::SmemLayoutA{});  // (BLK_M,BLK_K,S)
  Tensor sB = make_tensor(make_smem_ptr(static_cast<TA*>(nullptr)), typename Cfg::SmemLayoutB{});  // (BLK_N,BLK_K,S)
  Tensor sC = make_tensor(make_smem_ptr(static_cast<TC*>(nullptr)), typename Cfg::SmemLayoutC{});  // (BLK_M,BLK_N)
  std::string const ring = "shared memory: a ring of " + str(S) + " k-tiles of A and of B";
  std::string const c_reuse = "sC's " + str(bm * bn * int(sizeof(TC))) + " reuse them";
  if constexpr (producer)
    print_gmma_ring<Cfg, SmemAtomAB>(
        os, "\n  " + ring + ", in GMMA's 128-byte swizzle atom\n", true, plain(sC.layout()),
        "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)",
        str(S) + " stages x " + str(Cfg::kStageBytes) + " (" + c_reuse + "), " + barriers +
            " mbarriers, 1 KB alignment");
  else
    print_gmma_ring<Cfg, SmemAtomAB>(
        os, std::string(COPIES == RingCopies::tma ? "\n" : "") + "  " + ring +
                " in GMMA's 128-byte swizzle atom, then the C\n  tile in the same bytes\n",
        false, plain(sC.layout()), "(BLK_M,BLK_N) -> smem_idx, row-major, swizzled (step07's)",
        str(S) + " stages x " + str(Cfg::kStageBytes) +
            (COPIES == RingCopies::tma ? " (" + c_reuse + "), " + barriers + " mbarriers, 1 KB alignment"
                                       : "; " + c_reuse));
  if constexpr (COPIES == RingCopies::cp_async)
    print_copy_partition(os, t, sA, sB, typename Cfg::TiledCopyA{}, typename Cfg::TiledCopyB{}, T,
                         "cp.async chunks of each k-tile", false);
  else
    print_tma_boxes<Cfg>(os, t, o, producer ? "one thread" : "thread 0");

  os << "\n  thr_mma = mma.get_slice(" << T << "): thread " << T % 128
     << (producer ? " of consumer warpgroup " : " of warpgroup ") << T / 128 << " (warp " << T / 32
     << "), the warpgroup at " << thread_mn(mma, T) << "\n";
  os << "  (Offsets before the swizzle: CuTe keeps " << (producer ? "an" : "a GMMA")
     << " smem tensor's swizzle in its pointer.)\n";
  print_wgmma_partition(os, mma, T, sA, sB, t, "its warpgroup's rows, every k");
  print_smem_epilogue(os, mma, copy_c, T, sC, t, producer ? "(step09's)" : "(step07's)");
  int const k_tiles = int(size<2>(t.gA));
  print_wgmma_counts(os, int(size<2>(mma.get_slice(T).partition_A(sA))), bm / consumers, bn, k_tiles);
  return TracedSections<std::decay_t<decltype(t)>>{t, traced};
}

}  // namespace tut

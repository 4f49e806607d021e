/// \file printout_sm80.hpp
/// \brief The printout sections that the steps before Hopper (02-07) share, each printed from the step's
/// configuration type and the objects its kernel builds (host only): the traced tile's tensors, section 2's
/// TiledMMA and TiledCopy lines, one thread's math partitions (scalar FMA or mma.sync) and loop counts, the
/// smem ring and the epilogue through smem, the bank model's counts, and the variants whose copies fall
/// back to scalar ones. A step's own printout (its step.cpp) calls these and prints what is new in it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <ostream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/banks.hpp"
#include "tut/format.hpp"
#include "tut/make_step.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace tut {

// ---- The traced tile, and section 3's opening -------------------------------------------------------

/// \brief tile_cta() of \p o's tile, for operands laid out as the step's \p MakeA(M,K), \p MakeB(N,K) and
/// \p MakeC(M,N) lay out \p o's problem: the kernel's tensors of the traced tile (gA, gB, gC), and the same
/// tiling of identity tensors (cA, cB, cC), which gives the global (m,k), (n,k), (m,n) of every element.
template <class TA, class TC, auto MakeA, auto MakeB, auto MakeC, class CtaTiler>
auto traced_tiles(CtaTiler const& cta_tiler, Options const& o) {
  int const M = int(o.problem.m), N = int(o.problem.n), K = int(o.problem.k);
  return tile_cta<TA, TC>(cta_tiler, MakeA(M, K), MakeB(N, K), MakeC(M, N), o.tile.m, o.tile.n);
}

/// \brief Section 3's banner (the traced tile and thread \p T) and the traced tile's tiles (print_cta_tiles).
template <class Tiles>
void print_partitions_header(std::ostream& os, Tiles const& t, TracedTile const& traced, int T) {
  print_section(os, 3, "Partitions of " + traced.name + ", thread " + str(T));
  print_cta_tiles(os, t, traced);
}

// ---- Section 2: the TiledMMA and the TiledCopys -----------------------------------------------------

/// \brief "32x32x16": the (M,N,K) tile \p mma covers at once, its sizes joined by \p sep.
template <class TiledMma>
std::string mma_tile(TiledMma const& mma, std::string const& sep = "x") {
  using cute::tile_size;
  return str(tile_size<0>(mma)) + sep + str(tile_size<1>(mma)) + sep + str(tile_size<2>(mma));
}

/// \brief Section 2's TiledMMA line of an mma.sync kernel (steps 05-07): Cfg's SM80 16x8x16 atom over its
/// kWarpsM x kWarpsN warps, with \p note.
template <class Cfg>
void print_mma_sync_atom(std::ostream& os, std::string const& note) {
  using namespace cute;
  static_assert(std::is_same_v<typename Cfg::TiledMma::Atom::MMA_Op, SM80_16x8x16_F32F16F16F32_TN>,
                "the name printed below");
  print_item(os, "TiledMMA",
             "SM80_16x8x16_F32F16F16F32_TN x warps " + plain(Shape<Int<Cfg::kWarpsM>, Int<Cfg::kWarpsN>, _1>{}), note);
}

/// \brief "UniversalCopy<uint128_t>": the copy op that moves \p bits bits at once.
inline std::string universal_copy(int bits) { return "UniversalCopy<uint" + str(bits) + "_t>"; }

/// \brief Section 2's two lines of a TiledCopy: its copy op \p op over the threads \p ThrLayout (\p thr_note
/// beside them), each moving the values \p ValLayout (\p val_note after them, \p note beside): the two
/// layouts make_tiled_copy was given, printed from the types.
template <class ThrLayout, class ValLayout>
void print_tiled_copy_lines(std::ostream& os, std::string const& op, std::string const& thr_note,
                            std::string const& val_note, std::string const& note) {
  print_item(os, "TiledCopy", op + " x threads " + plain(ThrLayout{}), thr_note);
  print_item(os, "", "x values " + plain(cute::shape(ValLayout{})) + ": " + val_note, note);
}

/// \brief "thread t -> (t/C, t%C)": where a row-major thread layout of \p per_row threads a row puts thread t.
inline std::string row_major_thread_at(int per_row) {
  return "thread t -> (t/" + str(per_row) + ", t%" + str(per_row) + ")";
}


/// \brief Section 2's sizes line of a kernel that copies A and B in 16-byte chunks of \p chunk elements.
inline void print_chunk_sizes(std::ostream& os, int chunk) {
  print_item(os, "sizes", "any M and N; K a multiple of " + str(chunk), "whole 16-byte chunks per row");
}

// ---- Section 3: one thread's math partitions --------------------------------------------------------

/// \brief The line that opens thread \p T's math partitions, "thr_mma = mma.get_slice(T)", and where the
/// thread sits: its own (tm,tn) under a scalar-FMA TiledMMA, its lane and its warp's (tm,tn) under warp-wide
/// atoms.
template <class TiledMma>
void print_thr_mma(std::ostream& os, TiledMma const& mma, int T) {
  os << "\n  thr_mma = mma.get_slice(" << T << "): ";
  if constexpr (decltype(cute::size(typename TiledMma::AtomThrID{}))::value == 1)
    os << "thread " << T << "'s share ";
  else
    os << "lane " << T % 32 << " of warp " << T / 32 << ", the warp at ";
  os << thread_mn(mma, T) << "\n";
}

/// \brief The rows and cols of C a thread computes: the distinct coordinates of \p tCcC, its partition_C of
/// an identity tile.
template <class CoordTensor>
void print_c_rows_cols(std::ostream& os, CoordTensor const& tCcC,
                       std::string const& rows_note = "global rows, as partition_C(cC) says",
                       std::string const& cols_note = "") {
  auto [rows, cols] = rows_cols(coords_of(tCcC));
  print_item(os, "C rows", rows, rows_note);
  print_item(os, "C cols", cols, cols_note);
}

/// \brief The loop counts of a scalar-FMA kernel: per thread, k-tiles x k-blocks x FMAs.
struct FmaCounts {
  int k_tiles = 0;   ///< k-tiles per tile
  int k_blocks = 0;  ///< k-blocks per k-tile
  int fmas = 0;      ///< FMAs per k-block: the thread's accumulators
};

/// \brief Thread \p T's math partitions under a scalar-FMA TiledMMA (steps 02-04), and the loop counts:
/// tCgC, then the partitions of one k-tile of A and of B, \p a and \p b: read straight from gmem (gA(_,_,k),
/// gB(_,_,k)), or from the smem tiles sA, sB, then into registers tCrA; then the rows and cols of C it
/// computes, and those of A and B it reads (off \p ca, \p cb: the same tiling of identity tensors).
template <class TiledMma, class Tiles, class A, class B, class CA, class CB>
FmaCounts print_fma_partitions(std::ostream& os, TiledMma const& mma, int T, Tiles const& t, A const& a, B const& b,
                               CA const& ca, CB const& cb) {
  using namespace cute;
  constexpr bool smem = is_smem<A>::value;
  std::string const x = smem ? "s" : "g", src_a = smem ? "sA" : "gA(_,_,k)", src_b = smem ? "sB" : "gB(_,_,k)";
  auto thr_mma = mma.get_slice(T);
  Tensor tCgC = thr_mma.partition_C(t.gC);  // (MMA,MMA_M,MMA_N)
  Tensor tCxA = thr_mma.partition_A(a);     // (MMA,MMA_M,MMA_K)
  Tensor tCxB = thr_mma.partition_B(b);     // (MMA,MMA_N,MMA_K)
  print_thr_mma(os, mma, T);
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N)  partition_C(gC)");
  print_item(os, "tC" + x + "A", plain(tCxA.layout()), "(MMA,MMA_M,MMA_K)  partition_A(" + src_a + ")");
  print_item(os, "tC" + x + "B", plain(tCxB.layout()), "(MMA,MMA_N,MMA_K)  partition_B(" + src_b + ")");
  if constexpr (smem) print_item(os, "tCrA", plain(thr_mma.partition_fragment_A(a).layout()), "registers; tCrB alike");
  print_c_rows_cols(os, thr_mma.partition_C(t.cC));
  // Which rows of its k-tile each operand's partition reads: C's own rows (of A) and cols (of B).
  auto reads = [&](auto const& tCcX, std::string const& op, std::string const& of_c) {
    auto [rows, ks] = rows_cols(coords_of(tCcX));
    std::string const which =
        smem ? " of every k-tile: C's " + of_c + ", in the tile" : " of k-tile 0: the same " + of_c + " as C";
    print_item(os, (smem ? "s" : "") + op + " rows", rows, "k " + ks + which);
  };
  reads(thr_mma.partition_A(ca), "A", "rows");
  reads(thr_mma.partition_B(cb), "B", "cols");
  FmaCounts const n{int(size<2>(t.gA)), int(size<2>(tCxA)), int(size(tCgC))};
  os << "\n  loop counts: " << n.k_tiles << " k-tiles x " << n.k_blocks << " k-blocks x " << n.fmas << " FMAs = "
     << n.k_tiles * n.k_blocks * n.fmas << " FMAs per thread (" << n.fmas << " outputs x " << n.k_tiles * n.k_blocks
     << " k)\n";
  return n;
}

/// \brief Section 3 of a scalar-FMA kernel that stages its k-tiles through smem (steps 03, 04), configuration
/// Cfg: the banner and the traced tile's tiles, the smem tiles \p sA and \p sB (laid out as \p major_a and
/// \p major_b say) with thread \p T's copy partitions (print_smem_and_copy; \p smem_idx: also where its
/// elements of sA go), then its math partitions and loop counts (print_fma_partitions).
template <class Cfg, class Tiles, class SA, class SB>
FmaCounts print_fma_smem_partitions(std::ostream& os, Tiles const& t, TracedTile const& traced, SA const& sA,
                                    SB const& sB, std::string const& major_a, std::string const& major_b, int T,
                                    bool smem_idx) {
  using namespace cute;
  print_partitions_header(os, t, traced, T);
  print_smem_and_copy(os, t, sA, sB, major_a, major_b, Cfg::kSmemBytes, typename Cfg::TiledCopyA{},
                      typename Cfg::TiledCopyB{}, T, "share of each k-tile, gmem -> smem", smem_idx);
  Tensor csA = make_identity_tensor(shape(sA));  // (BLK_M,BLK_K) -> (m,k) in the tile
  Tensor csB = make_identity_tensor(shape(sB));  // (BLK_N,BLK_K) -> (n,k) in the tile
  return print_fma_partitions(os, typename Cfg::TiledMma{}, T, t, sA, sB, csA, csB);
}

/// \brief Two lines of one partition: its layout (\p part, named \p name, its modes and call in \p modes),
/// then the elements it covers, "\p row R x \p col K" off \p coords (the same partition of an identity
/// tensor), and where those are (\p where).
template <class Part, class Coords>
void print_partition(std::ostream& os, std::string const& name, Part const& part, std::string const& modes,
                     Coords const& coords, char const* row, char const* col, std::string const& where) {
  print_item(os, name, plain(part.layout()), modes);
  print_item(os, "", elements(coords, row, col), where);
}

/// \brief The line that opens thread \p T's partitions under \p mma, an mma.sync TiledMMA (steps 05, 06), then
/// its partitions of A and of B: tCgA and tCgB of the gmem tiles \p a, \p b (all k-tiles; their elements in
/// k-tile 0, off \p ca, \p cb), or tCsA and tCsB of the smem tiles (their elements in every k-tile, off
/// identity tensors of the smem tiles' shapes).
template <class TiledMma, class A, class B, class CA, class CB>
void print_mma_ab(std::ostream& os, TiledMma const& mma, int T, A const& a, B const& b, CA const& ca, CB const& cb) {
  using namespace cute;
  constexpr bool smem = is_smem<A>::value;
  std::string const x = smem ? "s" : "g", k = smem ? "" : ",k", where = smem ? "of every k-tile" : "in k-tile 0";
  auto thr_mma = mma.get_slice(T);
  print_thr_mma(os, mma, T);
  print_partition(os, "tC" + x + "A", thr_mma.partition_A(a), "(MMA,MMA_M,MMA_K" + k + ") = partition_A(" + x + "A)",
                  thr_mma.partition_A(ca), smem ? "sA m" : "A m", "k", where);
  print_partition(os, "tC" + x + "B", thr_mma.partition_B(b), "(MMA,MMA_N,MMA_K" + k + ") = partition_B(" + x + "B)",
                  thr_mma.partition_B(cb), smem ? "sB n" : "B n", "k", where);
}

/// \brief Thread slice \p thr_mma's share of C in the traced tile \p t under mma.sync (steps 06, 07): tCgC, its
/// accumulators tCrC, and the rows and cols of C they hold.
template <class ThrMma, class Tiles>
void print_mma_accumulators(std::ostream& os, ThrMma const& thr_mma, Tiles const& t) {
  using namespace cute;
  Tensor tCgC = thr_mma.partition_C(t.gC);  // (MMA,MMA_M,MMA_N)
  print_item(os, "tCgC", plain(tCgC.layout()), "(MMA,MMA_M,MMA_N) = partition_C(gC)");
  print_item(os, "tCrC", plain(thr_mma.make_fragment_C(tCgC).layout()),
             "accumulators: " + str(size<0>(tCgC)) + " floats per atom");
  print_c_rows_cols(os, thr_mma.partition_C(t.cC));
}

// ---- Section 3: the smem ring and the epilogue through smem (step 07) -------------------------------

/// \brief Section 3's smem of a multistage kernel, configuration Cfg: the ring of stages \p sA, \p sB
/// (BLK_MN,BLK_K,STAGES) (A's laid out as \p major_a says), then the C tile \p sC (laid out as \p major_c
/// says) in the same bytes; a stage's bytes and the CTA's.
template <class Cfg, class SA, class SB, class SC>
void print_smem_ring(std::ostream& os, SA const& sA, SB const& sB, SC const& sC, std::string const& major_a,
                     std::string const& major_c) {
  using namespace cute;
  int const elem = int(sizeof(typename SA::value_type)), c_bytes = int(size(sC)) * int(sizeof(typename SC::value_type));
  int const stages = int(size<2>(sA));
  os << "  shared memory: a ring of " << stages << " k-tiles of A and of B, then the C tile in the same bytes\n";
  print_item(os, "sA", plain(sA.layout()), "(BLK_M,BLK_K,STAGES) -> smem_idx, " + major_a);
  print_item(os, "sB", plain(sB.layout()), "(BLK_N,BLK_K,STAGES) -> smem_idx");
  print_item(os, "sC", plain(sC.layout()), "(BLK_M,BLK_N) -> smem_idx, " + major_c);
  print_item(os, "stage", str(Cfg::kStageBytes) + " bytes",
             "a k-tile of A " + str(size(sA(_, _, 0)) * elem) + " + of B " + str(size(sB(_, _, 0)) * elem));
  print_item(os, "smem", str(Cfg::kSmemBytes) + " bytes per CTA",
             str(stages) + " stages x " + str(Cfg::kStageBytes) + "; sC's " + str(c_bytes) + " reuse them");
}

/// \brief Section 3's epilogue through smem: thread \p T's accumulators into \p sC through \p mma's
/// partition_C, then out to the traced tile \p t's gC through \p copy_c's partition, and the C entries it
/// stores.
template <class Mma, class CopyC, class SC, class Tiles>
void print_epilogue_partitions(std::ostream& os, Mma const& mma, CopyC const& copy_c, int T, SC const& sC,
                               Tiles const& t) {
  using namespace cute;
  auto thr_copy_c = copy_c.get_slice(T);
  os << "\n  epilogue: registers -> sC through partition_C, then thr_copy_c = copy_c.get_slice(" << T << ")\n";
  print_item(os, "tCsC", plain(mma.get_slice(T).partition_C(sC).layout()), "(MMA,MMA_M,MMA_N) = partition_C(sC)");
  print_item(os, "tDsC", plain(thr_copy_c.partition_S(sC).layout()), "(CPY,CPY_M,CPY_N) = partition_S(sC)");
  Tensor csC = make_identity_tensor(make_shape(size<0>(sC), size<1>(sC)));  // (BLK_M,BLK_N) -> (m,n)
  print_partition(os, "tDgC", thr_copy_c.partition_D(t.gC), "(CPY,CPY_M,CPY_N) = partition_D(gC)",
                  thr_copy_c.partition_D(csC), "sC m", "n", "the C entries it stores");
}

// ---- Section 4 and --svg: a cp.async pipeline, as a table and as a timeline (step 07) ---------------

/// \brief A pipeline table's fill cell: "k-tile 3 -> stage 0", or, past the last k-tile (\p k_tile < 0), the
/// empty group committed in its place, "nothing (stage 0), empty".
inline std::string fill_cell(int k_tile, int stage) {
  return k_tile >= 0 ? "k-tile " + str(k_tile) + " -> stage " + str(stage)
                     : "nothing (stage " + str(stage) + "), empty";
}

/// \brief A cp.async pipeline's first iterations as a table: what the table shows (\p stages stages, \p k_tiles
/// k-tiles), its \p header line, one line per row of \p rows (each cell but the last left-aligned in a column
/// of \p widths), and, where \p more iterations were left out, a line that says they repeat.
inline void print_pipeline_table(std::ostream& os, int stages, int k_tiles, std::string const& header,
                                 std::vector<std::vector<std::string>> const& rows, std::vector<int> const& widths,
                                 bool more) {
  os << "  The pipeline, " << stages << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA (group g carries k-tile g; one group per fill,\n  empty when no k-tile is left):\n\n"
     << header;
  for (auto const& row : rows) {
    os << "    " << std::left;
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c + 1 < row.size()) os.width(widths[c]);
      os << row[c];
    }
    os << std::right << '\n';
  }
  if (more) os << "    ... (the same, round the ring)\n";
}

// ---- Section 4: an atom's TV grids (step 05) --------------------------------------------------------

/// \brief A blank line, then the TV grid tv_grid() draws (its arguments as there).
inline void print_tv_grid(std::ostream& os, std::string const& title, std::vector<std::pair<int, int>> const& cells,
                          int rows, int cols, int c0, int c1, char row_name, char col_name) {
  os << '\n';
  for (auto const& line : tv_grid(title, cells, rows, cols, c0, c1, row_name, col_name)) os << line << '\n';
}

// ---- Section 4: the swizzle, and the bank model on a plain and a swizzled layout (steps 04, 06) -----

/// \brief Section 4's smem layout of A before and after the swizzle: \p Plain's SmemLayoutA, whose index is
/// i = \p index, and \p Swizzled's, Swizzle(i). Returns the swizzle, for the lines that explain it.
template <class Plain, class Swizzled>
auto print_plain_and_swizzled(std::ostream& os, std::string const& index) {
  print_item(os, "plain", plain(typename Plain::SmemLayoutA{}), "smem_idx = i = " + index);
  print_item(os, "swizzled", plain(typename Swizzled::SmemLayoutA{}), "smem_idx = Swizzle(i)");
  return typename Swizzled::SmemLayoutA{}.layout_a();
}

/// \brief What Swizzle<B,M,S>'s M and B mean for smem accessed in 16-byte pieces (\p pieces, their name) of
/// 2^M \p elements, one \p access each: what stays together, and what spans the 32 banks. Two lines.
template <int B, int M, int S>
void print_swizzle_m_b(std::ostream& os, cute::Swizzle<B, M, S>, std::string const& elements,
                       std::string const& access, std::string const& pieces) {
  os << "    M = " << M << ": 2^" << M << " = " << (1 << M) << " " << elements << " (16 bytes, " << access
     << ") stay together\n"
     << "    B = " << B << ": 2^" << B << " = " << (1 << B) << " " << pieces
     << " of 16 bytes = 128 bytes = all 32 banks\n";
}

/// \brief The bank model's extra wavefronts of a layout over a whole problem.
struct ExtraWavefronts {
  long long stores = 0;  ///< of the copy into smem (tAsA, tBsB)
  long long loads = 0;   ///< of the math's reads (tCsA, tCsB)
};

/// \brief The bank model (tut/banks.hpp) on the kernel's own partitions, per CTA of \p threads threads and per
/// k-tile, for the \p plain and the \p swizzled smem layouts (print_model_lines); returns the extra
/// wavefronts of each over \p k_tile_visits k-tiles (every CTA's).
inline std::pair<ExtraWavefronts, ExtraWavefronts> print_bank_model(
    std::ostream& os, int threads, std::vector<banks::PartitionCount> const& plain,
    std::vector<banks::PartitionCount> const& swizzled, long long k_tile_visits) {
  os << "\n  The model (tut/banks.hpp) on the kernel's own partitions, per CTA (" << threads / 32
     << " warps) and k-tile:\n";
  banks::print_model_lines(os, plain, swizzled);
  auto totals = [&](std::vector<banks::PartitionCount> const& counts) {
    ExtraWavefronts e;
    for (auto const& c : counts) (c.partition[1] == 'C' ? e.loads : e.stores) += c.waves.extra() * k_tile_visits;
    return e;
  };
  return {totals(plain), totals(swizzled)};
}

// ---- The variants -----------------------------------------------------------------------------------

/// \brief make_variant() of configuration \p Cfg, with the smem tiles of its pictures read off Cfg
/// (SmemSideOf, elements of type \p Element).
template <class Cfg, class Element>
Variant smem_variant(std::string name, LaunchFn launch, TraceFn trace, ExtraSvgFn extra_svg = nullptr) {
  return make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma, SmemSideOf<Cfg, Element>>(
      std::move(name), launch, trace, extra_svg);
}

/// \brief The printout of the configuration the launcher runs for \p o's problem: \p Vector's (Cfg's, of
/// VEC-wide copies) where \p Fits(VEC, problem) says its copies fit, else \p Scalar's (Cfg::Scalar's). (The
/// step's launch.cu also checks the pointers' alignment.)
template <auto Fits, int VEC, TraceFn Vector, TraceFn Scalar>
void trace_vector_or_scalar(std::ostream& os, Options const& o) {
  (Fits(VEC, o.problem) ? Vector : Scalar)(os, o);
}

/// \brief --svg: the pictures of the configuration the launcher runs for \p o's problem, Cfg or Cfg::Scalar,
/// as trace_vector_or_scalar() prints it.
template <class Cfg, class Element, auto Fits>
void pictures_vector_or_scalar(Options const& o, OperandStrides const& st, std::string const& step,
                               TileSchedule const& schedule) {
  using Tiler = typename Cfg::CtaTiler;
  using Mma = typename Cfg::TiledMma;
  if (Fits(Cfg::kVec, o.problem))
    write_pictures<Tiler, Mma, SmemSideOf<Cfg, Element>>(o, st, step, schedule);
  else
    write_pictures<Tiler, Mma, SmemSideOf<typename Cfg::Scalar, Element>>(o, st, step, schedule);
}

/// \brief The Variant of configuration \p Cfg of a step whose launch falls back to Cfg::Scalar, its twin with
/// scalar copies, where \p Fits(Cfg::kVec, problem) says Cfg's VEC-wide copies do not fit (steps 03, 04):
/// its printout (\p Vector, Cfg's trace, or \p Scalar, Cfg::Scalar's) and its pictures follow the launch.
template <class Cfg, class Element, auto Fits, TraceFn Vector, TraceFn Scalar>
Variant vector_or_scalar_variant(std::string name, LaunchFn launch, ExtraSvgFn extra_svg = nullptr) {
  Variant v = make_variant<typename Cfg::CtaTiler, typename Cfg::TiledMma>(
      std::move(name), launch, &trace_vector_or_scalar<Fits, Cfg::kVec, Vector, Scalar>, extra_svg);
  v.pictures = &pictures_vector_or_scalar<Cfg, Element, Fits>;
  return v;
}

}  // namespace tut

/// \file step07_multistage/config.hpp
/// \brief Step 07's one source of truth: the problem layouts, and a Config holding the CTA tiler,
/// the staged K-major smem layouts, the cp.async, ldmatrix and epilogue TiledCopys, the TiledMMA and the
/// pipeline's stage counters.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs.
#pragma once

#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/mask.hpp"
#include "tut/problem.hpp"
#include "tut/row_copy.hpp"

namespace step07 {

using namespace cute;

/// \brief Element type of A and B: IEEE binary16.
using ElementAB = half_t;
/// \brief Element type of C and of the accumulators.
using ElementC = float;

//! [problem]
/// \brief A (M,K), K-major: A(m,k) at m·K + k. (m,k) -> idx
CUTE_HOST_DEVICE auto make_layout_A(int M, int K) { return make_layout(make_shape(M, K), make_stride(K, Int<1>{})); }
/// \brief B (N,K), K-major: B(n,k) at n·K + k. (n,k) -> idx
CUTE_HOST_DEVICE auto make_layout_B(int N, int K) { return make_layout(make_shape(N, K), make_stride(K, Int<1>{})); }
/// \brief C (M,N), row-major: C(m,n) at m·N + n. (m,n) -> idx
CUTE_HOST_DEVICE auto make_layout_C(int M, int N) { return make_layout(make_shape(M, N), make_stride(N, Int<1>{})); }
//! [problem]

/// \brief Halves per 16-byte chunk: what one cp.async and one ldmatrix row move, and the unit K comes in.
inline constexpr int kChunk = 16 / int(sizeof(ElementAB));
/// \brief Floats per 16-byte chunk: what one 128-bit store of the epilogue moves.
inline constexpr int kChunkC = 16 / int(sizeof(ElementC));

//! [atoms]
/// \brief The tensor-core instruction of steps 05 and 06.
using MmaOp = SM80_16x8x16_F32F16F16F32_TN;
/// \brief gmem -> smem: step 06's `cp.async.cg`, 16 bytes per thread, zero-filled where masked.
using CopyOpG2S = SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>;
static_assert(tut::zero_fills_v<CopyOpG2S>, "the chunks past the ragged edge must be written as zeros");
/// \brief smem -> registers: `ldmatrix.sync.aligned.m8n8.x4.shared.b16`. One warp loads four 8×8
/// matrices of halves: lane l names the smem address of one 16-byte row (lanes 0-7 matrix 0's rows,
/// 8-15 matrix 1's, ...), and every lane receives 2 halves of each matrix in one 32-bit register,
/// exactly as mma.sync wants its fragments. One instruction replaces 4 of step 06's 32-bit loads.
using CopyOpS2R = SM75_U32x4_LDSM_N;
/// \brief smem -> gmem in the epilogue: one 128-bit store (4 floats) per thread and instruction.
using CopyOpS2G = UniversalCopy<uint128_t>;
//! [atoms]

//! [tiled_copy]
/// \brief The copies by rows, 16 bytes per thread and instruction (tut/row_copy.hpp):
/// - step 06's cp.async of a k-tile: BLK_K/8 threads side by side along a row of it (k fastest);
/// - the epilogue's stores of the C tile: BLK_N/4 threads side by side along a row of it (n fastest), so
///   a warp writes whole rows of C: 512 contiguous bytes per 128 columns.
using tut::make_row_tiled_copy;
//! [tiled_copy]

//! [smem_layouts]
/// \brief The swizzled K-major atom of 8 rows × BLK_K halves, as step 06 swizzled its k-tile: the 16-byte
/// chunk (index bits 3..5) is XORed with index bits 6..8, so the 8 rows an ldmatrix phase (or a
/// cp.async phase) touches at one k fall in 8 different chunks of the 128-byte bank row. (mn,k) -> idx
template <int BLK_K>
using SmemAtomAB = decltype(composition(Swizzle<3, 3, 3>{}, Layout<Shape<_8, Int<BLK_K>>, Stride<Int<BLK_K>, _1>>{}));

/// \brief STAGES k-tiles of A (or B), each BLK_MN×BLK_K, the atom repeated down the tile and then once per
/// stage: stage s starts at s·BLK_MN·BLK_K. (mn,k,stage) -> smem_idx
template <int BLK_MN, int BLK_K, int STAGES>
using SmemStaged = decltype(tile_to_shape(SmemAtomAB<BLK_K>{}, Shape<Int<BLK_MN>, Int<BLK_K>, Int<STAGES>>{}));

/// \brief The epilogue's C tile in smem, row-major in atoms of 8 rows × 32 floats (one 128-byte bank row
/// each), swizzled: index bits 3..4 (which pair of 16-byte chunks) are XORed with bits 5..6 (the row's
/// lowest two bits). The MMA's 64-bit stores run in two phases of 16 lanes, rows g..g+3 at n = 2·(lane%4)
/// of one 32-byte piece: the swizzle moves row g's piece to chunks 2g, 2g+1, so each phase covers all 32
/// banks once. The epilogue's 128-bit loads (8 chunks of one row per phase) stay conflict-free: within a
/// row the XOR is a permutation of its chunks. Swizzle<3,2,3>, which XORs the chunk with the whole row,
/// puts rows g and g^1 in the same banks: measured 2 extra wavefronts per store. (m,n) -> smem_idx
using SmemAtomC = decltype(composition(Swizzle<2, 3, 2>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
/// \brief The whole BLK_M×BLK_N C tile in smem. (m,n) -> smem_idx
template <int BLK_M, int BLK_N>
using SmemLayoutC = decltype(tile_to_shape(SmemAtomC{}, Shape<Int<BLK_M>, Int<BLK_N>>{}, Step<_2, _1>{}));
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory. The mainloop's STAGES k-tiles of A and B, and, once the mainloop is
/// done with them, the epilogue's C tile in the same bytes (a union): the smem is the larger of the two,
/// not their sum. (In the configurations compiled here the C tile is the smaller.)
template <class TA, class TB, class TC, class SmemLayoutA, class SmemLayoutB, class SmemLayoutC>
struct SharedStorage {
  union {
    struct {
      alignas(128) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage; 128-byte aligned
      alignas(128) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
    } mainloop;
    alignas(128) ArrayEngine<TC, cosize_v<SmemLayoutC>> C;    ///< sC: the epilogue's C tile
  };
};
//! [shared_storage]

//! [pipe_state]
/// \brief How many k-tiles ahead of the math cp.async runs: STAGES-1, every stage but the one the math
/// reads. The stage it refills is the one read last, which the barrier ending that k-tile freed.
template <int STAGES>
CUTE_HOST_DEVICE constexpr int copies_ahead() {
  return STAGES - 1;
}

/// \brief The pipeline's stage counters, as the kernel advances them (and the printout replays them):
/// the stage the math reads next and the stage the copies fill next, each going round the ring.
template <int STAGES>
struct PipeState {
  //~ex{ the ring: where the math reads first, where the copies land next, the stage after a stage
  int read = 0;                        ///< the stage the math reads: the oldest k-tile in smem
  int write = copies_ahead<STAGES>();  ///< the stage the next k-tile's copies land in
  /// \brief The next stage round the ring.
  CUTE_HOST_DEVICE static int next(int stage) { return stage + 1 == STAGES ? 0 : stage + 1; }
  //~ex= int read = 0;
  //~ex= int write = 0;
  //~ex= CUTE_HOST_DEVICE static int next(int stage) { return stage; }
  //~ex}
  /// \brief The math moves on to the next k-tile.
  CUTE_HOST_DEVICE void advance_read() { read = next(read); }
  /// \brief A k-tile's copies were issued into stage `write`.
  CUTE_HOST_DEVICE void advance_write() { write = next(write); }
};

/// \brief How many cp.async groups a thread leaves in flight when it waits for the next k-tile:
/// copies_ahead-1, the fills still on their way into the other stages. The kernel's cp_async_wait, the
/// host replay (tut::pipe_schedule) and the tests all take it from here.
template <int STAGES>
CUTE_HOST_DEVICE constexpr int groups_in_flight() {
  return copies_ahead<STAGES>() - 1;
}
//! [pipe_state]

/// \brief The bugs --bug plants, each a line or two of kernel.cuh (tagged `//~bug`); step.cpp says what each
/// breaks and which check catches it.
enum class Bug : int {
  none = 0,  ///< the kernel as written
  //~bug{
  wait_one_too_few = 1,     ///< cp_async_wait<STAGES-1> in the mainloop: the next k-tile may not have landed
  no_epilogue_barrier = 2,  ///< the barrier between the C tile's smem stores and its 128-bit reads removed
  //~bug}
  count  ///< one past the last: the build compiles a launch for each of none .. count-1
};

//! [config]
/// \brief One configuration of the step-07 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam WARPS_M, WARPS_N     the warps: each owns a (BLK_M/WARPS_M)×(BLK_N/WARPS_N) piece of C
/// \tparam STAGES               k-tiles in smem at once
template <int BLK_M, int BLK_N, int BLK_K, int WARPS_M, int WARPS_N, int STAGES>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The atom over WARPS_M × WARPS_N warps, with the TiledMMA's tile widened along N by the
  /// permutation (16·WARPS_M, 16·WARPS_N, 16): each warp then issues two 8-column atoms per tile (warp
  /// column w at n = 8w and 8w + 8·WARPS_N), so that its B fragment per k-block is four 8×8 matrices,
  /// one ldmatrix.x4, like A's.
  using TiledMma = decltype(make_tiled_mma(MmaOp{}, Layout<Shape<Int<WARPS_M>, Int<WARPS_N>, _1>>{},
                                           Tile<Int<16 * WARPS_M>, Int<16 * WARPS_N>, _16>{}));
  /// \brief Threads per CTA: 32 per warp. Every TiledCopy uses them all.
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  static constexpr int kWarpsM = WARPS_M;  ///< the warps along M
  static constexpr int kWarpsN = WARPS_N;  ///< the warps along N
  static constexpr int kStages = STAGES;   ///< k-tiles in the smem ring

  /// \brief sA: STAGES k-tiles of A, K-major, swizzled. (m,k,stage) -> smem_idx
  using SmemLayoutA = SmemStaged<BLK_M, BLK_K, STAGES>;
  /// \brief sB: STAGES k-tiles of B, K-major, swizzled. (n,k,stage) -> smem_idx
  using SmemLayoutB = SmemStaged<BLK_N, BLK_K, STAGES>;
  /// \brief sC: the epilogue's C tile. (m,n) -> smem_idx
  using SmemLayoutC = step07::SmemLayoutC<BLK_M, BLK_N>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<ElementAB, ElementAB, ElementC, SmemLayoutA, SmemLayoutB, SmemLayoutC>;
  /// \brief Shared memory per CTA, in bytes: the larger of the ring and the C tile.
  static constexpr int kSmemBytes = int(sizeof(Smem));
  /// \brief One stage: a k-tile of A and one of B, in bytes.
  static constexpr int kStageBytes = (BLK_M + BLK_N) * BLK_K * int(sizeof(ElementAB));

  /// \brief gmem -> smem copy partition of one k-tile of A (cp.async, 16 bytes per thread and instruction).
  using TiledCopyA = decltype(make_row_tiled_copy<CopyOpG2S, ElementAB, BLK_K, kThreads>());
  /// \brief The same for B.
  using TiledCopyB = decltype(make_row_tiled_copy<CopyOpG2S, ElementAB, BLK_K, kThreads>());
  /// \brief smem -> registers for A: ldmatrix.x4, its threads and values retiled to the TiledMMA's A
  /// partition, so the registers it fills are exactly partition_fragment_A's.
  using S2RCopyA = decltype(make_tiled_copy_A(Copy_Atom<CopyOpS2R, ElementAB>{}, TiledMma{}));
  /// \brief The same for B.
  using S2RCopyB = decltype(make_tiled_copy_B(Copy_Atom<CopyOpS2R, ElementAB>{}, TiledMma{}));
  /// \brief smem -> gmem for the epilogue's C tile: 128-bit stores, whole rows per warp.
  using TiledCopyC = decltype(make_row_tiled_copy<CopyOpS2G, ElementC, BLK_N, kThreads>());

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kThreads, "32 threads per warp");
  static_assert(BLK_M % (16 * WARPS_M) == 0 && BLK_N % (16 * WARPS_N) == 0 && BLK_K % 16 == 0,
                "the CTA tile is whole TiledMMA tiles: gemm() loops over them");
  static_assert(BLK_K == 32 || BLK_K == 64, "Swizzle<3,3,3> on rows of 64 or 128 bytes");
  static_assert(BLK_M % (kThreads / (BLK_K / kChunk)) == 0 && BLK_N % (kThreads / (BLK_K / kChunk)) == 0,
                "the copy threads tile the (BLK_M,BLK_K) and (BLK_N,BLK_K) k-tiles exactly");
  static_assert(BLK_N % 32 == 0 && BLK_M % 8 == 0 && BLK_M % (kThreads / (BLK_N / kChunkC)) == 0,
                "the C tile is whole swizzle atoms, and the epilogue's threads tile it exactly");
  static_assert(STAGES >= 2, "a ring: at least one stage in flight while one is read");
  static_assert(kSmemBytes == cute::max(STAGES * kStageBytes, int(sizeof(ElementC)) * BLK_M * BLK_N),
                "the ring or the C tile, whichever is larger, nothing else");
};
//! [config]

//! [default]
/// \brief The configuration step 07 runs, chosen by measuring (the page's table): a 256×128×64 CTA tile,
/// 4×2 warps (256 threads) of 64×64 each, 3 stages of 48 KB: 144 KB of smem, one CTA per SM.
using Default = Config<256, 128, 64, 4, 2, 3>;
/// \brief The smaller tile: 128×128×64, 2×2 warps, 3 stages of 32 KB: 96 KB, two CTAs per SM.
using Small = Config<128, 128, 64, 2, 2, 3>;
//! [default]
// kernel.cuh's comment on the nested modes tile_to_shape makes: the default's sB repeats the 8x64 atom
// 16 times down N, once along K and 3 times along the stages.
static_assert(std::is_same_v<decltype(shape(Default::SmemLayoutB{})), Shape<Shape<_8, _16>, Shape<_64, _1>, Shape<_1, _3>>>,
              "sB is ((8,16),(64,1),(1,3))");
static_assert(Default::kStageBytes == 49152 && Default::kSmemBytes == 147456, "3 stages of 48 KB");
static_assert(Small::kStageBytes == 32768 && Small::kSmemBytes == 98304, "3 stages of 32 KB");

/// \brief The configurations compiled into the step, Default first (the benchmark times each, the GPU
/// tests run each; --variant picks one).
using Variants = std::tuple<Default, Small>;

/// \brief The sizes the step runs: step 06's, any M and N, K a multiple of 8 (whole 16-byte chunks).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step07

/// \file step08_wgmma/config.hpp
/// \brief Step 08's one source of truth: the problem layouts, and a Config holding the CTA tiler,
/// the staged smem layouts in GMMA's swizzle atom, the cp.async and epilogue TiledCopys,
/// the warpgroup TiledMMA and the pipeline's stage counters.
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

namespace step08 {

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

/// \brief Halves per 16-byte chunk: what one cp.async moves, and the unit K comes in.
inline constexpr int kChunk = 16 / int(sizeof(ElementAB));
/// \brief Floats per 16-byte chunk: what one 128-bit store of the epilogue moves.
inline constexpr int kChunkC = 16 / int(sizeof(ElementC));
/// \brief Threads per warpgroup: 4 consecutive warps, the unit that issues one wgmma.
inline constexpr int kWarpgroupThreads = 128;

//! [atoms]
/// \brief The warpgroup MMA: `wgmma.mma_async.sync.aligned.m64n<BLK_N>k16.f32.f16.f16`, A and B both read
/// from smem through descriptors (SS), both K-major. One warpgroup computes a 64×BLK_N fp32 tile.
template <int BLK_N>
using MmaOp = decltype(SM90::GMMA::ss_op_selector<ElementAB, ElementAB, ElementC, Shape<_64, Int<BLK_N>, _16>,
                                                  GMMA::Major::K, GMMA::Major::K>());
/// \brief gmem -> smem: step 06's `cp.async.cg`, 16 bytes per thread, zero-filled where masked.
using CopyOpG2S = SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>;
static_assert(tut::zero_fills_v<CopyOpG2S>, "the chunks past the ragged edge must be written as zeros");
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
/// \brief The smem atom wgmma reads: 8 rows of 64 halves (128 bytes each), K-major, GMMA's own. Its
/// swizzle, `Sw<3,4,3>`, acts on byte addresses (CuTe applies it to the smem pointer): the 16-byte chunk
/// (address bits 4..6) is XORed with the row within the 1 KB atom (bits 7..9), so row r keeps chunk c at
/// c ^ r. That is step 07's Swizzle<3,3,3> counted in bytes instead of halves; what is new is that
/// wgmma is told the pattern ("128B swizzle", in its smem descriptor) instead of being given addresses.
using SmemAtomAB = GMMA::Layout_K_SW128_Atom<ElementAB>;

/// \brief STAGES k-tiles of A (or B), each BLK_MN×BLK_K, the atom repeated down the tile and then once per
/// stage: stage s starts at s·BLK_MN·BLK_K. (mn,k,stage) -> smem_idx
template <int BLK_MN, int BLK_K, int STAGES>
using SmemStaged = decltype(tile_to_shape(SmemAtomAB{}, Shape<Int<BLK_MN>, Int<BLK_K>, Int<STAGES>>{}));

/// \brief The epilogue's C tile in smem, row-major in atoms of 8 rows × 32 floats (one 128-byte bank row
/// each), swizzled: index bits 3..4 (which pair of 16-byte chunks) are XORed with bits 5..6 (the row's
/// lowest two bits). The MMA's 64-bit stores run in two phases of 16 lanes, rows g..g+3 at n = 2·(lane%4)
/// of one 32-byte piece: the swizzle moves row g's piece to chunks 2g, 2g+1, so each phase covers all 32
/// banks once. The epilogue's 128-bit loads (8 chunks of one row per phase) stay conflict-free: within a
/// row the XOR is a permutation of its chunks. Swizzle<3,2,3>, which XORs the chunk with the whole row,
/// puts rows g and g^1 in the same banks: measured 2 extra wavefronts per store. (m,n) -> smem_idx
/// A warp's part of wgmma's accumulators is mma.sync's C fragment repeated along N: the same stores.
using SmemAtomC = decltype(composition(Swizzle<2, 3, 2>{}, Layout<Shape<_8, _32>, Stride<_32, _1>>{}));
/// \brief The whole BLK_M×BLK_N C tile in smem. (m,n) -> smem_idx
template <int BLK_M, int BLK_N>
using SmemLayoutC = decltype(tile_to_shape(SmemAtomC{}, Shape<Int<BLK_M>, Int<BLK_N>>{}, Step<_2, _1>{}));
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory. The mainloop's STAGES k-tiles of A and B, and, once the mainloop is
/// done with them, the epilogue's C tile in the same bytes (a union): the smem is the larger of the two,
/// not their sum. The 128B-swizzle pattern repeats every 1 KB of address and wgmma's
/// descriptors assume it starts on a 1 KB boundary, so sA and sB do.
template <class TA, class TB, class TC, class SmemLayoutA, class SmemLayoutB, class SmemLayoutC>
struct SharedStorage {
  union {
    struct {
      alignas(1024) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage; 1 KB aligned
      alignas(1024) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
    } mainloop;
    alignas(128) ArrayEngine<TC, cosize_v<SmemLayoutC>> C;    ///< sC: the epilogue's C tile
  };
};
//! [shared_storage]

//! [pipe_state]
/// \brief How many batches of wgmma each warpgroup leaves running when it moves on to the next k-tile:
/// one. The kernel's warpgroup_wait, the copies' distance ahead and the host replay all take it from
/// here. With 0 (wait for every wgmma before the next k-tile) the tensor cores idle while the next batch
/// is issued; measured on an H100 (the page's table), that is no faster than step 07.
inline constexpr int kWgmmaInFlight = 1;

/// \brief How many k-tiles ahead of the math the copies run: STAGES-1-kWgmmaInFlight. Step 07 ran STAGES-1
/// ahead, refilling the stage it had just read; here the last kWgmmaInFlight stages read may still be
/// under a running wgmma, so they are not refilled yet.
template <int STAGES>
CUTE_HOST_DEVICE constexpr int copies_ahead() {
  return STAGES - 1 - kWgmmaInFlight;
}

/// \brief The pipeline's stage counters, as the kernel advances them (and the printout replays them):
/// the stage the math reads next and the stage the copies fill next, each going round the ring.
template <int STAGES>
struct PipeState {
  int read = 0;                        ///< the stage the math reads: the oldest k-tile in smem
  int write = copies_ahead<STAGES>();  ///< the stage the next k-tile's copies land in
  /// \brief The next stage round the ring.
  CUTE_HOST_DEVICE static int next(int stage) { return stage + 1 == STAGES ? 0 : stage + 1; }
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
  no_proxy_fence = 1,       ///< the fence between cp.async's writes and wgmma's reads of a stage removed
  copies_one_too_far = 2,   ///< cp.async STAGES-1 k-tiles ahead, as in step 07: into the stage a wgmma still reads
  no_epilogue_barrier = 3,  ///< the barrier between the C tile's smem stores and its 128-bit reads removed
  //~bug}
  count  ///< one past the last: the build compiles a launch for each of none .. count-1
};

//! [config]
/// \brief One configuration of the step-08 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam WARPGROUPS           the warpgroups, stacked along M: each owns (BLK_M/WARPGROUPS)×BLK_N of C
/// \tparam STAGES               k-tiles in smem at once
template <int BLK_M, int BLK_N, int BLK_K, int WARPGROUPS, int STAGES>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The wgmma atom over WARPGROUPS warpgroups along M: each warpgroup issues one 64×BLK_N×16
  /// wgmma per 16 k, so no permutation is needed to widen its tile.
  using TiledMma = decltype(make_tiled_mma(MmaOp<BLK_N>{}, Layout<Shape<Int<WARPGROUPS>, _1, _1>>{}));
  /// \brief Threads per CTA: 128 per warpgroup. Every TiledCopy uses them all.
  static constexpr int kThreads = kWarpgroupThreads * WARPGROUPS;
  static constexpr int kWarpgroups = WARPGROUPS;  ///< the warpgroups along M
  static constexpr int kStages = STAGES;          ///< k-tiles in the smem ring

  /// \brief sA: STAGES k-tiles of A, K-major, 128B-swizzled. (m,k,stage) -> smem_idx
  using SmemLayoutA = SmemStaged<BLK_M, BLK_K, STAGES>;
  /// \brief sB: STAGES k-tiles of B, K-major, 128B-swizzled. (n,k,stage) -> smem_idx
  using SmemLayoutB = SmemStaged<BLK_N, BLK_K, STAGES>;
  /// \brief sC: the epilogue's C tile. (m,n) -> smem_idx
  using SmemLayoutC = step08::SmemLayoutC<BLK_M, BLK_N>;
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
  /// \brief smem -> gmem for the epilogue's C tile: 128-bit stores, whole rows per warp.
  using TiledCopyC = decltype(make_row_tiled_copy<CopyOpS2G, ElementC, BLK_N, kThreads>());

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kThreads, "128 threads per warpgroup");
  static_assert(BLK_M % (64 * WARPGROUPS) == 0 && BLK_N % 8 == 0 && BLK_N <= 256,
                "each warpgroup's rows are whole 64-row wgmmas; a wgmma is 8 to 256 columns wide");
  static_assert(BLK_K * int(sizeof(ElementAB)) == 128, "a k-tile row is one 128-byte swizzle row");
  static_assert(BLK_M % (kThreads / (BLK_K / kChunk)) == 0 && BLK_N % (kThreads / (BLK_K / kChunk)) == 0,
                "the copy threads tile the (BLK_M,BLK_K) and (BLK_N,BLK_K) k-tiles exactly");
  static_assert(BLK_N % 32 == 0 && BLK_M % 8 == 0 && BLK_M % (kThreads / (BLK_N / kChunkC)) == 0,
                "the C tile is whole swizzle atoms, and the epilogue's threads tile it exactly");
  static_assert(copies_ahead<STAGES>() >= 1, "a ring: at least one k-tile in flight while one is read");
  static_assert(kSmemBytes == cute::max(STAGES * kStageBytes, int(sizeof(ElementC)) * BLK_M * BLK_N),
                "the ring or the C tile, whichever is larger, nothing else");
  static_assert(kSmemBytes <= 227 * 1024, "an H100 block gets at most 227 KB of smem");
};
//! [config]

//! [default]
/// \brief The configuration step 08 runs: the CTA tile of steps 08 to 12, measured on an H100: 128×256×64,
/// two warpgroups of 64×256 each on the math (one m64n256k16 wgmma per 16 k), 4 stages of 48 KB, one CTA
/// per SM. The asserts below count its smem.
using Default = Config<128, 256, 64, 2, 4>;
//! [default]
// kernel.cuh's comment on the nested modes tile_to_shape makes: the default's sB repeats the 8x64 atom
// 32 times down N, once along K and 4 times along the stages.
static_assert(std::is_same_v<decltype(shape(Default::SmemLayoutB{})), Shape<Shape<_8, _32>, Shape<_64, _1>, Shape<_1, _4>>>,
              "sB is ((8,32),(64,1),(1,4))");
static_assert(Default::kStageBytes == 49152 && Default::kSmemBytes == 196608, "4 stages of 48 KB");
static_assert(std::is_same_v<MmaOp<256>, SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "the default's wgmma is m64n256k16, fp16 in, fp32 accumulate");

/// \brief The configurations compiled into the step (the benchmark times each, the GPU tests run each;
/// --variant picks one).
using Variants = std::tuple<Default>;

/// \brief The sizes the step runs: step 07's, any M and N, K a multiple of 8 (whole 16-byte chunks).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step08

/// \file step11_persistent/config.hpp
/// \brief Step 11's one source of truth: the problem layouts, and a Config holding the CTA tiler,
/// the staged smem layouts in GMMA's swizzle atom, the bytes of each TMA box, the epilogue's TiledCopy,
/// the warpgroup TiledMMA, the warp roles, the persistent tile schedule and the
/// pipeline's barrier state.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs. Only the TMA descriptors are made elsewhere (tut/launch.cuh), at run time:
/// they hold the address and the extents of A and B.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/problem.hpp"
#include "tut/row_copy.hpp"
#include "tut/tile_schedule.hpp"

namespace step11 {

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

/// \brief Halves per 16 bytes: a TMA descriptor's row pitch must be a multiple of 16 bytes, so K comes in
/// multiples of this.
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
/// \brief gmem -> smem: the TMA unit's tiled load, `cp.async.bulk.tensor.2d.shared::cluster.global`. One
/// thread issues it for a whole box; the unit computes the addresses, fills what lies outside the
/// tensor with zeros, and counts the bytes it delivers on an mbarrier.
using CopyOpG2S = SM90_TMA_LOAD;
/// \brief smem -> gmem in the epilogue: one 128-bit store (4 floats) per thread and instruction.
using CopyOpS2G = UniversalCopy<uint128_t>;
//! [atoms]

//! [tiled_copy]
/// \brief The copies by rows, 16 bytes per thread and instruction (tut/row_copy.hpp):
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
/// The TMA unit writes the same pattern as it stores (CU_TENSOR_MAP_SWIZZLE_128B): no thread computes a
/// swizzled address any more.
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
/// not their sum. The 128B-swizzle pattern repeats every 1 KB of address and the TMA unit and wgmma's
/// descriptors assume it starts on a 1 KB boundary, so sA and sB do. After them, two
/// mbarriers per stage.
/// One more, epi_done, tells the producer the C tile has left those bytes.
template <class TA, class TB, class TC, class SmemLayoutA, class SmemLayoutB, class SmemLayoutC>
struct SharedStorage {
  static constexpr int kStages = size<2>(SmemLayoutA{});  ///< the ring's stages: mode 2 of the smem layouts
  union {
    struct {
      alignas(1024) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage; 1 KB aligned
      alignas(1024) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
    } mainloop;  ///< the ring: what the producer fills and the consumers' wgmmas read
    alignas(128) ArrayEngine<TC, cosize_v<SmemLayoutC>> C;    ///< sC: the epilogue's C tile
  };
  std::uint64_t full[kStages];   ///< stage s holds its k-tile: the TMA's bytes have landed (producer -> consumers)
  std::uint64_t empty[kStages];  ///< stage s may be refilled: every consumer is done reading it (consumers -> producer)
  std::uint64_t epi_done;        ///< the C tile is stored: its bytes may take k-tiles again (consumers -> producer)
};
//! [shared_storage]

//! [ring_state]
/// \brief How many batches of wgmma each consumer warpgroup leaves running when it moves on to the next
/// k-tile: one, as in steps 08 and 09. The stage of the batch before it is then free to release.
inline constexpr int kWgmmaInFlight = 1;

/// \brief Where one side of the pipeline is in the ring: the stage it works on next and that stage's
/// phase (CUTLASS's `cutlass::PipelineState`: its index and phase). An mbarrier counts its phases;
/// `wait_barrier(bar, p)` returns once the phase of parity p has completed. Every lap of the ring flips
/// the parity each side waits for, so the same two barriers per stage serve every k-tile. The kernel
/// advances these, and the printout replays them.
template <int STAGES>
struct RingState {
  int index = 0;           ///< the stage
  std::uint32_t phase = 0; ///< the parity of the barrier phase this lap waits for: 0, 1, 0, ...
  /// \brief On to the next stage; past the last, back to stage 0 with the other parity.
  CUTE_HOST_DEVICE void advance() {
    if (++index == STAGES) {
      index = 0;
      phase ^= 1u;
    }
  }
  /// \brief The parity the producer waits for on empty[index]: the phase before this lap's. A fresh
  /// barrier counts as having completed phase "-1" (parity 1), so the first lap passes at once; after
  /// that it is the phase the consumers completed when they released the stage one lap earlier.
  CUTE_HOST_DEVICE std::uint32_t producer_parity() const { return phase ^ 1u; }
  /// \brief The parity the consumers wait for on full[index]: this lap's, completed when the TMA's bytes land.
  CUTE_HOST_DEVICE std::uint32_t consumer_parity() const { return phase; }
};
//! [ring_state]

/// \brief The bugs --bug plants, each a line or two of kernel.cuh (tagged `//~bug`); step.cpp says what each
/// breaks and which check catches it.
enum class Bug : int {
  none = 0,  ///< the kernel as written
  //~bug{
  last_stage_kept = 1,        ///< the consumers never release a tile's last stage: the ring runs dry, a deadlock
  same_tile_every_visit = 2,  ///< every visit of a CTA computes its first tile: the others are never written
  no_epilogue_wait = 3,       ///< the producer refills the ring without waiting for the epilogue: C is overwritten
  //~bug}
  count  ///< one past the last: the build compiles a launch for each of none .. count-1
};

//! [config]
/// \brief One configuration of the step-11 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam CONSUMERS            math warpgroups, stacked along M: each owns (BLK_M/CONSUMERS)×BLK_N of C
/// \tparam STAGES               k-tiles in smem at once
template <int BLK_M, int BLK_N, int BLK_K, int CONSUMERS, int STAGES>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The wgmma atom over CONSUMERS warpgroups along M. (Threads 0..128·CONSUMERS-1 of the CTA.)
  using TiledMma = decltype(make_tiled_mma(MmaOp<BLK_N>{}, Layout<Shape<Int<CONSUMERS>, _1, _1>>{}));
  static constexpr int kConsumers = CONSUMERS;                      ///< math warpgroups
  static constexpr int kMmaThreads = kWarpgroupThreads * CONSUMERS;  ///< the TiledMMA's threads
  /// \brief Threads per CTA: the consumers, then one producer warpgroup, whose first thread issues
  /// every TMA load. (A whole warpgroup, so that `setmaxnreg` can hand its registers to the consumers.)
  static constexpr int kThreads = kWarpgroupThreads * (CONSUMERS + 1);
  static constexpr int kStages = STAGES;                             ///< k-tiles in the smem ring
  /// \brief Registers per thread after `setmaxnreg`: the producer needs few, the consumers hold the
  /// accumulators (BLK_M·BLK_N/kMmaThreads floats each). 128·(kProducerRegs + CONSUMERS·kConsumerRegs)
  /// must fit the SM's 64 K registers.
  static constexpr int kProducerRegs = 40;                           ///< the producer's registers per thread
  static constexpr int kConsumerRegs = CONSUMERS == 2 ? 232 : 240;  ///< each consumer's
  /// \brief How the CTAs visit the tiles: persistent. 132 CTAs, one per SM of an H100 SXM or H200 (fewer
  /// when there are fewer tiles), stay resident; CTA c computes tiles c, c + 132, c + 264, ... of step
  /// 10's raster order (groups of 8 tile-rows, tut::raster_tile). Fixed when the step is compiled, so the
  /// printout can name the CTA of any tile without a GPU.
  static constexpr int kCtas = 132;
  static constexpr tut::TileSchedule kSchedule{tut::Visit::persistent, 8, kCtas};  ///< CTA c: tiles c, c+132, ...
  static_assert(kSchedule.kind == tut::Visit::persistent, "the kernel's CTAs loop over their tiles");

  /// \brief sA: STAGES k-tiles of A, K-major, 128B-swizzled. (m,k,stage) -> smem_idx
  using SmemLayoutA = SmemStaged<BLK_M, BLK_K, STAGES>;
  /// \brief sB: STAGES k-tiles of B, K-major, 128B-swizzled. (n,k,stage) -> smem_idx
  using SmemLayoutB = SmemStaged<BLK_N, BLK_K, STAGES>;
  /// \brief sC: the epilogue's C tile. (m,n) -> smem_idx
  using SmemLayoutC = step11::SmemLayoutC<BLK_M, BLK_N>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<ElementAB, ElementAB, ElementC, SmemLayoutA, SmemLayoutB, SmemLayoutC>;
  /// \brief Shared memory per CTA, in bytes: the larger of the ring and the C tile.
  static constexpr int kSmemBytes = int(sizeof(Smem));
  /// \brief One stage: a k-tile of A and one of B, in bytes.
  static constexpr int kStageBytes = (BLK_M + BLK_N) * BLK_K * int(sizeof(ElementAB));
  /// \brief The TMA boxes' bytes, A's (BLK_K×BLK_M) and B's (BLK_K×BLK_N): a stage's full barrier expects
  /// their sum, kStageBytes (out-of-bounds elements are filled with zeros and count too).
  static constexpr int kStageBytesA = BLK_M * BLK_K * int(sizeof(ElementAB));
  static constexpr int kStageBytesB = BLK_N * BLK_K * int(sizeof(ElementAB));  ///< B's box
  /// \brief smem -> gmem for the epilogue's C tile: 128-bit stores, whole rows per warp.
  using TiledCopyC = decltype(make_row_tiled_copy<CopyOpS2G, ElementC, BLK_N, kMmaThreads>());

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kMmaThreads, "the TiledMMA's threads");
  static_assert(BLK_M % (64 * CONSUMERS) == 0 && BLK_N % 8 == 0 && BLK_N <= 256,
                "each warpgroup's rows are whole 64-row wgmmas; a wgmma is 8 to 256 columns wide");
  static_assert(BLK_K * int(sizeof(ElementAB)) == 128, "a k-tile row is one 128-byte swizzle row");
  static_assert(BLK_M <= 256 && BLK_N <= 256, "a TMA box is at most 256 rows");
  static_assert(BLK_N % 32 == 0 && BLK_M % 8 == 0 && BLK_M % (kMmaThreads / (BLK_N / kChunkC)) == 0,
                "the C tile is whole swizzle atoms, and the epilogue's threads tile it exactly");
  static_assert(STAGES >= 2, "a ring: at least one k-tile in flight while one is read");
  static_assert(kThreads == 128 * (CONSUMERS + 1), "consumers, then the producer");
  static_assert(128 * (kProducerRegs + CONSUMERS * kConsumerRegs) <= 65536, "the register file holds them");
  static_assert(kSmemBytes == cute::max(STAGES * kStageBytes, int(sizeof(ElementC)) * BLK_M * BLK_N) + 1024,
                "the ring or the C tile, whichever is larger, then the mbarriers padded to 1 KB");
  static_assert(kSmemBytes <= 227 * 1024, "an H100 block gets at most 227 KB of smem");
};
//! [config]

//! [default]
/// \brief The configuration step 11 runs: the CTA tile of steps 08 to 12, measured on an H100: 128×256×64,
/// two warpgroups of 64×256 each on the math (one m64n256k16 wgmma per 16 k), 4 stages of 48 KB, one CTA
/// per SM. The asserts below count its smem.
using Default = Config<128, 256, 64, 2, 4>;
//! [default]
// kernel.cuh's comment on the nested modes tile_to_shape makes: the default's sB repeats the 8x64 atom
// 32 times down N, once along K and 4 times along the stages.
static_assert(std::is_same_v<decltype(shape(Default::SmemLayoutB{})), Shape<Shape<_8, _32>, Shape<_64, _1>, Shape<_1, _4>>>,
              "sB is ((8,32),(64,1),(1,4))");
static_assert(Default::kStageBytes == 49152 && Default::kSmemBytes == 4 * 49152 + 1024,
              "4 stages of 48 KB, then the mbarriers padded to 1 KB: 197,632 bytes");
static_assert(std::is_same_v<MmaOp<256>, SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "the default's wgmma is m64n256k16, fp16 in, fp32 accumulate");

/// \brief The configurations compiled into the step (the benchmark times each, the GPU tests run each;
/// --variant picks one).
using Variants = std::tuple<Default>;

/// \brief The sizes the step runs: any M and N, K a multiple of 8 (TMA's 16-byte row pitch).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step11

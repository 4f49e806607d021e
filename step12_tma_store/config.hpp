/// \file step12_tma_store/config.hpp
/// \brief Step 12's one source of truth: the problem layouts, and a Config holding the CTA tiler,
/// the staged smem layouts in GMMA's swizzle atom, the bytes of each TMA box, the epilogue's subtiles and
/// their smem buffers, the warpgroup TiledMMA, the warp roles, the persistent tile schedule and the
/// pipeline's barrier state.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs. Only the TMA descriptors are made elsewhere (tut/launch.cuh), at run time:
/// they hold the address and the extents of A, B and C.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/problem.hpp"
#include "tut/subtile.hpp"
#include "tut/tile_schedule.hpp"

namespace step12 {

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
/// \brief Floats per 16 bytes: a TMA descriptor of C needs its row pitch, N floats, a multiple of 16 bytes,
/// so the epilogue stores through TMA when N is a multiple of this (and directly from registers otherwise).
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
/// \brief smem -> gmem in the epilogue: the TMA unit's tiled store, `cp.async.bulk.tensor.2d.global.shared::cta`.
/// One consumer thread issues it for a whole subtile of C; the unit reads the swizzled smem, and writes
/// only what lies inside C (no masks).
using CopyOpS2G = SM90_TMA_STORE;
//! [atoms]

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

/// \brief The epilogue's smem atom, the TMA store's: 8 rows of 32 floats (128 bytes each), row-major, in
/// the same 128-byte swizzle as A and B (the TMA unit reads it with CU_TENSOR_MAP_SWIZZLE_128B). The TMA
/// unit knows no other swizzle than its own, which swaps the two 16-byte chunks of a 32-byte pair
/// between rows r and r^1: a warp's 64-bit stores of wgmma's accumulators (rows 4h..4h+3 in half-warp h,
/// 32 bytes each) take two wavefronts per 16-lane phase, where step 10's sC took one. (m,n) -> smem_idx
using SmemAtomC = GMMA::Layout_K_SW128_Atom<float>;
/// \brief Columns per subtile of the epilogue: the C tile leaves the CTA as BLK_N/kEpiN subtiles of
/// BLK_M×kEpiN, one TMA box each, so that C needs only two such buffers of smem beside the ring.
inline constexpr int kEpiN = 32;
/// \brief The epilogue's smem buffers: subtile e is written into buffer e % kEpiBuffers, while the TMA
/// unit may still be reading the other.
inline constexpr int kEpiBuffers = 2;
/// \brief The epilogue's buffers in smem: kEpiBuffers subtiles of BLK_M×kEpiN. (m,n,buffer) -> smem_idx
template <int BLK_M>
using SmemLayoutC = decltype(tile_to_shape(SmemAtomC{}, Shape<Int<BLK_M>, Int<kEpiN>, Int<kEpiBuffers>>{}));

/// \brief The C tile laid on one buffer, and a thread's accumulators a subtile at a time: the epilogue's
/// views, common code (tut/subtile.hpp): steps 12 and 13 store their tiles the same way.
using tut::by_subtile;
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory. The mainloop's STAGES k-tiles of A and B, and beside them (no longer
/// a union: the producer fills the ring with the next tile's k-tiles while the consumers store this
/// one) the epilogue's buffers. The 128B-swizzle pattern repeats every 1 KB of address and the TMA unit
/// and wgmma's descriptors assume it starts on a 1 KB boundary, so sA, sB and sC do. After them, two
/// mbarriers per stage.
template <class TA, class TB, class TC, class SmemLayoutA, class SmemLayoutB, class SmemLayoutC>
struct SharedStorage {
  static constexpr int kStages = size<2>(SmemLayoutA{});  ///< the ring's stages: mode 2 of the smem layouts
  struct {
    alignas(1024) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage; 1 KB aligned
    alignas(1024) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
  } mainloop;  ///< the ring: what the producer fills and the consumers' wgmmas read
  alignas(1024) ArrayEngine<TC, cosize_v<SmemLayoutC>> C;    ///< sC: the epilogue's buffers
  std::uint64_t full[kStages];   ///< stage s holds its k-tile: the TMA's bytes have landed (producer -> consumers)
  std::uint64_t empty[kStages];  ///< stage s may be refilled: every consumer is done reading it (consumers -> producer)
  std::uint32_t stress_done;     ///< --stress only: the consumer warpgroups done (tut/stress.cuh)  //~stress
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
  no_store_wait = 1,         ///< no wait for a buffer's last TMA store before the consumers write it again
  box_not_scaled = 2,        ///< the TMA store's box along N is tile.n + e: the tile's column is not scaled by SUBTILES
  store_wait_one_short = 3,  ///< tma_store_wait<BUFFERS>: a buffer written while its last TMA store may still read it
  store_wait_after_sync = 4,  ///< the storer waits for a buffer's last TMA store below the barrier, not above it
  //~bug}
  count  ///< one past the last: the build compiles a launch for each of none .. count-1
};

//! [config]
/// \brief One configuration of the step-12 kernel: every size and layout static.
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
  /// \brief sC: the epilogue's kEpiBuffers subtiles of BLK_M×kEpiN. (m,n,buffer) -> smem_idx
  using SmemLayoutC = step12::SmemLayoutC<BLK_M>;
  /// \brief The C tile, (BLK_M,BLK_N), on buffer 0 of sC: what partition_C of the accumulators is applied to.
  using TileOnBuffer = tut::TileOnBuffer<BLK_M, BLK_N, kEpiN>;
  static constexpr int kSubtiles = BLK_N / kEpiN;  ///< TMA stores per C tile
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<ElementAB, ElementAB, ElementC, SmemLayoutA, SmemLayoutB, SmemLayoutC>;
  /// \brief Shared memory per CTA, in bytes: the ring, the epilogue's buffers and the barriers.
  static constexpr int kSmemBytes = int(sizeof(Smem));
  /// \brief One stage: a k-tile of A and one of B, in bytes.
  static constexpr int kStageBytes = (BLK_M + BLK_N) * BLK_K * int(sizeof(ElementAB));
  /// \brief The TMA boxes' bytes, A's (BLK_K×BLK_M) and B's (BLK_K×BLK_N): a stage's full barrier expects
  /// their sum, kStageBytes (out-of-bounds elements are filled with zeros and count too).
  static constexpr int kStageBytesA = BLK_M * BLK_K * int(sizeof(ElementAB));
  static constexpr int kStageBytesB = BLK_N * BLK_K * int(sizeof(ElementAB));  ///< B's box
  /// \brief Bytes of one epilogue subtile: one TMA store's box.
  static constexpr int kSubtileBytes = BLK_M * kEpiN * int(sizeof(ElementC));

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kMmaThreads, "the TiledMMA's threads");
  static_assert(BLK_M % (64 * CONSUMERS) == 0 && BLK_N % 8 == 0 && BLK_N <= 256,
                "each warpgroup's rows are whole 64-row wgmmas; a wgmma is 8 to 256 columns wide");
  static_assert(BLK_K * int(sizeof(ElementAB)) == 128, "a k-tile row is one 128-byte swizzle row");
  static_assert(BLK_M <= 256 && BLK_N <= 256, "a TMA box is at most 256 rows");
  static_assert(BLK_N % kEpiN == 0 && kEpiN % 8 == 0 && BLK_M % 8 == 0,
                "the C tile is whole subtiles, a subtile whole 8-column blocks of wgmma's C fragment and swizzle atoms");
  static_assert(STAGES >= 2, "a ring: at least one k-tile in flight while one is read");
  static_assert(kThreads == 128 * (CONSUMERS + 1), "consumers, then the producer");
  static_assert(128 * (kProducerRegs + CONSUMERS * kConsumerRegs) <= 65536, "the register file holds them");
  static_assert(kSmemBytes == STAGES * kStageBytes + kEpiBuffers * kSubtileBytes + 1024,
                "the ring, the epilogue's buffers, then the mbarriers padded to 1 KB");
  static_assert(kSmemBytes <= 227 * 1024, "an H100 block gets at most 227 KB of smem");
};
//! [config]

//! [default]
/// \brief The configuration step 12 runs: the CTA tile of steps 08 to 12, measured on an H100: 128×256×64,
/// two warpgroups of 64×256 each on the math (one m64n256k16 wgmma per 16 k), 4 stages of 48 KB, one CTA
/// per SM. The asserts below count its smem.
using Default = Config<128, 256, 64, 2, 4>;
//! [default]
// kernel.cuh's comment on the nested modes tile_to_shape makes: the default's sB repeats the 8x64 atom
// 32 times down N, once along K and 4 times along the stages.
static_assert(std::is_same_v<decltype(shape(Default::SmemLayoutB{})), Shape<Shape<_8, _32>, Shape<_64, _1>, Shape<_1, _4>>>,
              "sB is ((8,32),(64,1),(1,4))");
static_assert(Default::kStageBytes == 49152 && Default::kSmemBytes == 4 * 49152 + 2 * 16384 + 1024,
              "4 stages of 48 KB, two 16 KB subtiles of C, then the 8 mbarriers padded to 1 KB: 230,400 bytes");
static_assert(std::is_same_v<MmaOp<256>, SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "the default's wgmma is m64n256k16, fp16 in, fp32 accumulate");

/// \brief The configurations compiled into the step (the benchmark times each, the GPU tests run each;
/// --variant picks one).
using Variants = std::tuple<Default>;

/// \brief The sizes the step runs: any M and N, K a multiple of 8 (TMA's 16-byte row pitch).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step12

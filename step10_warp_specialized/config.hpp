/// \file step10_warp_specialized/config.hpp
/// \brief Step 10's one source of truth: step 07's problem layouts, and a Config holding the CTA tiler, the
/// GMMA-swizzled smem ring, the warpgroup TiledMMA, the warp roles and the pipeline's barrier state.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs. Only the TMA descriptors are made elsewhere (launch.cu), at run time:
/// they hold the address and the extents of A and B.
#pragma once

#include <cstdint>
#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/problem.hpp"
#include "tut/tile_schedule.hpp"

namespace step10 {

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
/// \brief Threads per warpgroup: 4 consecutive warps, the unit that issues one wgmma.
inline constexpr int kWarpgroupThreads = 128;

//! [atoms]
/// \brief The smem atom GMMA reads and TMA writes: 8 rows of 64 halves (128 bytes each), K-major. Its
/// swizzle, `Sw<3,4,3>`, acts on byte addresses (CuTe applies it to the smem pointer): the 16-byte chunk
/// (address bits 4..6) is XORed with the row within the 1 KB atom (bits 7..9), so row r keeps chunk c at
/// c ^ r. A wgmma descriptor names this pattern ("128B swizzle") instead of per-thread addresses, and
/// the TMA unit writes the same pattern as it stores (CU_TENSOR_MAP_SWIZZLE_128B).
using SmemAtomAB = GMMA::Layout_K_SW128_Atom<ElementAB>;

/// \brief The warpgroup MMA: `wgmma.mma_async.sync.aligned.m64n<BLK_N>k16.f32.f16.f16`, A and B both read
/// from smem through descriptors (SS), both K-major. One warpgroup computes a 64×BLK_N fp32 tile.
template <int BLK_N>
using MmaOp = decltype(SM90::GMMA::ss_op_selector<ElementAB, ElementAB, ElementC, Shape<_64, Int<BLK_N>, _16>,
                                                  GMMA::Major::K, GMMA::Major::K>());
//! [atoms]

//! [smem_layouts]
/// \brief STAGES k-tiles of A (or B), each BLK_MN×BLK_K, the atom repeated down the tile and then once per
/// stage: stage s starts at s·BLK_MN·BLK_K. (mn,k,stage) -> smem_idx
template <int BLK_MN, int BLK_K, int STAGES>
using SmemStaged = decltype(tile_to_shape(SmemAtomAB{}, Shape<Int<BLK_MN>, Int<BLK_K>, Int<STAGES>>{}));
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory: the ring of STAGES k-tiles of A and B, and two mbarriers per stage.
/// The 128B-swizzle atom is 1 KB and the pattern repeats every 1 KB of address, so each array starts on
/// a 1 KB boundary (the TMA unit and the wgmma descriptors swizzle by absolute smem address bits).
template <class TA, class TB, class SmemLayoutA, class SmemLayoutB>
struct SharedStorage {
  static constexpr int kStages = size<2>(SmemLayoutA{});  ///< the ring's stages: mode 2 of the smem layouts
  alignas(1024) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage
  alignas(1024) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
  std::uint64_t full[kStages];   ///< stage s holds its k-tile: the TMA's bytes have landed (producer -> consumers)
  std::uint64_t empty[kStages];  ///< stage s may be refilled: every consumer is done reading it (consumers -> producer)
};
//! [shared_storage]

//! [ring_state]
/// \brief Where one side of the pipeline is in the ring: the stage it works on next and that stage's
/// phase. An mbarrier counts its phases; `wait_barrier(bar, p)` returns once the phase of parity p has
/// completed. Every lap of the ring flips the parity each side waits for, so the same two barriers per
/// stage serve every k-tile. The kernel advances these, and the printout replays them.
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

/// \brief The bugs --bug plants, each a line or two of kernel.cuh (`BUG ==`); trace.cpp says what each
/// breaks and which check catches it.
enum class Bug : int {
  none = 0,  ///< the kernel as written
  producer_parity = 1,    ///< the producer waits on the empty barrier for the consumers' parity: a deadlock
  no_warpgroup_wait = 2,  ///< warpgroup_wait<1> removed: a stage is released while its wgmmas may still read it
};

//! [config]
/// \brief One configuration of the step-08 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam STAGES               k-tiles in the smem ring
/// \tparam CONSUMERS            math warpgroups, stacked along M: each owns (BLK_M/CONSUMERS)×BLK_N of C
template <int BLK_M, int BLK_N, int BLK_K, int STAGES, int CONSUMERS>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The wgmma atom over CONSUMERS warpgroups along M. (Threads 0..128·CONSUMERS-1 of the CTA.)
  using TiledMma = decltype(make_tiled_mma(MmaOp<BLK_N>{}, Layout<Shape<Int<CONSUMERS>, _1, _1>>{}));
  static constexpr int kConsumers = CONSUMERS;                      ///< math warpgroups
  static constexpr int kMmaThreads = kWarpgroupThreads * CONSUMERS;  ///< the TiledMMA's threads
  /// \brief Threads per CTA: the consumers, then one producer warpgroup, whose first thread issues
  /// every TMA load. (A whole warpgroup, so that `setmaxnreg` can hand its registers to the consumers.)
  static constexpr int kThreads = kMmaThreads + kWarpgroupThreads;
  static constexpr int kStages = STAGES;                             ///< k-tiles in the smem ring
  /// \brief Registers per thread after `setmaxnreg`: the producer needs few, the consumers hold the
  /// accumulators (BLK_M·BLK_N/kMmaThreads floats each). 128·(kProducerRegs + CONSUMERS·kConsumerRegs)
  /// must fit the SM's 64 K registers.
  static constexpr int kProducerRegs = 40;                           ///< the producer's registers per thread
  static constexpr int kConsumerRegs = CONSUMERS == 2 ? 232 : 240;  ///< each consumer's
  /// \brief How the CTAs visit the tiles: a 1-D grid, one CTA per tile, in the raster order of groups of
  /// 8 tile-rows (tut::raster_tile). Measured on an H100: groups of 8 and 16 alike, 3% faster than
  /// blockIdx.x down M at 8192³, the same at 4096³.
  static constexpr tut::TileSchedule kSchedule{tut::Visit::raster_1d, 8};
  static_assert(kSchedule.kind == tut::Visit::raster_1d, "the kernel computes one tile per CTA of a 1-D grid");

  /// \brief sA: STAGES k-tiles of A, K-major, 128B-swizzled. (m,k,stage) -> smem_idx
  using SmemLayoutA = SmemStaged<BLK_M, BLK_K, STAGES>;
  /// \brief sB: STAGES k-tiles of B. (n,k,stage) -> smem_idx
  using SmemLayoutB = SmemStaged<BLK_N, BLK_K, STAGES>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<ElementAB, ElementAB, SmemLayoutA, SmemLayoutB>;
  /// \brief Shared memory per CTA, in bytes.
  static constexpr int kSmemBytes = int(sizeof(Smem));
  /// \brief One stage: a k-tile of A and one of B. The TMA box of A is BLK_K×BLK_M, of B BLK_K×BLK_N;
  /// the full barrier of a stage expects exactly these bytes (out-of-bounds elements are filled with
  /// zeros and count too).
  static constexpr int kStageBytesA = BLK_M * BLK_K * int(sizeof(ElementAB));
  static constexpr int kStageBytesB = BLK_N * BLK_K * int(sizeof(ElementAB));  ///< B's box, in bytes
  static constexpr int kStageBytes = kStageBytesA + kStageBytesB;              ///< both boxes: one stage

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kMmaThreads, "128 threads per warpgroup of the TiledMMA");
  static_assert(BLK_M % (64 * CONSUMERS) == 0, "each consumer's rows are whole 64-row wgmmas");
  static_assert(BLK_K * int(sizeof(ElementAB)) == 128, "a k-tile row is one 128-byte swizzle row");
  static_assert(BLK_M <= 256 && BLK_N <= 256, "a TMA box is at most 256 rows");
  static_assert(STAGES >= 4, "a ring of at least 4 stages");
  static_assert(kThreads == 128 * (CONSUMERS + 1), "consumers, then the producer");
  static_assert(128 * (kProducerRegs + CONSUMERS * kConsumerRegs) <= 65536, "the register file holds them");
  static_assert(kSmemBytes <= 227 * 1024, "an H100 block gets at most 227 KB of smem");
};
//! [config]

//! [default]
/// \brief The configuration step 10 runs: a 128×256×64 CTA tile, two consumer warpgroups of 64×256 each
/// (one m64n256k16 wgmma per 16 k), 4 stages of 48 KB (196,608 bytes) and the 8 mbarriers, which the 1 KB
/// alignment pads to 1,024 bytes: 197,632 bytes of smem, one CTA per SM.
using Default = Config<128, 256, 64, 4, 2>;
//! [default]
static_assert(Default::kStageBytes == 49152, "a stage is 16 KB of A and 32 KB of B");
static_assert(Default::kSmemBytes == 4 * 49152 + 1024, "4 stages, then the mbarriers padded to 1 KB: 197,632 bytes");
static_assert(std::is_same_v<MmaOp<256>, SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "the default's wgmma is m64n256k16, fp16 in, fp32 accumulate");

/// \brief The configurations compiled into the step, Default first (the benchmark times each, the GPU
/// tests run each; --variant picks one).
using Variants = std::tuple<Default>;

/// \brief The sizes the step runs: any M and N, K a multiple of 8 (TMA's 16-byte row pitch).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step10

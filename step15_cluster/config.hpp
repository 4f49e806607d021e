/// \file step15_cluster/config.hpp
/// \brief Step 15's one source of truth: the problem layouts, and a Config holding the CTA tiler,
/// the staged smem layouts in GMMA's swizzle atom, the bytes of each TMA box, the epilogue's subtiles and
/// their smem buffers, one group's TiledMMA, the warp roles, the persistent tile schedule, in clusters,
/// and the pipeline's barrier state, with the turns of ping-pong; the configurations, and the rule that
/// picks one.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs. Only the TMA descriptors are made elsewhere (tut/launch.cuh), at run time:
/// they hold the address and the extents of A, B and C.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <iterator>
#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/problem.hpp"
#include "tut/subtile.hpp"
#include "tut/tile_schedule.hpp"

namespace step15 {

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
/// tensor with zeros, and counts the bytes it delivers on an mbarrier. In a cluster, B's is
/// SM90_TMA_LOAD_MULTICAST (`.multicast::cluster`): each CTA loads its share of the k-tile's rows, and the
/// unit writes them into every CTA named in a 16-bit mask, at the same smem offset, completing the bytes
/// on each one's mbarrier at the same offset (tut/launch.cuh makes the descriptor).
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

/// \brief The epilogue's smem atom, the TMA store's: 8 rows of 16 floats (64 bytes each), row-major, in
/// the 64-byte swizzle (the TMA unit reads it with CU_TENSOR_MAP_SWIZZLE_64B), which swaps 16-byte
/// chunks within each 64-byte row as Sw<2,4,3> says. Step 12's subtiles were 32 floats wide, in the
/// 128-byte swizzle; here each group has buffers of its own, and half-width subtiles keep them in
/// the same smem as step 12's two. (m,n) -> smem_idx
using SmemAtomC = GMMA::Layout_K_SW64_Atom<float>;
/// \brief Columns per subtile of the epilogue: a group's C tile leaves the CTA as BLK_N/kEpiN
/// subtiles of BLK_M×kEpiN, one TMA box each, so that C needs only two such buffers per group.
inline constexpr int kEpiN = 16;
/// \brief The epilogue's smem buffers per group of consumers: its subtile e is written into its buffer
/// e % kEpiBuffers, while the TMA unit may still be reading the other.
inline constexpr int kEpiBuffers = 2;
/// \brief The buffer for \p group's subtile \p subtile, counted over its tiles (a tile may have an odd number).
/// A cooperative group stores one tile with both warpgroups; in ping-pong each stores its own tiles.
CUTE_HOST_DEVICE constexpr int epi_buffer(int group, int subtile) {
  return group * kEpiBuffers + subtile % kEpiBuffers;
}
/// \brief The epilogue's buffers in smem: kEpiBuffers subtiles of BLK_M×kEpiN for each of \p GROUPS
/// groups, group g's at g·kEpiBuffers, g·kEpiBuffers + 1. (m,n,buffer) -> smem_idx
template <int BLK_M, int GROUPS>
using SmemLayoutC = decltype(tile_to_shape(SmemAtomC{}, Shape<Int<BLK_M>, Int<kEpiN>, Int<kEpiBuffers * GROUPS>>{}));

/// \brief The C tile laid on one buffer, and a thread's accumulators a subtile at a time: the epilogue's
/// views, common code (tut/subtile.hpp): steps 12 and 13 store their tiles the same way.
using tut::by_subtile;
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory. The mainloop's STAGES k-tiles of A and B, and beside them (no longer
/// a union: the producer fills the ring with the next tile's k-tiles while the consumers store this
/// one) the epilogue's buffers. The 128B-swizzle pattern repeats every 1 KB of address and the TMA unit
/// and wgmma's descriptors assume it starts on a 1 KB boundary, so sA, sB and sC do. After them, two
/// mbarriers per stage and one turn barrier per consumer warpgroup.
template <class TA, class TB, class TC, class SmemLayoutA, class SmemLayoutB, class SmemLayoutC>
struct SharedStorage {
  static constexpr int kStages = size<2>(SmemLayoutA{});  ///< the ring's stages: mode 2 of the smem layouts
  struct {
    alignas(1024) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA: every stage; 1 KB aligned
    alignas(1024) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
  } mainloop;  ///< the ring: what the producer fills and the consumers' wgmmas read
  alignas(1024) ArrayEngine<TC, cosize_v<SmemLayoutC>> C;    ///< sC: the epilogue's buffers
  std::uint64_t full[kStages];   ///< stage s holds its k-tile: the TMA's bytes have landed (producer -> consumers)
  std::uint64_t empty[kStages];  ///< stage s may be refilled: the group whose k-tile it held is done with it (consumers -> producer)
  std::uint64_t turn[2];         ///< turn[w]: warpgroup w may start its next tile's mainloop (the other warpgroup -> w)
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
  /// \brief The ring at k-tile number \p position of the CTA (counted over all its tiles, from 0): the
  /// producer fills the ring in that order, so k-tile p lands in stage p % STAGES on lap p / STAGES.
  /// A ping-pong warpgroup starts each of its tiles here, past the k-tiles of the other's tiles.
  CUTE_HOST_DEVICE static RingState at(int position) {
    RingState r;
    r.index = position % STAGES;
    r.phase = std::uint32_t(position / STAGES) & 1u;
    return r;
  }
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
  none = 0,                  ///< the kernel as written
  //~bug{
  empty_count_local = 1,     ///< empty[s] counts the CTA's own releases only, as in step 14: refilled under the other CTA
  mask_own_only = 2,         ///< the multicast mask names the issuing CTA only: the other never gets that half of B
  schedule_unpadded = 3,     ///< the kernel's schedule without clusters: a cluster's CTAs take tiles of different B
  //~bug}
  count  ///< one past the last: the build compiles a launch for each of none .. count-1
};

//! [turns]
/// \brief The parity warpgroup w waits for on turn[w] before the mainloop of its visit \p visit > 0 (the
/// CTA's visits alternate: warpgroup 0 takes 0, 2, 4, ..., warpgroup 1 takes 1, 3, 5, ...). The
/// warpgroup of visit v - 1 arrives on turn[w] (each of its threads) once it has seen its last k-tile
/// land; that is the ((v - 1) / 2)-th phase of turn[w], counting from 0, so its parity.
CUTE_HOST_DEVICE constexpr std::uint32_t turn_parity(int visit) { return std::uint32_t((visit - 1) / 2) & 1u; }
//! [turns]

//! [config]
//! [config_head]
/// \brief One configuration of the step-15 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  a group's tile: it computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam CONSUMERS            math warpgroups: ping-pong needs two
/// \tparam STAGES               k-tiles in smem at once
/// \tparam GROUPS               tiles in flight: 1, both on one (cooperative, step 12); 2, ping-pong
/// \tparam CLUSTER              CTAs per cluster, along M: 2, they share each k-tile of B; 1, step 14's
template <int BLK_M, int BLK_N, int BLK_K, int CONSUMERS, int STAGES, int GROUPS, int CLUSTER>
struct Config {
  /// \brief The tiler of one tile (BLK_M, BLK_N, BLK_K): a group's, whole.
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The wgmma atom on a group's warpgroups, stacked along M (threads 0..kMmaThreads-1 of the group),
  /// repeated down the tile: ping-pong, ONE warpgroup on its own tile; cooperative, both on one (step 12's).
  using TiledMma = decltype(make_tiled_mma(MmaOp<BLK_N>{}, Layout<Shape<Int<CONSUMERS / GROUPS>, _1, _1>>{}));
  static constexpr int kConsumers = CONSUMERS;                      ///< math warpgroups
  static constexpr int kGroups = GROUPS;                            ///< tiles in flight: 1 cooperative, 2 ping-pong
  static constexpr int kClusterM = CLUSTER;                         ///< CTAs per cluster, along M
  static constexpr int kMmaThreads = kWarpgroupThreads * CONSUMERS / GROUPS;  ///< the TiledMMA's threads: a group
  //! [config_head]
  /// \brief Threads per CTA: the consumers, then one producer warpgroup, whose first thread issues
  /// every TMA load. (A whole warpgroup, so that `setmaxnreg` can hand its registers to the consumers.)
  static constexpr int kThreads = kWarpgroupThreads * (CONSUMERS + 1);
  static constexpr int kStages = STAGES;                             ///< k-tiles in the smem ring
  /// \brief Registers per thread after `setmaxnreg`: the producer needs few, the consumers hold the
  /// accumulators (BLK_M·BLK_N/kMmaThreads floats each). 128·(kProducerRegs + CONSUMERS·kConsumerRegs)
  /// must fit the SM's 64 K registers.
  static constexpr int kProducerRegs = 40;                           ///< the producer's registers per thread
  static constexpr int kConsumerRegs = CONSUMERS == 2 ? 232 : 240;  ///< each consumer's
  /// \brief How the CTAs visit the tiles: persistent. Up to 132 CTAs, one per SM of an H100 SXM or H200,
  /// stay resident; CTA c computes tiles c, c + G, c + 2G, ... of step 10's raster order
  /// (tut::raster_tile), G the CTAs launched. Fixed when the step is compiled, so the printout can name
  /// the CTA of any tile without a GPU. Ping-pong's as step 14's: groups of 8 tile-rows, min(132, tiles)
  /// CTAs. The cooperative tiles, one in flight per CTA, run in groups of 16 tile-rows on as few CTAs as
  /// their busiest needs (TileSchedule::balanced): at 8192³, 128 CTAs on 16 × 8 tiles of 128×256 at a
  /// time read 2,048 rows of A and 2,048 of B, where groups of 8 on 132 CTAs read 1,024 and 4,224. At
  /// the power limit that was 1 to 3% faster from 4096³ to 8192³ and 2% slower at 1536³; ping-pong, in
  /// groups of 16, ran up to 14% slower (H100, docs/bench/h100_2026-11-27-tile-order*.json).
  static constexpr int kCtas = 132;
  static constexpr tut::TileSchedule kSchedule{tut::Visit::persistent, GROUPS == 1 ? 16 : 8, kCtas, CLUSTER,
                                               GROUPS == 1};  ///< CTA c: tiles c, c+G, ...
  static_assert(kSchedule.kind == tut::Visit::persistent, "the kernel's CTAs loop over their tiles");

  /// \brief sA: STAGES k-tiles of A, K-major, 128B-swizzled. (m,k,stage) -> smem_idx
  using SmemLayoutA = SmemStaged<BLK_M, BLK_K, STAGES>;
  /// \brief sB: STAGES k-tiles of B, K-major, 128B-swizzled. (n,k,stage) -> smem_idx
  using SmemLayoutB = SmemStaged<BLK_N, BLK_K, STAGES>;
  /// \brief sC: kEpiBuffers subtiles of BLK_M×kEpiN per group. (m,n,buffer) -> smem_idx
  using SmemLayoutC = step15::SmemLayoutC<BLK_M, GROUPS>;
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
  static_assert(CONSUMERS == 2, "ping-pong: two consumer warpgroups take turns (SharedStorage has two turn barriers)");
  static_assert(GROUPS == 1 || GROUPS == 2, "cooperative, or ping-pong: one tile per warpgroup");
  static_assert(int(size(TiledMma{})) == kMmaThreads, "the TiledMMA's threads");
  static_assert(BLK_M % (64 * CONSUMERS / GROUPS) == 0 && BLK_N % 8 == 0 && BLK_N <= 256,
                "a group's rows are whole 64-row wgmmas; a wgmma is 8 to 256 columns wide");
  static_assert(BLK_K * int(sizeof(ElementAB)) == 128, "a k-tile row is one 128-byte swizzle row");
  static_assert(BLK_M <= 256 && BLK_N <= 256, "a TMA box is at most 256 rows");
  static_assert(BLK_N % kEpiN == 0 && kEpiN % 8 == 0 && BLK_M % 8 == 0,
                "the C tile is whole subtiles, a subtile whole 8-column blocks of wgmma's C fragment and swizzle atoms");
  static_assert(STAGES >= 2, "a ring: at least one k-tile in flight while one is read");
  static_assert(kThreads == 128 * (CONSUMERS + 1), "consumers, then the producer");
  static_assert(128 * (kProducerRegs + CONSUMERS * kConsumerRegs) <= 65536, "the register file holds them");
  static_assert(kSmemBytes == STAGES * kStageBytes + GROUPS * kEpiBuffers * kSubtileBytes + 1024,
                "the ring, the epilogue's buffers, then the mbarriers padded to 1 KB");
  static_assert(kSmemBytes <= 227 * 1024, "an H100 block gets at most 227 KB of smem");
};
//! [config]

//! [default]
/// \brief The configurations step 15 chooses from: Default, step 14's cooperative 128×256×64 tile (4 stages
/// of 48 KB) in clusters of two CTAs along M; step 14's three as they were, without clusters: Wide, the
/// same tile; Pingpong, step 13's; Small, ping-pong on 64×128×64 (8 stages of 24 KB); and Mid, the
/// cooperative kernel on 128×192×64 tiles (5 stages of 40 KB) in clusters of two, for the sizes whose last
/// wave of 128×256 tiles is short; Narrow, the same on 128×144×64 tiles (6 stages of 34 KB), for sizes it cuts
/// into a tile per SM (1536³: 132); PingpongWide, ping-pong on 128×176×64 tiles (5 stages of 38 KB), for some
/// large sizes, and 1536³. The asserts below count the default's smem; the tests, the others'.
using Default = Config<128, 256, 64, 2, 4, 1, 2>;
using Wide = Config<128, 256, 64, 2, 4, 1, 1>;      ///< step 14's default
using Pingpong = Config<128, 128, 64, 2, 6, 2, 1>;  ///< step 13's configuration
using Small = Config<64, 128, 64, 2, 8, 2, 1>;      ///< ping-pong on half of step 13's tile
using Mid = Config<128, 192, 64, 2, 5, 1, 2>;       ///< cooperative 128×192, in clusters of two
using Narrow = Config<128, 144, 64, 2, 6, 1, 2>;    ///< cooperative 128×144, in clusters of two
using PingpongWide = Config<128, 176, 64, 2, 5, 2, 1>;  ///< ping-pong on 128×176
//! [default]
// kernel.cuh's comment on the nested modes tile_to_shape makes: the default's sB repeats the 8x64 atom
// 32 times down N, once along K and 4 times along the stages.
static_assert(std::is_same_v<decltype(shape(Default::SmemLayoutB{})), Shape<Shape<_8, _32>, Shape<_64, _1>, Shape<_1, _4>>>,
              "sB is ((8,32),(64,1),(1,4))");
static_assert(Default::kStageBytes == 49152 && Default::kSmemBytes == 4 * 49152 + 2 * 8192 + 1024,
              "4 stages of 48 KB, two 8 KB subtiles of C, then the 10 mbarriers padded to 1 KB: 214,016 bytes");
static_assert(std::is_same_v<MmaOp<256>, SM90_64x256x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "the default's wgmma is m64n256k16, fp16 in, fp32 accumulate");
// m64n144k16 is one of wgmma's "extended" shapes, which CuTe declares only where the build defines
// CUTE_SM90_EXTENDED_MMA_SHAPES_ENABLED (CMakeLists.txt, DEFINES); elsewhere the selector falls back to
// m64n16k16, nine of them across the tile, and this does not compile.
static_assert(std::is_same_v<MmaOp<144>, SM90_64x144x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>>,
              "Narrow's wgmma is m64n144k16: one instruction across the tile");

/// \brief The configurations compiled into the step (the benchmark times each, the GPU tests run each;
/// --variant picks one, else choose() does).
using Variants = std::tuple<Default, Wide, Pingpong, Small, Mid, Narrow, PingpongWide>;
inline constexpr int kVariants = int(std::tuple_size_v<Variants>);  ///< the tables below have a column each

/// \brief The k-tile's cost by how K's rows lie in L2, in 1/1000 of row 0's. Row 0: K a multiple of 64, whole
/// 128-byte lines. Row 1: a multiple of 16, whole 32-byte sectors (step 14's second row). Row 2: neither;
/// every other box row touches five sectors, not four, and the clusters, which load B once for two CTAs,
/// slow down least.
inline constexpr std::int64_t kKTileFactor[3][kVariants] = {{1000, 1000, 1000, 1000, 1000, 1000, 1000},
                                                            {1041, 1031, 1235, 1468, 1035, 1061, 1082},
                                                            {1000, 1308, 1819, 2100, 1017, 1135, 1590}};

/// \brief The k-tile's cost where M or N leave a partial tile of the configuration's, in 1/1000: the median
/// over 12 such shapes in rounds (docs/bench/h100_2026-11-26-sweep-ragged.json). Ping-pong on 128×128 and
/// 64×128 slows down, 10% and 28%; the other medians, 0.96 to 1.04, within one run's noise (5%), count as 1.
/// scripts/fit_costs.py fits these two tables, kCost and kPowerFactor from the sweeps, and checks them.
inline constexpr std::int64_t kRaggedFactor[kVariants] = {1000, 1000, 1097, 1275, 1000, 1000, 1000};

/// \brief kKTileFactor's row for a problem with \p k columns of A and B.
inline constexpr int rate_row(std::int64_t k) { return k % 64 == 0 ? 0 : k % 16 == 0 ? 1 : 2; }

/// \brief Each configuration's k-tile factor for problem \p p, in 1/1000, in Variants' order: its K row's,
/// times kRaggedFactor where M or N leave a partial tile of its own.
inline std::array<std::int64_t, kVariants> k_factors(tut::Problem const& p) {
  auto const factor = [&](auto cfg, int i) {
    typename decltype(cfg)::CtaTiler t;
    bool const ragged = p.m % size<0>(t) != 0 || p.n % size<1>(t) != 0;
    return kKTileFactor[rate_row(p.k)][i] * (ragged ? kRaggedFactor[i] : 1000) / 1000;
  };
  return {factor(Default{}, 0), factor(Wide{}, 1), factor(Pingpong{}, 2), factor(Small{}, 3), factor(Mid{}, 4),
          factor(Narrow{}, 5), factor(PingpongWide{}, 6)};
}

//! [choose]
/// \brief What each configuration of Variants costs, in ns, on an H100 with K a multiple of 64: per k-tile of
/// a tile, per tile besides, and once per launch (tut::Cost). A cooperative tile's store runs while its
/// tensor cores wait; a ping-pong tile's, under the other warpgroup's mainloop. Each row is a least-squares fit
/// in ns, where the long launches weigh most, to a configuration's medians in rounds beside the libraries at 22
/// shapes (bench_gemm's ms_rounds, docs/bench/h100_2026-11-26-sweep-rounds.json; PingpongWide's, its own
/// sweeps, -27f-*-128x176.json, scaled by 128×128's): 128×256 ran 4% slower there than alone, ping-pong not.
inline constexpr tut::Cost kCost[kVariants] = {{772, 5682, 0},         // Default, 2x128x256
                                               {779, 5287, 0},         // Wide, 128x256
                                               {399, 816, 0},          // Pingpong, 128x128
                                               {260, 91, 0},           // Small, 64x128
                                               {591, 4185, 0},         // Mid, 2x128x192
                                               {444, 3682, 0},         // Narrow, 2x128x144
                                               {535, 1480, 128}};      // PingpongWide, 128x176

/// \brief The k-tile's cost at the power limit, in 1/1000 of its cost above. Launched back to back, these
/// kernels hold an H100 at its 700 W limit within a second; its SM clock falls from 1980 MHz to about 1,350,
/// and a k-tile costs more than in rounds, whose long launches slow down too: 128×128's 6%, 128×256's <1%. Each
/// is the least-squares factor, in ns, over the configuration's runs that drew at least 90% of the limit, alone for
/// 1.2 s at 21 shapes (scripts/steady_sweep.py, docs/bench/h100_2026-11-27-sweep-steady.json).
inline constexpr std::int64_t kPowerFactor[kVariants] = {1008, 1005, 1061, 1099, 1012, 1066, 1026};

/// \brief The configuration a launch runs for problem \p p, an index into Variants: the one whose busiest
/// CTA finishes first, in a burst and at the power limit together (the sum of the two times). That CTA
/// computes ⌈tiles / kCtas⌉ tiles (in clusters, the tile-rows counted up to whole clusters), each costing
/// its k-tiles and its epilogue (tut::predicted_ns); at the power limit, the k-tiles kPowerFactor more.
/// On a tie, the first.
inline int choose(tut::Problem const& p) {
  std::array<std::int64_t, kVariants> const f = k_factors(p);
  auto const ns = [&](auto cfg, int i) {
    typename decltype(cfg)::CtaTiler t;
    auto const at = [&](std::int64_t k_factor) {
      return tut::predicted_ns(p.m, p.n, p.k, size<0>(t), size<1>(t), size<2>(t), decltype(cfg)::kSchedule, kCost[i],
                               k_factor);
    };
    return at(f[i]) + at(f[i] * kPowerFactor[i] / 1000);  // a burst, then the power limit
  };
  std::int64_t const time[] = {ns(Default{}, 0), ns(Wide{}, 1), ns(Pingpong{}, 2), ns(Small{}, 3), ns(Mid{}, 4),
                                ns(Narrow{}, 5), ns(PingpongWide{}, 6)};
  //~ex{ the configuration whose busiest CTA finishes first; on a tie, the first
  return int(std::min_element(std::begin(time), std::end(time)) - time);  // the first of the least
  //~ex= (void)time;
  //~ex= return 0;  // always Default
  //~ex}
}
//! [choose]

/// \brief The sizes the step runs: any M and N, K a multiple of 8 (TMA's 16-byte row pitch).
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step15

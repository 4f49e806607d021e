/// \file step06_global_gemm/config.hpp
/// \brief Step 06's one source of truth: the K-major fp16 problem layouts, and a Config holding the CTA
/// tiler, the K-major smem layouts (swizzled or plain), the cp.async TiledCopys and the TiledMMA of
/// 2×2 warps of tensor-core atoms.
///
/// The kernel, the printout, the bank-conflict model, the tests and the benchmark all build their layouts
/// from these types, so what is printed and counted is what runs.
#pragma once

#include <tuple>
#include <type_traits>

#include <cute/tensor.hpp>  // first: it brings the copy and MMA atoms (copy_atom.hpp alone does not compile)

#include "tut/mask.hpp"
#include "tut/problem.hpp"
#include "tut/row_copy.hpp"

namespace step06 {

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

/// \brief Halves per 16-byte chunk: what one cp.async moves, and the unit K must come in.
inline constexpr int kChunk = 16 / int(sizeof(ElementAB));

//! [atoms]
/// \brief The tensor-core instruction of step 05: one warp, D (16×8, fp32) = A (16×16) · B (16×8) + C.
using MmaOp = SM80_16x8x16_F32F16F16F32_TN;
/// \brief The copy instruction: `cp.async.cg.shared.global [smem], [gmem], 16, src_size`. One thread moves
/// 16 bytes from gmem straight into smem, without passing through its registers, and does not wait for
/// them. src_size = 16 copies; src_size = 0 reads nothing and writes 16 zero bytes: the zero-fill form,
/// which CuTe's copy_if selects for each chunk from its mask bit.
/// .cg (cache global): the data is cached in L2 only. Each CTA reads its A and B chunks once, so an L1
/// copy (.ca, CACHEALWAYS) would never be read again, and its fills share the SRAM banks with smem:
/// measured, .cg runs 11% faster (the page's "What we tried").
using CopyOp = SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>;
static_assert(tut::zero_fills_v<CopyOp>, "the chunks past the ragged edge must be written as zeros");
//! [atoms]

//! [tiled_copy]
/// \brief The TiledCopy of one (BLK_MN,BLK_K) k-tile of A or B, K-major in gmem and smem: each thread
/// copies one 16-byte chunk (8 halves along k) per instruction, and BLK_K/8 threads side by side copy a
/// whole row of the k-tile (k fastest), so a warp copies 32/(BLK_K/8) whole rows, each as one
/// BLK_K·2-byte run of gmem: coalesced. The threads then repeat down the tile. tut/row_copy.hpp lays
/// out these threads and values, for the later steps' copies by rows too.
/// (\p Op: CopyOp; --bug no_zero_fill launches the plain cp.async.)
template <int BLK_K, int THREADS, class Op = CopyOp>
CUTE_HOST_DEVICE auto make_tiled_copy_cp_async() {
  return tut::make_row_tiled_copy<Op, ElementAB, BLK_K, THREADS>();
}
//! [tiled_copy]

//! [smem_layouts]
/// \brief A plain K-major smem k-tile, laid out like gmem: (mn,k) at mn·BLK_K + k. (mn,k) -> smem_idx
template <int BLK_MN, int BLK_K>
using SmemPlain = Layout<Shape<Int<BLK_MN>, Int<BLK_K>>, Stride<Int<BLK_K>, _1>>;

/// \brief The K-major tile, swizzled: smem_idx = Swizzle<3,3,3>(mn·BLK_K + k). With BLK_K = 32 halves a
/// row is 64 bytes, so bits 3..5 of the index are the 16-byte chunk of a 128-byte bank row (k/8, and mn's
/// lowest bit), and bits 6..8 are mn/2 mod 8. The swizzle XORs the second into the first.
/// M = 3: 8 halves (16 bytes, one cp.async) stay together and in order.
/// B = 3: 8 chunks of 16 bytes are all 32 banks.
/// S = 3: the source bits start at 2^(M+S) = 64 halves = 128 bytes: the bank row the chunk lies in.
/// (mn,k) -> smem_idx
template <int BLK_MN, int BLK_K>
using SmemSwizzled = decltype(composition(Swizzle<3, 3, 3>{}, SmemPlain<BLK_MN, BLK_K>{}));
//! [smem_layouts]

//! [shared_storage]
/// \brief The CTA's shared memory: one k-tile of A and one of B, laid out by the smem layouts. The kernel
/// places one in dynamic shared memory; the launch passes sizeof(SharedStorage).
template <class TA, class TB, class SmemLayoutA, class SmemLayoutB>
struct SharedStorage {
  alignas(128) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA; 128-byte aligned, so smem_idx 0 is bank 0
  alignas(128) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
};
//! [shared_storage]

/// \brief The bugs --bug plants, each a line or two of kernel.cuh or launch.cu (tagged `//~bug`); step.cpp says
/// what each breaks and which check catches it.
enum class Bug : int {
  none = 0,  ///< the kernel as written
  //~bug{
  no_zero_fill = 1,      ///< plain cp.async: a masked chunk is skipped, and smem keeps the last k-tile's values
  no_epilogue_mask = 2,  ///< the epilogue stores every entry of the tile, inside C or not
  //~bug}
};

//! [config]
/// \brief One configuration of the step-06 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam WARPS_M, WARPS_N     the TiledMMA's warps: warp w at (w % WARPS_M, w / WARPS_M), each issuing
///                              the 16×8×16 atom; gemm() repeats the (16·WARPS_M)×(8·WARPS_N) tile
/// \tparam SWIZZLE              Swizzle<3,3,3> on the K-major smem tiles, or plain
template <int BLK_M, int BLK_N, int BLK_K, int WARPS_M, int WARPS_N, bool SWIZZLE>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The atom, repeated over WARPS_M × WARPS_N warps. (warp_m,warp_n,warp_k) -> warp
  using TiledMma = decltype(make_tiled_mma(MmaOp{}, Layout<Shape<Int<WARPS_M>, Int<WARPS_N>, _1>>{}));
  /// \brief Threads per CTA: 32 per warp. The TiledCopys use them all too.
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  /// \brief The warps along M.
  static constexpr int kWarpsM = WARPS_M;
  /// \brief The warps along N.
  static constexpr int kWarpsN = WARPS_N;
  /// \brief Swizzled smem or plain.
  static constexpr bool kSwizzle = SWIZZLE;

  /// \brief sA: one k-tile of A in smem, K-major. (m,k) -> smem_idx
  using SmemLayoutA = std::conditional_t<SWIZZLE, SmemSwizzled<BLK_M, BLK_K>, SmemPlain<BLK_M, BLK_K>>;
  /// \brief sB: one k-tile of B in smem, K-major. (n,k) -> smem_idx
  using SmemLayoutB = std::conditional_t<SWIZZLE, SmemSwizzled<BLK_N, BLK_K>, SmemPlain<BLK_N, BLK_K>>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<ElementAB, ElementAB, SmemLayoutA, SmemLayoutB>;
  /// \brief Shared memory per CTA: sA and sB, in bytes.
  static constexpr int kSmemBytes = int(sizeof(Smem));

  /// \brief The copy partition of A's k-tiles (cp.async, 16 bytes per thread and instruction).
  using TiledCopyA = decltype(make_tiled_copy_cp_async<BLK_K, kThreads>());
  /// \brief The copy partition of B's k-tiles.
  using TiledCopyB = decltype(make_tiled_copy_cp_async<BLK_K, kThreads>());

  /// \brief The same configuration, swizzled or not.
  template <bool S>
  using WithSwizzle = Config<BLK_M, BLK_N, BLK_K, WARPS_M, WARPS_N, S>;

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kThreads, "32 threads per warp");
  static_assert(BLK_M % (16 * WARPS_M) == 0 && BLK_N % (8 * WARPS_N) == 0 && BLK_K % 16 == 0,
                "the CTA tile is whole TiledMMA tiles: gemm() loops over them");
  static_assert(BLK_K % kChunk == 0 && kThreads % (BLK_K / kChunk) == 0,
                "whole rows of 16-byte chunks per group of threads");
  static_assert(BLK_M % (kThreads / (BLK_K / kChunk)) == 0 && BLK_N % (kThreads / (BLK_K / kChunk)) == 0,
                "the copy threads tile the (BLK_M,BLK_K) and (BLK_N,BLK_K) k-tiles exactly");
  static_assert(!SWIZZLE || BLK_K == 32, "Swizzle<3,3,3>'s bits as the comment reads them: 64-byte rows");
  static_assert(kSmemBytes == (BLK_M + BLK_N) * BLK_K * int(sizeof(ElementAB)), "sA and sB, nothing else");
};
//! [config]

//! [default]
/// \brief The configuration step 06 runs: a 128×128×32 CTA tile, 2×2 warps, swizzled smem (16 KB).
/// The TiledMMA covers 32×16×16, so gemm() repeats it 4×8×2 times per k-tile: 64 mma.sync per warp.
using Default = Config<128, 128, 32, 2, 2, true>;
/// \brief The same kernel with plain K-major smem: what the swizzle removes.
using Unswizzled = Default::WithSwizzle<false>;
//! [default]
static_assert(128 / tile_size<0>(Default::TiledMma{}) == 4 && 128 / tile_size<1>(Default::TiledMma{}) == 8 &&
                  32 / tile_size<2>(Default::TiledMma{}) == 2,
              "gemm() repeats the 32x16x16 TiledMMA 4x8x2 times over Default's 128x128x32 k-tile");
static_assert(Default::kSmemBytes == 16384, "16 KB of smem: 128x32 halves of A and of B");

/// \brief The configurations compiled into the step, Default first (the benchmark times each, the GPU
/// tests run each; --variant picks one).
using Variants = std::tuple<Default, Unswizzled>;

/// \brief The sizes the step runs: any M and N, and K a multiple of 8, so that every row of A and B is
/// whole 16-byte chunks: each cp.async then lies wholly inside the row or wholly outside, and starts
/// 16-byte aligned.
inline tut::Problem multiple_of() { return {1, 1, kChunk}; }

}  // namespace step06

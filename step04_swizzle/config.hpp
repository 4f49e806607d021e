/// \file step04_swizzle/config.hpp
/// \brief Step 04's one source of truth: the K-major problem layouts, and a Config holding the CTA tiler,
/// the smem layouts (plain or swizzled), the TiledCopys and the TiledMMA.
///
/// The kernel, the printout, the bank-conflict model, the tests and the benchmark all build their layouts
/// from these functions, so what is printed and counted is what runs.
#pragma once

#include <tuple>

#include <cute/tensor.hpp>

#include "tut/problem.hpp"

namespace step04 {

using namespace cute;

/// \brief Element type of A, B and C.
using Element = float;

//! [problem]
/// \brief A (M,K), K-major: A(m,k) at m·K + k. (m,k) -> idx
CUTE_HOST_DEVICE auto make_layout_A(int M, int K) { return make_layout(make_shape(M, K), make_stride(K, Int<1>{})); }
/// \brief B (N,K), K-major: B(n,k) at n·K + k. (n,k) -> idx
CUTE_HOST_DEVICE auto make_layout_B(int N, int K) { return make_layout(make_shape(N, K), make_stride(K, Int<1>{})); }
/// \brief C (M,N), row-major: C(m,n) at m·N + n. (m,n) -> idx
CUTE_HOST_DEVICE auto make_layout_C(int M, int N) { return make_layout(make_shape(M, N), make_stride(N, Int<1>{})); }
//! [problem]

/// \brief The permutation of M (or N) among THR threads: THR threads × 4 consecutive elements, repeated
/// every 4·THR. (thr,val) -> position in the 4·THR-element block; as in step 03.
template <int THR>
using PermutationMN = Layout<Shape<Int<THR>, _4>, Stride<_4, _1>>;

/// \brief The TiledMMA of step 03: a 1×1×1 scalar FMA atom over THR_M×THR_N threads (thread t sits at
/// (t/THR_N, t%THR_N)), each thread owning runs of 4 consecutive rows and cols.
template <int THR_M, int THR_N>
CUTE_HOST_DEVICE auto make_tiled_mma_fma() {
  using ThrLayout = Layout<Shape<Int<THR_M>, Int<THR_N>, _1>, Stride<Int<THR_N>, _1, _0>>;  // (ThrM,ThrN,ThrK) -> thr
  using Permutation = Tile<PermutationMN<THR_M>, PermutationMN<THR_N>, Underscore>;       // of M, N, (K)
  return make_tiled_mma(UniversalFMA<Element, Element, Element>{}, ThrLayout{}, Permutation{});
}

//! [tiled_copy]
/// \brief The TiledCopy of one (BLK_MN,BLK_K) k-tile of A or B, K-major in gmem: each thread reads 4
/// consecutive k of one row, and BLK_K/4 threads side by side read a whole row of the k-tile (k
/// fastest), so a warp reads 32/(BLK_K/4) consecutive rows, each as one whole BLK_K-float piece
/// (128 bytes for BLK_K = 32): coalesced.
/// VEC = 4: one 128-bit load per thread and row; VEC = 1: the same elements, one float per load.
template <int BLK_K, int THREADS>
using CopyThrLayout = Layout<Shape<Int<THREADS / (BLK_K / 4)>, Int<BLK_K / 4>>, Stride<Int<BLK_K / 4>, _1>>;  // (mn,k) -> thr_idx
/// \brief One thread's values: 4 floats along k. (mn,k) -> val_idx
using CopyValLayout = Layout<Shape<_1, _4>>;
/// \brief The TiledCopy itself: the copy op of VEC elements, over those threads and values.
template <int BLK_K, int THREADS, int VEC>
CUTE_HOST_DEVICE auto make_tiled_copy_k_major() {
  using CopyOp = UniversalCopy<uint_bit_t<sizeof_bits_v<Element> * VEC>>;  // VEC elements at once
  return make_tiled_copy(Copy_Atom<CopyOp, Element>{}, CopyThrLayout<BLK_K, THREADS>{}, CopyValLayout{});
}
//! [tiled_copy]

//! [smem_layouts]
/// \brief A plain smem k-tile, M-major (or N-major): (mn,k) at mn + k·BLK_MN. The math reads 4
/// consecutive mn as one 128-bit load, as in step 03; the copy writes it one k (one float) at a time:
/// the transposing store. (mn,k) -> smem_idx
template <int BLK_MN, int BLK_K>
using SmemPlain = Layout<Shape<Int<BLK_MN>, Int<BLK_K>>, Stride<_1, Int<BLK_MN>>>;

/// \brief A K-major smem k-tile, laid out like gmem: (mn,k) at mn·BLK_K + k. The copy writes 4 floats
/// at once, but the math must read its rows one float at a time, down a column. (mn,k) -> smem_idx
template <int BLK_MN, int BLK_K>
using SmemKMajor = Layout<Shape<Int<BLK_MN>, Int<BLK_K>>, Stride<Int<BLK_K>, _1>>;

//! [idea]
//~ex{ the swizzle, Swizzle<Bits, Base, Shift> on (mn,k): which bits of the index go into which? (page: its numbers)
/// \brief The M-major tile, swizzled: smem_idx = Swizzle<3,2,S>(mn + k·BLK_MN) with 2^S = BLK_MN. The swizzle
/// XORs bits [S+2, S+5) of the index, which are k's bits 2..4 (the copy's 4-float piece of the row, k/4
/// mod 8), into bits [2, 5), which pick one of the 8 16-byte pieces of a 128-byte bank row.
/// M = 2: 4 floats (16 bytes) stay together, so the math's 128-bit loads survive.
/// B = 3: 8 pieces of 16 bytes are all 32 banks.
/// S = log2(BLK_MN): the XOR's source is the k/4 that tells a warp's storing lanes apart. (mn,k) -> smem_idx
/// (\p B: 3; --bug swizzle_off_by_one launches B = 2.)
template <int BLK_MN, int BLK_K, int B = 3>
using SmemSwizzled = decltype(composition(Swizzle<B, 2, log_2(unsigned(BLK_MN))>{}, SmemPlain<BLK_MN, BLK_K>{}));
//~ex= /// \brief The M-major tile, swizzled (\p B: the swizzle's bits; --bug swizzle_off_by_one launches B = 2).
//~ex= template <int BLK_MN, int BLK_K, int B = 3>
//~ex= using SmemSwizzled = decltype(composition(Swizzle<B, 2, 3>{}, SmemPlain<BLK_MN, BLK_K>{}));  // wrong bits
//~ex}
//! [idea]
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

/// \brief Which smem layout a Config uses: M-major plain or swizzled, or K-major as gmem.
enum class SmemKind { plain, swizzled, k_major };

/// \brief The smem layout of kind \p K for a (BLK_MN,BLK_K) k-tile.
template <SmemKind K, int BLK_MN, int BLK_K>
using SmemLayout = std::conditional_t<K == SmemKind::swizzled, SmemSwizzled<BLK_MN, BLK_K>,
                                      std::conditional_t<K == SmemKind::plain, SmemPlain<BLK_MN, BLK_K>,
                                                         SmemKMajor<BLK_MN, BLK_K>>>;

/// \brief The bugs --bug plants, each a line or two of kernel.cuh or launch.cu (tagged `//~bug`); step.cpp says
/// what each breaks and which check catches it.
enum class Bug : int {
  none = 0,                ///< the kernel as written
  //~bug{
  no_first_barrier = 1,    ///< the barrier after the copy removed: the math reads a half-written k-tile
  swizzle_off_by_one = 2,  ///< Swizzle<2,2,S> instead of <3,2,S>: right sums, half the store conflicts back
  //~bug}
};

//! [config]
/// \brief One configuration of the step-04 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam THR_M, THR_N         the TiledMMA's THR_M×THR_N threads, each owning
///                              (BLK_M/THR_M)×(BLK_N/THR_N) accumulators in 4×4 blocks
/// \tparam VEC                  elements per gmem -> smem load: 4 is one 128-bit load, 1 is scalar
/// \tparam SMEM                 the smem layout: SmemKind::swizzled, ::plain or ::k_major
template <int BLK_M, int BLK_N, int BLK_K, int THR_M, int THR_N, int VEC, SmemKind SMEM>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief Threads per CTA: one per thread of the TiledMMA; the TiledCopys use them all too.
  static constexpr int kThreads = THR_M * THR_N;
  /// \brief Elements per gmem -> rmem load instruction.
  static constexpr int kVec = VEC;
  /// \brief Plain or swizzled smem.
  static constexpr SmemKind kSmem = SMEM;

  /// \brief sA: one k-tile of A in smem. (m,k) -> smem_idx
  using SmemLayoutA = SmemLayout<SMEM, BLK_M, BLK_K>;
  /// \brief sB: one k-tile of B in smem. (n,k) -> smem_idx
  using SmemLayoutB = SmemLayout<SMEM, BLK_N, BLK_K>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<Element, Element, SmemLayoutA, SmemLayoutB>;
  /// \brief Shared memory per CTA: sA and sB, in bytes.
  static constexpr int kSmemBytes = int(sizeof(Smem));

  /// \brief The math partition: make_tiled_mma_fma<THR_M, THR_N>().
  using TiledMma = decltype(make_tiled_mma_fma<THR_M, THR_N>());
  /// \brief The copy partition of A's k-tiles.
  using TiledCopyA = decltype(make_tiled_copy_k_major<BLK_K, kThreads, VEC>());
  /// \brief The copy partition of B's k-tiles.
  using TiledCopyB = decltype(make_tiled_copy_k_major<BLK_K, kThreads, VEC>());

  /// \brief The same configuration with scalar loads, for operands that 128-bit loads cannot read.
  using Scalar = Config<BLK_M, BLK_N, BLK_K, THR_M, THR_N, 1, SMEM>;
  /// \brief The same configuration with smem layout \p K.
  template <SmemKind K>
  using WithSmem = Config<BLK_M, BLK_N, BLK_K, THR_M, THR_N, VEC, K>;

  // What the comments above state.
  static_assert(BLK_M % (4 * THR_M) == 0 && BLK_N % (4 * THR_N) == 0, "whole 4x4 blocks per thread");
  static_assert(BLK_K % 4 == 0 && kThreads % (BLK_K / 4) == 0, "whole rows of 4-float pieces per group of threads");
  static_assert(BLK_M % (kThreads / (BLK_K / 4)) == 0 && BLK_N % (kThreads / (BLK_K / 4)) == 0,
                "the copy threads tile the (BLK_M,BLK_K) and (BLK_N,BLK_K) k-tiles exactly");
  static_assert(VEC == 1 || VEC == 4, "32- or 128-bit loads");
  static_assert(SMEM != SmemKind::swizzled || (BLK_M >= 32 && BLK_N >= 32 && BLK_K >= 32),
                "the swizzle's 3 source bits are k/4 mod 8 and its targets the 16-byte pieces of 128 bytes");
  static_assert(kSmemBytes == (BLK_M + BLK_N) * BLK_K * int(sizeof(Element)), "sA and sB, nothing else");
};
//! [config]

//! [default]
/// \brief The configuration step 04 runs: step 03's 128×128×32 CTA tile and 16×16 threads, swizzled smem.
using Default = Config<128, 128, 32, 16, 16, 4, SmemKind::swizzled>;
/// \brief The same kernel with plain smem: what the swizzle removes.
using Unswizzled = Default::WithSmem<SmemKind::plain>;
/// \brief The same kernel with K-major smem, laid out as gmem: the design step 04 did not take.
using KMajor = Default::WithSmem<SmemKind::k_major>;
//! [default]

/// \brief The configurations compiled into the step, Default first (the benchmark times each, the GPU
/// tests run each; --variant picks one).
using Variants = std::tuple<Default, Unswizzled, KMajor>;

/// \brief True if \p p lets the copies load 4 floats at once: with K a multiple of 4, every 4-float piece
/// of a row starts at a multiple of 4, so it lies wholly inside A (or B) or wholly outside (the kernel
/// masks a piece by its first element), and is 16-byte aligned given an aligned base.
inline bool vector_copies_fit(int vec, tut::Problem const& p) { return p.k % vec == 0; }

}  // namespace step04

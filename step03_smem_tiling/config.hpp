/// \file step03_smem_tiling/config.hpp
/// \brief Step 03's one source of truth: the problem layouts, and a Config holding the CTA tiler, the
/// smem layouts, the TiledCopys and the TiledMMA.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these functions,
/// so what is printed is what runs.
#pragma once

#include <tuple>

#include <cute/tensor.hpp>

#include "tut/problem.hpp"

namespace step03 {

using namespace cute;

/// \brief Element type of A, B and C.
using Element = float;

/// \brief A (M,K), M-major: A(m,k) at m + k·M. (m,k) -> idx
CUTE_HOST_DEVICE auto make_layout_A(int M, int K) { return make_layout(make_shape(M, K), make_stride(Int<1>{}, M)); }
/// \brief B (N,K), N-major: B(n,k) at n + k·N. (n,k) -> idx
CUTE_HOST_DEVICE auto make_layout_B(int N, int K) { return make_layout(make_shape(N, K), make_stride(Int<1>{}, N)); }
/// \brief C (M,N), row-major: C(m,n) at m·N + n. (m,n) -> idx
CUTE_HOST_DEVICE auto make_layout_C(int M, int N) { return make_layout(make_shape(M, N), make_stride(N, Int<1>{})); }

/// \brief The permutation of M (or N) among THR threads: THR threads × 4 consecutive elements, repeated
/// every 4·THR. (thr,val) -> position in the 4·THR-element block; step 02's is PermutationMN<16>.
template <int THR>
using PermutationMN = Layout<Shape<Int<THR>, _4>, Stride<_4, _1>>;

//! [tiled_mma]
/// \brief The TiledMMA: a 1×1×1 scalar FMA atom over THR_M×THR_N threads (thread t sits at
/// (t/THR_N, t%THR_N): row-major over (M,N)), with the permutation that gives each thread runs of
/// 4 consecutive rows and cols.
template <int THR_M, int THR_N>
CUTE_HOST_DEVICE auto make_tiled_mma_fma() {
  using ThrLayout = Layout<Shape<Int<THR_M>, Int<THR_N>, _1>, Stride<Int<THR_N>, _1, _0>>;  // (ThrM,ThrN,ThrK) -> thr
  using Permutation = Tile<PermutationMN<THR_M>, PermutationMN<THR_N>, Underscore>;       // of M, N, (K)
  return make_tiled_mma(UniversalFMA<Element, Element, Element>{}, ThrLayout{}, Permutation{});
}
//! [tiled_mma]

//! [tiled_copy]
/// \brief The TiledCopy of one (BLK_MN,BLK_K) k-tile of A or B, MN-major in gmem and in smem: THREADS
/// threads in an MN-major (BLK_MN/VEC, THREADS/(BLK_MN/VEC)) grid, each moving VEC consecutive
/// elements along MN with one instruction (VEC = 4: a 128-bit uint128_t; VEC = 1: one float). A warp
/// thus reads 32 consecutive vectors of one column k: one coalesced 512-byte (or 128-byte) load.
template <int BLK_MN, int THREADS, int VEC>
using CopyThrLayout = Layout<Shape<Int<BLK_MN / VEC>, Int<THREADS / (BLK_MN / VEC)>>>;  // (mn,k) -> thr_idx
/// \brief One copy's values: VEC elements along mn. (mn,k) -> val_idx
template <int VEC>
using CopyValLayout = Layout<Shape<Int<VEC>, _1>>;
/// \brief The TiledCopy itself: the copy op of VEC elements, over those threads and values.
template <int BLK_MN, int THREADS, int VEC>
CUTE_HOST_DEVICE auto make_tiled_copy_mn_major() {
  using CopyOp = UniversalCopy<uint_bit_t<sizeof_bits_v<Element> * VEC>>;  // VEC elements at once
  return make_tiled_copy(Copy_Atom<CopyOp, Element>{}, CopyThrLayout<BLK_MN, THREADS, VEC>{}, CopyValLayout<VEC>{});
}
//! [tiled_copy]

//! [shared_storage]
/// \brief The CTA's shared memory: one k-tile of A and one of B, laid out by the smem layouts. The kernel
/// places one in dynamic shared memory; the launch passes sizeof(SharedStorage).
template <class TA, class TB, class SmemLayoutA, class SmemLayoutB>
struct SharedStorage {
  alignas(16) ArrayEngine<TA, cosize_v<SmemLayoutA>> A;  ///< sA; 16-byte aligned for 128-bit accesses
  alignas(16) ArrayEngine<TB, cosize_v<SmemLayoutB>> B;  ///< sB
};
//! [shared_storage]

/// \brief The bugs --bug plants into the kernel, each a line or two of kernel.cuh (tagged `//~bug`);
/// step.cpp says what each breaks and which check catches it.
enum class Bug : int {
  none = 0,               ///< the kernel as written
  //~bug{
  no_second_barrier = 1,  ///< the barrier after the math removed: the next copy overwrites what others still read
  no_zero_fill = 2,       ///< the registers not cleared before the masked loads: a skipped element keeps a stale value
  //~bug}
};

//! [config]
/// \brief One configuration of the step-03 kernel: every size and layout static.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam THR_M, THR_N         the TiledMMA's THR_M×THR_N threads, each owning
///                              (BLK_M/THR_M)×(BLK_N/THR_N) accumulators in 4×4 blocks
/// \tparam VEC                  elements per gmem -> smem copy: 4 is one 128-bit load, 1 is scalar
template <int BLK_M, int BLK_N, int BLK_K, int THR_M, int THR_N, int VEC>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief Threads per CTA: one per thread of the TiledMMA; the TiledCopys use them all too.
  static constexpr int kThreads = THR_M * THR_N;
  /// \brief Elements per gmem -> smem copy instruction.
  static constexpr int kVec = VEC;

  /// \brief sA: one k-tile of A in smem, M-major like A. (m,k) -> smem_idx
  using SmemLayoutA = Layout<Shape<Int<BLK_M>, Int<BLK_K>>, Stride<_1, Int<BLK_M>>>;
  /// \brief sB: one k-tile of B in smem, N-major like B. (n,k) -> smem_idx
  using SmemLayoutB = Layout<Shape<Int<BLK_N>, Int<BLK_K>>, Stride<_1, Int<BLK_N>>>;
  /// \brief The kernel's shared memory.
  using Smem = SharedStorage<Element, Element, SmemLayoutA, SmemLayoutB>;
  /// \brief Shared memory per CTA: sA and sB, in bytes.
  static constexpr int kSmemBytes = int(sizeof(Smem));

  /// \brief The math partition: make_tiled_mma_fma<THR_M, THR_N>().
  using TiledMma = decltype(make_tiled_mma_fma<THR_M, THR_N>());
  /// \brief The copy partition of A's k-tiles.
  using TiledCopyA = decltype(make_tiled_copy_mn_major<BLK_M, kThreads, VEC>());
  /// \brief The copy partition of B's k-tiles.
  using TiledCopyB = decltype(make_tiled_copy_mn_major<BLK_N, kThreads, VEC>());

  /// \brief The same configuration with scalar copies, for operands that VEC-wide loads cannot read.
  using Scalar = Config<BLK_M, BLK_N, BLK_K, THR_M, THR_N, 1>;

  // What the comments above state.
  static_assert(BLK_M % (4 * THR_M) == 0 && BLK_N % (4 * THR_N) == 0, "whole 4x4 blocks per thread");
  static_assert(kThreads % (BLK_M / VEC) == 0 && BLK_K % (kThreads / (BLK_M / VEC)) == 0,
                "A's copy threads tile its (BLK_M,BLK_K) k-tile exactly");
  static_assert(kThreads % (BLK_N / VEC) == 0 && BLK_K % (kThreads / (BLK_N / VEC)) == 0,
                "B's copy threads tile its (BLK_N,BLK_K) k-tile exactly");
  static_assert(VEC == 1 || VEC == 2 || VEC == 4, "32-, 64- or 128-bit copies");
  static_assert(kSmemBytes == (BLK_M + BLK_N) * BLK_K * int(sizeof(Element)), "sA and sB, nothing else");
};
//! [config]

//! [default]
/// \brief The configuration step 03 runs: a 128×128×32 CTA tile, 16×16 threads with 8×8 accumulators
/// each, and 128-bit copies (with Default::Scalar for operands that cannot take them). BLK_K = 32 makes
/// 32 k_blocks of math per pair of barriers; at 4096³ on an H100 (docs/bench/h100_2026-11-26.json) it
/// ran at 86.1% of cuBLAS, against 83.9% for BLK_K = 16 and 75.3% for BLK_K = 8.
using Default = Config<128, 128, 32, 16, 16, 4>;
//! [default]

/// \brief The configurations compiled into the step, Default first: the measurements behind its choice
/// (the benchmark times each, the GPU tests run each; --variant picks one).
using Variants = std::tuple<Default, Config<128, 128, 16, 16, 16, 4>, Config<128, 128, 8, 16, 16, 4>,
                            Config<128, 128, 16, 8, 16, 4>, Config<128, 128, 8, 16, 16, 1>>;

/// \brief True if \p p lets the copies move VEC elements at once: every VEC-vector along M of A and along
/// N of B then starts at a multiple of VEC, so it lies wholly inside the operand or wholly outside
/// (the kernel masks a vector by its first element), and is 4·VEC-byte aligned given an aligned base.
inline bool vector_copies_fit(int vec, tut::Problem const& p) { return p.m % vec == 0 && p.n % vec == 0; }

}  // namespace step03

/// \file step05_tensorcore_mma/config.hpp
/// \brief Step 05's one source of truth: the K-major fp16 problem layouts, the tensor-core MMA atom, and
/// a Config holding the CTA tiler and the TiledMMA built from that atom.
///
/// The kernel, the printout, the tests and the benchmark all build their layouts from these types, so
/// what is printed is what runs.
#pragma once

#include <cstdint>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/atom/mma_atom.hpp>
#include <cute/tensor.hpp>

#include "tut/problem.hpp"

namespace step05 {

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

//! [atom]
/// \brief The instruction: `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32`. One warp computes
/// D (16×8, fp32) = A (16×16, fp16) · B (16×8, fp16) + C (16×8, fp32); "TN": A and B both K-major.
//! [idea]
using MmaOp = SM80_16x8x16_F32F16F16F32_TN;
/// \brief The instruction with its traits: which lane holds which element (MMA_Traits<MmaOp>).
using Atom = MMA_Atom<MmaOp>;
//! [idea]
// The step's element types are the atom's: A and B in ElementAB (the harness's "fp16 in"), C in ElementC.
static_assert(std::is_same_v<Atom::ValTypeA, ElementAB> && std::is_same_v<Atom::ValTypeB, ElementAB> &&
                  std::is_same_v<Atom::ValTypeC, ElementC> && std::is_same_v<Atom::ValTypeD, ElementC>,
              "A and B of the step's ElementAB, C and D of its ElementC");
/// \brief The slides' smaller sibling, m16n8k8: half the K, half the A and B registers.
using Atom16x8x8 = MMA_Atom<SM80_16x8x8_F32F16F16F32_TN>;
//! [atom]

/// \brief Which value indices each 32-bit register of a fragment of \p values halves holds, {bits 0..15,
/// bits 16..31}: the recast the atom's call makes before the asm (MMA_Atom::call -> mma_unpack ->
/// recast<uint32_t>), done on the host over index-coded values. Host only.
inline std::vector<std::pair<int, int>> register_halves(int values) {
  std::vector<ElementAB> frag;
  frag.resize(std::size_t(values));
  for (int v = 0; v < values; ++v) frag[std::size_t(v)] = ElementAB(v);  // value v holds the number v
  Tensor regs = recast<std::uint32_t>(make_tensor(frag.data(), make_layout(values)));
  auto value_in = [](std::uint32_t bits16) {
    std::uint16_t const h = std::uint16_t(bits16);
    ElementAB x;
    std::memcpy(&x, &h, sizeof h);
    return int(float(x));
  };
  std::vector<std::pair<int, int>> out;
  for (int r = 0; r < int(size(regs)); ++r) out.push_back({value_in(regs(r) & 0xFFFFu), value_in(regs(r) >> 16)});
  return out;
}

/// \brief The bugs --bug plants, each a line or two of kernel.cuh (tagged `//~bug`); step.cpp says what each
/// breaks and which check catches it.
enum class Bug : int {
  none = 0,  ///< the kernel as written
  //~bug{
  swapped_block_index = 1,  ///< the CTA's tile taken as (blockIdx.y, blockIdx.x): x is not always m
  last_k_tile_dropped = 2,  ///< the k loop stops one k-tile early: an off-by-one
  //~bug}
};

//! [config]
/// \brief One configuration of the step-05 kernel.
/// \tparam BLK_M, BLK_N, BLK_K  the CTA tile: each CTA computes BLK_M×BLK_N of C, BLK_K k at a time
/// \tparam WARPS_M, WARPS_N     the TiledMMA's warps: WARPS_M×WARPS_N copies of the atom side by side
///                              (warp w at (w % WARPS_M, w / WARPS_M)), a (16·WARPS_M)×(8·WARPS_N)×16 tile
template <int BLK_M, int BLK_N, int BLK_K, int WARPS_M, int WARPS_N>
struct Config {
  /// \brief The CTA tiler (BLK_M, BLK_N, BLK_K).
  using CtaTiler = Shape<Int<BLK_M>, Int<BLK_N>, Int<BLK_K>>;
  /// \brief The atom, repeated over WARPS_M × WARPS_N warps. (warp_m,warp_n,warp_k) -> warp
  using TiledMma = decltype(make_tiled_mma(MmaOp{}, Layout<Shape<Int<WARPS_M>, Int<WARPS_N>, _1>>{}));
  /// \brief Threads per CTA: 32 per warp.
  static constexpr int kThreads = 32 * WARPS_M * WARPS_N;
  /// \brief The warps along M.
  static constexpr int kWarpsM = WARPS_M;
  /// \brief The warps along N.
  static constexpr int kWarpsN = WARPS_N;

  // What the comments above state.
  static_assert(int(size(TiledMma{})) == kThreads, "32 threads per warp");
  static_assert(int(tile_size<0>(TiledMma{})) == 16 * WARPS_M && int(tile_size<1>(TiledMma{})) == 8 * WARPS_N &&
                    int(tile_size<2>(TiledMma{})) == 16,
                "the TiledMMA's tile: WARPS_M atoms of 16 rows, WARPS_N atoms of 8 cols, 16 k");
  static_assert(BLK_M % (16 * WARPS_M) == 0 && BLK_N % (8 * WARPS_N) == 0 && BLK_K % 16 == 0,
                "the CTA tile is whole TiledMMA tiles: gemm() loops over them");
};
//! [config]

//! [default]
/// \brief One warp, one atom: the CTA tile is the instruction's 16×8×16, so each k-tile is one mma.sync.
using OneAtom = Config<16, 8, 16, 1, 1>;
/// \brief 2×2 warps over a 64×64×32 tile: the TiledMMA covers 32×16×16, and gemm() repeats it
/// 2×4×2 times per k-tile, 16 mma.sync per warp.
using Warps2x2 = Config<64, 64, 32, 2, 2>;
//! [default]

/// \brief The configurations compiled into the step, the default first (the benchmark times each, the GPU
/// tests run each; --variant picks one).
using Variants = std::tuple<OneAtom, Warps2x2>;

/// \brief The sizes every variant runs: M, N and K multiples of Warps2x2's CTA tile, which OneAtom's tile
/// divides. The step has no predication; step06 handles any M and N.
inline tut::Problem multiple_of() {
  using T = Warps2x2::CtaTiler;
  return {size<0>(T{}), size<1>(T{}), size<2>(T{})};
}
static_assert(size<0>(Warps2x2::CtaTiler{}) % size<0>(OneAtom::CtaTiler{}) == 0 &&
                  size<1>(Warps2x2::CtaTiler{}) % size<1>(OneAtom::CtaTiler{}) == 0 &&
                  size<2>(Warps2x2::CtaTiler{}) % size<2>(OneAtom::CtaTiler{}) == 0,
              "OneAtom's tile divides Warps2x2's");

}  // namespace step05

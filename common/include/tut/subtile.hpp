/// \file subtile.hpp
/// \brief The views of a TMA-store epilogue that stores a C tile in column subtiles through small smem
/// buffers (steps 12 and 13): the tile laid on one buffer, and a thread's wgmma accumulators a subtile
/// at a time. Host and device; the steps' tests check both at every thread and value.
#pragma once

#include <cute/tensor.hpp>

namespace tut {

/// \brief The whole BLK_M×BLK_N C tile as partition_C sees it, laid on one buffer of BLK_M×EPI_N: column
/// n of the tile is column n % EPI_N of the buffer (the subtile, n / EPI_N, has stride 0). Composed with
/// the buffers' smem layout, it gives every accumulator its smem place in whichever subtile it belongs
/// to. (m,(n,subtile)) -> buffer idx
template <int BLK_M, int BLK_N, int EPI_N>
using TileOnBuffer = cute::Layout<cute::Shape<cute::Int<BLK_M>, cute::Shape<cute::Int<EPI_N>, cute::Int<BLK_N / EPI_N>>>,
                                  cute::Stride<cute::_1, cute::Stride<cute::Int<BLK_M>, cute::_0>>>;

/// \brief A thread's accumulators (or its partition of the C tile), (MMA,MMA_M,1), a subtile at a time:
/// column e of the result is subtile e's values. wgmma's C fragment walks N in blocks of 8 columns, 4
/// values per block, one block after another, for each of its MMA_M 64-row blocks in turn. So the
/// values of columns [e·EPI_N, (e+1)·EPI_N) are PER consecutive ones in each row block: PER at e·PER,
/// and PER more at e·PER + size(MMA) for a second row block, and so on.
/// ((PER,MMA_M),SUBTILES) -> the tensor's value
template <int SUBTILES, class Tensor>
CUTE_HOST_DEVICE auto by_subtile(Tensor&& t) {
  using namespace cute;
  constexpr int MMA = decltype(size<0>(t))::value, MMA_M = decltype(size<1>(t))::value;
  static_assert(decltype(size<2>(t))::value == 1 && MMA % SUBTILES == 0, "one wgmma wide, whole subtiles");
  constexpr int PER = MMA / SUBTILES;
  using BySubtile = Layout<Shape<Shape<Int<PER>, Int<MMA_M>>, Int<SUBTILES>>, Stride<Stride<_1, Int<MMA>>, Int<PER>>>;
  return make_tensor(t.data(), composition(t.layout(), BySubtile{}));
}

}  // namespace tut

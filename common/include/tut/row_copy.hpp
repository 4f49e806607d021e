/// \file row_copy.hpp
/// \brief The TiledCopy that moves a tile in whole rows, 16 bytes per thread and instruction: the cp.async
/// of A's and B's k-tiles in steps 06–08 (gmem -> smem), and the epilogue's 128-bit stores of the C tile
/// in steps 07–11 (smem -> gmem). One definition, so that every step copies as step 06 taught.
#pragma once

#include <cute/tensor.hpp>  // first: it brings the copy atoms (copy_atom.hpp alone does not compile)

namespace tut {

//! [row_copy]
/// \brief Elements of \p T in one 16-byte chunk: what one thread moves per instruction.
template <class T>
inline constexpr int kChunkOf = 16 / int(sizeof(T));

/// \brief The threads over a tile whose rows are \p ROW elements of \p T long: ROW/chunk threads side by
/// side along a row (its fastest mode), then the threads repeat down the tile. (row,col) -> thr_idx
template <class T, int ROW, int THREADS>
using RowThrLayout = cute::Layout<cute::Shape<cute::Int<THREADS * kChunkOf<T> / ROW>, cute::Int<ROW / kChunkOf<T>>>,
                                  cute::Stride<cute::Int<ROW / kChunkOf<T>>, cute::_1>>;
/// \brief One thread's values per instruction: one 16-byte chunk along the row. (row,col) -> val_idx
template <class T>
using RowValLayout = cute::Layout<cute::Shape<cute::_1, cute::Int<kChunkOf<T>>>>;

/// \brief The TiledCopy of \p CopyOp over those threads and values: a warp moves whole rows, each one run
/// of contiguous bytes in gmem (coalesced), and the threads cover the tile's rows in turn.
template <class CopyOp, class T, int ROW, int THREADS>
CUTE_HOST_DEVICE auto make_row_tiled_copy() {
  static_assert(ROW % kChunkOf<T> == 0 && THREADS % (ROW / kChunkOf<T>) == 0,
                "whole 16-byte chunks per row, and whole rows of threads");
  return cute::make_tiled_copy(cute::Copy_Atom<CopyOp, T>{}, RowThrLayout<T, ROW, THREADS>{}, RowValLayout<T>{});
}
//! [row_copy]

}  // namespace tut

/// \file step06_global_gemm/what_is_new.hpp
/// \brief Step 06's own printers for section 4 of its printout, what is new: one thread's cp.async chunks at
/// the ragged edge, and the swizzle of its K-major tiles of halves as a function of the plain index (host
/// only).
#pragma once

#include <ostream>
#include <string>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/mask.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm80.hpp"

namespace step06 {

using tut::plain;
using tut::print_item;
using tut::str;

/// \brief One thread's cp.async chunks of operand \p op in k-tile \p k_tile: where each lands (its \p row
/// and k) and whether it copies. \p tXcX is the thread's copy partition of the operand's identity tiles,
/// (CPY,CPY_MN,CPY_K,k) -> (mn,k); the masks are the kernel's, make_mask(tXcX, \p shape_x) (the operand's).
template <class CoordTensor, class Shape>
void print_chunks(std::ostream& os, char op, char row, CoordTensor const& tXcX, Shape const& shape_x, int k_tile) {
  using namespace cute;
  Tensor tXpX = tut::make_mask(tXcX, shape_x);           // (CPY,CPY_MN,CPY_K,k) -> mn<MN && k<K
  Tensor c = group_modes<1, 3>(tXcX(_, _, _, k_tile));  // (CPY,chunk) -> (mn,k)
  Tensor p = group_modes<1, 3>(tXpX(_, _, _, k_tile));  // (CPY,chunk) -> inside?
  for (int j = 0; j < int(size<1>(c)); ++j) {
    int const mn = get<0>(c(0, j)), k = get<1>(c(0, j));
    os << "    " << op << "(" << row << "=" << mn << ", k=" << k << ".." << k + kChunk - 1 << ")  "
       << (p(0, j) ? "copy 16 bytes" : "zero-fill (src_size 0)") << '\n';
  }
}

/// \brief Swizzle<B,M,S> as a function of the plain index i = BLK_K*mn + k of a K-major tile of halves,
/// \p blk_mn x \p blk_k: which bits it moves, and what B, M and S mean here.
template <int B, int M, int S>
void print_swizzle_function(std::ostream& os, cute::Swizzle<B, M, S> sw, int blk_mn, int blk_k) {
  tut::print_swizzle_bits(os, B, M, S, cute::log_2(unsigned(blk_k)), cute::log_2(unsigned(blk_mn)), 'k', 'm',
                          str(blk_k) + "m + k");
  int const row_bytes = blk_k * int(sizeof(ElementAB));
  os << "    the 16-byte chunk of a 128-byte bank row is XORed with m/" << 128 / row_bytes << " mod 8\n";
  tut::print_swizzle_m_b(os, sw, "halves", "one cp.async", "chunks");
  os << "    S = " << S << ": the source bits start at 2^(M+S) = " << (1 << (M + S)) << " halves = 128 bytes = "
     << 128 / row_bytes << " rows of " << row_bytes << " bytes:\n"
     << "        the bank row a chunk lies in, which tells apart the rows a warp reads at one k\n";
}

}  // namespace step06

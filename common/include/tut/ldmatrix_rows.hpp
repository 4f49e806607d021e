/// \file ldmatrix_rows.hpp
/// \brief An ldmatrix on the host (host only), for the printouts, pictures and tests of the steps that
/// load smem into registers with it: the 16-byte smem row each lane names, read off the kernel's own
/// smem -> register TiledCopy and smem tensor.
#pragma once

#include <cstdint>
#include <vector>

#include <cute/tensor.hpp>

namespace tut {

/// \brief One lane's part in an ldmatrix.x4: the 16-byte smem row it names.
struct LdsmRow {
  int lane = 0;            ///< 0..31
  int matrix = 0;          ///< lane / 8: which of the four 8×8 matrices the row belongs to
  int mn = 0;              ///< the row's m (of sA) or n (of sB) in the tile
  int k = 0;               ///< the k of its first element
  std::int64_t byte = 0;   ///< its smem byte offset
};

/// \brief The rows the 32 lanes of warp \p warp name in ldmatrix instruction \p i (over the copy's
/// (CPY_MN, CPY_K) repeats of one stage, column-major) of \p stage: read off \p s2r's partition (the
/// kernel's S2RCopyA or S2RCopyB) of \p s, the kernel's (BLK_MN,BLK_K,STAGES) smem tensor, in
/// \p smem (a tut::HostSmem, which gives each element's byte offset).
template <class S2R, class STensor, class HostSmem>
std::vector<LdsmRow> ldmatrix_rows(S2R const& s2r, STensor const& s, HostSmem const& smem, int warp, int i, int stage) {
  using namespace cute;
  std::vector<LdsmRow> rows;
  Tensor cs = make_identity_tensor(product_each(shape(s)));  // (BLK_MN,BLK_K,STAGES) -> (mn,k,stage)
  for (int lane = 0; lane < 32; ++lane) {
    auto thr = s2r.get_slice(32 * warp + lane);
    Tensor tXs = group_modes<1, 3>(thr.partition_S(s)(_, _, _, stage));   // (CPY,CPY_MN*CPY_K)
    Tensor tXc = group_modes<1, 3>(thr.partition_S(cs)(_, _, _, stage));  // (CPY,CPY_MN*CPY_K) -> (mn,k,stage)
    LdsmRow r;
    r.lane = lane;
    r.matrix = lane / 8;
    r.mn = int(get<0>(tXc(0, i)));
    r.k = int(get<1>(tXc(0, i)));
    r.byte = smem.offset(&tXs(0, i));
    rows.push_back(r);
  }
  return rows;
}

}  // namespace tut

/// \file step07_multistage/smem_accesses.hpp
/// \brief Step 07's smem instructions on the host, for the printout and the tests: the 16-byte smem rows
/// each lane of an ldmatrix names, read off the kernel's own partitions of its smem tensors.
#pragma once

#include <cstdint>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/host_smem.hpp"

namespace step07 {

/// \brief One lane's part in an ldmatrix.x4: the 16-byte smem row it names.
struct LdsmRow {
  int lane = 0;            ///< 0..31
  int matrix = 0;          ///< lane / 8: which of the four 8×8 matrices the row belongs to
  int mn = 0;              ///< the row's m (of sA) or n (of sB) in the tile
  int k = 0;               ///< the k of its first element
  std::int64_t byte = 0;   ///< its smem byte offset
};

/// \brief The rows the 32 lanes of warp \p warp name in ldmatrix instruction \p i (over the copy's
/// (CPY_MN, CPY_K) repeats of one stage, column-major) of \p stage, for A (\p a) or B: read off the
/// kernel's S2RCopyA/B partition of the kernel's smem tensors.
template <class Cfg>
std::vector<LdsmRow> ldmatrix_rows(tut::HostSmem<Cfg> const& smem, bool a, int warp, int i, int stage) {
  std::vector<LdsmRow> rows;
  auto one = [&](auto const& s2r, auto const& s) {
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
  };
  if (a)
    one(typename Cfg::S2RCopyA{}, smem.sA());
  else
    one(typename Cfg::S2RCopyB{}, smem.sB());
  return rows;
}

}  // namespace step07

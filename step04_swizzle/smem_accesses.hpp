/// \file step04_swizzle/smem_accesses.hpp
/// \brief The bank-conflict model (tut/banks.hpp) applied to step 04's own partitions (host only).
///
/// The tensors are built with the kernel's calls, on the kernel's types: a SharedStorage (here in host
/// memory, 128-byte aligned like the kernel's), the smem layouts, the TiledCopys and the TiledMMA; the
/// instructions are those CuTe's copy issues for the kernel's copy(tArA, tAsA) and
/// copy(tCsA(_,_,k_block), tCrA(_,_,k_block)), with the loads of the unrolled k_block loop merged as
/// nvcc merges them (tut::banks::merge_unrolled).
#pragma once

#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/banks.hpp"
#include "tut/host_smem.hpp"

namespace step04 {

/// \brief Thread t's smem instructions per k-tile, for one of the four partitions: 0 tAsA (store A),
/// 1 tBsB (store B), 2 tCsA (load A, every k_block), 3 tCsB (load B, every k_block).
template <class Cfg>
tut::banks::ThreadAccesses thread_accesses(tut::HostSmem<Cfg> const& smem, int which, int t) {
  using namespace cute;
  Tensor sA = smem.sA();
  Tensor sB = smem.sB();
  if (which < 2) {  // the kernel: copy(tArA, tAsA), once per k-tile
    auto thr_copy = (which == 0 ? typename Cfg::TiledCopyA{} : typename Cfg::TiledCopyB{}).get_slice(t);
    auto store = [&](auto const& s) {
      Tensor tXsX = thr_copy.partition_D(s);    // (CPY,CPY_MN,CPY_K)
      Tensor tXrX = make_fragment_like(tXsX);   // (CPY,CPY_MN,CPY_K)
      return tut::banks::copy_accesses(tXrX, tXsX, smem.base());
    };
    return which == 0 ? store(sA) : store(sB);
  }
  // The kernel: copy(tCsA(_,_,k_block), tCrA(_,_,k_block)) for every k_block of the k-tile.
  auto thr_mma = typename Cfg::TiledMma{}.get_slice(t);
  auto load = [&](auto const& tCsX, auto const& tCrX) {
    tut::banks::ThreadAccesses all;
    for (int k_block = 0; k_block < int(size<2>(tCsX)); ++k_block) {
      auto a = tut::banks::copy_accesses(tCsX(_, _, k_block), tCrX(_, _, k_block), smem.base());
      all.bytes = a.bytes;
      all.offsets.insert(all.offsets.end(), a.offsets.begin(), a.offsets.end());
    }
    // The k_block loop is unrolled: where a thread reads whole 16-byte pieces one float at a time
    // (K-major smem, down k), nvcc merges them into 128-bit loads, and the counters see those.
    return tut::banks::merge_unrolled(all);
  };
  if (which == 2) return load(thr_mma.partition_A(sA), thr_mma.partition_fragment_A(sA));
  return load(thr_mma.partition_B(sB), thr_mma.partition_fragment_B(sB));
}

/// \brief The kernel's four smem partitions, in thread_accesses' order.
inline std::vector<tut::banks::Partition> partitions() {
  return {{"tAsA", "store A"}, {"tBsB", "store B"}, {"tCsA", "load A"}, {"tCsB", "load B"}};
}

/// \brief The bank model on the kernel's four smem partitions: Model<Cfg>::counts() per CTA and k-tile,
/// Model<Cfg>::warp_instruction(which, warp, i) as thread_accesses numbers them.
template <class Cfg>
using Model = tut::banks::StepModel<Cfg, &thread_accesses<Cfg>, &partitions>;

}  // namespace step04

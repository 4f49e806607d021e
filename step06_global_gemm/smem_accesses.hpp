/// \file step06_global_gemm/smem_accesses.hpp
/// \brief The bank-conflict model (tut/banks.hpp) applied to step 06's own partitions (host only).
///
/// The tensors are built with the kernel's calls, on the kernel's types: a SharedStorage (here in host
/// memory, 128-byte aligned like the kernel's), the smem layouts, the TiledCopys and the TiledMMA. The
/// stores are the cp.async instructions of copy_if(copy_a, ..., tAsA), one 16-byte chunk each; the loads
/// are those CuTe's copy_aligned issues for the kernel's copy_aligned(tCsA, tCrA).
#pragma once

#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/banks.hpp"
#include "tut/host_smem.hpp"

namespace step06 {

/// \brief Thread t's smem instructions per k-tile, for one of the four partitions: 0 tAsA (cp.async
/// store A), 1 tBsB (cp.async store B), 2 tCsA (load A), 3 tCsB (load B).
template <class Cfg>
tut::banks::ThreadAccesses thread_accesses(tut::HostSmem<Cfg> const& smem, int which, int t) {
  using namespace cute;
  Tensor sA = smem.sA();
  Tensor sB = smem.sB();
  // The kernel: copy_if(copy_a, tApA, tAgA, tAsA): one cp.async per 16-byte chunk, masked or not (a
  // zero-filled chunk is written too).
  if (which == 0) return tut::banks::atom_accesses(typename Cfg::TiledCopyA{}.get_slice(t).partition_D(sA), smem.base());
  if (which == 1) return tut::banks::atom_accesses(typename Cfg::TiledCopyB{}.get_slice(t).partition_D(sB), smem.base());
  // The kernel: copy_aligned(tCsA, tCrA), the whole k-tile at once, assuming 128-bit aligned pointers.
  auto thr_mma = typename Cfg::TiledMma{}.get_slice(t);
  if (which == 2)
    return tut::banks::copy_accesses<128>(thr_mma.partition_A(sA), thr_mma.partition_fragment_A(sA), smem.base());
  return tut::banks::copy_accesses<128>(thr_mma.partition_B(sB), thr_mma.partition_fragment_B(sB), smem.base());
}

/// \brief The kernel's four smem partitions, in thread_accesses' order.
inline std::vector<tut::banks::Partition> partitions() {
  return {{"tAsA", "cp.async A"}, {"tBsB", "cp.async B"}, {"tCsA", "load A"}, {"tCsB", "load B"}};
}

/// \brief The bank model on the kernel's four smem partitions: Model<Cfg>::counts() per CTA and k-tile,
/// Model<Cfg>::warp_instruction(which, warp, i) as thread_accesses numbers them.
template <class Cfg>
using Model = tut::banks::StepModel<Cfg, &thread_accesses<Cfg>, &partitions>;

}  // namespace step06

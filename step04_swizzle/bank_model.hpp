/// \file step04_swizzle/bank_model.hpp
/// \brief The bank-conflict model (tut/banks.hpp) applied to step 04's own partitions (host only).
///
/// The tensors are built with the kernel's calls, on the kernel's types: a SharedStorage (here in host
/// memory, 128-byte aligned like the kernel's), the smem layouts, the TiledCopys and the TiledMMA; the
/// instructions are those CuTe's copy issues for the kernel's copy(tArA, tAsA) and
/// copy(tCsA(_,_,k_block), tCrA(_,_,k_block)), with the loads of the unrolled k_block loop merged as
/// nvcc merges them (tut::banks::merge_unrolled).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/banks.hpp"

namespace step04 {

/// \brief One partition's count: per CTA and k-tile, over all its warps.
struct PartitionCount {
  std::string partition;         ///< "tAsA", "tBsB", "tCsA", "tCsB"
  std::string what;              ///< "store A", "load A", ...
  int bytes = 0;                 ///< bytes per lane per instruction (4 or 16)
  tut::banks::Wavefronts waves;  ///< per CTA and k-tile
};

/// \brief The kernel's smem, and its two smem tensors, as the kernel makes them (on the host).
template <class Cfg>
struct HostSmem {
  std::unique_ptr<typename Cfg::Smem> storage = std::make_unique<typename Cfg::Smem>();  ///< aligned new
  /// \brief sA, (BLK_M,BLK_K).
  auto sA() const { return cute::make_tensor(cute::make_smem_ptr(storage->A.begin()), typename Cfg::SmemLayoutA{}); }
  /// \brief sB, (BLK_N,BLK_K).
  auto sB() const { return cute::make_tensor(cute::make_smem_ptr(storage->B.begin()), typename Cfg::SmemLayoutB{}); }
  /// \brief Where smem begins: addresses are counted from here.
  void const* base() const { return storage.get(); }
};

/// \brief Thread t's smem instructions per k-tile, for one of the four partitions: 0 tAsA (store A),
/// 1 tBsB (store B), 2 tCsA (load A, every k_block), 3 tCsB (load B, every k_block).
template <class Cfg>
tut::banks::ThreadAccesses thread_accesses(HostSmem<Cfg> const& smem, int which, int t) {
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

/// \brief The model on the kernel's four smem partitions, per CTA and k-tile.
template <class Cfg>
std::vector<PartitionCount> model_counts() {
  HostSmem<Cfg> smem;
  char const* names[4] = {"tAsA", "tBsB", "tCsA", "tCsB"};
  char const* whats[4] = {"store A", "store B", "load A", "load B"};
  std::vector<PartitionCount> out;
  for (int which = 0; which < 4; ++which) {
    PartitionCount c{names[which], whats[which], thread_accesses(smem, which, 0).bytes, {}};
    c.waves = tut::banks::count_cta(Cfg::kThreads, [&](int t) { return thread_accesses(smem, which, t); });
    out.push_back(c);
  }
  return out;
}

/// \brief Warp \p warp's instruction \p i of partition \p which (as thread_accesses numbers them).
template <class Cfg>
tut::banks::WarpAccess warp_instruction(int which, int warp, int i) {
  HostSmem<Cfg> smem;
  std::vector<tut::banks::ThreadAccesses> lanes;
  for (int l = 0; l < tut::banks::kWarp; ++l) lanes.push_back(thread_accesses(smem, which, warp * tut::banks::kWarp + l));
  return tut::banks::warp_instructions(lanes).at(std::size_t(i));
}

}  // namespace step04

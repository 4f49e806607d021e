/// \file smem_model.hpp
/// \brief The bank model (tut/banks.hpp) applied to a kernel's own smem partitions, and its printouts
/// (host only).
///
/// A step's bank_model.hpp says which instructions each thread issues on each of its smem partitions
/// (its copy stores, its math loads), built with the kernel's own calls on a HostSmem; the functions
/// here count them over a CTA, pick one warp's instruction, and print the counts and bank maps the same
/// way in every step.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/banks.hpp"

namespace tut::banks {

/// \brief A kernel's shared memory on the host: one \p Cfg::Smem (a SharedStorage, allocated with its
/// alignment, so smem_idx 0 is bank 0 as in the kernel) and the kernel's two smem tensors over it.
/// Never read: only the addresses count.
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

/// \brief One smem partition of a kernel, as the printout names it.
struct Partition {
  std::string name;  ///< "tAsA", "tCsB", ...
  std::string what;  ///< "store A", "load B", ...
};

/// \brief One partition's count: per CTA and k-tile, over all its warps.
struct PartitionCount {
  std::string partition;  ///< "tAsA", "tBsB", "tCsA", "tCsB"
  std::string what;       ///< "store A", "load A", ...
  int bytes = 0;          ///< bytes per lane per instruction (4, 8 or 16)
  Wavefronts waves;       ///< per CTA and k-tile
};

/// \brief The model over a CTA of \p threads threads, for each partition \p parts[which]: thread t's
/// instructions per k-tile are \p accesses_of(which, t).
template <class AccessesOf>
std::vector<PartitionCount> model_counts(std::vector<Partition> const& parts, int threads, AccessesOf&& accesses_of) {
  std::vector<PartitionCount> out;
  for (int which = 0; which < int(parts.size()); ++which) {
    PartitionCount c{parts[std::size_t(which)].name, parts[std::size_t(which)].what, accesses_of(which, 0).bytes, {}};
    c.waves = count_cta(threads, [&](int t) { return accesses_of(which, t); });
    out.push_back(c);
  }
  return out;
}

/// \brief Warp \p warp's instruction \p i, for thread t's instructions \p accesses_of(t).
template <class AccessesOf>
WarpAccess warp_instruction(AccessesOf&& accesses_of, int warp, int i) {
  std::vector<ThreadAccesses> lanes;
  for (int l = 0; l < kWarp; ++l) lanes.push_back(accesses_of(warp * kWarp + l));
  return warp_instructions(lanes).at(std::size_t(i));
}

/// \brief One warp-wide instruction before and after the swizzle, as two bank maps under \p title.
void print_bank_maps(std::ostream& os, std::string const& title, WarpAccess const& unswizzled,
                     WarpAccess const& swizzled);

/// \brief The model's lines, one per partition and layout:
/// `bank conflicts (model): tAsA (store A), unswizzled: 896 extra wavefronts per k-tile`.
void print_model_lines(std::ostream& os, std::vector<PartitionCount> const& unswizzled,
                       std::vector<PartitionCount> const& swizzled);

}  // namespace tut::banks

/// \file banks.hpp
/// \brief A model of shared-memory bank conflicts: the smem instructions a CuTe copy issues, the
/// wavefronts each needs, the counts over a kernel's own partitions, and their printouts (host only).
///
/// A step's smem_accesses.hpp says which instructions each thread issues on each of its smem partitions
/// (its copy stores, its math loads), built with the kernel's own calls on a tut::HostSmem; the functions
/// here count them over a CTA, pick one warp's instruction, and print the counts and bank maps the same
/// way in every step.
///
/// Shared memory has 32 banks of 4 bytes: byte address a lies in bank (a / 4) mod 32. One warp-wide
/// instruction is served in wavefronts. A wavefront gives each bank one 4-byte word, to every lane that
/// wants that word (a broadcast). Lanes that want different words of one bank need one wavefront each:
/// a bank conflict. The lanes are served in phases of at most 128 bytes: all 32 lanes together for
/// 32-bit accesses, each half-warp for 64-bit ones, each quarter-warp (8 lanes) for 128-bit ones.
///
/// The model's counts are meant to equal Nsight Compute's
/// `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum`: the extra wavefronts, needed − ideal.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/host_smem.hpp"

namespace tut::banks {

inline constexpr int kBanks = 32;          ///< banks of shared memory
inline constexpr int kBankBytes = 4;       ///< bytes per bank and wavefront
inline constexpr int kWarp = 32;           ///< lanes per warp
inline constexpr std::int64_t kIdle = -1;  ///< the address of a lane that takes no part

/// \brief One warp-wide shared-memory instruction: the byte address each lane starts at (kIdle if it
/// takes no part) and how many bytes every lane moves (4, 8 or 16).
struct WarpAccess {
  std::array<std::int64_t, kWarp> addr;  ///< lane -> byte address in shared memory
  int bytes = 4;                         ///< per lane: 4 (32-bit), 8 (64-bit) or 16 (128-bit)
  WarpAccess() { addr.fill(kIdle); }
};

/// \brief Wavefronts one or more instructions need, and the fewest they could need.
struct Wavefronts {
  long long needed = 0;  ///< as served: per phase, the most distinct words any one bank must give
  long long ideal = 0;   ///< with no conflicts: one per phase that has a lane taking part
  /// \brief The extra wavefronts: what a bank conflict costs, and what Nsight Compute counts.
  long long extra() const { return needed - ideal; }
  /// \brief Add another count (of more instructions).
  Wavefronts& operator+=(Wavefronts const& o) {
    needed += o.needed;
    ideal += o.ideal;
    return *this;
  }
};

/// \brief Lanes per phase for an access of \p bytes per lane: 32, 16 or 8 (128 bytes a phase).
int lanes_per_phase(int bytes);

/// \brief The model, for one warp-wide instruction.
Wavefronts wavefronts(WarpAccess const& w);

/// \brief The bank of byte address \p addr.
inline int bank_of(std::int64_t addr) { return int((addr / kBankBytes) % kBanks); }

/// \brief The smem side of one thread's `copy(src, dst)`, as CuTe's default copy issues it: its
/// instructions' byte offsets from \p smem_base, in issue order, and the bytes each moves.
struct ThreadAccesses {
  std::vector<std::int64_t> offsets;  ///< one per instruction
  int bytes = 0;                      ///< per instruction
};

/// \brief The smem instructions of one thread's `copy(src, dst)` (cute/algorithm/copy.hpp, the copy
/// without an atom): the same filter, the same vector width (the common vector of \p src and \p dst,
/// within the alignment CuTe assumes, at most 128 bits) and the same recast. Exactly one of \p src and
/// \p dst is in shared memory, at \p smem_base on the host. \p AssumedBits is the pointer alignment
/// CuTe assumes: 0 for copy()'s own choice (128 bits for static layouts, 8 for dynamic ones), 128 for
/// `copy_aligned(src, dst)`.
template <int AssumedBits = 0, class SrcEngine, class SrcLayout, class DstEngine, class DstLayout>
ThreadAccesses copy_accesses(cute::Tensor<SrcEngine, SrcLayout> const& src_in,
                             cute::Tensor<DstEngine, DstLayout> const& dst_in, void const* smem_base) {
  using namespace cute;
  constexpr bool src_smem = is_smem<typename SrcEngine::iterator>::value;
  static_assert(src_smem != is_smem<typename DstEngine::iterator>::value, "one side of the copy is smem");
  using T = typename DstEngine::value_type;

  // AutoFilter: drop the destination's broadcast modes (both sides alike).
  auto dst_null = nullspace(dst_in.layout());
  Tensor dst = zipped_divide(dst_in, dst_null)(Int<0>{}, _);
  Tensor src = zipped_divide(src_in, dst_null)(Int<0>{}, _);

  // AutoVectorizingCopyWithAssumedAlignment: copy() assumes 128 bits for static layouts, 8 for dynamic
  // ones; copy_aligned() assumes 128 bits.
  constexpr int assumed =
      AssumedBits != 0 ? AssumedBits : is_static<SrcLayout>::value && is_static<DstLayout>::value ? 128 : 8;
  constexpr int common_elem = decltype(max_common_vector(src, dst))::value;
  constexpr int align_bits = decltype(gcd(max_alignment(src), max_alignment(dst), Int<assumed>{}))::value;
  constexpr int vec_bits = std::gcd(common_elem * int(sizeof_bits_v<T>), align_bits);

  auto offsets_of = [&](auto const& s) {
    ThreadAccesses a;
    a.bytes = int(sizeof(typename std::remove_reference_t<decltype(s)>::value_type));
    for (int i = 0; i < int(size(s)); ++i)
      a.offsets.push_back(reinterpret_cast<char const*>(&s(i)) - static_cast<char const*>(smem_base));
    return a;
  };
  auto const& smem = [&]() -> auto const& {
    if constexpr (src_smem) return src; else return dst;
  }();
  if constexpr (common_elem > 1 && vec_bits % 8 == 0 && int(sizeof_bits_v<T>) < vec_bits)
    return offsets_of(recast<uint_bit_t<vec_bits>>(smem));
  else
    return offsets_of(smem);
}

/// \brief The smem side of one thread's copy through a Copy_Atom (cp.async, say): one instruction per
/// atom call. \p tXsX is the thread's smem partition (CPY,REST...), mode 0 one instruction's elements,
/// which must lie contiguous in smem (throws std::invalid_argument otherwise); the instructions come in
/// the order CuTe's copy issues them, REST column-major.
template <class Engine, class Layout>
ThreadAccesses atom_accesses(cute::Tensor<Engine, Layout> const& tXsX, void const* smem_base) {
  using namespace cute;
  static_assert(is_smem<typename Engine::iterator>::value, "the smem side of the copy");
  Tensor v = group_modes<1, rank_v<Layout>>(tXsX);  // (CPY,REST)
  using T = typename Engine::value_type;
  ThreadAccesses a;
  a.bytes = int(size<0>(v)) * int(sizeof(T));
  for (int i = 0; i < int(size<1>(v)); ++i) {
    for (int e = 1; e < int(size<0>(v)); ++e)
      if (&v(e, i) != &v(0, i) + e)
        throw std::invalid_argument("bank model: an atom's elements are not contiguous in smem");
    a.offsets.push_back(reinterpret_cast<char const*>(&v(0, i)) - static_cast<char const*>(smem_base));
  }
  return a;
}

/// \brief What nvcc does to a fully unrolled loop of 32-bit accesses: where a thread's accesses cover
/// whole 16-byte pieces (4 words from a 16-byte-aligned address), it merges each piece into one 128-bit
/// access. All or nothing: \p a is returned unchanged unless every access belongs to a whole piece.
ThreadAccesses merge_unrolled(ThreadAccesses const& a);

/// \brief The instructions of one warp, made from its 32 threads' accesses (lane l = thread 32·warp + l).
/// Every thread issues the same number of instructions of the same width.
std::vector<WarpAccess> warp_instructions(std::vector<ThreadAccesses> const& lanes);

/// \brief The model over a whole CTA's partition: \p accesses_of(t) gives thread t's ThreadAccesses
/// (for t < \p threads), grouped into warps; the sum over all warps and instructions.
template <class AccessesOf>
Wavefronts count_cta(int threads, AccessesOf&& accesses_of) {
  Wavefronts total;
  for (int w = 0; w * kWarp < threads; ++w) {
    std::vector<ThreadAccesses> lanes;
    for (int l = 0; l < kWarp && w * kWarp + l < threads; ++l) lanes.push_back(accesses_of(w * kWarp + l));
    for (auto const& i : warp_instructions(lanes)) total += wavefronts(i);
  }
  return total;
}

/// \brief A bank map of one warp-wide instruction: per phase, each lane's first bank, then each bank's
/// distinct words, and the wavefronts the model gives it. Lines without a trailing newline.
std::vector<std::string> bank_map(WarpAccess const& w);

// ---- The model over a kernel's own partitions ------------------------------------------------------
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

/// \brief The model's totals for the kernel that runs, over \p k_tile_visits (k-tiles x CTAs): one line,
/// `bank conflicts of this run (model): ld <n> st <n> ldgsts <n>`, in the terms of Nsight Compute's
/// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,ldgsts}.sum, which scripts/bank_check.sh
/// compares it with. Loads are the partitions tC*, the copy's stores (tA*, tB*) are \p copy_op
/// ("st" or "ldgsts").
void print_run_totals(std::ostream& os, std::vector<PartitionCount> const& counts, long long k_tile_visits,
                      std::string const& copy_op);

/// \brief How a step says which smem instructions thread \p t issues on its partition \p which, per k-tile,
/// over the kernel's shared memory laid out on the host (the step's smem_accesses.hpp).
template <class Cfg>
using AccessesFn = ThreadAccesses (*)(HostSmem<Cfg> const& smem, int which, int t);

/// \brief The model on a kernel's smem partitions \p parts, per CTA and k-tile: thread t's instructions on
/// partition which are \p accesses(smem, which, t), over a CTA of Cfg::kThreads threads.
template <class Cfg>
std::vector<PartitionCount> count_partitions(std::vector<Partition> const& parts, AccessesFn<Cfg> accesses) {
  HostSmem<Cfg> smem;
  return model_counts(parts, Cfg::kThreads, [&](int which, int t) { return accesses(smem, which, t); });
}

/// \brief Warp \p warp's instruction \p i on partition \p which, as \p accesses numbers them.
template <class Cfg>
WarpAccess warp_instruction_of(AccessesFn<Cfg> accesses, int which, int warp, int i) {
  HostSmem<Cfg> smem;
  return warp_instruction([&](int t) { return accesses(smem, which, t); }, warp, i);
}

/// \brief A step's bank model of configuration \p Cfg: thread t's smem instructions on partition which are
/// \p Accesses(smem, which, t), and \p Parts() names the partitions (the step's smem_accesses.hpp says both).
template <class Cfg, AccessesFn<Cfg> Accesses, std::vector<Partition> (*Parts)()>
struct StepModel {
  /// \brief The model on the kernel's partitions, per CTA and k-tile.
  static std::vector<PartitionCount> counts() { return count_partitions<Cfg>(Parts(), Accesses); }
  /// \brief Warp \p warp's instruction \p i of partition \p which.
  static WarpAccess warp_instruction(int which, int warp, int i) {
    return warp_instruction_of<Cfg>(Accesses, which, warp, i);
  }
};

}  // namespace tut::banks

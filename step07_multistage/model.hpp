/// \file step07_multistage/model.hpp
/// \brief Host models of step 07's kernel, shared by the printout and the tests: its shared memory over host
/// memory, the pipeline's schedule replayed with the kernel's own PipeState, and the 16-byte smem rows
/// each lane of an ldmatrix names.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"

namespace step07 {

/// \brief The kernel's shared memory on the host (one Cfg::Smem, aligned like the kernel's) and its three
/// smem tensors over it. Never read: only the addresses count.
template <class Cfg>
struct HostSmem {
  std::unique_ptr<typename Cfg::Smem> storage = std::make_unique<typename Cfg::Smem>();  ///< aligned new
  /// \brief sA, (BLK_M,BLK_K,STAGES).
  auto sA() const { return make_tensor(make_smem_ptr(storage->mainloop.A.begin()), typename Cfg::SmemLayoutA{}); }
  /// \brief sB, (BLK_N,BLK_K,STAGES).
  auto sB() const { return make_tensor(make_smem_ptr(storage->mainloop.B.begin()), typename Cfg::SmemLayoutB{}); }
  /// \brief sC, (BLK_M,BLK_N), in the same bytes.
  auto sC() const { return make_tensor(make_smem_ptr(storage->C.begin()), typename Cfg::SmemLayoutC{}); }
  /// \brief Byte offset of \p p from the start of smem.
  std::int64_t offset(void const* p) const {
    return static_cast<char const*>(p) - reinterpret_cast<char const*>(storage.get());
  }
};

/// \brief One iteration of the pipeline as the kernel runs it (the prologue is iteration -1).
struct PipeStep {
  int k_tile = -1;       ///< the k-tile the math reads (-1: the prologue)
  int read_stage = -1;   ///< the stage it reads
  int fill_k_tile = -1;  ///< the k-tile whose cp.async is issued (-1: none left; an empty group)
  int fill_stage = -1;   ///< the stage it lands in
  int committed = 0;     ///< cp.async groups committed so far, after this iteration's fence
  int landed = 0;        ///< groups complete after the next cp_async_wait<STAGES-2>: committed - (STAGES-2)
};

/// \brief The kernel's schedule for \p k_tiles k-tiles, replayed with its own PipeState: the prologue's fills
/// (one entry per stage it fills), then one entry per k-tile. Group g carries k-tile g (the kernel commits
/// one group per fill, empty past the last k-tile).
template <int STAGES>
std::vector<PipeStep> pipeline_schedule(int k_tiles) {
  std::vector<PipeStep> out;
  int next = 0, committed = 0;
  for (int stage = 0; stage < STAGES - 1; ++stage) {  // the prologue
    PipeStep p;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = stage;
    p.committed = ++committed;
    p.landed = committed - (STAGES - 2);
    ++next;
    out.push_back(p);
  }
  PipeState<STAGES> pipe;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {  // the mainloop: reads, then (at k-block 0) fills
    PipeStep p;
    p.k_tile = k_tile;
    p.read_stage = pipe.read;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = pipe.write;
    p.committed = ++committed;
    p.landed = committed - (STAGES - 2);
    ++next;
    pipe.advance_write();
    pipe.advance_read();  // at the last k-block, after the wait and the barrier
    out.push_back(p);
  }
  return out;
}

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
std::vector<LdsmRow> ldmatrix_rows(HostSmem<Cfg> const& smem, bool a, int warp, int i, int stage) {
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

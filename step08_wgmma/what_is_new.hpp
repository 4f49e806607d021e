/// \file step08_wgmma/what_is_new.hpp
/// \brief Section 4 of step 08's printout, what only this step prints (step.cpp calls it after the
/// sections every Hopper step shares): what the atom does to byte addresses, the descriptors that stand
/// for fragments, the accumulators' TV layout per warpgroup, and the pipeline with one wgmma batch
/// running.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step08 {

/// \brief The pipeline's first k-tiles: which stage is filled and which is read, as the kernel's PipeState goes,
/// and which wgmma batch each iteration leaves running.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule =
      tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), groups_in_flight<S>(), kWgmmaInFlight});
  int const shown = std::min<int>(int(schedule.size()), copies_ahead<S>() + 7);
  os << "  The pipeline, " << S << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA (group g carries k-tile g; one group per fill,\n  empty when no k-tile is left):\n\n"
     << "    iteration    wgmma reads     cp.async fills            groups  wait<" << groups_in_flight<S>()
     << "> ensures     left running\n";
  auto fill = [](tut::PipeStep const& p) {
    return p.fill_k_tile >= 0 ? "k-tile " + tut::str(p.fill_k_tile) + " -> stage " + tut::str(p.fill_stage)
                              : "nothing (stage " + tut::str(p.fill_stage) + "), empty";
  };
  for (int i = 0; i < shown; ++i) {
    tut::PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    std::string const it = prologue ? "prologue" : "k-tile " + tut::str(p.k_tile);
    std::string const reads = prologue ? "-" : "stage " + tut::str(p.read_stage);
    // The wait at the top of iteration t leaves groups_in_flight groups: those committed before it.
    int const before = p.committed - (prologue ? 0 : 1);
    int const landed = std::min(before - groups_in_flight<S>(), k_tiles);
    std::string const ensures = prologue || landed < 1 ? "" : "k-tiles 0.." + tut::str(landed - 1);
    std::string const running = p.running < 0 ? "" : "k-tile " + tut::str(p.running) + "'s batch";
    os << "    " << std::left;
    os.width(13);
    os << it;
    os.width(16);
    os << reads;
    os.width(26);
    os << fill(p);
    os.width(8);
    os << p.committed;
    os.width(18);
    os << ensures << running << std::right << '\n';
  }
  if (int(schedule.size()) > shown) os << "    ... (the same, round the ring)\n";
  os << "\n  The wgmmas read k-tile t from stage t % " << S << ". The fill in iteration t goes to the stage k-tile\n"
     << "  t-" << kWgmmaInFlight + 1 << " was read from: each warpgroup waited for that batch (warpgroup_wait<"
     << kWgmmaInFlight << "> in iteration t-1)\n  before the barrier at the top of iteration t. Stage (t-1) % " << S
     << " is not refilled yet: k-tile t-1's\n  batch may still be reading it. So cp.async runs " << copies_ahead<S>()
     << " k-tiles ahead, not step 07's STAGES-1 = " << S - 1 << ".\n";
}

/// \brief Section 4 for configuration Cfg, problem \p o, its traced tile \p t (tut::tile_cta).
template <class Cfg, class Tiles>
void print_what_is_new(std::ostream& os, tut::Options const& o, Tiles const& t) {
  int const K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledMma mma;
  int const bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const k_tiles = int(size<2>(t.gA));
  tut::HostSmem<Cfg> smem;
  Tensor sA = smem.sA();                                // (BLK_M,BLK_K,STAGES)
  int const mma_k = int(size<2>(mma.get_slice(T).partition_A(sA)));

  // ---- What is new: the warpgroup MMA ----------------------------------------------------------------
  tut::print_section(os, 4, "What is new: wgmma from swizzled smem, descriptors, and one batch in flight");
  os << "  The atom's swizzle, Sw<3,4,3>, acts on the byte address: 16-byte chunk c of 128-byte row r (of 8)\n"
     << "  is stored at chunk c ^ r. Where the first 16-byte chunk of each row of stage 0 lands in sA:\n\n"
     << "    row m   k      smem byte   chunk   bank\n";
  for (int m = 0; m < 8; ++m)
    for (int k : {0, 8}) {
      std::int64_t const byte = smem.offset(&sA(m, k, 0));
      std::string const cells[] = {tut::str(m), tut::str(k), tut::str(byte), tut::str(byte % 128 / 16),
                                   tut::str(byte / 4 % 32)};
      int const widths[] = {8, 7, 12, 8, 0};
      os << "    ";
      for (int c = 0; c < 5; ++c)
        os << cells[c] << std::string(std::size_t(std::max<int>(widths[c] - int(cells[c].size()), 0)), ' ');
      os << '\n';
    }
  os << "  The 8 rows' chunks at one k fall in 8 different 16-byte bank groups: a cp.async phase of 8 lanes\n"
     << "  (one per row) writes all 32 banks once, and so do wgmma's own reads.\n\n";

  os << "  A fragment is a descriptor, not registers: make_fragment_A(tCsA) holds, per wgmma and stage, the\n"
     << "  64-bit GmmaDescriptor of its 64x16 slice of sA (start address >> 4, the 128B swizzle, the strides\n"
     << "  between 8-row groups). The " << mma_k << " wgmmas of a k-tile differ only in the start address,\n"
     << "  32 bytes (16 halves) apart inside each 128-byte row: the swizzle is applied by the hardware.\n\n";

  using Atom = typename Cfg::TiledMma::Atom;
  os << "  The wgmma atom's layouts, (thread,value) -> index of its 64x" << bn << "x16 tile:\n";
  tut::print_item(os, "ALayout", tut::plain(typename Atom::Traits::ALayout{}),
             "(T128,V64x16) -> (m,k): stride 0 in T, all of A's tile from smem");
  tut::print_item(os, "BLayout", tut::plain(typename Atom::Traits::BLayout{}),
                  "(T128,V" + tut::str(bn) + "x16) -> (n,k)");
  tut::print_item(os, "CLayout", tut::plain(typename Atom::Traits::CLayout{}),
             "(T128,V" + tut::str(64 * bn / 128) + ") -> m + 64n: the accumulators");
  os << "  Thread t of a warpgroup holds rows 16(t/32) + (t%32)/4 and that + 8, columns 2(t%4), 2(t%4)+1 of every\n"
     << "  8-column group: warp w owns rows 16w..16w+15, as mma.sync's C fragment repeated " << bn / 8 << " times.\n\n";
  auto const cells = tut::tv_cells(typename Atom::Traits::CLayout{}, 64, bn);
  std::vector<std::pair<int, int>> top(cells.begin(), cells.begin() + 16 * bn);  // rows 0..15: warp 0
  for (auto const& line : tut::tv_grid("  C: who holds C(m,n) of a warpgroup's 64x" + tut::str(bn) +
                                           " tile, rows 0..15 (warp 0), cols 0..15",
                                       top, 16, bn, 0, 16, 'm', 'n'))
    os << line << '\n';

  os << "\n  wgmma is asynchronous. Per k-tile each warpgroup runs warpgroup_arrive() (its accumulators are\n"
     << "  ready), issues its " << mma_k << " wgmmas, closes them into one batch (warpgroup_commit_batch()), and\n"
     << "  warpgroup_wait<" << kWgmmaInFlight << ">() returns once all but the newest batch are done. cp.async writes"
     << " through\n  the generic proxy and wgmma reads through the async proxy: fence_view_async_shared() after\n"
     << "  cp_async_wait and before the barrier makes a thread's landed chunks visible to wgmma.\n\n";
  tut::print_k_edge(os, K, bk);
  print_timeline<Cfg>(os, k_tiles);

  tut::print_smem_epilogue_stores(os, typename Cfg::TiledCopyC{}, T, t, bn, kChunkC, "is step07's", "a barrier");
}

}  // namespace step08

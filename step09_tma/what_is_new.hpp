/// \file step09_tma/what_is_new.hpp
/// \brief Section 4 of step 09's printout, what only this step prints (step.cpp calls it after the
/// sections every Hopper step shares): the TMA box and descriptor, the bytes each stage's mbarrier
/// expects, and the phase each k-tile is waited for.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/mask.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step09 {

/// \brief The pipeline's first k-tiles: which stage TMA fills and which the wgmmas read, the barrier phase each
/// read waits for, as the kernel's PipeState goes, and which wgmma batch each iteration leaves running.
template <class Cfg>
void print_timeline(std::ostream& os, int k_tiles) {
  constexpr int S = Cfg::kStages;
  auto const schedule = tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), -1, kWgmmaInFlight});
  int const shown = std::min<int>(int(schedule.size()), copies_ahead<S>() + 2 * S + 1);
  os << "  The pipeline, " << S << " stages, " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s")
     << " for this CTA. full[s] completes a phase when thread 0 has arrived\n  (arrive.expect_tx, "
     << Cfg::kStageBytes << " bytes) and the TMA unit has delivered those bytes. wait(full[s], p)\n"
     << "  returns once the phase of parity p has completed: lap L round the ring waits for parity L % 2.\n\n"
     << "    iteration    thread 0: TMA             then wait       wgmma reads   left running\n";
  auto fill = [](tut::PipeStep const& p) {
    return p.fill_k_tile >= 0 ? "k-tile " + tut::str(p.fill_k_tile) + " -> stage " + tut::str(p.fill_stage) : "nothing";
  };
  for (int i = 0; i < shown; ++i) {
    tut::PipeStep const& p = schedule[std::size_t(i)];
    bool const prologue = p.k_tile < 0;
    std::string const cells[] = {prologue ? "prologue" : "k-tile " + tut::str(p.k_tile), fill(p),
                                 prologue ? "" : "full[" + tut::str(p.read_stage) + "], " + tut::str(p.parity),
                                 prologue ? "" : "stage " + tut::str(p.read_stage),
                                 p.running < 0 ? "" : "k-tile " + tut::str(p.running) + "'s batch"};
    int const widths[] = {13, 26, 16, 14, 0};
    os << "    ";
    for (int c = 0; c < 5; ++c)
      os << cells[c] << std::string(std::size_t(std::max<int>(widths[c] - int(cells[c].size()), 0)), ' ');
    os << '\n';
  }
  if (int(schedule.size()) > shown) os << "    ... (the same, round the ring; the parity flips every lap)\n";
  os << "\n  The fill in iteration t goes to the stage k-tile t-" << kWgmmaInFlight + 1
     << " was read from, as in step08: each warpgroup\n  waited for that batch (warpgroup_wait<" << kWgmmaInFlight
     << "> in iteration t-1) before the barrier at the top of\n  iteration t."
     << " That __syncthreads is all that guards a stage's reuse: simple, but it makes both\n  warpgroups wait"
     << " for the slower one every k-tile, and thread 0, which issues the copies, also computes.\n";
}

/// \brief Section 4 for configuration Cfg, problem \p o, its traced tile \p t (tut::tile_cta).
template <class Cfg, class Tiles>
void print_what_is_new(std::ostream& os, tut::Options const& o, Tiles const& t) {
  int const K = int(o.problem.k);
  int const T = int(o.thread);
  typename Cfg::CtaTiler cta_tiler;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const k_tiles = int(size<2>(t.gA));

  // ---- What is new: the TMA unit -------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: TMA boxes, a tensor map, and an mbarrier per stage");
  os << "  The tensor map (CUtensorMap, 128 bytes, made on the host by make_tma_copy and passed to the kernel\n"
     << "  as a __grid_constant__ parameter) describes A: its address, extents (K, M), row pitch ("
     << K * int(sizeof(ElementAB)) << " bytes),\n  the box (" << bk << " x " << bm
     << "), the 128-byte swizzle, and zero fill out of bounds. One thread's\n"
     << "  copy(tma_a.with(full[s]), tAgA(_,_,_,k), tAsA(_,_,_,s)) names the box by its first coordinate;\n"
     << "  the unit does the rest.\n\n";
  os << "  Each stage's barrier full[s] expects " << Cfg::kStageBytes << " bytes per phase: A's box "
     << Cfg::kStageBytesA << " + B's box " << Cfg::kStageBytesB << ".\n"
     << "  Rows past M or N and k past K arrive as zeros and count too: every box is whole.\n"
     << "  step08's " << (bm + bn) * bk * int(sizeof(ElementAB)) / 16 / Cfg::kThreads << " cp.async per thread and k-tile, their masks,"
     << " cp_async_wait and the proxy fence are gone.\n\n";
  tut::print_k_edge(os, K, bk);
  os << "  The TMA unit fills what lies outside A and B with zeros (rows past M or N, k past K).\n\n";
  print_timeline<Cfg>(os, k_tiles);

  tut::print_smem_epilogue_stores(os, typename Cfg::TiledCopyC{}, T, t, bn, kChunkC, "is step07's", "a barrier");
}

}  // namespace step09

/// \file step11_persistent/what_is_new.hpp
/// \brief Section 4 of step 11's printout, what only this step prints (step.cpp calls it after the
/// sections every Hopper step shares): the tiles each CTA visits, the ring's barrier phases across a
/// tile boundary, and the epilogue that holds the producer back.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step11 {

/// \brief Section 4 for configuration Cfg, problem \p o, its traced tile \p t (tut::tile_cta) and CTA \p traced.
template <class Cfg, class Tiles, class Traced>
void print_what_is_new(std::ostream& os, tut::Options const& o, Tiles const& t, Traced const& traced) {
  constexpr int S = Cfg::kStages;
  int const K = int(o.problem.k);
  int const bm = size<0>(typename Cfg::CtaTiler{}), bn = size<1>(typename Cfg::CtaTiler{});
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int(size<2>(t.gA));

  // ---- What is new -----------------------------------------------------------------------------------
  tut::print_section(os, 4, "What is new: persistent CTAs, and one ring across their tiles");
  tut::print_visits(os, traced);
  int const visits = Cfg::kSchedule.visits(traced.visitor.cta, traced.tiles.m, traced.tiles.n);
  os << "  Both roles loop over the same visits: the producer loads every k-tile of every tile, the consumers\n"
     << "  clear the accumulators, run the mainloop and store C, once per tile. Step 10 launched one CTA per\n"
     << "  tile, and each paid its setup (launch, barriers, setmaxnreg) again; here only a CTA's first tile\n"
     << "  does. Each tile still waits for its first k-tiles to land: see epi_done below.\n\n";
  tut::print_k_edge(os, K, bk);
  os << "\n";

  int const tiles = std::min(visits, 2);
  auto const schedule = tut::ring_schedule<RingState, S>(k_tiles, {tiles, true, true});
  os << "  The pipeline: " << S << " stages, two mbarriers each, step 10's, and one more, epi_done. The ring does\n"
     << "  not start again for the next tile: both sides count on, so a tile's first k-tile takes the stage after\n"
     << "  the last one's. " << k_tiles << " k-tile" << (k_tiles == 1 ? "" : "s") << " per tile, " << visits
     << " tile" << (visits == 1 ? "" : "s") << " for this CTA" << (tiles == 2 ? "; around its first tile boundary:\n\n" : ":\n\n");
  tut::print_ring_across_tiles(os, schedule, S, k_tiles);
  os << "\n  Step 10 never released a tile's last stage: its CTA ended there. Here the consumers release it once\n"
     << "  warpgroup_wait<0>() says its wgmmas are done, at the start of the epilogue: every stage completes one\n"
     << "  phase per k-tile, or the parities would no longer match.\n\n"
     << "  The epilogue is step 10's: the C tile (" << bm << " x " << bn << " floats, " << bm * bn * 4
     << " bytes) goes through the ring's bytes. So\n"
     << "  the producer must not refill any stage until every consumer thread has stored its part: each arrives\n"
     << "  on epi_done (" << Cfg::kMmaThreads << " arrivals complete a phase, one per visit) after its last read of sC, and the\n"
     << "  producer waits for visit v-1's phase, parity (v-1) % 2, before visit v's first TMA load. The ring\n"
     << "  stands idle through every epilogue: the next tile's k-tiles start loading only when it ends.\n";
}

}  // namespace step11

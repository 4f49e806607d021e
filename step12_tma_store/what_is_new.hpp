/// \file step12_tma_store/what_is_new.hpp
/// \brief The helpers of section 4 of step 12's printout, what only this step prints: the ring's
/// barrier phases across a tile boundary, with no wait for the epilogue.
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

namespace step12 {

/// \brief The barrier phases around the traced CTA's first tile boundary, as the kernel's RingState counters go.
template <class Cfg>
void print_barriers(std::ostream& os, int k_tiles, int visits) {
  constexpr int S = Cfg::kStages;
  int const tiles = std::min(visits, 2);
  auto const schedule = tut::ring_schedule<RingState, S>(k_tiles, {tiles, true});
  os << "  The pipeline: " << S << " stages, two mbarriers each, step 10's, counted on across tiles as in step 11.\n  " << k_tiles << " k-tile"
     << (k_tiles == 1 ? "" : "s") << " per tile, " << visits << " tile" << (visits == 1 ? "" : "s") << " for this CTA";
  os << (tiles == 2 ? "; around its first tile boundary:\n\n" : ":\n\n");
  tut::print_ring_across_tiles(os, schedule, S, k_tiles);
  os << "\n  The consumers release a tile's last stage once warpgroup_wait<0>() says its wgmmas are done, at the\n"
     << "  start of the epilogue, as in step 11; with nothing else to wait for, the producer fills it with the\n"
     << "  next tile's k-tiles while the consumers store this tile.\n";
}

}  // namespace step12

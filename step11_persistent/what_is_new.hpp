/// \file step11_persistent/what_is_new.hpp
/// \brief The helpers of section 4 of step 11's printout, what only this step prints: the ring's
/// barrier phases across a tile boundary.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "pipeline.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step11 {

using tut::plain;
using tut::print_item;
using tut::str;

/// \brief The barrier phases around the traced CTA's first tile boundary, as the kernel's RingState counters go.
template <class Cfg>
void print_barriers(std::ostream& os, int k_tiles, int visits) {
  constexpr int S = Cfg::kStages;
  int const tiles = std::min(visits, 2);
  auto const schedule = barrier_schedule<S>(k_tiles, tiles);
  os << "  The pipeline: " << S << " stages, two mbarriers each, step 10's. full[s] completes a phase when the producer\n"
     << "  has arrived (arrive.expect_tx, " << Cfg::kStageBytes << " bytes) and the TMA unit has delivered them; empty[s] when each\n"
     << "  of the " << Cfg::kConsumers << " consumer warpgroups has arrived. The ring does not start again for the next tile: both sides\n"
     << "  count on, so a tile's first k-tile takes the stage after the last one's.\n  " << k_tiles << " k-tile"
     << (k_tiles == 1 ? "" : "s") << " per tile, " << visits << " tile" << (visits == 1 ? "" : "s") << " for this CTA";
  // Rows shown: the first tile's last S+1 k-tiles and the next tile's first S+1 (all when that is fewer).
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    BarrierStep const& b = schedule[i];
    bool const near_end = b.visit == 0 && b.k_tile >= k_tiles - (S + 1);
    bool const near_start = b.visit == 1 && b.k_tile <= S;
    if (schedule.size() <= std::size_t(2 * S + 2) || near_end || near_start) shown.push_back(i);
  }
  os << (tiles == 2 ? "; around its first tile boundary:\n\n" : ":\n\n")
     << "    visit  k-tile  stage  producer: wait empty[s] for        consumers: wait full[s] for  then release\n";
  std::size_t last = 0;
  for (std::size_t i : shown) {
    if (i > last + 1 || (i > 0 && last == 0 && shown.front() != 0)) os << "    ...\n";
    last = i;
    BarrierStep const& b = schedule[i];
    std::string const wait_empty =
        "parity " + str(b.empty_parity) + (b.lap == 0 ? " (passes: fresh)" : " (" + str(S) + " k-tiles earlier read)");
    std::string released =
        b.released_stage < 0 ? "" : "empty[" + str(b.released_stage) + "] (k-tile " + str(b.released_k_tile) + ")";
    if (b.epilogue_released_stage >= 0)
      released += (released.empty() ? "" : ", ") + std::string("empty[") + str(b.epilogue_released_stage) +
                  "] in the epilogue";
    tut::print_row(os, {str(b.visit), str(b.k_tile), str(b.stage), wait_empty, "parity " + str(b.full_parity),
                        released.empty() ? "-" : released},
                   {7, 8, 7, 35, 29});
  }
  if (last + 1 < schedule.size()) os << "    ...\n";
  os << "\n  Step 10 never released a tile's last stage: its CTA ended there. Here the consumers release it once\n"
     << "  warpgroup_wait<0>() says its wgmmas are done, at the start of the epilogue, so that the producer can\n"
     << "  fill it with the next tile's k-tiles while the consumers store this tile.\n";
}

}  // namespace step11

/// \file step11_persistent/pipeline.hpp
/// \brief Host-side replay of step 11's pipeline, for the printout and the tests: which stage each k-tile
/// of each of a CTA's tiles uses, which barrier phase each side waits for, and when the consumers release
/// each stage, as the kernel's RingState counters go from one tile into the next.
#pragma once

#include <cstdint>
#include <vector>

#include "config.hpp"

namespace step11 {

/// \brief One k-tile of the pipeline, as the kernel's two sides handle it.
struct BarrierStep {
  int visit = 0;                      ///< which of the CTA's tiles it belongs to
  int k_tile = 0;                     ///< the k-tile, within that tile
  int count = 0;                      ///< the k-tiles through the ring before it, all tiles: visit·k_tiles + k_tile
  int stage = 0;                      ///< the stage it goes through (producer and consumers agree)
  std::uint32_t empty_parity = 0;     ///< the producer waits on empty[stage] for this parity ...
  std::uint32_t full_parity = 0;      ///< ... and the consumers on full[stage] for this one
  int lap = 0;                        ///< how many times the ring went round before it: count / STAGES
  int released_stage = -1;            ///< after its wgmmas are issued, the consumers release this stage
  int released_k_tile = -1;           ///<   (the stage of k-tile k_tile-1 of the same tile; -1 for k-tile 0)
  int epilogue_released_stage = -1;   ///< the tile's last k-tile: its own stage, released in the epilogue
};

/// \brief The schedule of \p visits tiles of \p k_tiles k-tiles each through a ring of \p STAGES stages:
/// the producer's and the consumers' RingState advanced exactly as the kernel advances them.
template <int STAGES>
std::vector<BarrierStep> barrier_schedule(int k_tiles, int visits = 1) {
  std::vector<BarrierStep> steps;
  RingState<STAGES> write, read, release;  // the producer's; the consumers' two
  for (int visit = 0; visit < visits; ++visit)
    for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
      BarrierStep s;
      s.visit = visit;
      s.k_tile = k_tile;
      s.count = visit * k_tiles + k_tile;
      s.stage = write.index;
      s.empty_parity = write.producer_parity();  // the producer's wait
      s.full_parity = read.consumer_parity();    // the consumers' wait (read.index == write.index: both count k-tiles)
      s.lap = s.count / STAGES;
      write.advance();
      if (k_tile > 0) {
        s.released_stage = release.index;
        s.released_k_tile = k_tile - 1;
        release.advance();
      }
      read.advance();
      if (k_tile == k_tiles - 1) {               // warpgroup_wait<0>, then the last stage too
        s.epilogue_released_stage = release.index;
        release.advance();
      }
      steps.push_back(s);
    }
  return steps;
}

}  // namespace step11

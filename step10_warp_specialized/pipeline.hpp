/// \file step10_warp_specialized/pipeline.hpp
/// \brief Host-side replay of step 10's pipeline, for the printout and the tests: which stage each k-tile
/// uses and which barrier phase each side waits for, as the kernel's RingState counters go.
#pragma once

#include <cstdint>
#include <vector>

#include "config.hpp"

namespace step10 {

/// \brief One k-tile of the pipeline, as the kernel's two sides handle it.
struct BarrierStep {
  int k_tile = 0;                     ///< the k-tile
  int stage = 0;                      ///< the stage it goes through (producer and consumers agree)
  std::uint32_t empty_parity = 0;     ///< the producer waits on empty[stage] for this parity ...
  std::uint32_t full_parity = 0;      ///< ... and the consumers on full[stage] for this one
  int lap = 0;                        ///< how many times the ring went round before it: k_tile / STAGES
  int released_stage = -1;            ///< after its wgmmas are issued, the consumers release this stage
  int released_k_tile = -1;           ///<   (the stage of k-tile k_tile-1, -1 for k-tile 0)
};

/// \brief The schedule of \p k_tiles k-tiles through a ring of \p STAGES stages: the producer's and the
/// consumers' RingState advanced exactly as the kernel advances them.
template <int STAGES>
std::vector<BarrierStep> barrier_schedule(int k_tiles) {
  std::vector<BarrierStep> steps;
  RingState<STAGES> write, read, release;  // the producer's; the consumers' two
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
    BarrierStep s;
    s.k_tile = k_tile;
    s.stage = write.index;
    s.empty_parity = write.producer_parity();  // the producer's wait
    s.full_parity = read.consumer_parity();    // the consumers' wait (read.index == write.index: both count k-tiles)
    s.lap = k_tile / STAGES;
    write.advance();
    if (k_tile > 0) {
      s.released_stage = release.index;
      s.released_k_tile = k_tile - 1;
      release.advance();
    }
    read.advance();
    steps.push_back(s);
  }
  return steps;
}

}  // namespace step10

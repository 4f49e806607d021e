/// \file step09_tma/pipeline.hpp
/// \brief The pipeline's protocol on the host, for the printout and the tests: the schedule replayed with
/// the kernel's own PipeState, the barrier phase each k-tile is waited for, and the wgmma batch each
/// iteration leaves running.
#pragma once

#include <cstdint>
#include <vector>

#include "config.hpp"

namespace step09 {

/// \brief One iteration of the pipeline as the kernel runs it (the prologue is iteration -1).
struct PipeStep {
  int k_tile = -1;            ///< the k-tile the math reads (-1: the prologue)
  int read_stage = -1;        ///< the stage it reads
  std::uint32_t parity = 0;   ///< the parity of full[read_stage]'s phase the math waits for
  int lap = 0;                ///< how many times the ring went round before it: k_tile / STAGES
  int fill_k_tile = -1;       ///< the k-tile whose TMA copies thread 0 issues (-1: none left)
  int fill_stage = -1;        ///< the stage it lands in, completing full[fill_stage]
  int running = -1;           ///< the k-tile whose wgmma batch is left running at the end of the iteration (-1: none)
};

/// \brief The kernel's schedule for \p k_tiles k-tiles, replayed with its own PipeState: the prologue's fills
/// (one entry per stage it fills, copies_ahead of them), then one entry per k-tile.
template <int STAGES>
std::vector<PipeStep> pipeline_schedule(int k_tiles) {
  std::vector<PipeStep> out;
  int next = 0;
  for (int stage = 0; stage < copies_ahead<STAGES>(); ++stage) {  // the prologue
    PipeStep p;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = stage;
    ++next;
    out.push_back(p);
  }
  PipeState<STAGES> pipe;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {  // the mainloop: barrier, fill, wait, then the wgmmas
    PipeStep p;
    p.k_tile = k_tile;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = pipe.write;
    ++next;
    pipe.advance_write();
    p.read_stage = pipe.read;
    p.parity = pipe.read_phase;
    p.lap = k_tile / STAGES;
    p.running = kWgmmaInFlight > 0 ? k_tile : -1;  // warpgroup_wait<kWgmmaInFlight>: this batch runs on
    pipe.advance_read();
    out.push_back(p);
  }
  return out;
}

}  // namespace step09

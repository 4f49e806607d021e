/// \file step08_wgmma/pipeline.hpp
/// \brief The pipeline's protocol on the host, for the printout and the tests: the schedule replayed with
/// the kernel's own PipeState, and the wgmma batch each iteration leaves running.
#pragma once

#include <vector>

#include "config.hpp"

namespace step08 {

/// \brief One iteration of the pipeline as the kernel runs it (the prologue is iteration -1).
struct PipeStep {
  int k_tile = -1;       ///< the k-tile the math reads (-1: the prologue)
  int read_stage = -1;   ///< the stage it reads
  int fill_k_tile = -1;  ///< the k-tile whose cp.async is issued (-1: none left; an empty group)
  int fill_stage = -1;   ///< the stage it lands in
  int committed = 0;     ///< cp.async groups committed so far, after this iteration's fence
  int landed = 0;        ///< groups complete after the next wait: committed - groups_in_flight<STAGES>()
  int running = -1;      ///< the k-tile whose wgmma batch is left running at the end of the iteration (-1: none)
};

/// \brief The kernel's schedule for \p k_tiles k-tiles, replayed with its own PipeState: the prologue's fills
/// (one entry per stage it fills, copies_ahead of them), then one entry per k-tile. Group g carries k-tile
/// g (the kernel commits one group per fill, empty past the last k-tile).
template <int STAGES>
std::vector<PipeStep> pipeline_schedule(int k_tiles) {
  std::vector<PipeStep> out;
  int next = 0, committed = 0;
  for (int stage = 0; stage < copies_ahead<STAGES>(); ++stage) {  // the prologue
    PipeStep p;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = stage;
    p.committed = ++committed;
    p.landed = committed - groups_in_flight<STAGES>();
    ++next;
    out.push_back(p);
  }
  PipeState<STAGES> pipe;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {  // the mainloop: wait, fill, then the wgmmas
    PipeStep p;
    p.k_tile = k_tile;
    p.read_stage = pipe.read;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = pipe.write;
    p.committed = ++committed;
    p.landed = committed - groups_in_flight<STAGES>();
    p.running = kWgmmaInFlight > 0 ? k_tile : -1;  // warpgroup_wait<kWgmmaInFlight>: this batch runs on
    ++next;
    pipe.advance_write();
    pipe.advance_read();
    out.push_back(p);
  }
  return out;
}

}  // namespace step08

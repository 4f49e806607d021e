/// \file pipe_schedule.hpp
/// \brief The host-side replay of the multistage steps' pipeline (steps 07 to 09, one CTA-wide loop that
/// both copies and multiplies), for their printouts, pictures and tests: which k-tile is copied into which
/// stage, which stage the math reads, and what each wait leaves in flight, as the kernel's own PipeState
/// counts them. (Steps 10 on, with a producer and consumers, replay theirs with tut/ring_schedule.hpp.)
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

namespace tut {

/// \brief One iteration of the pipeline as the kernel runs it (the prologue's are iterations -1).
struct PipeStep {
  int k_tile = -1;            ///< the k-tile the math reads (-1: the prologue)
  int read_stage = -1;        ///< the stage it reads
  int fill_k_tile = -1;       ///< the k-tile whose copy is issued (-1: none left; for cp.async, an empty group)
  int fill_stage = -1;        ///< the stage it lands in
  int committed = 0;          ///< cp.async groups committed so far, after this iteration's fence
  int landed = 0;             ///< groups complete after the next wait: committed - groups in flight
  int running = -1;           ///< the k-tile whose wgmma batch is left running at the end of the iteration (-1: none)
  std::uint32_t parity = 0;   ///< (TMA) the parity of full[read_stage]'s phase the math waits for
  int lap = 0;                ///< how many times the ring went round before it: k_tile / STAGES
};

/// \brief How a kernel drives its PipeState, beyond what the state counts.
struct PipeShape {
  int ahead = 1;               ///< k-tiles the prologue copies before the mainloop
  int groups_in_flight = -1;   ///< cp.async: groups the wait leaves in flight; -1: no groups (the TMA's barriers)
  int wgmma_in_flight = -1;    ///< wgmma: batches left running after each k-tile's; -1: no wgmma (mma.sync)
};

namespace detail {
template <class Pipe, class = void>
struct has_read_phase : std::false_type {};
template <class Pipe>
struct has_read_phase<Pipe, std::void_t<decltype(std::declval<Pipe&>().read_phase)>> : std::true_type {};
}  // namespace detail

/// \brief The kernel's schedule for \p k_tiles k-tiles through \p stages stages, replayed with its own
/// \p Pipe (the step's PipeState<STAGES>): the prologue's fills (one entry per stage it fills, \p how.ahead
/// of them), then one entry per k-tile. With cp.async, group g carries k-tile g (the kernel commits one
/// group per fill, empty past the last k-tile).
template <class Pipe>
std::vector<PipeStep> pipe_schedule(int k_tiles, int stages, PipeShape const& how) {
  std::vector<PipeStep> out;
  int next = 0, committed = 0;
  bool const groups = how.groups_in_flight >= 0;
  for (int stage = 0; stage < how.ahead; ++stage) {  // the prologue
    PipeStep p;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = stage;
    if (groups) {
      p.committed = ++committed;
      p.landed = committed - how.groups_in_flight;
    }
    ++next;
    out.push_back(p);
  }
  Pipe pipe;
  for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {  // the mainloop: one fill, one read per k-tile
    PipeStep p;
    p.k_tile = k_tile;
    p.read_stage = pipe.read;
    if constexpr (detail::has_read_phase<Pipe>::value) p.parity = pipe.read_phase;
    p.lap = k_tile / stages;
    p.fill_k_tile = next < k_tiles ? next : -1;
    p.fill_stage = pipe.write;
    if (groups) {
      p.committed = ++committed;
      p.landed = committed - how.groups_in_flight;
    }
    if (how.wgmma_in_flight > 0) p.running = k_tile;  // warpgroup_wait<N>: this batch runs on
    ++next;
    pipe.advance_write();
    pipe.advance_read();
    out.push_back(p);
  }
  return out;
}

}  // namespace tut

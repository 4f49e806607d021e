/// \file pipe_schedule.hpp
/// \brief The host-side replay of the multistage steps' pipeline (steps 07 to 09, one CTA-wide loop that
/// both copies and multiplies), for their printouts, pictures and tests: which k-tile is copied into which
/// stage, which stage the math reads, and what each wait leaves in flight, as the kernel's own PipeState
/// counts them. (Steps 10 on, with a producer and consumers, replay theirs with tut/ring_schedule.hpp.)
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tut/svg.hpp"

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

/// \brief The rows, columns, bars and key of an svg::timeline of the stage ring.
struct StageTimeline {
  std::vector<std::string> rows;                            ///< one per stage
  std::vector<std::string> cols;                            ///< one per iteration, the prologue's fills first
  std::vector<svg::Bar> bars;                               ///< per fill: its copy, its read, its batch left running
  std::vector<std::pair<std::string, std::string>> key;     ///< (colour, meaning)
};

/// \brief What a step's stage_timeline() says about its copies and its reads.
struct StageTimelineText {
  std::string unit;      ///< what fills a stage: "cp.async", "TMA"
  std::string fill_key;  ///< the key's words for a copy in flight
  std::string read_key;  ///< the key's words for a read
};

/// \brief The stage ring as a timeline, read off \p schedule (the step's PipeSteps, replayed with the
/// kernel's own PipeState): per fill, its k-tile's copy, in flight from the fill up to the iteration that
/// reads it, whose tooltip \p fill_tip(fill) gives; then the read, whose label and tooltip
/// \p read_bar(k_tile, read) give; then, where \p batches_in_flight wgmma batches are left running, the
/// iterations its batch may still read the stage. Where \p empty_groups, an iteration with no k-tile left
/// commits an empty cp.async group, drawn as such.
template <class FillTip, class ReadBar>
StageTimeline stage_timeline(std::vector<PipeStep> const& schedule, int stages, int batches_in_flight,
                             bool empty_groups, StageTimelineText const& text, FillTip fill_tip, ReadBar read_bar) {
  auto const s = [](int v) { return std::to_string(v); };
  StageTimeline tl;
  for (int i = 0; i < stages; ++i) tl.rows.push_back("stage " + s(i));
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    PipeStep const& p = schedule[i];
    int const at = int(i), k = p.fill_k_tile;
    tl.cols.push_back(p.k_tile < 0 ? "prologue " + s(at + 1) : "k-tile " + s(p.k_tile));
    if (k < 0) {
      if (empty_groups)
        tl.bars.push_back({p.fill_stage, at, at + 1, "empty group", "#eeeeee",
                           "nothing left to copy: an empty cp.async group keeps the count"});
      continue;
    }
    auto const read = std::find_if(schedule.begin(), schedule.end(), [&](PipeStep const& q) { return q.k_tile == k; });
    int const read_at = int(read - schedule.begin());
    tl.bars.push_back({p.fill_stage, at, read_at, text.unit + " k-tile " + s(k), "#ffcc80", fill_tip(p)});
    auto const [label, tip] = read_bar(k, *read);
    tl.bars.push_back({read->read_stage, read_at, read_at + 1, label, "#90caf9", tip});
    if (batches_in_flight > 0 && read_at + 1 < int(schedule.size()))
      tl.bars.push_back({read->read_stage, read_at + 1, read_at + 1 + batches_in_flight, "still running", "#e3f2fd",
                         "k-tile " + s(k) + "'s batch may still be reading stage " + s(read->read_stage) +
                             " (warpgroup_wait<" + s(batches_in_flight) + ">): no " + text.unit + " refills it yet"});
  }
  tl.key = {{"#ffcc80", text.fill_key}, {"#90caf9", text.read_key}};
  if (batches_in_flight > 0) tl.key.push_back({"#e3f2fd", "its batch may still be running"});
  if (empty_groups) tl.key.push_back({"#eeeeee", "an empty group (no k-tile left)"});
  return tl;
}

}  // namespace tut

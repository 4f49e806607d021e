/// \file ring_schedule.hpp
/// \brief The host-side replay of the warp-specialized steps' pipeline (steps 10 on), for their printouts,
/// pictures and tests: which stage each k-tile of each of a CTA's tiles goes through, which barrier phase
/// each side waits for, and when the consumers release each stage, as the kernel's own RingState
/// (CUTLASS's `PipelineState`) counts them; and an ideal run of it in slots of one k-tile's wgmmas.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tut/svg.hpp"

namespace tut {

/// \brief How a kernel drives its ring, beyond what its RingState counts.
struct RingProtocol {
  int visits = 1;               ///< tiles per CTA (persistent kernels: several)
  bool release_last = false;    ///< the consumers release a tile's last stage too, in its epilogue
  bool waits_epilogue = false;  ///< the producer waits for a tile's epilogue (epi_done) before the next tile
};

/// \brief One k-tile of the pipeline, as the kernel's two sides handle it.
struct RingStep {
  int visit = 0;                      ///< which of the CTA's tiles it belongs to
  int k_tile = 0;                     ///< the k-tile, within that tile
  int count = 0;                      ///< the k-tiles through the ring before it, all tiles: visit·k_tiles + k_tile
  int stage = 0;                      ///< the stage it goes through (producer and consumers agree)
  std::uint32_t empty_parity = 0;     ///< the producer waits on empty[stage] for this parity ...
  std::uint32_t full_parity = 0;      ///< ... and the consumers on full[stage] for this one
  int epi_parity = -1;                ///< before it, the producer waits on epi_done for this parity (-1: no wait)
  int lap = 0;                        ///< how many times the ring went round before it: count / STAGES
  int released_stage = -1;            ///< after its wgmmas are issued, the consumers release this stage
  int released_k_tile = -1;           ///<   (the stage of k-tile k_tile-1 of the same tile; -1 for k-tile 0)
  int epilogue_released_stage = -1;   ///< a tile's last k-tile: its own stage, released in the epilogue
};

/// \brief The schedule of \p k_tiles k-tiles per tile through a ring of STAGES stages, the producer's and
/// the consumers' Ring<STAGES> (the step's RingState) advanced exactly as the kernel advances them.
template <template <int> class Ring, int STAGES>
std::vector<RingStep> ring_schedule(int k_tiles, RingProtocol const& how = {}) {
  std::vector<RingStep> steps;
  Ring<STAGES> write, read, release;  // the producer's; the consumers' two
  for (int visit = 0; visit < how.visits; ++visit)
    for (int k_tile = 0; k_tile < k_tiles; ++k_tile) {
      RingStep s;
      s.visit = visit;
      s.k_tile = k_tile;
      s.count = visit * k_tiles + k_tile;
      s.stage = write.index;
      s.empty_parity = write.producer_parity();  // the producer's wait
      s.full_parity = read.consumer_parity();    // the consumers' wait (read.index == write.index: both count k-tiles)
      if (how.waits_epilogue && visit > 0 && k_tile == 0) s.epi_parity = (visit - 1) % 2;
      s.lap = s.count / STAGES;
      write.advance();
      if (k_tile > 0) {
        s.released_stage = release.index;
        s.released_k_tile = k_tile - 1;
        release.advance();
      }
      read.advance();
      if (how.release_last && k_tile == k_tiles - 1) {  // warpgroup_wait<0>, then the last stage too
        s.epilogue_released_stage = release.index;
        release.advance();
      }
      steps.push_back(s);
    }
  return steps;
}

/// \brief An ideal run of a ring schedule, in slots of one k-tile's wgmmas: when each k-tile's TMA is
/// issued (it lands a slot later), when the consumers take it, and when each tile's epilogue starts.
struct RingRun {
  std::vector<int> load;         ///< per entry of the schedule: the slot its TMA is issued
  std::vector<int> math;         ///< per entry of the schedule: the slot the consumers' wgmmas take it
  std::vector<int> epilogue_at;  ///< per visit: the slot its epilogue starts
  int slots = 0;                 ///< slots until the last epilogue is done
};

/// \brief The ideal run of \p schedule (ring_schedule, STAGES stages): the producer issues the c-th k-tile
/// as soon as its stage was released (and, with \p how.waits_epilogue, the tile before has been stored);
/// the consumers take it once it has landed and they are free; an epilogue takes \p epi_slots slots.
inline RingRun ideal_run(std::vector<RingStep> const& schedule, int stages, int epi_slots) {
  RingRun r;
  auto const n = schedule.size();
  std::vector<int> freed(n, 0);
  r.load.assign(n, 0);
  r.math.assign(n, 0);
  int consumers_free = 0;
  for (std::size_t c = 0; c < n; ++c) {
    RingStep const& b = schedule[c];
    int const reuse = c >= std::size_t(stages) ? freed[c - std::size_t(stages)] : 0;  // the stage's last release
    int start = std::max(c == 0 ? 0 : r.load[c - 1] + 1, reuse);
    if (b.epi_parity >= 0) start = std::max(start, r.epilogue_at.back() + epi_slots);  // epi_done
    r.load[c] = start;
    r.math[c] = std::max(consumers_free, r.load[c] + 1);
    consumers_free = r.math[c] + 1;
    if (b.k_tile > 0) freed[c - 1] = consumers_free;  // released after warpgroup_wait<1>
    if (c + 1 == n || schedule[c + 1].visit != b.visit) {  // warpgroup_wait<0>, release, the epilogue
      freed[c] = consumers_free;
      r.epilogue_at.push_back(consumers_free);
      consumers_free += epi_slots;
    }
  }
  r.slots = consumers_free;
  return r;
}

/// \brief The ring as a timeline (svg::timeline): a row per stage, each k-tile's TMA, its wait in the
/// stage, and its wgmmas, at the slots of \p run; \p slots columns. Tooltips name each side's barrier wait.
inline std::string ring_timeline(std::string const& title, std::string const& note,
                                 std::vector<RingStep> const& schedule, RingRun const& run, int stages, int slots) {
  auto const s = [](int v) { return std::to_string(v); };
  bool const tiles = !schedule.empty() && schedule.back().visit > 0;
  auto const name = [&](RingStep const& b) { return (tiles ? "T" + s(b.visit) + " k" : "") + s(b.k_tile); };
  std::vector<std::string> rows, cols;
  for (int i = 0; i < stages; ++i) rows.push_back("stage " + s(i));
  for (int j = 0; j < slots; ++j) cols.push_back("slot " + s(j));
  std::vector<svg::Bar> bars;
  for (std::size_t c = 0; c < schedule.size(); ++c) {
    RingStep const& b = schedule[c];
    std::string const wait = b.epi_parity < 0 ? "" : "wait epi_done for parity " + s(b.epi_parity) + ", ";
    bars.push_back({b.stage, run.load[c], run.load[c] + 1, "TMA " + name(b), "#ffcc80",
                    "producer: " + wait + "wait empty[" + s(b.stage) + "] for parity " + s(int(b.empty_parity)) +
                        ", then one thread issues the two TMA copies; full[" + s(b.stage) + "] completes when they land"});
    if (run.math[c] > run.load[c] + 1)
      bars.push_back({b.stage, run.load[c] + 1, run.math[c], "landed", "#fff3e0",
                      name(b) + " waits in stage " + s(b.stage) + " for the consumers"});
    bars.push_back({b.stage, run.math[c], run.math[c] + 1, "wgmma " + name(b), "#90caf9",
                    "consumers: wait full[" + s(b.stage) + "] for parity " + s(int(b.full_parity)) + ", then wgmma" +
                        (b.epilogue_released_stage >= 0 ? "; the tile's last: released in its epilogue" : "")});
  }
  return svg::timeline(title, note, rows, cols, bars,
                       {{"#ffcc80", "producer: TMA into the stage (full[s] arrives)"},
                        {"#fff3e0", "landed, waiting for the consumers"},
                        {"#90caf9", "consumers: wgmma reads it (then empty[s])"}});
}

}  // namespace tut

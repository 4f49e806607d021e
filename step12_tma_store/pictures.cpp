// Step 12's own pictures (--svg): the ring across two tiles, the epilogue's overlap with the next tile,
// and the order in which the persistent CTAs take the tiles, from the kernel's RingState replay, its
// subtiles and its kSchedule.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step12_tma_store.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/ring_schedule.hpp"
#include "tut/svg.hpp"

namespace step12 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  auto const [bm, bn, bk, k_tiles] = tut::cta_tile_size<Cfg>(o.problem.k);  // the tile, and K's k-tiles
  auto const schedule = tut::ring_schedule<RingState, S>(k_tiles, {2, true});  // a CTA's first two tiles
  auto const name = [](tut::RingStep const& b) { return "T" + str(b.visit) + " k" + str(b.k_tile); };

  // An ideal run in slots of one k-tile's wgmmas (tut::ideal_run): the producer runs on into the next
  // tile as soon as stages are released; a tile's epilogue takes kEpiSlots slots, and each half of its
  // subtiles is stored by the TMA unit in the slot after it was written.
  constexpr int kEpiSlots = 2;
  tut::RingRun const run = tut::ideal_run(schedule, S, kEpiSlots);
  int const n = int(schedule.size());
  auto const& load = run.load;
  auto const& math = run.math;
  auto const& epilogue_at = run.epilogue_at;
  int const slots = epilogue_at[1] + kEpiSlots + 1;
  std::vector<std::string> rows = {"producer: TMA loads", "consumers: wgmma", "consumers: C -> smem",
                                   "TMA unit: C stores"};
  std::vector<std::string> cols;
  for (int j = 0; j < slots; ++j) cols.push_back("slot " + str(j));
  std::vector<tut::svg::Bar> bars;
  for (int c = 0; c < n; ++c) {
    tut::RingStep const& b = schedule[std::size_t(c)];
    bars.push_back({0, load[std::size_t(c)], load[std::size_t(c)] + 1, name(b), b.visit ? "#ffe0b2" : "#ffcc80",
                    "producer: wait empty[" + str(b.stage) + "] for parity " + str(b.empty_parity) + ", TMA tile " +
                        str(b.visit) + "'s k-tile " + str(b.k_tile) + " into stage " + str(b.stage)});
    bars.push_back({1, math[std::size_t(c)], math[std::size_t(c)] + 1, name(b), b.visit ? "#bbdefb" : "#90caf9",
                    "consumers: wait full[" + str(b.stage) + "] for parity " + str(b.full_parity) +
                        ", wgmma on tile " + str(b.visit) + "'s k-tile " + str(b.k_tile)});
  }
  int const half = Cfg::kSubtiles / kEpiSlots;
  for (int v = 0; v < 2; ++v)
    for (int h = 0; h < kEpiSlots; ++h) {
      int const at = epilogue_at[std::size_t(v)] + h;
      std::string const subtiles = str(h * half) + ".." + str(h * half + half - 1);
      bars.push_back({2, at, at + 1, "T" + str(v) + " e" + subtiles, "#c5e1a5",
                      "tile " + str(v) + ": subtiles " + subtiles + " into the two buffers in turn (wait for the "
                      "buffer's last store, barrier, copy, tma_store_fence, barrier)"});
      bars.push_back({3, at + 1, at + 2, "T" + str(v) + " e" + subtiles, "#a5d6a7",
                      "thread 0's TMA stores of tile " + str(v) + "'s subtiles " + subtiles + ": smem -> C, while the "
                      "consumers go on"});
    }
  tut::svg::write_file(
      dir + "/epilogue_overlap.svg",
      tut::svg::timeline("step12: two tiles of one CTA, their mainloops and epilogues (K = " + str(o.problem.k) + ": " +
                             str(k_tiles) + " k-tiles per tile, " + str(S) + " stages, " + str(Cfg::kSubtiles) +
                             " subtiles per tile)",
                         "an ideal run in slots of one k-tile's wgmmas: the producer runs on into the next tile while "
                         "the consumers store this one, the next tile's first k-tiles are in smem before its mainloop "
                         "starts, and the TMA stores of C run under it; hover a bar",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA loads (tile 0; tile 1 lighter)"},
                          {"#90caf9", "consumers: wgmma on a k-tile"},
                          {"#c5e1a5", "consumers: accumulators into sC"},
                          {"#a5d6a7", "TMA unit: a subtile of C to gmem"}}));

  // The ring, k-tile by k-tile across the boundary (as step 10's picture, two tiles long).
  tut::svg::write_file(
      dir + "/barriers.svg",
      tut::ring_timeline("step12: two tiles' k-tiles through the ring of " + str(S) + " stages (K = " +
                             str(o.problem.k) + ": " + str(k_tiles) + " k-tiles per tile)",
                         "the same ideal run: T1's first k-tiles go into the stages T0's last ones leave, while T0's "
                         "epilogue runs; hover a bar for the barrier and parity each side waits on (ring_schedule())",
                         schedule, run, S, slots));

  tut::write_tile_order(dir, Cfg::kSchedule, bm, bn);  // the order the CTAs take the tiles in, at 16 x 16 tiles
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step12

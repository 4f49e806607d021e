// Step 13's own pictures (--svg): the ping-pong as a timeline, in slots of one k-tile's wgmmas: four
// tiles of one CTA, 4 k-tiles each (a short K, to fit), each epilogue 2 slots. The same picture
// whatever the problem.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step13_pingpong.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step13 {

using tut::str;

// The same picture for every configuration: four tiles of 4 k-tiles, whatever the problem.
template <class Cfg>
void turns_picture(tut::Options const&, std::string const& dir) {
  constexpr int kKTiles = 4, kEpiSlots = 2, kTiles = 4;
  std::vector<std::string> rows = {"producer: TMA loads", "warpgroup 0: wgmma", "warpgroup 0: C -> smem -> TMA",
                                   "warpgroup 1: wgmma", "warpgroup 1: C -> smem -> TMA"};
  std::vector<tut::svg::Bar> bars;
  int const slots = 1 + kTiles * kKTiles + kEpiSlots;
  std::vector<std::string> cols;
  for (int j = 0; j < slots; ++j) cols.push_back("slot " + str(j));
  std::string const fill[] = {"#90caf9", "#ce93d8"};
  for (int v = 0; v < kTiles; ++v) {
    int const w = v % 2, first = v * kKTiles;  // the tile's first k-tile in the ring: RingState::at(first)
    for (int k = 0; k < kKTiles; ++k) {
      int const p = first + k;
      bars.push_back({0, p, p + 1, "T" + str(v) + " k" + str(k), v % 2 ? "#ffe0b2" : "#ffcc80",
                      "producer: tile " + str(v) + "'s k-tile " + str(k) + " is the CTA's k-tile " + str(p) +
                          " (stage p % STAGES): the producer does not know which warpgroup reads it"});
      bars.push_back({1 + 2 * w, p + 1, p + 2, "T" + str(v) + " k" + str(k), fill[w],
                      "warpgroup " + str(w) + ": wait full[" + str(p) + " % STAGES], wgmma on tile " + str(v) + "'s k-tile " +
                          str(k) + (k == kKTiles - 1 ? "; its last: arrive on turn[" + str((w + 1) % 2) + "]" : "") +
                          (k == 0 && v > 0 ? "; first waited on turn[" + str(w) + "], parity " + str(turn_parity(v)) : "")});
    }
    int const at = first + kKTiles + 1;
    bars.push_back({2 + 2 * w, at, at + kEpiSlots, "T" + str(v) + " C", "#a5d6a7",
                    "warpgroup " + str(w) + " stores tile " + str(v) + " through its own two buffers, while warpgroup " +
                        str((w + 1) % 2) + " multiplies tile " + str(v + 1)});
  }
  tut::svg::write_file(
      dir + "/pingpong.svg",
      tut::svg::timeline("step13: four tiles of one CTA, two consumer warpgroups in turn (4 k-tiles per tile, to fit)",
                         "an ideal run in slots of one k-tile's wgmmas: a warpgroup's epilogue runs while the other's "
                         "mainloop keeps the tensor cores busy; hover a bar for the barriers",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA loads (odd tiles lighter)"},
                          {"#90caf9", "warpgroup 0: wgmma on a k-tile"},
                          {"#ce93d8", "warpgroup 1: wgmma on a k-tile"},
                          {"#a5d6a7", "a warpgroup stores its tile"}}));
}

template void turns_picture<Default>(tut::Options const&, std::string const&);

}  // namespace step13

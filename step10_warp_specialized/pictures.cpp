// Step 10's own pictures (--svg): the barrier pipeline as a timeline, the TMA's boxes over A, and the
// order of the tiles, from the kernel's RingState replay, its tile and its kSchedule.
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step10_warp_specialized.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/ring_schedule.hpp"
#include "tut/svg.hpp"

namespace step10 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  auto const [bm, bn, bk, k_tiles] = tut::cta_tile_size<Cfg>(o.problem.k);  // the tile, and K's k-tiles
  // Slot j: the producer issues k-tile j's TMA, the consumers' wgmmas take k-tile j-(S-1): the producer
  // as far ahead as the ring lets it, since a stage is refilled only once the consumers released it.
  std::vector<std::string> rows, cols;
  for (int s = 0; s < S; ++s) rows.push_back("stage " + str(s));
  for (int j = 0; j < k_tiles + S - 1; ++j) cols.push_back("slot " + str(j));
  std::vector<tut::svg::Bar> bars;
  for (tut::RingStep const& b : tut::ring_schedule<RingState, S>(k_tiles)) {
    int const t = b.k_tile;
    bars.push_back({b.stage, t, t + 1, "TMA " + str(t), "#ffcc80",
                    "producer: wait empty[" + str(b.stage) + "] for parity " + str(b.empty_parity) +
                        ", then one thread issues k-tile " + str(t) + "'s two TMA copies; full[" + str(b.stage) +
                        "] completes when their bytes land"});
    if (S > 2)
      bars.push_back({b.stage, t + 1, t + S - 1, "landed", "#fff3e0",
                      "k-tile " + str(t) + " waits in stage " + str(b.stage) + " for the consumers"});
    bars.push_back({b.stage, t + S - 1, t + S, "wgmma " + str(t), "#90caf9",
                    "consumers: wait full[" + str(b.stage) + "] for parity " + str(b.full_parity) +
                        ", issue k-tile " + str(t) + "'s wgmmas, then arrive on empty of k-tile " + str(t - 1) +
                        "'s stage"});
  }
  tut::svg::write_file(
      dir + "/barriers.svg",
      tut::svg::timeline("step10: k-tiles through the ring of " + str(S) + " stages and their mbarriers (K = " +
                             str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                         "an ideal run: the producer keeps every stage busy and runs " + str(S - 1) +
                             " k-tiles ahead of the wgmmas; hover a bar for the barrier and parity each side waits on "
                             "(tut::ring_schedule(), the kernel's RingState)",
                         rows, cols, bars,
                         {{"#ffcc80", "producer: TMA into the stage (full[s] arrives)"},
                          {"#fff3e0", "landed, waiting for the consumers"},
                          {"#90caf9", "consumers: wgmma reads it (then empty[s])"}}));

  std::int64_t const tm = o.tile.m;
  tut::svg::write_file(
      dir + "/tma_box.svg",
      tut::svg::tma_boxes("step10: the TMA boxes of A, tile-row " + str(tm) + "'s coloured (M = " + str(o.problem.m) +
                              ", K = " + str(o.problem.k) + ")",
                          "per k-tile one box of " + str(bk) + " x " + str(bm) + " halves (k x m), " +
                              str(Cfg::kStageBytesA) + " bytes, lands whole in one stage; stage = k-tile % " + str(S),
                          o.problem.m, o.problem.k, bm, bk, tm, S));

  tut::write_tile_order(dir, Cfg::kSchedule, bm, bn);  // the order the CTAs take the tiles in, at 16 x 16 tiles
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step10

// Step 09's own pictures (--svg): the ring and its barrier phases as a timeline, and the TMA's boxes
// over A, from the schedule the printout reads.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step09_tma.hpp"
#include "tut/pictures.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step09 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  auto const [bm, bn, bk, k_tiles] = tut::cta_tile_size<Cfg>(o.problem.k);  // the tile, and K's k-tiles
  auto const schedule = tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), -1, kWgmmaInFlight});
  tut::StageTimeline const ring = tut::stage_timeline(
      schedule, S, kWgmmaInFlight, false,
      {"TMA", "TMA in flight (or landed), not yet read", "wait full[s], then the wgmmas are issued"},
      [](tut::PipeStep const& p) {
        return "thread 0: arrive.expect_tx(full[" + str(p.fill_stage) + "], " + str(Cfg::kStageBytes) +
               " bytes), then the TMA copies of k-tile " + str(p.fill_k_tile);
      },
      [](int k_tile, tut::PipeStep const& r) {
        return std::pair{"wgmma k-tile " + str(k_tile),
                         "everyone waits on full[" + str(r.read_stage) + "] for parity " + str(r.parity) + " (lap " +
                             str(r.lap) + "), then the warpgroups issue k-tile " + str(k_tile) + "'s wgmmas"};
      });
  tut::svg::write_file(dir + "/barriers.svg",
                       tut::svg::timeline("step09: k-tiles through the ring of " + str(S) +
                                              " stages and their mbarriers (K = " + str(o.problem.k) + ": " +
                                              str(k_tiles) + " k-tiles)",
                                          "thread 0 issues each k-tile's TMA copies " + str(copies_ahead<S>()) +
                                              " k-tiles ahead; everyone waits on the stage's full barrier; hover a "
                                              "bar for the barrier and parity (tut::pipe_schedule(), the kernel's "
                                              "PipeState)",
                                          ring.rows, ring.cols, ring.bars, ring.key));
  std::int64_t const tm = o.tile.m;
  tut::svg::write_file(
      dir + "/tma_box.svg",
      tut::svg::tma_boxes("step09: the TMA boxes of A, tile-row " + str(tm) + "'s coloured (M = " + str(o.problem.m) +
                              ", K = " + str(o.problem.k) + ")",
                          "per k-tile one box of " + str(bk) + " x " + str(bm) + " halves (k x m), " +
                              str(Cfg::kStageBytesA) + " bytes, lands whole in one stage; stage = k-tile % " + str(S),
                          o.problem.m, o.problem.k, bm, bk, tm, S));
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step09

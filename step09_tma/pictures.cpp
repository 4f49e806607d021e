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
  int const bm = size<0>(typename Cfg::CtaTiler{}), bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int((o.problem.k + bk - 1) / bk);
  auto const schedule = tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), -1, kWgmmaInFlight});
  std::vector<std::string> rows, cols;
  for (int s = 0; s < S; ++s) rows.push_back("stage " + str(s));
  std::vector<tut::svg::Bar> bars;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    tut::PipeStep const& p = schedule[i];
    cols.push_back(p.k_tile < 0 ? "prologue " + str(int(i) + 1) : "k-tile " + str(p.k_tile));
    if (p.fill_k_tile < 0) continue;
    // The k-tile's copy is in flight from its issue up to the iteration that waits for it.
    auto const read = std::find_if(schedule.begin(), schedule.end(), [&](tut::PipeStep const& q) { return q.k_tile == p.fill_k_tile; });
    int const read_at = int(read - schedule.begin());
    bars.push_back({p.fill_stage, int(i), read_at, "TMA k-tile " + str(p.fill_k_tile), "#ffcc80",
                    "thread 0: arrive.expect_tx(full[" + str(p.fill_stage) + "], " + str(Cfg::kStageBytes) +
                        " bytes), then the TMA copies of k-tile " + str(p.fill_k_tile)});
    bars.push_back({read->read_stage, read_at, read_at + 1, "wgmma k-tile " + str(p.fill_k_tile), "#90caf9",
                    "everyone waits on full[" + str(read->read_stage) + "] for parity " + str(read->parity) +
                        " (lap " + str(read->lap) + "), then the warpgroups issue k-tile " + str(p.fill_k_tile) +
                        "'s wgmmas"});
    if (kWgmmaInFlight > 0 && read_at + 1 < int(schedule.size()))
      bars.push_back({read->read_stage, read_at + 1, read_at + 1 + kWgmmaInFlight, "still running", "#e3f2fd",
                      "k-tile " + str(p.fill_k_tile) + "'s batch may still be reading stage " + str(read->read_stage) +
                          " (warpgroup_wait<" + str(kWgmmaInFlight) + ">): no TMA refills it yet"});
  }
  tut::svg::write_file(dir + "/barriers.svg",
                       tut::svg::timeline("step09: k-tiles through the ring of " + str(S) +
                                              " stages and their mbarriers (K = " + str(o.problem.k) + ": " +
                                              str(k_tiles) + " k-tiles)",
                                          "thread 0 issues each k-tile's TMA copies " + str(copies_ahead<S>()) +
                                              " k-tiles ahead; everyone waits on the stage's full barrier; hover a "
                                              "bar for the barrier and parity (tut::pipe_schedule(), the kernel's "
                                              "PipeState)",
                                          rows, cols, bars,
                                          {{"#ffcc80", "TMA in flight (or landed), not yet read"},
                                           {"#90caf9", "wait full[s], then the wgmmas are issued"},
                                           {"#e3f2fd", "its batch may still be running"}}));
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

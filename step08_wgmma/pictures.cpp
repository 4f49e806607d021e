// Step 08's own pictures (--svg): the stage ring as a timeline, with the wgmma batch each k-tile leaves
// running, from the same schedule the printout reads.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step08_wgmma.hpp"
#include "tut/pictures.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout.hpp"
#include "tut/svg.hpp"

namespace step08 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = int((o.problem.k + bk - 1) / bk);
  auto const schedule =
      tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), groups_in_flight<S>(), kWgmmaInFlight});
  std::vector<std::string> rows, cols;
  for (int s = 0; s < S; ++s) rows.push_back("stage " + str(s));
  std::vector<tut::svg::Bar> bars;
  for (std::size_t i = 0; i < schedule.size(); ++i) {
    tut::PipeStep const& p = schedule[i];
    cols.push_back(p.k_tile < 0 ? "prologue " + str(int(i) + 1) : "k-tile " + str(p.k_tile));
    if (p.fill_k_tile < 0) {
      bars.push_back({p.fill_stage, int(i), int(i) + 1, "empty group", "#eeeeee",
                      "nothing left to copy: an empty cp.async group keeps the count"});
      continue;
    }
    // The k-tile's copy is in flight from its fill up to the iteration that reads it.
    auto const read = std::find_if(schedule.begin(), schedule.end(), [&](tut::PipeStep const& q) { return q.k_tile == p.fill_k_tile; });
    int const read_at = int(read - schedule.begin());
    bars.push_back({p.fill_stage, int(i), read_at, "cp.async k-tile " + str(p.fill_k_tile), "#ffcc80",
                    "cp.async of k-tile " + str(p.fill_k_tile) + " into stage " + str(p.fill_stage) +
                        ", group " + str(p.committed) + "; cp_async_wait<" + str(groups_in_flight<S>()) + "> before its read ensures it landed"});
    bars.push_back({read->read_stage, read_at, read_at + 1, "wgmma k-tile " + str(p.fill_k_tile), "#90caf9",
                    "the warpgroups issue k-tile " + str(p.fill_k_tile) + "'s wgmmas on stage " + str(read->read_stage)});
    if (kWgmmaInFlight > 0 && read_at + 1 < int(schedule.size()))
      bars.push_back({read->read_stage, read_at + 1, read_at + 1 + kWgmmaInFlight, "still running", "#e3f2fd",
                      "k-tile " + str(p.fill_k_tile) + "'s batch may still be reading stage " + str(read->read_stage) +
                          " (warpgroup_wait<" + str(kWgmmaInFlight) + ">): no cp.async refills it yet"});
  }
  tut::svg::write_file(dir + "/stage_ring.svg",
                       tut::svg::timeline("step08: the ring of " + str(S) + " smem stages, iteration by iteration (K = " +
                                              str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                                          "while the wgmmas read one stage and one batch still runs on the stage before, "
                                          "cp.async fills the others; one barrier per k-tile; read off "
                                          "tut::pipe_schedule(), the kernel's own PipeState",
                                          rows, cols, bars,
                                          {{"#ffcc80", "cp.async in flight (or landed), not yet read"},
                                           {"#90caf9", "the wgmmas of the k-tile are issued"},
                                           {"#e3f2fd", "its batch may still be running"},
                                           {"#eeeeee", "an empty group (no k-tile left)"}}));
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step08

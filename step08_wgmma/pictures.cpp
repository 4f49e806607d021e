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
  auto const [bm, bn, bk, k_tiles] = tut::cta_tile_size<Cfg>(o.problem.k);  // the tile, and K's k-tiles
  auto const schedule =
      tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), groups_in_flight<S>(), kWgmmaInFlight});
  tut::StageTimeline const ring = tut::stage_timeline(
      schedule, S, kWgmmaInFlight, true,
      {"cp.async", "cp.async in flight (or landed), not yet read", "the wgmmas of the k-tile are issued"},
      [](tut::PipeStep const& p) {
        return "cp.async of k-tile " + str(p.fill_k_tile) + " into stage " + str(p.fill_stage) + ", group " +
               str(p.committed) + "; cp_async_wait<" + str(groups_in_flight<S>()) +
               "> before its read ensures it landed";
      },
      [](int k_tile, tut::PipeStep const& r) {
        return std::pair{"wgmma k-tile " + str(k_tile),
                         "the warpgroups issue k-tile " + str(k_tile) + "'s wgmmas on stage " + str(r.read_stage)};
      });
  tut::svg::write_file(dir + "/stage_ring.svg",
                       tut::svg::timeline("step08: the ring of " + str(S) + " smem stages, iteration by iteration (K = " +
                                              str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                                          "while the wgmmas read one stage and one batch still runs on the stage before, "
                                          "cp.async fills the others; one barrier per k-tile; read off "
                                          "tut::pipe_schedule(), the kernel's own PipeState",
                                          ring.rows, ring.cols, ring.bars, ring.key));
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step08

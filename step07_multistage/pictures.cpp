// Step 07's own pictures (--svg): the stage ring as a timeline, and the lanes of one ldmatrix, from the same
// schedule and copy the printout reads.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step07_multistage.hpp"
#include "tut/host_smem.hpp"
#include "tut/ldmatrix_rows.hpp"
#include "tut/pipe_schedule.hpp"
#include "tut/printout_sm80.hpp"
#include "tut/svg.hpp"

namespace step07 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  int const k_tiles = int(ceil_div(o.problem.k, std::int64_t(size<2>(typename Cfg::CtaTiler{}))));
  auto const schedule = tut::pipe_schedule<PipeState<S>>(k_tiles, S, {copies_ahead<S>(), groups_in_flight<S>()});
  tut::StageTimeline const ring = tut::stage_timeline(
      schedule, S, 0, true, {"cp.async", "cp.async in flight (or landed), not yet read", "the math reads the stage"},
      [](tut::PipeStep const& p) {
        return "cp.async of k-tile " + str(p.fill_k_tile) + " into stage " + str(p.fill_stage) + ", group " +
               str(p.committed) + "; cp_async_wait<" + str(groups_in_flight<S>()) +
               "> before its read ensures it landed";
      },
      [](int k_tile, tut::PipeStep const& r) {
        return std::pair{"math k-tile " + str(k_tile),
                         "ldmatrix and mma.sync read k-tile " + str(k_tile) + " from stage " + str(r.read_stage)};
      });
  tut::svg::write_file(dir + "/stage_ring.svg",
                       tut::svg::timeline("step07: the ring of " + str(S) + " smem stages, iteration by iteration (K = " +
                                              str(o.problem.k) + ": " + str(k_tiles) + " k-tiles)",
                                          "while the math reads one stage, cp.async fills the others; one barrier "
                                          "per k-tile; read off tut::pipe_schedule(), the kernel's own PipeState",
                                          ring.rows, ring.cols, ring.bars, ring.key));

  tut::HostSmem<Cfg> smem;
  std::vector<tut::svg::LaneRow> lanes;
  for (tut::LdsmRow const& r : tut::ldmatrix_rows(typename Cfg::S2RCopyA{}, smem.sA(), smem, 0, 0, 0))
    lanes.push_back({r.lane, r.matrix, r.mn, r.k, r.byte});
  tut::svg::write_file(dir + "/ldmatrix.svg",
                       tut::svg::ldmatrix_lanes("step07: one ldmatrix.x4 of A (warp 0, stage 0): the row each lane names",
                                                "each lane gives the address of one 16-byte row of sA (8 halves); lanes "
                                                "8j..8j+7 are matrix j; then lane l receives row l/4, halves 2(l%4) and "
                                                "2(l%4)+1 of every matrix",
                                                lanes, kChunk, 'm'));
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);
template void pipeline_pictures<Small>(tut::Options const&, std::string const&);

}  // namespace step07

// Step 11's own pictures (--svg): two tiles of one CTA through the ring, the producer held back by each
// tile's epilogue, and the order in which the persistent CTAs take the tiles, from the kernel's RingState
// replay and its kSchedule.
#include <cstdint>
#include <string>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step11_persistent.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/ring_schedule.hpp"
#include "tut/svg.hpp"

namespace step11 {

using tut::str;

template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir) {
  constexpr int S = Cfg::kStages;
  auto const [bm, bn, bk, k_tiles] = tut::cta_tile_size<Cfg>(o.problem.k);  // the tile, and K's k-tiles
  // A CTA's first two tiles, in an ideal run (tut::ideal_run): the producer waits on epi_done before a
  // tile's first k-tile, so the next tile's loads start only once the C tile has left the ring's bytes.
  constexpr int kEpiSlots = 2;
  auto const schedule = tut::ring_schedule<RingState, S>(k_tiles, {2, true, true});
  tut::RingRun const run = tut::ideal_run(schedule, S, kEpiSlots);
  tut::svg::write_file(
      dir + "/barriers.svg",
      tut::ring_timeline("step11: two tiles' k-tiles through the ring of " + str(S) + " stages (K = " +
                             str(o.problem.k) + ": " + str(k_tiles) + " k-tiles per tile)",
                         "an ideal run in slots of one k-tile's wgmmas: the ring runs on from T0 into T1, but T1's "
                         "first TMA waits for epi_done, since T0's C tile goes out through the same bytes; the "
                         "consumers then wait for it to land (ring_schedule(), the kernel's RingState)",
                         schedule, run, S, run.slots));

  tut::write_tile_order(dir, Cfg::kSchedule, bm, bn);  // the order the CTAs take the tiles in, at 16 x 16 tiles
}

template void pipeline_pictures<Default>(tut::Options const&, std::string const&);

}  // namespace step11

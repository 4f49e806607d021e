// The host side of the tile schedules: who computes a tile, and how the printout names that CTA.
#include "tut/tile_schedule.hpp"

#include <string>


namespace tut {

TileVisitor visitor_of(TileSchedule const& s, TileCoord t, int tiles_m, int tiles_n) {
  int const ctas = s.cta_count(tiles_m, tiles_n);
  for (int cta = 0; cta < ctas; ++cta)
    for (int j = 0; j < s.visits(cta, tiles_m, tiles_n); ++j)
      if (s.tile(cta, j, tiles_m, tiles_n) == t) return {cta, j};
  return {-1, -1};
}

std::string cta_label(TileSchedule const& s, int cta, int tiles_m) {
  if (s.kind == Visit::grid_2d)
    return "CTA (" + std::to_string(cta % tiles_m) + "," + std::to_string(cta / tiles_m) + ")";
  return "CTA " + std::to_string(cta);
}

}  // namespace tut

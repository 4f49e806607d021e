// The host side of the tile schedules and the owner ids: who computes a tile, and who stored an entry.
#include "tut/tile_schedule.hpp"

#include <string>

#include "tut/owner.hpp"

namespace tut {

TileVisitor visitor_of(TileSchedule const& s, TileCoord t, int tiles_m, int tiles_n) {
  int const ctas = s.cta_count(tiles_m, tiles_n);
  for (int cta = 0; cta < ctas; ++cta)
    for (int j = 0; j < s.visits(cta, tiles_m, tiles_n); ++j)
      if (s.tile(cta, j, tiles_m, tiles_n) == t) return {cta, j};
  return {-1, -1};
}

std::string cta_label(TileSchedule const& s, int cta, int tiles_m) {
  if (s.visit == Visit::grid_2d)
    return "CTA (" + std::to_string(cta % tiles_m) + "," + std::to_string(cta / tiles_m) + ")";
  return "CTA " + std::to_string(cta);
}

Owner owner_of(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads) {
  Owner o;
  std::uint32_t const ctas = std::uint32_t(s.cta_count(tiles_m, tiles_n));
  std::uint32_t const slot = id / std::uint32_t(threads);
  o.thread = int(id % std::uint32_t(threads));
  o.cta = int(slot % ctas);
  o.visit = int(slot / ctas);
  o.tile = s.tile(o.cta, o.visit, tiles_m, tiles_n);
  return o;
}

std::string owner_str(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads) {
  if (id == kNoOwner) return "nobody";
  if (id == kManyOwners) return "several threads";
  Owner const o = owner_of(id, s, tiles_m, tiles_n, threads);
  std::string const who = cta_label(s, o.cta, tiles_m) + " thread " + std::to_string(o.thread);
  if (s.visit == Visit::grid_2d) return who;
  // The tile the schedule gives that CTA: where an entry lies elsewhere, the kernel's tile order is off.
  std::string const tile = "(" + std::to_string(o.tile.m) + "," + std::to_string(o.tile.n) + ")";
  if (s.visit == Visit::raster_1d) return who + ", whose tile is " + tile;
  return who + ", whose visit " + std::to_string(o.visit) + " is tile " + tile;
}

}  // namespace tut

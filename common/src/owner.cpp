// The host side of the owner ids (tut/owner.hpp): taking an id apart, and naming who it is.
#include "tut/owner.hpp"

#include <string>

namespace tut {

Owner owner_of(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads) {
  Owner o;
  std::uint32_t const ctas = std::uint32_t(s.cta_count(tiles_m, tiles_n));
  if (id == kNoOwner || id == kManyOwners || ctas == 0 || threads <= 0) return o;
  std::uint32_t const slot = id / std::uint32_t(threads);
  o.thread = int(id % std::uint32_t(threads));
  o.cta = int(slot % ctas);
  o.visit = int(slot / ctas);
  // Any float the kernel left may look like an id: only one that a (CTA, visit) of the launch has is one.
  if (o.visit >= s.visits(o.cta, tiles_m, tiles_n)) return o;
  o.tile = s.tile(o.cta, o.visit, tiles_m, tiles_n);
  o.valid = true;
  return o;
}

std::string owner_str(std::uint32_t id, TileSchedule const& s, int tiles_m, int tiles_n, int threads) {
  if (id == kNoOwner) return "nobody";
  if (id == kManyOwners) return "several threads";
  Owner const o = owner_of(id, s, tiles_m, tiles_n, threads);
  if (!o.valid) return "the value " + std::to_string(id) + ", which is no thread's id in this launch";
  std::string const who = cta_label(s, o.cta, tiles_m) + " thread " + std::to_string(o.thread);
  if (s.kind == Visit::grid_2d) return who;
  // The tile the schedule gives that CTA: where an entry lies elsewhere, the kernel's tile order is off.
  std::string const tile = "(" + std::to_string(o.tile.m) + "," + std::to_string(o.tile.n) + ")";
  if (s.kind == Visit::raster_1d) return who + ", whose tile is " + tile;
  return who + ", whose visit " + std::to_string(o.visit) + " is tile " + tile;
}

}  // namespace tut

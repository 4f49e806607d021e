/// \file tile_schedule.hpp
/// \brief How a step's CTAs visit the tiles of C: one tile per CTA of a 2-D grid, a 1-D raster, or a
/// persistent loop over many tiles (host and device).
///
/// Every step declares one TileSchedule (Variant::schedule; a 2-D grid unless it says otherwise). Its
/// kernel and launch implement it: a 2-D grid's kernel computes tile (blockIdx.x, blockIdx.y), others ask
/// the schedule for their tiles and their grid. The harness reads the same declaration for "which CTA
/// computes this tile" in the printout, for the grid picture and for the owner test.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include <cute/config.hpp>

namespace tut {

/// \brief A C tile's coordinates: tile (m,n) covers rows m·BLK_M.. and cols n·BLK_N.. of C.
struct TileCoord {
  int m = 0;  ///< tile-row, along M
  int n = 0;  ///< tile-col, along N
  /// \brief The same tile.
  CUTE_HOST_DEVICE constexpr bool operator==(TileCoord const& o) const { return m == o.m && n == o.n; }
};

/// \brief The tiles of an M × N problem in BLK_M × BLK_N tiles: (⌈M/BLK_M⌉, ⌈N/BLK_N⌉).
CUTE_HOST_DEVICE constexpr TileCoord tile_counts(std::int64_t M, std::int64_t N, std::int64_t blk_m,
                                                 std::int64_t blk_n) {
  return {int((M + blk_m - 1) / blk_m), int((N + blk_n - 1) / blk_n)};
}

/// \brief The CTAs a launch starts: a grid of x × y.
struct GridDims {
  int x = 1;  ///< gridDim.x
  int y = 1;  ///< gridDim.y
};

/// \brief The three ways a step's CTAs visit tiles.
enum class Visit : int {
  grid_2d,     ///< a 2-D grid of one CTA per tile: CTA (blockIdx.x, blockIdx.y) computes tile (x,y)
  raster_1d,   ///< a 1-D grid of one CTA per tile: CTA blockIdx.x computes raster_tile(blockIdx.x)
  persistent,  ///< a 1-D grid of `ctas` CTAs: CTA c computes raster_tile(c), then c + ctas, c + 2·ctas, ...
};

//! [raster]
/// \brief Tile number \p i of the raster order over \p tiles_m × \p tiles_n tiles. CTAs run roughly in
/// the order of their numbers, so this order decides which tiles are in flight together: \p group_m
/// tile-rows at a time, down a column of the group and then on to the next column. The ~132 CTAs in
/// flight then read about group_m tiles of A's rows and 132/group_m of B's, which stay in L2 for each
/// other, instead of every tile-row of A (numbers running down M) when M is large. The last group may
/// have fewer rows. A bijection from 0..tiles_m·tiles_n-1 onto the tiles (the tests check it); \p i must
/// lie in that range, and \p group_m be at least 1.
CUTE_HOST_DEVICE constexpr TileCoord raster_tile(int i, int tiles_m, int tiles_n, int group_m) {
  int const per_group = group_m * tiles_n;                     // tiles per group of tile-rows
  int const first_m = i / per_group * group_m;                 // the group's first tile-row
  int const left = tiles_m - first_m;                          // tile-rows from there to the bottom
  int const rows = left < group_m ? left : group_m;            // the group's tile-rows (the last: maybe fewer)
  int const j = i % per_group;                                 // the tile's place in its group
  return {first_m + j % rows, j / rows};
}
//! [raster]

/// \brief How a step's CTAs visit the tiles of C (see Visit). A literal type: kernels take it by value.
/// A persistent schedule fixes its CTA count when the step is compiled, so that the printout can name
/// the CTA of a tile without a GPU.
struct TileSchedule {
  Visit kind = Visit::grid_2d;   ///< which of the three
  int group_m = 1;               ///< raster_1d, persistent: tile-rows per group of the raster order (>= 1)
  int ctas = 1;                  ///< persistent: resident CTAs (>= 1; fewer run when there are fewer tiles, or balanced)
  /// \brief persistent: CTAs per cluster, along M (step 15). The CTAs of a cluster, numbered together,
  /// take tiles numbered together, which the raster order puts in one column: tiles (m, n), (m+1, n), ...
  /// For that the tile-rows are counted up to a multiple of cluster_m (rows_of), and the rows past the
  /// last are tiles outside C, which a CTA computes but does not store.
  int cluster_m = 1;
  /// \brief persistent: start only as many CTAs as the busiest CTA's tiles need (step 15's cooperative
  /// tiles). It computes ⌈tiles / ctas⌉ tiles either way; ⌈tiles / that⌉ CTAs (in whole clusters) share
  /// them out so that each computes as many, or one fewer. 2,048 tiles on 132 CTAs: 128 CTAs of 16
  /// tiles, not 68 of 16 and 64 of 15.
  bool balanced = false;

  /// \brief group_m >= 1, and ctas >= 1 for a persistent schedule: what the functions below assume.
  /// Clusters: whole ones, and the raster's groups of tile-rows whole clusters.
  constexpr bool valid() const {
    return group_m >= 1 && (kind != Visit::persistent || ctas >= 1) && cluster_m >= 1 && ctas % cluster_m == 0 &&
           group_m % cluster_m == 0;
  }
  /// \brief The tile-rows the schedule hands out: \p tiles_m, counted up to whole clusters.
  CUTE_HOST_DEVICE constexpr int rows_of(int tiles_m) const { return (tiles_m + cluster_m - 1) / cluster_m * cluster_m; }

  /// \brief The grid the launch starts for \p tiles_m × \p tiles_n tiles.
  CUTE_HOST_DEVICE constexpr GridDims grid(int tiles_m, int tiles_n) const {
    int const tiles = rows_of(tiles_m) * tiles_n;
    switch (kind) {
      case Visit::grid_2d: return {tiles_m, tiles_n};
      case Visit::raster_1d: return {tiles, 1};
      default: {
        int const n = ctas < tiles ? ctas : tiles;
        if (!balanced) return {n, 1};
        int const most = (tiles + n - 1) / n;                       // the busiest CTA's tiles
        int const fewest = (tiles + most - 1) / most;              // the fewest CTAs that compute no more
        return {(fewest + cluster_m - 1) / cluster_m * cluster_m, 1};  // in whole clusters: still <= n
      }
    }
  }
  /// \brief How many CTAs the launch starts.
  CUTE_HOST_DEVICE constexpr int cta_count(int tiles_m, int tiles_n) const {
    GridDims const g = grid(tiles_m, tiles_n);
    return g.x * g.y;
  }
  /// \brief How many tiles CTA \p cta (numbered x + gridDim.x·y) computes.
  CUTE_HOST_DEVICE constexpr int visits(int cta, int tiles_m, int tiles_n) const {
    int const n = cta_count(tiles_m, tiles_n);
    if (cta < 0 || cta >= n) return 0;
    return kind == Visit::persistent ? (rows_of(tiles_m) * tiles_n - cta + n - 1) / n : 1;
  }
  /// \brief The tile CTA \p cta computes on its visit \p j (0 for all but a persistent CTA).
  CUTE_HOST_DEVICE constexpr TileCoord tile(int cta, int j, int tiles_m, int tiles_n) const {
    switch (kind) {
      case Visit::grid_2d: return {cta % tiles_m, cta / tiles_m};
      case Visit::raster_1d: return raster_tile(cta, tiles_m, tiles_n, group_m);
      default: return raster_tile(cta + j * cta_count(tiles_m, tiles_n), rows_of(tiles_m), tiles_n, group_m);
    }
  }
};

/// \brief The tile schedule a configuration declares (`Cfg::kSchedule`), or, where it declares none, a
/// 2-D grid of one CTA per tile.
template <class Cfg, class = void>
inline constexpr TileSchedule kScheduleOf{};
template <class Cfg>
inline constexpr TileSchedule kScheduleOf<Cfg, std::void_t<decltype(Cfg::kSchedule)>> = Cfg::kSchedule;

/// \brief Which CTA computes a tile, and on which of its visits.
struct TileVisitor {
  int cta = 0;    ///< numbered x + gridDim.x·y
  int visit = 0;  ///< 0 for the CTA's first tile
};

/// \brief The CTA that computes tile \p t under \p s, found by walking the schedule (host: printouts
/// and tests). {-1,-1} if no CTA does.
TileVisitor visitor_of(TileSchedule const& s, TileCoord t, int tiles_m, int tiles_n);

/// \brief "CTA (1,0)" for a 2-D grid; "CTA 11" for a 1-D one.
std::string cta_label(TileSchedule const& s, int cta, int tiles_m);

/// \brief The work of the busiest CTA when \p M × \p N is cut into \p blk_m × \p blk_n tiles and shared
/// out among \p ctas persistent CTAs: ⌈tiles / ctas⌉ tiles, each blk_m·blk_n entries of C (times K,
/// the same for every tile shape). A persistent kernel takes as long as its busiest CTA: the measure by
/// which a launch may choose a tile shape (Step::choose).
constexpr std::int64_t busiest_cta_work(std::int64_t M, std::int64_t N, int blk_m, int blk_n, int ctas) {
  std::int64_t const tiles = ((M + blk_m - 1) / blk_m) * ((N + blk_n - 1) / blk_n);
  return (tiles + ctas - 1) / ctas * blk_m * blk_n;
}

/// \brief The same, for the tiles schedule \p s hands out (clusters' rows included) among its CTAs.
constexpr std::int64_t busiest_cta_work(std::int64_t M, std::int64_t N, int blk_m, int blk_n, TileSchedule const& s) {
  std::int64_t const rows = s.rows_of(int((M + blk_m - 1) / blk_m));
  return busiest_cta_work(rows * blk_m, N, blk_m, blk_n, s.ctas);
}

/// \brief What a configuration's launch costs, in ns, measured (step 15's choose()): per k-tile of a
/// tile, its mainloop; per tile besides, what the tile's epilogue adds where the next tile's mainloop
/// does not hide it (cooperative: the whole store of the tile); and once, the launch's start and end.
struct Cost {
  std::int64_t k_tile;  ///< per k-tile of a tile: the mainloop's
  std::int64_t tile;    ///< per tile besides: what its epilogue adds
  std::int64_t launch;  ///< once per launch: its start and end
};

/// \brief The time, in ns, that a launch takes for an M × N × K problem in blk_m × blk_n × blk_k tiles under
/// schedule \p s, by the costs \p c, the k-tile's scaled by \p k_factor (in 1/1000): its busiest CTA's tiles
/// (busiest_cta_work: in clusters, the tile-rows counted up to whole clusters) × (their k-tiles ×
/// c.k_tile + c.tile) + c.launch.
constexpr std::int64_t predicted_ns(std::int64_t M, std::int64_t N, std::int64_t K, int blk_m, int blk_n, int blk_k,
                                    TileSchedule const& s, Cost const& c, std::int64_t k_factor) {
  std::int64_t const tiles = busiest_cta_work(M, N, blk_m, blk_n, s) / (std::int64_t(blk_m) * blk_n);
  return tiles * ((K + blk_k - 1) / blk_k * c.k_tile * k_factor / 1000 + c.tile) + c.launch;
}

}  // namespace tut

// The three tile schedules (tut/tile_schedule.hpp): every tile visited exactly once, by the CTA and on the
// visit the schedule names, on many shapes; the raster order's groups; the persistent loop's stride.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "catch.hpp"
#include "tut/tile_schedule.hpp"

namespace {

// Tile counts (tiles_m, tiles_n): one tile, single rows and columns, primes, a group's multiples and
// one past them, and H100-sized problems (4096³ in 128×256 tiles, 8192³).
std::vector<tut::TileCoord> const kTileShapes{
    {1, 1},  {1, 2},  {2, 1},  {1, 7},   {7, 1},   {2, 2},   {3, 3},  {5, 3},   {3, 5},  {7, 13},
    {8, 1},  {8, 2},  {9, 2},  {16, 5},  {17, 5},  {33, 2},  {24, 7}, {31, 33}, {32, 16}, {64, 32},
    {65, 1}, {1, 65}, {12, 11}, {100, 3}};

// Visits every (CTA, visit) of s over the tiles and counts each tile's visitors; checks the grid.
std::vector<int> visit_counts(tut::TileSchedule const& s, tut::TileCoord tiles) {
  std::vector<int> hits(std::size_t(tiles.m) * std::size_t(tiles.n), 0);
  tut::GridDims const g = s.grid(tiles.m, tiles.n);
  REQUIRE(g.x * g.y == s.cta_count(tiles.m, tiles.n));
  REQUIRE(s.visits(-1, tiles.m, tiles.n) == 0);
  REQUIRE(s.visits(g.x * g.y, tiles.m, tiles.n) == 0);
  for (int cta = 0; cta < g.x * g.y; ++cta) {
    REQUIRE(s.visits(cta, tiles.m, tiles.n) >= 1);  // no CTA idles
    for (int j = 0; j < s.visits(cta, tiles.m, tiles.n); ++j) {
      tut::TileCoord const t = s.tile(cta, j, tiles.m, tiles.n);
      REQUIRE((t.m >= 0 && t.m < tiles.m && t.n >= 0 && t.n < tiles.n));
      ++hits[std::size_t(t.m) * std::size_t(tiles.n) + std::size_t(t.n)];
      tut::TileVisitor const back = tut::visitor_of(s, t, tiles.m, tiles.n);
      REQUIRE((back.cta == cta && back.visit == j));
    }
  }
  return hits;
}

}  // namespace

TEST_CASE("a 2-D grid: CTA (x,y) computes tile (x,y), each once", "[schedule]") {
  tut::TileSchedule const s{};
  for (tut::TileCoord tiles : kTileShapes) {
    CAPTURE(tiles.m, tiles.n);
    tut::GridDims const g = s.grid(tiles.m, tiles.n);
    CHECK((g.x == tiles.m && g.y == tiles.n));
    for (int h : visit_counts(s, tiles)) REQUIRE(h == 1);
    // The kernel's make_coord(blockIdx.x, blockIdx.y, _): the CTA numbered x + gridDim.x·y.
    for (int y = 0; y < g.y; ++y)
      for (int x = 0; x < g.x; ++x) REQUIRE(s.tile(x + g.x * y, 0, tiles.m, tiles.n) == tut::TileCoord{x, y});
  }
  CHECK(tut::cta_label(s, 5, 3) == "CTA (2,1)");
}

TEST_CASE("a 1-D raster: one CTA per tile, group_m tile-rows at a time", "[schedule]") {
  for (int group : {1, 2, 3, 8, 16})
    for (tut::TileCoord tiles : kTileShapes) {
      CAPTURE(group, tiles.m, tiles.n);
      tut::TileSchedule const s{tut::Visit::raster_1d, group};
      tut::GridDims const g = s.grid(tiles.m, tiles.n);
      CHECK((g.x == tiles.m * tiles.n && g.y == 1));
      for (int h : visit_counts(s, tiles)) REQUIRE(h == 1);
      for (int cta = 0; cta < g.x; ++cta) {
        tut::TileCoord const t = s.tile(cta, 0, tiles.m, tiles.n);
        // CTA i belongs to group i / (group·tiles_n), which holds tile-rows group·g .. group·g+group-1,
        // and within it runs down a column before the next.
        REQUIRE(t.m / group == cta / (group * tiles.n));
        if (cta + 1 < g.x && (cta + 1) % (group * tiles.n) != 0) {
          tut::TileCoord const next = s.tile(cta + 1, 0, tiles.m, tiles.n);
          REQUIRE(((next.n == t.n && next.m == t.m + 1) || (next.n == t.n + 1 && next.m < t.m) ||
                   (next.n == t.n + 1 && next.m == t.m)));
        }
      }
    }
  // The first CTAs of a 32x16-tile problem (4096³ in 128x256 tiles): 8 rows down column 0, then column 1.
  CHECK(tut::raster_tile(7, 32, 16, 8) == tut::TileCoord{7, 0});
  CHECK(tut::raster_tile(8, 32, 16, 8) == tut::TileCoord{0, 1});
  CHECK(tut::raster_tile(128, 32, 16, 8) == tut::TileCoord{8, 0});
  // The last group of 33 tile-rows in groups of 8 has one row: it runs along it.
  CHECK(tut::raster_tile(32 * 2, 33, 2, 8) == tut::TileCoord{32, 0});
  CHECK(tut::raster_tile(32 * 2 + 1, 33, 2, 8) == tut::TileCoord{32, 1});
  CHECK(tut::cta_label(tut::TileSchedule{tut::Visit::raster_1d, 8}, 11, 3) == "CTA 11");
}

TEST_CASE("a persistent grid: min(ctas, tiles) CTAs, CTA c takes raster tiles c, c+ctas, ...", "[schedule]") {
  for (int ctas : {1, 2, 5, 132})
    for (int group : {1, 8})
      for (tut::TileCoord tiles : kTileShapes) {
        CAPTURE(ctas, group, tiles.m, tiles.n);
        tut::TileSchedule const s{tut::Visit::persistent, group, ctas};
        int const n = tiles.m * tiles.n < ctas ? tiles.m * tiles.n : ctas;
        CHECK(s.cta_count(tiles.m, tiles.n) == n);
        for (int h : visit_counts(s, tiles)) REQUIRE(h == 1);
        int total = 0;
        for (int cta = 0; cta < n; ++cta) {
          int const v = s.visits(cta, tiles.m, tiles.n);
          total += v;
          for (int j = 0; j < v; ++j)
            REQUIRE(s.tile(cta, j, tiles.m, tiles.n) == tut::raster_tile(cta + j * n, tiles.m, tiles.n, group));
          // Balanced: no CTA has more than one tile more than another.
          REQUIRE(v - s.visits(n - 1, tiles.m, tiles.n) <= 1);
        }
        REQUIRE(total == tiles.m * tiles.n);
      }
}

TEST_CASE("a schedule says whether it is usable, and tiles round up", "[schedule]") {
  CHECK(tut::TileSchedule{}.valid());
  CHECK(tut::TileSchedule{tut::Visit::raster_1d, 8}.valid());
  CHECK_FALSE(tut::TileSchedule{tut::Visit::raster_1d, 0}.valid());
  CHECK(tut::TileSchedule{tut::Visit::persistent, 8, 132}.valid());
  CHECK_FALSE(tut::TileSchedule{tut::Visit::persistent, 8, 0}.valid());
  CHECK(tut::tile_counts(300, 600, 128, 256) == tut::TileCoord{3, 3});
  CHECK(tut::tile_counts(256, 512, 128, 256) == tut::TileCoord{2, 2});
  CHECK(tut::tile_counts(1, 1, 128, 256) == tut::TileCoord{1, 1});
}

TEST_CASE("busiest_cta_work: the persistent schedule's own count of its busiest CTA's tiles", "[schedule]") {
  std::mt19937 rng(12);
  std::uniform_int_distribution<std::int64_t> size(1, 12000);
  std::uniform_int_distribution<int> ctas_of(1, 200);
  for (int i = 0; i < 300; ++i) {
    std::int64_t const M = size(rng), N = size(rng);
    int const ctas = ctas_of(rng);
    for (auto [bm, bn] : {std::pair<int, int>{128, 256}, {128, 128}, {64, 64}}) {
      CAPTURE(M, N, ctas, bm, bn);
      tut::TileSchedule const s{tut::Visit::persistent, 8, ctas};
      tut::TileCoord const t = tut::tile_counts(M, N, bm, bn);
      int most = 0;
      for (int c = 0; c < s.cta_count(t.m, t.n); ++c) most = std::max(most, s.visits(c, t.m, t.n));
      REQUIRE(tut::busiest_cta_work(M, N, bm, bn, ctas) == std::int64_t(most) * bm * bn);
    }
  }
  CHECK(tut::busiest_cta_work(1024, 1024, 128, 256, 132) == 128 * 256);      // 32 tiles: one each
  CHECK(tut::busiest_cta_work(4096, 4096, 128, 256, 132) == 4 * 128 * 256);  // 512 tiles: 4 for some
}

TEST_CASE("a persistent grid in clusters: a cluster's CTAs take tiles (m,n), (m+1,n), ... on every visit", "[schedule]") {
  for (int cluster : {2, 4})
    for (int ctas : {cluster, 3 * cluster, 132})
      for (tut::TileCoord tiles : kTileShapes)
        for (bool balanced : {false, true}) {
          CAPTURE(cluster, ctas, tiles.m, tiles.n, balanced);
          tut::TileSchedule const s{tut::Visit::persistent, 8, ctas, cluster, balanced};
          REQUIRE(s.valid());
          int const rows = s.rows_of(tiles.m);
          REQUIRE((rows % cluster == 0 && rows >= tiles.m && rows - tiles.m < cluster));
          int const n = s.cta_count(tiles.m, tiles.n);
          REQUIRE(n % cluster == 0);  // whole clusters
          std::vector<int> hits(std::size_t(rows) * std::size_t(tiles.n), 0);
          for (int first = 0; first < n; first += cluster) {
            int const v = s.visits(first, tiles.m, tiles.n);
            REQUIRE(v >= 1);
            for (int r = 0; r < cluster; ++r) {
              REQUIRE(s.visits(first + r, tiles.m, tiles.n) == v);  // the CTAs of a cluster load k-tiles in step
              for (int j = 0; j < v; ++j) {
                tut::TileCoord const lead = s.tile(first, j, tiles.m, tiles.n);
                tut::TileCoord const t = s.tile(first + r, j, tiles.m, tiles.n);
                REQUIRE(lead.m % cluster == 0);
                REQUIRE(t == tut::TileCoord{lead.m + r, lead.n});  // the same B: column n
                REQUIRE((t.m < rows && t.n < tiles.n));
                ++hits[std::size_t(t.m) * std::size_t(tiles.n) + std::size_t(t.n)];
              }
            }
          }
          for (int h : hits) REQUIRE(h == 1);  // every tile, the padded rows' too, once
          // The busiest CTA, as Step::choose counts it.
          int most = 0;
          for (int c = 0; c < n; ++c) most = std::max(most, s.visits(c, tiles.m, tiles.n));
          REQUIRE(tut::busiest_cta_work(std::int64_t(tiles.m) * 64, std::int64_t(tiles.n) * 32, 64, 32, s) ==
                  std::int64_t(most) * 64 * 32);
        }
  CHECK_FALSE((tut::TileSchedule{tut::Visit::persistent, 8, 131, 2}.valid()));  // half a cluster
  CHECK_FALSE((tut::TileSchedule{tut::Visit::persistent, 3, 132, 2}.valid()));  // a group of 3 rows splits clusters
  CHECK(tut::TileSchedule{tut::Visit::persistent, 8, 132, 2}.rows_of(3) == 4);
}

TEST_CASE("a balanced persistent grid: as few CTAs as its busiest one's tiles need", "[schedule]") {
  using tut::Visit;
  for (int cluster : {1, 2})
    for (int ctas : {2, 6, 132})
      for (tut::TileCoord tiles : kTileShapes) {
        CAPTURE(cluster, ctas, tiles.m, tiles.n);
        tut::TileSchedule const all{Visit::persistent, 16, ctas, cluster};
        tut::TileSchedule const s{Visit::persistent, 16, ctas, cluster, true};
        int const t = s.rows_of(tiles.m) * tiles.n, n = s.cta_count(tiles.m, tiles.n), most = (t + n - 1) / n;
        int const n_all = all.cta_count(tiles.m, tiles.n);
        REQUIRE((n % cluster == 0 && n <= n_all));
        REQUIRE(most == (t + n_all - 1) / n_all);  // the busiest CTA computes as many tiles as with all of them
        if (n > cluster) REQUIRE((t + n - cluster - 1) / (n - cluster) > most);  // a cluster fewer: it computes more
        for (int c = 0; c < n; ++c) REQUIRE(s.visits(c, tiles.m, tiles.n) >= most - 1);  // the others: one fewer
        if (cluster == 1)
          for (int h : visit_counts(s, tiles)) REQUIRE(h == 1);  // every tile once (in clusters: the test above)
      }
  // 8192³ in 128×256 tiles: 2,048 tiles, 16 for the busiest CTA. Of 132 CTAs, 64 would compute 15.
  CHECK(tut::TileSchedule{Visit::persistent, 16, 132, 2, true}.cta_count(64, 32) == 128);
  CHECK(tut::TileSchedule{Visit::persistent, 16, 132, 2}.cta_count(64, 32) == 132);
  // 7000³: 55 × 28 = 1,540 tiles, 12 for the busiest: 129 CTAs; in clusters, 56 × 28 = 1,568: 131, so 132.
  CHECK(tut::TileSchedule{Visit::persistent, 16, 132, 1, true}.cta_count(55, 28) == 129);
  CHECK(tut::TileSchedule{Visit::persistent, 16, 132, 2, true}.cta_count(55, 28) == 132);
}

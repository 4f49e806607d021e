// The contract every registered step keeps: what it declares to the harness (convention, sizes,
// variants, tile schedule) agrees with its own layouts, and the host partition behind the printout and
// the owner test stores every C entry exactly once, from the CTA its schedule sends to that tile.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <unistd.h>

#include "catch.hpp"
#include "tut/harness.hpp"
#include "tut/owner.hpp"
#include "tut/pictures.hpp"
#include "tut/registration.hpp"

namespace {

// Problems a step runs: ragged ones for a step of any size (any M and N), tile multiples for the others.
std::vector<tut::Problem> problems_for(tut::Step const& s) {
  tut::Problem const& q = s.multiple_of;
  if (q.m == 1 && q.n == 1)
    return {{1, 1, q.k}, {200, 150, 20 * q.k}, {129, 257, 9 * q.k}, {300, 7, 33 * q.k}, {256, 128, 64 * q.k}};
  return {{q.m, q.n, q.k}, {2 * q.m, q.n, 4 * q.k}, {3 * q.m, 2 * q.n, q.k}};
}

}  // namespace

TEST_CASE("every step is registered once, and refuses the sizes its rule refuses", "[steps]") {
  auto const& steps = tut::all_steps();
  REQUIRE(steps.size() >= 3);
  std::set<std::string> names;
  for (auto const& r : steps) {
    tut::Step const& s = *r;
    CAPTURE(s.name);
    CHECK(names.insert(s.name).second);
    CHECK(s.name.rfind("step", 0) == 0);
    CHECK(tut::unsupported(s, s.defaults).empty());
    if (s.sizes == tut::SizeRule::tile_multiples) {
      // Tile multiples are whole tiles of every variant (the largest tile, when the others divide it), and
      // the message names the step that lifts the limit.
      bool is_a_tile = false;
      for (tut::Variant const& v : s.variants) {
        CAPTURE(v.name);
        CHECK(s.multiple_of.m % v.tile_m == 0);
        CHECK(s.multiple_of.n % v.tile_n == 0);
        CHECK(s.multiple_of.k % v.tile_k == 0);
        is_a_tile = is_a_tile || (s.multiple_of.m == v.tile_m && s.multiple_of.n == v.tile_n && s.multiple_of.k == v.tile_k);
      }
      CHECK(is_a_tile);
      std::string const why = tut::unsupported(s, {s.multiple_of.m + 1, s.multiple_of.n, s.multiple_of.k});
      // ... a later registered step, which runs the size refused here.
      CHECK_FALSE(s.lifted_by.empty());
      auto const later =
          std::find_if(steps.begin(), steps.end(), [&](tut::Step const* o) { return o->name == s.lifted_by; });
      REQUIRE(later != steps.end());
      CHECK(later - steps.begin() > &r - steps.data());
      CHECK(tut::unsupported(**later, {s.multiple_of.m + 1, s.multiple_of.n, (*later)->multiple_of.k}).empty());
      CHECK(why.find(s.lifted_by) != std::string::npos);
    } else if (s.sizes == tut::SizeRule::any_mn) {
      // Any M and N; K in whole units of multiple_of.k, and the message says why the rest is refused.
      CHECK(tut::unsupported(s, {1, 1, s.multiple_of.k}).empty());
      CHECK(tut::unsupported(s, {997, 1009, 127 * s.multiple_of.k}).empty());
      std::string const why = tut::unsupported(s, {997, 1009, s.multiple_of.k + 1});
      CHECK(why.find("K to be a multiple of " + std::to_string(s.multiple_of.k)) != std::string::npos);
      CHECK_FALSE(s.sizes_why.empty());
      CHECK(why.find(s.sizes_why) != std::string::npos);
    } else {
      CHECK(tut::unsupported(s, {1, 1, 1}).empty());
      CHECK(tut::unsupported(s, {997, 1009, 1013}).empty());
    }
  }
}

TEST_CASE("every step's layouts are the convention it declares", "[steps]") {
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    CAPTURE(s.name);
    REQUIRE(s.layout_strides != nullptr);
    for (tut::Problem const& p : problems_for(s)) {
      CAPTURE(p.m, p.n, p.k);
      // The verification reads the operands through the convention; the kernel through its layouts.
      CHECK(s.layout_strides(p) == tut::strides_of(s.convention, p));
    }
  }
}

TEST_CASE("every variant is complete, and its partition stores every C entry exactly once", "[steps]") {
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    CAPTURE(s.name);
    REQUIRE_FALSE(s.variants.empty());
    std::set<std::string> names;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(v.name);
      CHECK(names.insert(v.name).second);
      REQUIRE(v.launch != nullptr);
      REQUIRE(v.trace != nullptr);
      REQUIRE(v.owners != nullptr);
      CHECK(v.threads > 0);
      CHECK(v.tile_m > 0);
      CHECK(v.tile_n > 0);
      CHECK(v.tile_k > 0);
      for (tut::Problem const& p : problems_for(s)) {
        CAPTURE(p.m, p.n, p.k);
        auto const owners = v.owners(p, v.schedule);
        REQUIRE(owners.size() == std::size_t(p.m * p.n));
        tut::TileCoord const tiles = tut::tiles_of(v, p);
        std::size_t bad = 0;
        for (std::int64_t m = 0; m < p.m; ++m)
          for (std::int64_t n = 0; n < p.n; ++n) {
            std::uint32_t const id = owners[std::size_t(m * p.n + n)];
            if (id == tut::kNoOwner || id == tut::kManyOwners) {
              ++bad;
              continue;
            }
            // The owner's CTA and visit are those the schedule sends to the tile that holds (m,n).
            tut::Owner const o = tut::owner_of(id, v.schedule, tiles.m, tiles.n, v.threads);
            tut::TileCoord const tile{int(m / v.tile_m), int(n / v.tile_n)};
            tut::TileVisitor const want = tut::visitor_of(v.schedule, tile, tiles.m, tiles.n);
            if (!o.valid || !(o.tile == tile) || o.cta != want.cta || o.visit != want.visit) ++bad;
          }
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("every variant's CTAs visit every tile of C exactly once", "[steps][schedule]") {
  // 24 problems a step may run: one entry, ragged edges in M, N or both, whole tiles, long and thin.
  std::vector<std::pair<std::int64_t, std::int64_t>> const mn{
      {1, 1},      {1, 1000},   {1000, 1},   {7, 13},     {127, 131},   {128, 128},   {129, 128},  {128, 129},
      {200, 150},  {257, 385},  {300, 600},  {513, 511},  {997, 1009},  {1000, 999},  {1024, 1024}, {2048, 100},
      {100, 2048}, {3000, 777}, {4096, 4096}, {4095, 4097}, {8192, 8192}, {16384, 128}, {256, 12288}, {5000, 3}};
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(s.name, v.name);
      for (auto const& [m, n] : mn) {
        CAPTURE(m, n);
        tut::TileCoord const tiles = tut::tiles_of(v, {m, n, s.multiple_of.k});
        // The tiles cover C, and no tile lies wholly past its edge.
        REQUIRE((tiles.m * v.tile_m >= m && (tiles.m - 1) * v.tile_m < m));
        REQUIRE((tiles.n * v.tile_n >= n && (tiles.n - 1) * v.tile_n < n));
        std::vector<int> hits(std::size_t(tiles.m) * std::size_t(tiles.n), 0);
        int const ctas = v.schedule.cta_count(tiles.m, tiles.n);
        for (int cta = 0; cta < ctas; ++cta)
          for (int j = 0; j < v.schedule.visits(cta, tiles.m, tiles.n); ++j) {
            tut::TileCoord const t = v.schedule.tile(cta, j, tiles.m, tiles.n);
            // In clusters (step 15), the tile-rows counted up to whole clusters: the last ones lie past C.
            REQUIRE((t.m >= 0 && t.m < v.schedule.rows_of(tiles.m) && t.n >= 0 && t.n < tiles.n));
            if (t.m >= tiles.m) continue;
            ++hits[std::size_t(t.m) * std::size_t(tiles.n) + std::size_t(t.n)];
          }
        std::size_t wrong = 0;
        for (int h : hits) wrong += h == 1 ? 0 : 1;
        CHECK(wrong == 0);
      }
    }
  }
}

TEST_CASE("every variant prints its partitions for its defaults and for an edge CTA", "[steps]") {
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(s.name, v.name);
      tut::Options o;
      o.problem = s.defaults;
      o.variant = v.name;
      std::ostringstream os;
      v.trace(os, o);
      CHECK(os.str().find("== 3. Partitions") != std::string::npos);
      CHECK(os.str().find("== 4. What is new") != std::string::npos);
      tut::TileCoord const tiles = tut::tiles_of(v, o.problem);
      o.tile = {tiles.m - 1, tiles.n - 1};
      o.thread = v.threads - 1;
      std::ostringstream edge;
      v.trace(edge, o);
      // The printout names the traced tile's CTA as the schedule says.
      int const cta = tut::visitor_of(v.schedule, o.tile, tiles.m, tiles.n).cta;
      std::string const name =
          v.schedule.kind == tut::Visit::grid_2d
              ? "CTA (" + std::to_string(tiles.m - 1) + "," + std::to_string(tiles.n - 1) + ")"
              : "tile (" + std::to_string(tiles.m - 1) + "," + std::to_string(tiles.n - 1) + ") (CTA " +
                    std::to_string(cta) + ")";
      CHECK(edge.str().find("== 3. Partitions of " + name) != std::string::npos);
    }
  }
}

TEST_CASE("every variant draws its pictures: the generic ones, its own, and the C-tile page", "[steps]") {
  namespace fs = std::filesystem;
  fs::path const root = fs::temp_directory_path() / ("tut_pictures_" + std::to_string(::getpid()));
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(s.name, v.name);
      REQUIRE(v.pictures != nullptr);
      tut::Options o;
      o.problem = s.defaults;
      o.variant = v.name;
      o.svg_dir = (root / (s.name + "_" + v.name)).string();
      o.html_file = o.svg_dir + "/page.html";
      tut::make_dir(o.svg_dir);
      v.pictures(o, tut::strides_of(s.convention, o.problem), s.name, v.schedule);
      if (v.extra_svg) v.extra_svg(o, o.svg_dir);
      for (char const* f : {"ownership.svg", "thread.svg", "grid.svg", "page.html"}) {
        CAPTURE(f);
        CHECK(fs::file_size(fs::path(o.svg_dir) / f) > 500);
      }
      // The step's own pictures, each a drawing (an SVG of some size).
      static std::map<std::string, std::vector<char const*>> const own{
          {"step04_swizzle", {"banks_store.svg", "banks_load.svg", "banks_tile.svg"}},
          {"step06_global_gemm", {"banks_store.svg", "banks_load.svg", "banks_tile.svg"}},
          {"step07_multistage", {"stage_ring.svg", "ldmatrix.svg"}},
          {"step08_wgmma", {"stage_ring.svg"}},
          {"step09_tma", {"barriers.svg", "tma_box.svg"}},
          {"step10_warp_specialized", {"barriers.svg", "tma_box.svg", "tile_order.svg"}},
          {"step11_persistent", {"barriers.svg", "tile_order.svg"}},
          {"step12_tma_store", {"barriers.svg", "epilogue_overlap.svg", "tile_order.svg"}},
          {"step13_pingpong", {"pingpong.svg"}},
          {"step14_dispatch", {"choice.svg"}},
          {"step15_cluster", {"choice.svg"}}};
      CHECK((v.extra_svg != nullptr) == (own.count(s.name) == 1));
      if (own.count(s.name))
        for (char const* f : own.at(s.name)) {
          CAPTURE(f);
          REQUIRE(fs::exists(fs::path(o.svg_dir) / f));
          CHECK(fs::file_size(fs::path(o.svg_dir) / f) > 1000);
        }
    }
  }
  fs::remove_all(root);
}

TEST_CASE("the verification each step gets: its input type's tolerance at the run's K, its variant's tile", "[steps]") {
  // At K = 4096: fp32 inputs get 4·sqrt(K)·2^-24 = 2^-16; fp16 inputs on tensor cores the worst case
  // K·2^-23 = 2^-11, 32x looser. Steps 01-04 are fp32, 05 on fp16.
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r;
    bool const fp32 = s.name < std::string("step05");
    CAPTURE(s.name);
    CHECK(s.in_type == (fp32 ? tut::DType::f32 : tut::DType::f16));
    for (tut::Variant const& v : s.variants) {
      CAPTURE(v.name);
      tut::Options o;
      o.problem = {s.defaults.m, s.defaults.n, 4096};
      o.seed = 1234;
      tut::VerifyConfig const cfg = tut::verify_config(s, v, o);
      CHECK(cfg.rtol == std::ldexp(1.0, fp32 ? -16 : -11));
      CHECK(cfg.tile_m == v.tile_m);
      CHECK(cfg.tile_n == v.tile_n);
      CHECK(cfg.seed == 1234u);
    }
  }
}

TEST_CASE("every step from 03 on plants at least two bugs, each with a launch, a check and a line of --list-bugs") {
  int with_bugs = 0;
  for (tut::Step const* s : tut::all_steps()) {
    INFO(s->name);
    for (auto const& b : s->bugs) {
      CHECK(b.launch != nullptr);
      CHECK(b.id > 0);
      CHECK(&tut::find_bug(*s, b.name) == &b);
      std::string const list = tut::bug_list(*s);
      CHECK(list.find(b.name + ": caught by " + tut::check_name(b.caught_by) + "; run: " + s->name + " --bug " +
                      b.name) != std::string::npos);
      // A bug that only the SASS shows must take a class out of it, which the step must declare.
      if (b.caught_by == tut::Check::sass) CHECK_FALSE(s->sass.empty());
    }
    if (s->name >= "step03") {
      CHECK(s->bugs.size() >= 2);
      ++with_bugs;
    }
    CHECK_FALSE(s->sass.empty());
    CHECK_THROWS_AS(tut::find_bug(*s, "no_such_bug"), tut::UsageError);
  }
  CHECK(with_bugs >= 6);
}

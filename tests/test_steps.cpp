// The contract every registered step keeps: what it declares to the harness (convention, sizes, input
// type, variants) agrees with its own layouts and with its add_tutorial_step() registration, and the
// host partition behind the printout and the owner test stores every C entry exactly once.
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "catch.hpp"
#include "tut/owner.hpp"
#include "tut/pictures.hpp"
#include "tut/steps.hpp"

namespace {

// The size class a step's multiple_of declares, as add_tutorial_step() names it.
std::string size_class(tut::Step const& s) {
  tut::Problem const& q = s.multiple_of;
  if (q.m == 1 && q.n == 1) return q.k == 1 ? "ANY" : "ANY_MN";
  return "TILE_MULTIPLES";
}

// Problems a step runs: ragged ones for a step of any size (any M and N), tile multiples for the others.
std::vector<tut::Problem> problems_for(tut::Step const& s) {
  tut::Problem const& q = s.multiple_of;
  if (q.m == 1 && q.n == 1)
    return {{1, 1, q.k}, {200, 150, 20 * q.k}, {129, 257, 9 * q.k}, {300, 7, 33 * q.k}, {256, 128, 64 * q.k}};
  return {{q.m, q.n, q.k}, {2 * q.m, q.n, 4 * q.k}, {3 * q.m, 2 * q.n, q.k}};
}

}  // namespace

TEST_CASE("every step is registered once, with the properties it declares", "[steps]") {
  auto const& steps = tut::all_steps();
  REQUIRE(steps.size() >= 3);
  std::set<std::string> names;
  for (auto const& r : steps) {
    tut::Step const& s = *r.step;
    CAPTURE(s.name);
    CHECK(names.insert(s.name).second);
    CHECK(s.name.rfind("step", 0) == 0);
    CHECK(std::string(r.input) == (s.in_type == tut::DType::f16 ? "f16" : "f32"));
    CHECK(r.min_cc == s.min_cc);
    std::string const sizes = size_class(s);
    CHECK(std::string(r.sizes) == sizes);
    CHECK(tut::unsupported(s, s.defaults).empty());
    if (sizes == "TILE_MULTIPLES") {
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
      CHECK_FALSE(s.lifted_by.empty());
      CHECK(why.find(s.lifted_by) != std::string::npos);
    } else if (sizes == "ANY_MN") {
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
    tut::Step const& s = *r.step;
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
    tut::Step const& s = *r.step;
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
        auto const owners = v.owners(p);
        REQUIRE(owners.size() == std::size_t(p.m * p.n));
        auto const gx = tut::grid_of(v, p).first;
        std::size_t bad = 0;
        for (std::int64_t m = 0; m < p.m; ++m)
          for (std::int64_t n = 0; n < p.n; ++n) {
            std::uint32_t const id = owners[std::size_t(m * p.n + n)];
            if (id == tut::kNoOwner || id == tut::kManyOwners) {
              ++bad;
              continue;
            }
            // The owner's CTA is the one whose tile holds (m,n).
            std::uint32_t const cta = id / std::uint32_t(v.threads);
            if (std::int64_t(cta % gx) != m / v.tile_m || std::int64_t(cta / gx) != n / v.tile_n) ++bad;
          }
        CHECK(bad == 0);
      }
    }
  }
}

TEST_CASE("every variant prints its partitions for its defaults and for an edge CTA", "[steps]") {
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r.step;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(s.name, v.name);
      tut::Options o;
      o.problem = s.defaults;
      o.variant = v.name;
      std::ostringstream os;
      v.trace(os, o);
      CHECK(os.str().find("== 3. Partitions") != std::string::npos);
      CHECK(os.str().find("== 4. What is new") != std::string::npos);
      auto const [gx, gy] = tut::grid_of(v, o.problem);
      o.block_x = gx - 1;
      o.block_y = gy - 1;
      o.thread = v.threads - 1;
      std::ostringstream edge;
      v.trace(edge, o);
      CHECK(edge.str().find("CTA (" + std::to_string(gx - 1) + "," + std::to_string(gy - 1) + ")") != std::string::npos);
    }
  }
}

TEST_CASE("every variant draws its pictures: the generic ones, its own, and the C-tile page", "[steps]") {
  namespace fs = std::filesystem;
  fs::path const root = fs::temp_directory_path() / ("tut_pictures_" + std::to_string(::getpid()));
  for (auto const& r : tut::all_steps()) {
    tut::Step const& s = *r.step;
    for (tut::Variant const& v : s.variants) {
      CAPTURE(s.name, v.name);
      REQUIRE(v.pictures != nullptr);
      tut::Options o;
      o.problem = s.defaults;
      o.variant = v.name;
      o.svg_dir = (root / (s.name + "_" + v.name)).string();
      o.html_file = o.svg_dir + "/page.html";
      tut::make_dir(o.svg_dir);
      v.pictures(o, tut::strides_of(s.convention, o.problem), s.name);
      if (v.extra_svg) v.extra_svg(o, o.svg_dir);
      for (char const* f : {"ownership.svg", "thread.svg", "grid.svg", "page.html"}) {
        CAPTURE(f);
        CHECK(fs::file_size(fs::path(o.svg_dir) / f) > 500);
      }
      if (v.extra_svg) CHECK(fs::exists(fs::path(o.svg_dir) / "banks_load.svg"));
    }
  }
  fs::remove_all(root);
}

// Host tests of the harness: size rules, the declared operand convention, variants, device memory, the
// TUT_REQUIRE_GPU switch, and the owner ids.
#include <cstdlib>
#include <string>

#include "catch.hpp"
#include "tut/harness.hpp"
#include "tut/owner.hpp"
#include "tut/status.hpp"

namespace {

tut::Step make_step() {
  tut::Step s;
  s.name = "stepXX_test";
  s.in_type = tut::DType::f32;
  s.defaults = {256, 128, 32};
  tut::Variant v;
  v.name = "default";
  v.threads = 256;
  v.tile_m = 128;
  v.tile_n = 64;
  v.tile_k = 8;
  s.variants = {v};
  return s;
}

}  // namespace

TEST_CASE("strides_of follows the declared convention", "[harness]") {
  tut::Problem const p{300, 200, 50};
  auto mn = tut::strides_of({tut::Major::mn, tut::Major::mn, tut::Order::row}, p);
  CHECK(mn == tut::OperandStrides{1, 300, 1, 200, 200, 1});
  auto k = tut::strides_of({tut::Major::k, tut::Major::k, tut::Order::col}, p);
  CHECK(k == tut::OperandStrides{50, 1, 50, 1, 1, 300});
  CHECK_FALSE(mn == k);
  CHECK(tut::major_name(tut::Major::mn, 'M') == "M-major");
  CHECK(tut::major_name(tut::Major::k, 'N') == "K-major");
  CHECK(tut::order_name(tut::Order::row) == "row-major");
}

TEST_CASE("a step's size rule: multiples it needs, and which step runs the rest", "[harness]") {
  tut::Step s = make_step();
  CHECK(tut::unsupported(s, {1, 1, 1}).empty());
  s.multiple_of = {128, 128, 8};
  s.lifted_by = "stepYY_any";
  CHECK(tut::unsupported(s, {256, 128, 32}).empty());
  for (tut::Problem p : {tut::Problem{100, 128, 32}, tut::Problem{256, 129, 32}, tut::Problem{256, 128, 12}}) {
    std::string const why = tut::unsupported(s, p);
    CAPTURE(p.m, p.n, p.k, why);
    CHECK(why.find("multiples of 128") != std::string::npos);
    CHECK(why.find("K a multiple of 8") != std::string::npos);
    CHECK(why.find("stepYY_any handles any size") != std::string::npos);
  }
  s.multiple_of = {1, 1, 8};
  s.lifted_by = "";
  CHECK(tut::unsupported(s, {7, 9, 16}).empty());
  CHECK(tut::unsupported(s, {7, 9, 12}) == "stepXX_test needs K to be a multiple of 8 (got M=7 N=9 K=12)");
}

TEST_CASE("validate: the variant's threads and grid bound --thread and --block", "[harness]") {
  tut::Step s = make_step();
  tut::Options o;
  o.problem = {200, 100, 9};
  CHECK_NOTHROW(tut::validate(s, o));
  CHECK(tut::grid_of(s.variants[0], o.problem) == std::pair<std::int64_t, std::int64_t>{2, 2});
  o.thread = 256;
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.thread = 255;
  o.block_x = 2;
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.block_x = 1;
  o.block_y = 1;
  CHECK_NOTHROW(tut::validate(s, o));
  o.variant = "nope";
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
  o.variant = "default";
  CHECK(&tut::find_variant(s, "") == &s.variants[0]);
  // --owners numbers every thread of the grid below 2^24.
  o.owners = true;
  CHECK_NOTHROW(tut::validate(s, o));
  o.problem = {16384, 32768, 1};  // 128 x 512 CTAs x 256 threads = 2^24 ids, 0..2^24-1: fits
  CHECK_NOTHROW(tut::validate(s, o));
  o.problem = {16384, 32768 + 64, 1};  // 128 x 513 CTAs: past 2^24
  CHECK_THROWS_AS(tut::validate(s, o), tut::UsageError);
}

TEST_CASE("a problem larger than the GPU's free memory is bad usage", "[harness]") {
  tut::Step s = make_step();
  tut::DeviceInfo dev;
  dev.usable = true;
  dev.name = "test GPU";
  dev.free_bytes = std::size_t(1) << 30;                                                      // 1 GiB free
  CHECK_NOTHROW(tut::check_device_memory(s, {8192, 8192, 4096}, dev));                        // 128+128+256 MiB
  CHECK_THROWS_AS(tut::check_device_memory(s, {16384, 16384, 4096}, dev), tut::UsageError);   // C alone 1 GiB
  s.in_type = tut::DType::f16;                                                                // half the bytes
  CHECK_NOTHROW(tut::check_device_memory(s, {8192, 8192, 8192}, dev));
  CHECK_THROWS_AS(tut::check_device_memory(s, {8192, 8192, 32768}, dev), tut::UsageError);  // A, B 512 MiB each
}

TEST_CASE("TUT_REQUIRE_GPU turns a missing GPU into a failure", "[harness]") {
  unsetenv("TUT_REQUIRE_GPU");
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "0", 1);
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "", 1);
  CHECK_FALSE(tut::require_gpu());
  setenv("TUT_REQUIRE_GPU", "1", 1);
  CHECK(tut::require_gpu());
  unsetenv("TUT_REQUIRE_GPU");
}

TEST_CASE("owner ids number every thread of the grid once", "[harness]") {
  std::uint32_t const gx = 3, gy = 2, threads = 5;
  std::uint32_t expect = 0;
  for (std::uint32_t y = 0; y < gy; ++y)
    for (std::uint32_t x = 0; x < gx; ++x)
      for (std::uint32_t t = 0; t < threads; ++t) {
        std::uint32_t const id = tut::owner_id(t, x, y, gx, threads);
        REQUIRE(id == expect++);  // dense, in (y, x, t) order
        REQUIRE(id % threads == t);
        REQUIRE(id / threads % gx == x);
        REQUIRE(id / threads / gx == y);
      }
}

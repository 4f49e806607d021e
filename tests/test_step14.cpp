// Host tests of step 14: one kernel template, two schedules, four configurations, and the launch's choice
// among them. Each configuration's ring, accumulators, partitions and epilogue subtiles are checked as
// steps 12 and 13 check theirs (gemm_checks.hpp); the protocols of the two schedules are steps 12's and
// 13's, modelled there. What is new is the choice: choose() is checked against the persistent schedule
// itself (the busiest CTA's visits, counted CTA by CTA) and against an exhaustive argmin, at random shapes.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step14_dispatch.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"

using namespace cute;
using step14::Default;
using step14::Pingpong;
using step14::Small;
using gemm_checks::busiest_visits;
using gemm_checks::has;
using tut::plain;

namespace {

std::string trace_of(tut::Problem p, std::string const& variant = "") {
  return gemm_checks::trace_of(step14::step(), p, variant);
}

template <class Cfg>
void check_configuration() {
  gemm_checks::check_group_configuration<Cfg, step14::kEpiN, step14::kEpiBuffers>(
      [](auto, auto&& t) { return step14::by_subtile<Cfg::kSubtiles>(t); });
}

}  // namespace

TEST_CASE("each configuration: the ring, the accumulators, the partitions, the epilogue's subtiles", "[step14]") {
  check_configuration<Default>();
  check_configuration<Pingpong>();
  check_configuration<Small>();
  CHECK(plain(typename Default::TiledMma::AtomShape_MNK{}) == "(64,256,16)");
  CHECK(plain(typename Pingpong::TiledMma::AtomShape_MNK{}) == "(64,128,16)");
  CHECK(Default::kGroups == 1);
  CHECK(Pingpong::kGroups == 2);
  CHECK(Small::kGroups == 2);
}

TEST_CASE("smem: each configuration's ring, its groups' C buffers and the barriers, within 227 KB", "[step14]") {
  CHECK(Default::kSmemBytes == 214016);
  CHECK(Pingpong::kSmemBytes == 230400);
  CHECK(Small::kSmemBytes == 214016);
  tut::HostSmem<Default> smem;
  Tensor sC = smem.sC();
  CHECK(plain(shape(sC)) == "((8,16),(16,1),(1,2))");  // two buffers: one group
  tut::HostSmem<Pingpong> pp;
  CHECK(plain(shape(pp.sC())) == "((8,16),(16,1),(1,4))");  // two per group
}

TEST_CASE("the choice: the busiest CTA's tiles are the schedule's, and choose() takes the least time", "[step14]") {
  std::mt19937 gen(std::random_device{}());
  std::uniform_int_distribution<int> size(1, 9000);
  for (int trial = 0; trial < 300; ++trial) {
    tut::Problem const p{size(gen), size(gen), 8 * (size(gen) % 1024 + 1)};
    std::int64_t const work[] = {busiest_visits<Default>(p) * 128 * 256, busiest_visits<Pingpong>(p) * 128 * 128,
                                 busiest_visits<Small>(p) * 64 * 128};
    CHECK(work[0] == tut::busiest_cta_work(p.m, p.n, 128, 256, 132));
    CHECK(work[1] == tut::busiest_cta_work(p.m, p.n, 128, 128, 132));
    CHECK(work[2] == tut::busiest_cta_work(p.m, p.n, 64, 128, 132));
    int const c = step14::choose(p);
    REQUIRE(c >= 0);
    REQUIRE(c < 3);
    std::int64_t const* t = step14::kTimePerEntry[p.k % 64 == 0 ? 0 : 1];  // K's rows 128-byte aligned, or not
    for (int i = 0; i < 3; ++i) {
      INFO("M " << p.m << " N " << p.n << " K " << p.k << ": config " << c << " against " << i);
      CHECK(work[c] * t[c] <= work[i] * t[i]);
      if (i < c) CHECK(work[c] * t[c] < work[i] * t[i]);  // ties: the first
    }
  }
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step14]") {
  tut::Step const& s = step14::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  REQUIRE(s.variants.size() == 3);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[1].name == "128x128");
  CHECK(s.variants[2].name == "64x128");
  CHECK(s.variants[0].threads == 256);  // cooperative: the TiledMMA numbers both warpgroups
  CHECK(s.variants[1].threads == 128);  // ping-pong: one warpgroup
  REQUIRE(s.choose);
  for (tut::Problem p : {tut::Problem{300, 600, 512}, tut::Problem{4096, 4096, 4096}, tut::Problem{1024, 1024, 64}})
    CHECK(s.choose(p) == step14::choose(p));
  CHECK(tut::unsupported(s, {1000, 999, 776}).empty());
}

TEST_CASE("the printout: the choice, with each configuration's tiles and busiest CTA", "[step14]") {
  std::string const out = trace_of({4096, 4096, 4096});
  CHECK(has(out, "What is new: the configuration, chosen by the problem's size"));
  CHECK(has(out, "128x256  cooperative  32 x 16 = 512"));
  CHECK(has(out, "4 tiles, 131072"));
  std::string const forced = trace_of({4096, 4096, 4096}, "128x128");
  CHECK(has(forced, "<- choose()'s pick"));
  CHECK(has(forced, "8 tiles, 131072     1.025         134348      <- runs"));
  CHECK(has(forced, "Each consumer warpgroup computes whole tiles of its own"));  // ping-pong's turns
  CHECK_FALSE(has(out, "Each consumer warpgroup computes whole tiles of its own"));
}

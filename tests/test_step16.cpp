// Host tests of step 16: step 15's kernel, whose launch lets the next kernel in the stream start early
// (programmatic dependent launch) where the busiest CTA computes one tile. Each configuration's ring,
// accumulators, partitions and epilogue subtiles are checked as step 15 checks them (gemm_checks.hpp). What
// is new: dependent_launch(), checked against the schedule itself (the busiest CTA's visits, counted CTA by
// CTA) at random shapes and at the sizes where it was measured; the printout of where the kernel waits and
// where each CTA lets the next grid in; the bug no GPU check sees.
#include <cstdint>
#include <random>
#include <string>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step16_pdl.hpp"
#include "tut/printout_sm90.hpp"

using namespace cute;
using step16::Default;
using step16::Mid;
using step16::Narrow;
using step16::Pingpong;
using step16::Small;
using step16::Wide;
using gemm_checks::busiest_visits;
using gemm_checks::has;

namespace {

std::string trace_of(tut::Problem p, std::string const& variant = "") {
  return gemm_checks::trace_of(step16::step(), p, variant);
}

template <class Cfg>
void check_configuration() {
  gemm_checks::check_group_configuration<Cfg, step16::kEpiN, step16::kEpiBuffers>(
      [](auto, auto&& t) { return step16::by_subtile<Cfg::kSubtiles>(t); });
}

// dependent_launch() of one configuration against the busiest CTA's visits, counted CTA by CTA.
template <class Cfg>
void check_dependent(tut::Problem const& p) {
  INFO("M " << p.m << " N " << p.n << " K " << p.k << ", " << tut::config_name<Cfg>());
  CHECK(Cfg::dependent_launch(p) == (busiest_visits<Cfg>(p) == 1));
}

}  // namespace

TEST_CASE("each configuration: step 15's ring, accumulators, partitions and epilogue's subtiles", "[step16]") {
  check_configuration<Default>();
  check_configuration<Wide>();
  check_configuration<Pingpong>();
  check_configuration<Small>();
  check_configuration<Mid>();
  check_configuration<Narrow>();
  CHECK(Default::kSmemBytes == 214016);  // the dependent launch costs no smem
  CHECK(Default::kClusterM == 2);
  CHECK(Pingpong::kGroups == 2);
}

TEST_CASE("dependent_launch(): where the busiest CTA computes one tile", "[step16]") {
  std::mt19937 gen(std::random_device{}());
  std::uniform_int_distribution<int> size(1, 4000);
  for (int trial = 0; trial < 300; ++trial) {
    tut::Problem const p{size(gen), size(gen), 8 * (size(gen) % 512 + 1)};
    check_dependent<Default>(p);
    check_dependent<Wide>(p);
    check_dependent<Pingpong>(p);
    check_dependent<Small>(p);
    check_dependent<Mid>(p);
    check_dependent<Narrow>(p);
  }
  // The sizes the step was measured at (its page): on where the launch was faster with it (1024³, 64x128,
  // 128 tiles; 1536³, 2x128x144, 132), off at 2048³ (level) and 4096³ (5 to 6% slower with it).
  CHECK(step16::choose({1024, 1024, 1024}) == 3);
  CHECK(step16::chosen_launch_dependent({1024, 1024, 1024}));
  CHECK(step16::choose({1536, 1536, 1536}) == 5);
  CHECK(step16::chosen_launch_dependent({1536, 1536, 1536}));
  CHECK_FALSE(step16::chosen_launch_dependent({2048, 2048, 2048}));
  CHECK_FALSE(step16::chosen_launch_dependent({4096, 4096, 4096}));
  CHECK_FALSE(step16::chosen_launch_dependent({8192, 8192, 8192}));
  // One tile past 132 per CTA: 133 tiles of 64x128 put two on CTA 0.
  CHECK(Small::dependent_launch({64 * 132, 128, 64}));
  CHECK_FALSE(Small::dependent_launch({64 * 133, 128, 64}));
  // In clusters the tile-rows count up to pairs: 3 x 44 tiles of 128x144 are 4 x 44 = 176 in the schedule.
  CHECK(Narrow::dependent_launch({256, 144 * 66, 64}));
  CHECK_FALSE(Narrow::dependent_launch({384, 144 * 44, 64}));
}

TEST_CASE("sizes, GPUs and the bugs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step16]") {
  tut::Step const& s = step16::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  REQUIRE(s.variants.size() == 6);
  CHECK(s.variants[0].name == "2x128x256");
  CHECK(s.variants[5].name == "2x128x144");
  REQUIRE(s.choose);
  for (tut::Problem p : {tut::Problem{300, 600, 512}, tut::Problem{4096, 4096, 4096}, tut::Problem{1024, 1024, 64}})
    CHECK(s.choose(p) == step16::choose(p));
  REQUIRE(s.bugs.size() == 2);
  CHECK(s.bugs[0].name == "no_grid_wait");
  CHECK(s.bugs[0].caught_by == tut::Check::sass);
  CHECK(s.bugs[1].name == "no_trigger");
  CHECK(s.bugs[1].caught_by == tut::Check::sass);
  bool wait = false, trigger = false;
  for (auto const& c : s.sass) {
    wait = wait || std::string(c.pattern) == "ACQBULK";
    trigger = trigger || std::string(c.pattern) == "PREEXIT";
  }
  CHECK(wait);
  CHECK(trigger);
}

TEST_CASE("the printout: whether the launch is dependent, where the kernel waits, when each CTA lets the next in",
          "[step16]") {
  // 1536³: 2x128x144, one tile per CTA; CTA 0's tile (0,0) is its only one, after which it lets the next in.
  std::string const small = trace_of({1536, 1536, 1536});
  CHECK(has(small, "What is new: the next kernel's CTAs start while this one's last tiles finish"));
  CHECK(has(small, "dependent: the next kernel may start early"));
  CHECK(has(small, "busiest CTA: 1 tile; dependent_launch()"));
  CHECK(has(small, "cudaLaunchAttributeProgrammaticStreamSerialization  = 1, tut/launch.cuh"));
  CHECK(has(small, "griddepcontrol.wait, in every thread"));
  CHECK(has(small, "trigger    griddepcontrol.launch_dependents, visit 0"));
  CHECK(has(small, "launches when all 132 CTAs have triggered"));
  // 4096³: ping-pong 128x128, 8 tiles on CTA 0; each group triggers after its last tile's mainloop.
  std::string const large = trace_of({4096, 4096, 4096}, "128x128");
  CHECK(has(large, "in stream order: after this one ends"));
  CHECK(has(large, "busiest CTA: 8 tiles, not 1"));
  CHECK(has(large, "launches once all 132 CTAs have exited"));
  CHECK_FALSE(has(large, "cudaLaunchAttributeProgrammaticStreamSerialization"));
  CHECK(has(large, "trigger 0  griddepcontrol.launch_dependents, visit 6"));
  CHECK(has(large, "trigger 1  griddepcontrol.launch_dependents, visit 7"));
}

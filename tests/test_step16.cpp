// Host tests of step 16: step 15's kernel, every launch of which lets the next kernel in the stream start
// early (programmatic dependent launch). Each configuration's ring, accumulators, partitions and epilogue
// subtiles are checked as step 15 checks them (gemm_checks.hpp). What is new lives in the kernel: every
// kernel in this binary's own SASS waits for the grid before it (griddepcontrol.wait, ACQBULK) and gives no
// trigger (griddepcontrol.launch_dependents, PREEXIT); the printout of where the kernel waits and when the
// next grid launches; the bugs no GPU check sees.
#include <algorithm>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step16_pdl.hpp"
#include "tut/sass.hpp"

using namespace cute;
using step16::Default;
using step16::Mid;
using step16::Narrow;
using step16::Pingpong;
using step16::PingpongWide;
using step16::Small;
using step16::Wide;
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

// Step 16's kernels in this binary's SASS, read once (cuobjdump): the step's library, which the test links,
// compiles every configuration's launch and the planted bugs'. Stress builds are left out.
std::vector<tut::SassKernel> const& own_kernels() {
  static std::vector<tut::SassKernel> const kernels = [] {
    std::vector<tut::SassKernel> out;
    for (auto& k : tut::read_sass(std::filesystem::read_symlink("/proc/self/exe").string()))  // this binary
      if (k.name.find("6step1611gemm_kernel") != std::string::npos && !k.stress) out.push_back(k);
    return out;
  }();
  return kernels;
}

// How many of them have bug \p bug (0: as written).
long kernels_with(int bug) {
  auto const& k = own_kernels();
  return std::count_if(k.begin(), k.end(), [&](tut::SassKernel const& x) { return x.bug == bug; });
}

}  // namespace

TEST_CASE("each configuration: step 15's ring, accumulators, partitions and epilogue's subtiles", "[step16]") {
  check_configuration<Default>();
  check_configuration<Wide>();
  check_configuration<Pingpong>();
  check_configuration<Small>();
  check_configuration<Mid>();
  check_configuration<Narrow>();
  check_configuration<PingpongWide>();
  CHECK(Default::kSmemBytes == 214016);  // the dependent launch costs no smem
  CHECK(Default::kClusterM == 2);
  CHECK(Pingpong::kGroups == 2);
}

TEST_CASE("the kernels in this binary wait for the grid before them, and give no trigger", "[step16]") {
  // Every configuration's kernel as written: griddepcontrol.wait (ACQBULK) in each, no
  // griddepcontrol.launch_dependents (PREEXIT) in any.
  REQUIRE(kernels_with(0) >= long(std::tuple_size_v<step16::Variants>));
  for (auto const& k : own_kernels()) {
    if (k.bug != 0) continue;
    INFO(k.name);
    CHECK(tut::sass_count({k}, "ACQBULK") >= 1);
    CHECK(tut::sass_count({k}, "PREEXIT") == 0);
  }
  // The planted bugs: no_grid_wait has no ACQBULK; early_trigger has a PREEXIT.
  int const no_wait = int(step16::Bug::no_grid_wait), early = int(step16::Bug::early_trigger);
  REQUIRE(kernels_with(no_wait) > 0);
  CHECK(tut::sass_count(own_kernels(), "ACQBULK", no_wait) == 0);
  REQUIRE(kernels_with(early) > 0);
  CHECK(tut::sass_count(own_kernels(), "PREEXIT", early) >= 1);
}

TEST_CASE("sizes, GPUs and the bugs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step16]") {
  tut::Step const& s = step16::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  REQUIRE(s.variants.size() == 7);
  CHECK(s.variants[0].name == "2x128x256");
  CHECK(s.variants[5].name == "2x128x144");
  CHECK(s.variants[6].name == "128x176");
  REQUIRE(s.choose);
  for (tut::Problem p : {tut::Problem{300, 600, 512}, tut::Problem{4096, 4096, 4096}, tut::Problem{1024, 1024, 64}})
    CHECK(s.choose(p) == step16::choose(p));
  REQUIRE(s.bugs.size() == 2);
  CHECK(s.bugs[0].name == "no_grid_wait");
  CHECK(s.bugs[0].caught_by == tut::Check::sass);
  CHECK(s.bugs[1].name == "early_trigger");
  CHECK(s.bugs[1].caught_by == tut::Check::sass);
  // The SASS test's classes: the wait, which must be there, and the trigger, which must not.
  int wait = 0, trigger = 0;
  for (auto const& c : s.sass) {
    if (std::string(c.pattern) == "ACQBULK") wait += c.absent ? -1 : 1;
    if (std::string(c.pattern) == "PREEXIT") trigger += c.absent ? 1 : -1;
  }
  CHECK(wait == 1);
  CHECK(trigger == 1);
}

TEST_CASE("the printout: the launch is dependent, where the kernel waits, when the next grid launches", "[step16]") {
  // 1536³: 128x176 ping-pong, 108 tiles on 108 CTAs; CTA 0's tile (0,0) is its only one.
  std::string const small = trace_of({1536, 1536, 1536});
  CHECK(has(small, "What is new: the next kernel's CTAs start before this one completes"));
  CHECK(has(small, "dependent: the next kernel may start early"));
  CHECK(has(small, "cudaLaunchAttributeProgrammaticStreamSerialization  = 1, tut/launch.cuh"));
  CHECK(has(small, "griddepcontrol.wait, in every thread"));
  CHECK(has(small, "none (no griddepcontrol.launch_dependents)"));
  CHECK(has(small, "exit       CTA 0: after the epilogue of visit 0"));
  CHECK(has(small, "its last tile, (0,0)"));
  CHECK(has(small, "launches once all 108 CTAs have exited"));
  // 4096³ in ping-pong 128x128: 1024 tiles, 8 on CTA 0, the last of them visit 7; dependent too.
  std::string const large = trace_of({4096, 4096, 4096}, "128x128");
  CHECK(has(large, "dependent: the next kernel may start early"));
  CHECK(has(large, "CTA 0: after the epilogue of visit 7"));
  CHECK(has(large, "launches once all 132 CTAs have exited"));
}

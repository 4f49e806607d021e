// Host tests of step 09: the GMMA smem atom against the 128-byte swizzle the TMA unit writes and wgmma
// reads, the TMA boxes and the bytes each barrier expects, the accumulators and the warpgroups'
// partitions, the epilogue, the pipeline's barrier phases against the PTX ISA's mbarrier parity rule,
// the epilogue's masks, and the sizes and GPUs it runs on.
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step09_tma.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/pipe_schedule.hpp"

using namespace cute;
using step09::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step09::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step09::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle TMA writes and wgmma reads, stage by stage", "[step09]") {
  for_each_config([](auto cfg) { gemm_checks::check_sw128_ring<decltype(cfg)>(); });
  CHECK(plain(step09::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the TMA boxes: one per operand and k-tile, a whole stage, and the bytes its barrier expects", "[step09]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler tiler;
    int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
    // The box of A is one stage of sA: BLK_M x BLK_K halves; B's, BLK_N x BLK_K.
    CHECK(int(size(typename Cfg::SmemLayoutA{}(_, _, 0))) == bm * bk);
    CHECK(int(size(typename Cfg::SmemLayoutB{}(_, _, 0))) == bn * bk);
    CHECK(Cfg::kStageBytesA == bm * bk * 2);
    CHECK(Cfg::kStageBytesB == bn * bk * 2);
    CHECK(Cfg::kStageBytes == Cfg::kStageBytesA + Cfg::kStageBytesB);
    // A box is at most 256 elements along each dimension; its inner extent, 128 bytes, is the swizzle's.
    CHECK(bm <= 256);
    CHECK(bn <= 256);
    CHECK(bk * 2 == 128);
  });
  // The bytes: 16 KB of A and 32 KB of B per k-tile, and per barrier phase.
  CHECK(Default::kStageBytes == 49152);
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step09]") {
  for_each_config([](auto cfg) { gemm_checks::check_wgmma_accumulators<decltype(cfg)>(); });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step09]") {
  for_each_config([](auto cfg) { gemm_checks::check_warpgroup_partitions<decltype(cfg)>(); });
}

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step09]") {
  for_each_config([](auto cfg) { gemm_checks::check_epilogue_through_smem<decltype(cfg)>(); });
}

TEST_CASE("the pipeline: every k-tile loaded once, waited for at the parity that completes when it lands", "[step09]") {
  auto check = [](auto stages_constant, int k_tiles) {
    constexpr int S = decltype(stages_constant)::value;
    constexpr int AHEAD = step09::copies_ahead<S>();
    CAPTURE(S, k_tiles);
    CHECK(AHEAD == S - 1 - step09::kWgmmaInFlight);
    auto const schedule =
        tut::pipe_schedule<step09::PipeState<S>>(k_tiles, S, {step09::copies_ahead<S>(), -1, step09::kWgmmaInFlight});
    REQUIRE(int(schedule.size()) == AHEAD + k_tiles);
    std::vector<int> holds(S, -1);   // the k-tile each stage's last TMA brings
    std::vector<int> fills(S, 0);    // TMA copies issued into each stage: phases its barrier will complete
    std::vector<int> filled(std::size_t(k_tiles), 0);
    std::vector<bool> read(std::size_t(k_tiles), false);
    int done = 0;  // batches 0..done-1 are finished
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      auto const& p = schedule[i];
      CAPTURE(i, p.k_tile, p.read_stage, p.parity, p.fill_k_tile, p.fill_stage);
      // The fill (after the barrier): its stage holds no k-tile a batch may still read, nor one unread.
      int const old = holds[std::size_t(p.fill_stage)];
      if (old >= 0 && p.fill_k_tile >= 0) {
        REQUIRE(read[std::size_t(old)]);
        REQUIRE(old < done);
      }
      if (p.fill_k_tile >= 0) {
        REQUIRE(p.fill_k_tile < k_tiles);
        ++filled[std::size_t(p.fill_k_tile)];
        holds[std::size_t(p.fill_stage)] = p.fill_k_tile;
        ++fills[std::size_t(p.fill_stage)];
      }
      if (p.k_tile < 0) continue;
      REQUIRE(p.read_stage == p.k_tile % S);
      REQUIRE(holds[std::size_t(p.read_stage)] == p.k_tile);
      REQUIRE(p.lap == p.k_tile / S);
      // The PTX ISA's rule: wait(bar, parity) returns once the phase of that parity has completed, i.e.
      // while the barrier's current phase (the number of phases completed, mod 2) differs from it. Phase
      // f of full[s] completes when the stage's f-th TMA copy (counting from 0) has landed.
      int const f = fills[std::size_t(p.read_stage)] - 1;  // this k-tile's copy is the stage's f-th
      REQUIRE(f == p.lap);
      auto passes = [&](int completed) { return std::uint32_t(completed % 2) != p.parity; };
      CHECK(passes(f + 1));   // its bytes landed: the wait returns ...
      CHECK(!passes(f));      // ... and not a moment before
      read[std::size_t(p.k_tile)] = true;
      REQUIRE(p.running == p.k_tile);
      done = p.k_tile + 1 - step09::kWgmmaInFlight;  // warpgroup_wait<kWgmmaInFlight>
    }
    for (int n : filled) REQUIRE(n == 1);
    for (bool r : read) REQUIRE(r);
  };
  for (int k_tiles : {1, 2, 3, 4, 5, 8, 13}) {
    check(Int<3>{}, k_tiles);
    check(Int<Default::kStages>{}, k_tiles);
    check(Int<5>{}, k_tiles);
  }
}

TEST_CASE("the epilogue's masks at every coordinate of ragged problems: each entry of C stored once", "[step09]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 600}, {1, 1}, {7, 13}, {131, 260}, {300, 301}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) { gemm_checks::check_epilogue_masks<decltype(cfg)>(step09::make_layout_C(M, N)); });
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step09]") {
  tut::Step const& s = step09::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.m == 1);
  CHECK(s.multiple_of.n == 1);
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step09_tma needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);
  CHECK(s.variants[0].tile_m == 128);
  CHECK(s.variants[0].tile_n == 256);
  CHECK(s.variants[0].tile_k == 64);
}

TEST_CASE("smem: four stages of 48 KB, with the C tile in the same bytes, and the barriers", "[step09]") {
  CHECK(Default::kStageBytes == (128 + 256) * 64 * 2);
  CHECK(Default::kSmemBytes == 4 * Default::kStageBytes + 1024);  // the 4 mbarriers, padded to 1 KB
  tut::HostSmem<Default> smem;
  CHECK(smem.offset(&smem.storage->full[0]) == 4 * Default::kStageBytes);  // after the ring, outside the union
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Default::kSmemBytes >= 128 * 256 * 4);  // the C tile fits in the ring's bytes
  CHECK(Default::kSmemBytes <= 227 * 1024);
  CHECK(step09::copies_ahead<Default::kStages>() == 2);
}

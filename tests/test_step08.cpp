// Host tests of step 08: the GMMA smem atom against the 128-byte swizzle wgmma defines, the cp.async
// partition of every stage, the accumulators' TV layout against the PTX ISA's wgmma fragment, the
// warpgroups' partitions of A, B and C, the epilogue (step 07's, now fed by wgmma's fragment), the
// pipeline's schedule with one wgmma batch left running, the masks, and the sizes and GPUs it runs on.
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
#include "step08_wgmma.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/pipe_schedule.hpp"

using namespace cute;
using step08::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step08::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step08::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle wgmma reads, stage by stage, cp.async chunks whole", "[step08]") {
  for_each_config([](auto cfg) { gemm_checks::check_sw128_ring<decltype(cfg)>(); });
  CHECK(plain(step08::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the cp.async partition covers every stage once, in 16-byte chunks on both sides", "[step08]") {
  for_each_config([](auto cfg) { gemm_checks::check_cp_async_partition<decltype(cfg)>(); });
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step08]") {
  for_each_config([](auto cfg) { gemm_checks::check_wgmma_accumulators<decltype(cfg)>(); });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step08]") {
  for_each_config([](auto cfg) { gemm_checks::check_warpgroup_partitions<decltype(cfg)>(); });
}

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step08]") {
  for_each_config([](auto cfg) { gemm_checks::check_epilogue_through_smem<decltype(cfg)>(); });
}

TEST_CASE("the pipeline: every k-tile filled once, read after it landed, never refilled under a running batch", "[step08]") {
  auto check = [](auto stages_constant, int k_tiles) {
    constexpr int S = decltype(stages_constant)::value;
    constexpr int AHEAD = step08::copies_ahead<S>();
    CAPTURE(S, k_tiles);
    CHECK(AHEAD == S - 1 - step08::kWgmmaInFlight);
    auto const schedule = tut::pipe_schedule<step08::PipeState<S>>(
        k_tiles, S, {step08::copies_ahead<S>(), step08::groups_in_flight<S>(), step08::kWgmmaInFlight});
    REQUIRE(int(schedule.size()) == AHEAD + k_tiles);
    std::vector<int> holds(S, -1);      // the k-tile each stage holds
    std::vector<int> filled(std::size_t(k_tiles), 0);
    std::vector<bool> read(std::size_t(k_tiles), false);
    int done = 0;  // batches 0..done-1 are finished (warpgroup_wait<kWgmmaInFlight> at the end of an iteration)
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      auto const& p = schedule[i];
      CAPTURE(i, p.k_tile, p.read_stage, p.fill_k_tile, p.fill_stage);
      REQUIRE(p.committed == int(i) + 1);  // one group per iteration, empty or not
      if (p.k_tile >= 0) {
        // The wait at the top: committed-1 groups before it, groups_in_flight left: k-tile t has landed.
        int const landed = p.committed - 1 - step08::groups_in_flight<S>();
        REQUIRE(landed > p.k_tile);
        REQUIRE(p.read_stage == p.k_tile % S);
      }
      // The fill (after the barrier): its stage holds no k-tile a batch may still read. A batch reads from
      // its issue until the warpgroup_wait that retires it; batches done..k_tile-1 may still run.
      int const old = holds[std::size_t(p.fill_stage)];
      if (old >= 0) {
        REQUIRE(read[std::size_t(old)]);
        REQUIRE(old < done);
      }
      if (p.k_tile >= 0) REQUIRE(p.fill_stage != p.read_stage);
      if (p.fill_k_tile >= 0) {
        REQUIRE(p.fill_k_tile < k_tiles);
        ++filled[std::size_t(p.fill_k_tile)];
        holds[std::size_t(p.fill_stage)] = p.fill_k_tile;
      }
      if (p.k_tile >= 0) {
        REQUIRE(holds[std::size_t(p.read_stage)] == p.k_tile);  // its bytes, not overwritten since
        read[std::size_t(p.k_tile)] = true;
        REQUIRE(p.running == p.k_tile);
        done = p.k_tile + 1 - step08::kWgmmaInFlight;           // warpgroup_wait<kWgmmaInFlight>
      }
    }
    for (int f : filled) REQUIRE(f == 1);
    for (bool r : read) REQUIRE(r);
  };
  for (int k_tiles : {1, 2, 3, 4, 5, 8, 13}) {
    check(Int<3>{}, k_tiles);
    check(Int<Default::kStages>{}, k_tiles);
    check(Int<5>{}, k_tiles);
  }
}

TEST_CASE("the masks hold at every coordinate of ragged problems, copies and epilogue", "[step08]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{300, 200, 200},  // the default
                                                  {1, 1, 8},
                                                  {7, 13, 24},
                                                  {131, 260, 72}}));
  CAPTURE(M, N, K);
  for_each_config([&](auto cfg) {
    using Cfg = decltype(cfg);
    auto la = step08::make_layout_A(M, K);
    auto lc = step08::make_layout_C(M, N);
    typename Cfg::CtaTiler cta_tiler;
    int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
    int inside_a = 0, stored = 0;
    for (int bx = 0; bx < gx; ++bx)
      for (int by = 0; by < gy; ++by) {
        auto cta_coord = make_coord(bx, by, _);
        Tensor cA = local_tile(make_identity_tensor(shape(la)), cta_tiler, cta_coord, Step<_1, X, _1>{});
        Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, cta_coord, Step<_1, _1, X>{});
        for (int t = 0; t < Cfg::kThreads; ++t) {
          CAPTURE(bx, by, t);
          Tensor tAcA = typename Cfg::TiledCopyA{}.get_slice(t).partition_S(cA);
          Tensor tApA = tut::make_mask(tAcA, shape(la));
          for (int i = 0; i < int(size(tAcA)); ++i) {
            bool const in = int(get<0>(tAcA(i))) < M && int(get<1>(tAcA(i))) < K;
            REQUIRE(bool(tApA(i)) == in);
            inside_a += in;
          }
          Tensor pA = group_modes<1, 4>(tApA);
          for (int j = 0; j < int(size<1>(pA)); ++j)
            for (int e = 1; e < 8; ++e) REQUIRE(bool(pA(e, j)) == bool(pA(0, j)));
          Tensor tDcC = typename Cfg::TiledCopyC{}.get_slice(t).partition_D(cC);
          Tensor tDpC = tut::make_mask(tDcC, shape(lc));
          for (int i = 0; i < int(size(tDcC)); ++i) {
            bool const in = int(get<0>(tDcC(i))) < M && int(get<1>(tDcC(i))) < N;
            REQUIRE(bool(tDpC(i)) == in);
            stored += in;
          }
          // The 128-bit path masks a chunk by its first float: right exactly when N % 4 == 0.
          Tensor pC = group_modes<1, 3>(tDpC);
          bool agree = true;
          for (int j = 0; j < int(size<1>(pC)); ++j)
            for (int e = 1; e < 4; ++e) agree = agree && bool(pC(e, j)) == bool(pC(0, j));
          if (N % 4 == 0) REQUIRE(agree);
        }
      }
    CHECK(inside_a == M * K * gy);  // each CTA column copies all of A once
    CHECK(stored == M * N);         // the epilogue stores every entry of C once
  });
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step08]") {
  tut::Step const& s = step08::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.m == 1);
  CHECK(s.multiple_of.n == 1);
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step08_wgmma needs K to be a multiple of 8 (got M=7 N=13 K=12): each cp.async copies 16 bytes (8 "
        "halves) of a row");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);
  CHECK(s.variants[0].tile_m == 128);
  CHECK(s.variants[0].tile_n == 256);
  CHECK(s.variants[0].tile_k == 64);
}

TEST_CASE("smem: four stages of 48 KB, with the C tile in the same bytes", "[step08]") {
  CHECK(Default::kStageBytes == (128 + 256) * 64 * 2);
  CHECK(Default::kSmemBytes == 4 * Default::kStageBytes);
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Default::kSmemBytes >= 128 * 256 * 4);  // the C tile fits in the ring's bytes
  CHECK(Default::kSmemBytes <= 227 * 1024);
  CHECK(step08::copies_ahead<Default::kStages>() == 2);
  CHECK(step08::groups_in_flight<Default::kStages>() == 1);
}

// Host tests of step 12: both configurations are step 11's kernel, so step 11's checks of the ring, the
// accumulators, the partitions and the epilogue's subtiles run on each; what is new is the rule that
// picks one by problem size. It is checked against the persistent schedule itself (the busiest CTA's
// tiles, counted CTA by CTA), pinned at the sizes the benchmark runs, and followed by the harness (no
// --variant: the rule's choice; --variant: the one named) and the printout.
#include <algorithm>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step12_tile_choice.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"

using namespace cute;
using step12::Default;
using step12::Small;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step12::Variants{});
}

tut::Options options_for(tut::Problem p, std::string variant = "") {
  tut::Options o;
  o.problem = p;
  o.variant = std::move(variant);
  return o;
}

std::string trace_of(tut::Options const& o) {
  std::ostringstream os;
  tut::variant_for(step12::step(), o).trace(os, o);
  return os.str();
}

// The busiest CTA's work under Cfg's persistent schedule, counted the long way: every CTA's visits.
template <class Cfg>
std::int64_t busiest_by_schedule(std::int64_t M, std::int64_t N) {
  int const bm = size<0>(typename Cfg::CtaTiler{}), bn = size<1>(typename Cfg::CtaTiler{});
  tut::TileCoord const t = tut::tile_counts(M, N, bm, bn);
  int most = 0;
  for (int c = 0; c < Cfg::kSchedule.cta_count(t.m, t.n); ++c) most = std::max(most, Cfg::kSchedule.visits(c, t.m, t.n));
  return std::int64_t(most) * bm * bn;
}

}  // namespace

TEST_CASE("both configurations: the 128-byte swizzle ring, the wgmma accumulators, each C entry once", "[step12]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    gemm_checks::check_sw128_ring<Cfg>();
    gemm_checks::check_wgmma_accumulators<Cfg>();
    gemm_checks::check_warpgroup_partitions<Cfg>();
  });
  CHECK(plain(typename Small::SmemLayoutB{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,6)):((64,512),(1,0),(0,8192))");
  CHECK(plain(typename Small::TiledMma::AtomShape_MNK{}) == "(64,128,16)");
}

TEST_CASE("both configurations: every accumulator in its epilogue subtile, each buffer entry once", "[step12]") {
  for_each_config([](auto cfg) {
    gemm_checks::check_epilogue_subtiles<decltype(cfg), step12::kEpiN, step12::kEpiBuffers>(
        [](auto v, auto&& t) { return step12::by_subtile<decltype(v)::value>(t); });
  });
  CHECK(Small::kSubtiles == 4);
  CHECK(Default::kSubtiles == 8);
}

TEST_CASE("the two configurations: the same smem, the same threads; Small does half the math per k-tile", "[step12]") {
  CHECK(Small::kSmemBytes == Default::kSmemBytes);
  CHECK(Small::kSmemBytes == 6 * (128 + 128) * 64 * 2 + 2 * 128 * 32 * 4 + 1024);
  CHECK(Small::kStageBytes == 32768);
  CHECK(Default::kStageBytes == 49152);
  CHECK(Small::kThreads == Default::kThreads);
  CHECK(Small::kSmemBytes <= 227 * 1024);
  // Bytes loaded per flop of a k-tile: 48 KB for 2*128*256*64 flops against 32 KB for half as many.
  CHECK(double(Default::kStageBytes) / (128.0 * 256) < double(Small::kStageBytes) / (128.0 * 128));
  CHECK(std::is_same_v<step12::OtherThan<Default>, Small>);
  CHECK(std::is_same_v<step12::OtherThan<Small>, Default>);
}

TEST_CASE("choose(): the busiest CTA's work, as the persistent schedule hands out the tiles", "[step12]") {
  std::mt19937 rng(12);
  std::uniform_int_distribution<std::int64_t> size(1, 12000);
  std::vector<std::pair<std::int64_t, std::int64_t>> shapes = {
      {1, 1}, {128, 128}, {129, 257}, {512, 512}, {1000, 999}, {1024, 1024}, {2048, 2048}, {2100, 4300},
      {4096, 4096}, {8192, 8192}, {16384, 128}, {128, 16896}};
  for (int i = 0; i < 300; ++i) shapes.push_back({size(rng), size(rng)});
  for (auto [M, N] : shapes) {
    CAPTURE(M, N);
    std::int64_t const big = step12::busiest_cta_work(M, N, 128, 256, Default::kCtas);
    std::int64_t const small = step12::busiest_cta_work(M, N, 128, 128, Small::kCtas);
    REQUIRE(big == busiest_by_schedule<Default>(M, N));   // the model is the schedule's own count
    REQUIRE(small == busiest_by_schedule<Small>(M, N));
    int const c = step12::choose(M, N);
    REQUIRE((c == 0 || c == 1));
    REQUIRE((c == 1) == (small < big));  // Small only when its busiest CTA does strictly less
  }
}

TEST_CASE("choose() at the benchmark's sizes: 128x128 where 128x256 tiles leave SMs idle", "[step12]") {
  CHECK(step12::choose(512, 512) == 1);    //    8 tiles of 128x256 for 132 CTAs; 16 of 128x128
  CHECK(step12::choose(1024, 1024) == 1);  //   32 tiles; 64 of 128x128: half the busiest CTA's work
  CHECK(step12::choose(1000, 999) == 1);   //   32 tiles; 64
  CHECK(step12::choose(2048, 2048) == 0);  //  128 tiles, one per CTA; 256 small ones: two for some CTAs, a tie
  CHECK(step12::choose(4096, 4096) == 0);  //  512 tiles, 4 per CTA; 1024 small ones, 8: a tie
  CHECK(step12::choose(8192, 8192) == 0);  // 2048 tiles, 16 per CTA; a tie again
  CHECK(step12::choose(2100, 4300) == 1);  //  289 tiles: 3 for some CTAs; 578 small ones: 5 (5*1 < 3*2)
  CHECK(step12::busiest_cta_work(1024, 1024, 128, 256, 132) == 128 * 256);
  CHECK(step12::busiest_cta_work(1024, 1024, 128, 128, 132) == 128 * 128);
  CHECK(step12::busiest_cta_work(4096, 4096, 128, 256, 132) == 4 * 128 * 256);
}

TEST_CASE("the harness runs the chosen configuration, unless --variant names one", "[step12]") {
  tut::Step const& s = step12::step();
  REQUIRE(s.variants.size() == 2);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[1].name == "128x128");
  REQUIRE(s.choose);
  CHECK(tut::variant_for(s, options_for({1024, 1024, 1024})).name == "128x128");
  CHECK(tut::variant_for(s, options_for({4096, 4096, 64})).name == "128x256");
  CHECK(tut::variant_for(s, options_for({1024, 1024, 1024}, "128x256")).name == "128x256");
  CHECK(tut::variant_for(s, options_for({4096, 4096, 64}, "128x128")).name == "128x128");
  CHECK_THROWS_AS(tut::variant_for(s, options_for({64, 64, 64}, "64x64")), tut::UsageError);
  // What the owner test and the pictures read off the chosen variant: its tile and its grid.
  tut::Variant const& v = tut::variant_for(s, options_for({1024, 1024, 1024}));
  CHECK(v.tile_m == 128);
  CHECK(v.tile_n == 128);
  CHECK(v.schedule.cta_count(8, 8) == 64);
  for (auto const& var : s.variants) {
    CHECK(var.threads == 256);
    CHECK(var.schedule.kind == tut::Visit::persistent);
    CHECK(var.schedule.ctas == 132);
  }
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step12]") {
  tut::Step const& s = step12::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step12_tile_choice needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  CHECK(tut::unsupported(s, {1000, 999, 776}).empty());
}

TEST_CASE("the printout: both configurations weighed, the chosen one traced", "[step12]") {
  std::string const small = trace_of(options_for({1024, 1024, 1024}));
  auto has = [](std::string const& out, std::string const& text) { return out.find(text) != std::string::npos; };
  CHECK(has(small, "128x256  32 (8 x 4)     32     1 tile of 128x256       32768"));
  CHECK(has(small, "128x128  64 (8 x 8)     64     1 tile of 128x128       16384   <- chosen"));
  CHECK(has(small, "cta_tiler  (128,128,64)"));
  CHECK(has(small, "SM90_64x128x16_F32F16F16_SS<K,K>"));
  CHECK(has(small, "the launch starts min(132, tiles) = 64 CTAs for 64 tiles (8 x 8)"));
  std::string const large = trace_of(options_for({4096, 4096, 256}));
  CHECK(has(large, "128x256  512 (32 x 16)  132    4 tiles of 128x256      131072   <- chosen"));
  CHECK(has(large, "128x128  1024 (32 x 32) 132    8 tiles of 128x128      131072\n"));
  CHECK(has(large, "cta_tiler  (128,256,64)"));
  std::string const forced = trace_of(options_for({1024, 1024, 1024}, "128x256"));
  CHECK(has(forced, "cta_tiler  (128,256,64)"));
  CHECK(has(forced, "<- chosen"));  // the printout still says what the rule would pick
}

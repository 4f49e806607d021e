// Host tests of step 15: step 14's kernel in clusters of two CTAs, and the launch's choice, now of the
// cluster too. Each configuration's ring, accumulators, partitions and epilogue subtiles are checked as
// step 14 checks them (gemm_checks.hpp). What is new: the clusters' schedule (each cluster's CTAs on tiles
// of one column of C, tut/tile_schedule.hpp's test checks it on many shapes), the cooperative tiles' tile
// order and the printout of the cluster; and choose(), checked against the schedule itself (the busiest
// CTA's visits, counted CTA by CTA, padded rows included) and against an exhaustive argmin, at random
// shapes, and at shapes where the run that measured the costs timed every configuration.
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
#include "step15_cluster.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"

using namespace cute;
using step15::Default;
using step15::Mid;
using step15::Narrow;
using step15::Pingpong;
using step15::PingpongWide;
using step15::Small;
using step15::Wide;
using gemm_checks::busiest_visits;
using gemm_checks::has;
using tut::plain;

namespace {

std::string trace_of(tut::Problem p, std::string const& variant = "") {
  return gemm_checks::trace_of(step15::step(), p, variant);
}

template <class Cfg>
void check_configuration() {
  gemm_checks::check_group_configuration<Cfg, step15::kEpiN, step15::kEpiBuffers>(
      [](auto, auto&& t) { return step15::by_subtile<Cfg::kSubtiles>(t); });
}

}  // namespace

TEST_CASE("each configuration: the ring, the accumulators, the partitions, the epilogue's subtiles", "[step15]") {
  check_configuration<Default>();
  check_configuration<Wide>();
  check_configuration<Pingpong>();
  check_configuration<Small>();
  check_configuration<Mid>();
  check_configuration<Narrow>();
  check_configuration<PingpongWide>();
  CHECK(plain(typename Default::TiledMma::AtomShape_MNK{}) == "(64,256,16)");
  CHECK(plain(typename Mid::TiledMma::AtomShape_MNK{}) == "(64,192,16)");
  CHECK(plain(typename Narrow::TiledMma::AtomShape_MNK{}) == "(64,144,16)");
  CHECK(plain(typename Pingpong::TiledMma::AtomShape_MNK{}) == "(64,128,16)");
  CHECK(plain(typename PingpongWide::TiledMma::AtomShape_MNK{}) == "(64,176,16)");
  CHECK(PingpongWide::kSubtiles == 11);  // odd: the epilogue's buffers alternate across a group's tiles
  CHECK(Default::kGroups == 1);
  CHECK(Wide::kGroups == 1);
  CHECK(Pingpong::kGroups == 2);
  CHECK(Small::kGroups == 2);
  CHECK(Mid::kGroups == 1);
  CHECK(Mid::kClusterM == 2);
  CHECK(Narrow::kGroups == 1);
  CHECK(Narrow::kClusterM == 2);
  CHECK(PingpongWide::kGroups == 2);
  CHECK(PingpongWide::kClusterM == 1);
  // The cluster: Default's CTAs in pairs along M, declared by its schedule (which the launch reads).
  CHECK(Default::kClusterM == 2);
  CHECK(Default::kSchedule.cluster_m == 2);
  CHECK(tut::kScheduleOf<Default>.cluster_m == 2);
  CHECK(Wide::kSchedule.cluster_m == 1);
  CHECK(Default::kSchedule.valid());
  CHECK(Default::kCtas % Default::kClusterM == 0);
  // The tile order: the cooperative tiles in groups of 16 tile-rows on balanced CTAs, ping-pong's as step 14's.
  for (tut::TileSchedule s : {Default::kSchedule, Wide::kSchedule, Mid::kSchedule, Narrow::kSchedule})
    CHECK((s.group_m == 16 && s.balanced && s.valid()));
  for (tut::TileSchedule s : {Pingpong::kSchedule, Small::kSchedule, PingpongWide::kSchedule})
    CHECK((s.group_m == 8 && !s.balanced));
  CHECK(Default::kSchedule.cta_count(64, 32) == 128);  // 8192³: 2,048 tiles, 16 for each of 128 CTAs
  CHECK(Pingpong::kSchedule.cta_count(64, 64) == 132);  // 4,096 tiles, 32 for some of 132 CTAs
}

TEST_CASE("smem: each configuration's ring, its groups' C buffers and the barriers, within 227 KB", "[step15]") {
  CHECK(Default::kSmemBytes == 214016);
  CHECK(Wide::kSmemBytes == 214016);  // the cluster costs no smem: the other CTA writes into the same ring
  CHECK(Pingpong::kSmemBytes == 230400);
  CHECK(Small::kSmemBytes == 214016);
  CHECK(Mid::kSmemBytes == 5 * 40960 + 2 * 8192 + 1024);  // 222,208: 5 stages of A's 16 KB and B's 24 KB
  CHECK(Narrow::kSmemBytes == 6 * 34816 + 2 * 8192 + 1024);  // 226,304: 6 stages of A's 16 KB and B's 18 KB
  CHECK(PingpongWide::kSmemBytes == 5 * 38912 + 4 * 8192 + 1024);  // 228,352: A's 16 KB and B's 22 KB; 2 groups
  tut::HostSmem<Default> smem;
  Tensor sC = smem.sC();
  CHECK(plain(shape(sC)) == "((8,16),(16,1),(1,2))");  // two buffers: one group
  tut::HostSmem<Pingpong> pp;
  CHECK(plain(shape(pp.sC())) == "((8,16),(16,1),(1,4))");  // two per group
}

TEST_CASE("the choice: the busiest CTA's tiles are the schedule's, and choose() takes the least time", "[step15]") {
  std::mt19937 gen(std::random_device{}());
  std::uniform_int_distribution<int> size(1, 9000);
  for (int trial = 0; trial < 300; ++trial) {
    tut::Problem const p{size(gen), size(gen), 8 * (size(gen) % 1024 + 1)};
    // The busiest CTA's tiles, counted CTA by CTA through each schedule (padded rows included).
    std::int64_t const tiles[] = {busiest_visits<Default>(p), busiest_visits<Wide>(p), busiest_visits<Pingpong>(p),
                                  busiest_visits<Small>(p), busiest_visits<Mid>(p),
                                  busiest_visits<Narrow>(p), busiest_visits<PingpongWide>(p)};
    CHECK(tiles[0] * 128 * 256 == tut::busiest_cta_work(p.m, p.n, 128, 256, Default::kSchedule));  // rows padded to pairs
    CHECK(tiles[1] * 128 * 256 == tut::busiest_cta_work(p.m, p.n, 128, 256, 132));
    CHECK(tiles[2] * 128 * 128 == tut::busiest_cta_work(p.m, p.n, 128, 128, 132));
    CHECK(tiles[3] * 64 * 128 == tut::busiest_cta_work(p.m, p.n, 64, 128, 132));
    CHECK(tiles[4] * 128 * 192 == tut::busiest_cta_work(p.m, p.n, 128, 192, Mid::kSchedule));
    CHECK(tiles[5] * 128 * 144 == tut::busiest_cta_work(p.m, p.n, 128, 144, Narrow::kSchedule));
    CHECK(tiles[6] * 128 * 176 == tut::busiest_cta_work(p.m, p.n, 128, 176, 132));
    CHECK(tiles[0] >= tiles[1]);
    int const c = step15::choose(p);
    REQUIRE(c >= 0);
    REQUIRE(c < step15::kVariants);
    // K's rows: whole 128-byte lines, whole 32-byte sectors, or neither.
    int const row = p.k % 64 == 0 ? 0 : p.k % 16 == 0 ? 1 : 2;
    REQUIRE(step15::rate_row(p.k) == row);
    std::int64_t const k_tiles = (p.k + 63) / 64;
    // Each configuration's tile (BLK_M, BLK_N): where M or N leave a partial one, the ragged factor applies.
    int const tile[7][2] = {{128, 256}, {128, 256}, {128, 128}, {64, 128}, {128, 192}, {128, 144}, {128, 176}};
    std::int64_t time[7];
    static_assert(step15::kVariants == 7);
    for (int i = 0; i < 7; ++i) {
      tut::Cost const& cost = step15::kCost[i];
      bool const ragged = p.m % tile[i][0] != 0 || p.n % tile[i][1] != 0;
      std::int64_t const factor = step15::kKTileFactor[row][i] * (ragged ? step15::kRaggedFactor[i] : 1000) / 1000;
      REQUIRE(step15::k_factors(p)[std::size_t(i)] == factor);
      // A burst, then the power limit, where the k-tile costs kPowerFactor more.
      std::int64_t const at_limit = factor * step15::kPowerFactor[i] / 1000;
      time[i] = tiles[i] * (k_tiles * cost.k_tile * factor / 1000 + cost.tile) + cost.launch +
                tiles[i] * (k_tiles * cost.k_tile * at_limit / 1000 + cost.tile) + cost.launch;
    }
    for (int i = 0; i < 7; ++i) {
      INFO("M " << p.m << " N " << p.n << " K " << p.k << ": config " << c << " against " << i);
      CHECK(time[c] <= time[i]);
      if (i < c) CHECK(time[c] < time[i]);  // ties: the first
    }
  }
  // Shapes where the H100 runs that measured the costs timed every configuration in interleaved rounds
  // (docs/bench/h100_2026-11-26-sweep-rounds.json, -sweep-ragged.json; 128x176's, from its own sweeps,
  // h100_2026-11-27f-*-128x176.json, scaled as scripts/fit_costs.py does): choose() picks the fastest.
  CHECK(step15::choose({4096, 4096, 4096}) == 2);  // 128x128: 205.0 us; 2x128x256 218.1, 128x256 227.4
  CHECK(step15::choose({2048, 2048, 2048}) == 2);  // 128x128: 27.4 us; 128x256 29.6
  CHECK(step15::choose({8192, 8192, 1024}) == 6);  // 128x176: 230.4 us, and at the limit 234.3; 128x128 229.7, 244.0
  CHECK(step15::choose({2048, 2048, 512}) == 2);   // 128x128: 11.7 us; 128x256 12.7
  CHECK(step15::choose({1536, 1536, 1536}) == 6);  // 128x176: 16.1 us; 2x128x144 16.4, 2x128x192 17.5
  CHECK(step15::choose({1536, 3072, 2048}) == 5);  // 2x128x144: 34.7 us; 128x128 37.7
  CHECK(step15::choose({3072, 3072, 3072}) == 4);  // 2x128x192: 94.6 us; 2x128x144 96.1, 128x128 98.4
  CHECK(step15::choose({1024, 1024, 4096}) == 3);  // 64x128: 18.0 us; 128x128 23.0
  CHECK(step15::choose({2560, 2560, 2552}) == 0);  // 2x128x256, K's rows not sectors: 70.5 us; 2x128x144 73.8
  CHECK(step15::choose({8192, 4096, 1000}) == 0);  // 2x128x256, K's rows not sectors: 130.6 us; 2x128x192 145.3
  // A partial tile of N or M: 128x128's k-tile slows down (kRaggedFactor), 128x176's and the cooperative ones' do
  // not. The first two are from a later run with the old picks forced (docs/bench/h100_2026-11-27h-moved.json).
  CHECK(step15::choose({4096, 4000, 4096}) == 6);  // 128x176: 218.0 us; 2x128x256 224.5, 128x256 228.4
  CHECK(step15::choose({4000, 4096, 4096}) == 6);  // 128x176: 221.4 us; 128x256 231.6, 2x128x256 233.2
  CHECK(step15::choose({8000, 8000, 2048}) == 6);  // 128x176: 408.7 us; 128x128 440.6
  // Each configuration alone at the power limit (docs/bench/h100_2026-11-27-sweep-steady.json), where a
  // ping-pong k-tile costs most: choose() picks the fastest there, not the 128x128 a burst's costs alone pick.
  CHECK(step15::choose({8192, 8192, 8192}) == 6);  // 128x176: 1653.5 us; 2x128x256 1686.7, 128x256 1695.0
  CHECK(step15::choose({6144, 6144, 6144}) == 6);  // 128x176: 704.4 us; 128x256 723.6, 2x128x256 734.3
  CHECK(step15::choose({3072, 5120, 4096}) == 4);  // 2x128x192: 212.6 us; 128x256 218.6, 128x128 219.9
  // Not in the sweeps: K's rows not sectors; docs/bench/h100_2026-11-26f.json ran it at 625.27 TFLOP/s in
  // clusters, 473.53 without.
  CHECK(step15::choose({7000, 7000, 7000}) == 0);
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step15]") {
  tut::Step const& s = step15::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  REQUIRE(s.variants.size() == 7);
  CHECK(s.variants[0].name == "2x128x256");
  CHECK(s.variants[1].name == "128x256");
  CHECK(s.variants[2].name == "128x128");
  CHECK(s.variants[3].name == "64x128");
  CHECK(s.variants[4].name == "2x128x192");
  CHECK(s.variants[4].schedule.cluster_m == 2);
  CHECK(s.variants[5].name == "2x128x144");
  CHECK(s.variants[5].schedule.cluster_m == 2);
  CHECK(s.variants[6].name == "128x176");
  CHECK(s.variants[6].threads == 128);
  CHECK(s.variants[0].threads == 256);  // cooperative: the TiledMMA numbers both warpgroups
  CHECK(s.variants[2].threads == 128);  // ping-pong: one warpgroup
  CHECK(s.variants[0].schedule.cluster_m == 2);
  REQUIRE(s.choose);
  for (tut::Problem p : {tut::Problem{300, 600, 512}, tut::Problem{4096, 4096, 4096}, tut::Problem{1024, 1024, 64}})
    CHECK(s.choose(p) == step15::choose(p));
  CHECK(tut::unsupported(s, {1000, 999, 776}).empty());
}

TEST_CASE("the printout: the cluster, its CTAs' tiles and shares of B, and the choice", "[step15]") {
  std::string const out = trace_of({4096, 4096, 4104});  // K not a multiple of 16: the clusters run
  CHECK(has(out, "What is new: clusters of two CTAs, which share each k-tile of B"));
  // 512 tiles on 128 CTAs (balanced), in groups of 16 tile-rows of 16 tiles: CTA c takes c, c+128, ...
  CHECK(has(out, "CTA 0      rank 0, tiles (0,0), (0,8), (16,0), (16,8)"));
  CHECK(has(out, "CTA 1      rank 1, tiles (1,0), (1,8), (17,0), (17,8)"));
  CHECK(has(out, "B rank 1   rows 128..255 of each 256 x 64 k-tile, 16384 bytes"));
  CHECK(has(out, "empty[s]   4 arrivals: 2 per CTA x 2"));
  CHECK(has(out, "65536 bytes per k-tile of the cluster, not 98304"));
  // The k-tile's cost, K's row 2 (x 1.000: the clusters slow down least), and at the power limit (x 1.008 more).
  CHECK(has(out, "2x128x256  cooperative  32 x 16 = 512     4 x 65            772 (778), 5682, 0"));
  CHECK(has(out, "223.4 + 225.1 = 448.5     <- runs"));
  // Three tile-rows: the clusters' schedule counts four, the fourth past C.
  std::string const odd = trace_of({384, 512, 8}, "2x128x256");
  CHECK(has(odd, "rows_of(3) = 4"));
  CHECK(has(odd, "CTA 1      rank 1, tiles (1,0)"));
  CHECK(has(odd, "8 tiles (4 x 2, the last tile-row past C's: whole clusters)"));
  // K a multiple of 64 and a partial tile of N: 128x176 runs, and 128x128's k-tiles cost more; 128x176's,
  // whose ragged factor is 1, do not.
  std::string const ragged_n = trace_of({4096, 4000, 4096});
  CHECK(has(ragged_n, "128x176 runs without clusters"));
  CHECK(has(ragged_n, "<- choose()'s pick") == false);
  CHECK(has(ragged_n, "128x128    ping-pong    32 x 32 = 1024    8 x 64            437 (464), 816, 0"));  // 399 x 1.097
  CHECK(has(ragged_n, "128x176    ping-pong    32 x 23 = 736     6 x 64            535 (548), 1480, 128"));
  CHECK(has(ragged_n, "M or N leave a partial tile: the k-tile costs include kRaggedFactor"));
  CHECK_FALSE(has(out, "M or N leave a partial tile"));
  std::string const forced = trace_of({4096, 4096, 4096}, "2x128x256");
  CHECK(has(forced, "<- choose()'s pick"));
  CHECK_FALSE(has(forced, "Each consumer warpgroup computes whole tiles of its own"));  // cooperative: no turns
}

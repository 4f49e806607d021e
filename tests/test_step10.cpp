// Host tests of step 10: the GMMA smem atom against the 128-byte swizzle the TMA unit and wgmma define,
// the accumulators' TV layout against the PTX ISA's wgmma fragment, the warpgroups' partitions of A, B
// and C, the CTA order, the mbarrier pipeline run under every interleaving a random scheduler finds,
// the masks, the sizes and GPUs the step runs on, and the printout.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "mbarrier_model.hpp"
#include "step10_warp_specialized.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/ring_schedule.hpp"

using namespace cute;
using step10::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step10::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step10::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle TMA writes and wgmma reads, stage by stage", "[step10]") {
  for_each_config([](auto cfg) { gemm_checks::check_sw128_ring<decltype(cfg)>(); });
  CHECK(plain(step10::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step10]") {
  for_each_config([](auto cfg) { gemm_checks::check_wgmma_accumulators<decltype(cfg)>(); });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step10]") {
  for_each_config([](auto cfg) { gemm_checks::check_warpgroup_partitions<decltype(cfg)>(); });
}

namespace {

// The mbarrier protocol of the kernel, run by a scheduler that picks any actor able to move: one producer
// thread, CONSUMERS consumer warpgroups, and the TMA unit delivering bytes whenever it likes. Barriers are
// modelled as the PTX ISA states them: a phase completes when its pending arrivals (and expected
// transaction bytes) reach zero; wait(parity p) returns iff the current phase's parity is not p.
template <int STAGES>
struct PipelineModel {
  using Barrier = mbarrier_model::Barrier;
  int k_tiles, consumers;
  Barrier full[STAGES], empty[STAGES];
  int stage_holds[STAGES];        // the k-tile whose bytes sit in the stage (-1: none yet)
  int readers[STAGES] = {};       // consumer batches whose wgmmas may still read the stage
  std::deque<std::pair<int, int>> in_flight;  // (stage, k-tile) of each TMA copy not yet delivered
  // The producer's and each consumer's place, as the kernel keeps them.
  step10::RingState<STAGES> write;
  int produced = 0;
  std::vector<step10::RingState<STAGES>> read, release;
  std::vector<int> consumed;

  PipelineModel(int k, int c) : k_tiles(k), consumers(c), read(std::size_t(c)), release(std::size_t(c)),
                                consumed(std::size_t(c), 0) {
    for (int s = 0; s < STAGES; ++s) {
      full[s].expected = full[s].pending = 1;
      empty[s].expected = empty[s].pending = c;
      stage_holds[s] = -1;
    }
  }
  bool done() const {
    for (int c : consumed)
      if (c < k_tiles) return false;
    return produced == k_tiles && in_flight.empty();
  }
  // One move of actor a (0: producer, 1: TMA unit, 2+c: consumer c); false if it cannot move now.
  bool step(int a) {
    if (a == 0) {
      if (produced == k_tiles || !empty[write.index].passes(write.producer_parity())) return false;
      // The stage is refilled: no consumer batch may still read it.
      REQUIRE(readers[write.index] == 0);
      Barrier& f = full[write.index];
      f.tx += 1;      // arrive.expect_tx: the bytes (one unit here) to wait for, and the producer's arrival
      f.arrive();
      in_flight.push_back({write.index, produced});
      ++produced;
      write.advance();
      return true;
    }
    if (a == 1) {
      if (in_flight.empty()) return false;
      auto const [s, k] = in_flight.front();
      in_flight.pop_front();
      stage_holds[s] = k;
      full[s].tx -= 1;
      full[s].complete_if_done();
      return true;
    }
    int const c = a - 2;
    int& k = consumed[std::size_t(c)];
    auto& r = read[std::size_t(c)];
    if (k == k_tiles || !full[r.index].passes(r.consumer_parity())) return false;
    REQUIRE(stage_holds[r.index] == k);  // the stage holds exactly this k-tile's bytes
    ++readers[r.index];                   // its wgmmas read the stage until released
    // warpgroup_wait<1>: the previous batch is done; release its stage.
    if (k > 0) {
      auto& rel = release[std::size_t(c)];
      --readers[rel.index];
      empty[rel.index].arrive();
      rel.advance();
    }
    ++k;
    r.advance();
    return true;
  }
};

template <int STAGES>
void run_pipeline(int k_tiles, int consumers, unsigned seed) {
  PipelineModel<STAGES> p(k_tiles, consumers);
  // Someone can always move until the end: no deadlock. (The model REQUIREs its rules as it moves.)
  REQUIRE(mbarrier_model::run_random(p, 2 + consumers, seed, [] { return false; }));
}

}  // namespace

TEST_CASE("the mbarrier pipeline: no deadlock, no stage read before it lands or refilled while read", "[step10]") {
  for (int k_tiles = 1; k_tiles <= 13; ++k_tiles)
    for (int consumers : {1, 2})
      for (unsigned seed = 0; seed < 40; ++seed) {
        INFO(k_tiles << " k-tiles, " << consumers << " consumers, seed " << seed);
        run_pipeline<4>(k_tiles, consumers, seed);
        run_pipeline<5>(k_tiles, consumers, seed);
        run_pipeline<Default::kStages>(k_tiles, consumers, seed);
      }
}

TEST_CASE("the barrier schedule the printout shows: stages round the ring, parities flip per lap", "[step10]") {
  constexpr int S = Default::kStages;
  auto const steps = tut::ring_schedule<step10::RingState, S>(11);
  REQUIRE(steps.size() == 11);
  for (auto const& b : steps) {
    INFO("k-tile " << b.k_tile);
    CHECK(b.stage == b.k_tile % S);
    CHECK(b.lap == b.k_tile / S);
    CHECK(b.full_parity == std::uint32_t(b.lap % 2));         // lap L waits for full's phase L
    CHECK(b.empty_parity == std::uint32_t((b.lap + 1) % 2));  // and for empty's phase L-1 (fresh: passes)
    CHECK(b.released_k_tile == b.k_tile - 1);
    CHECK(b.released_stage == (b.k_tile == 0 ? -1 : (b.k_tile - 1) % S));
  }
}

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step10]") {
  for_each_config([](auto cfg) { gemm_checks::check_epilogue_through_smem<decltype(cfg)>(); });
}

TEST_CASE("the epilogue's masks at every coordinate of ragged problems: each entry of C stored once", "[step10]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 600}, {1, 1}, {7, 13}, {131, 260}, {300, 301}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) { gemm_checks::check_epilogue_masks<decltype(cfg)>(step10::make_layout_C(M, N)); });
}

namespace {
// A step with only an oldest GPU, as steps 05-07 declare it.
tut::Step step07_like() {
  tut::Step s;
  s.min_cc = 80;
  return s;
}
}  // namespace

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step10]") {
  tut::Step const& s = step10::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(tut::unsupported_gpu(s, 90).empty());
  std::string const why =
      "this step runs on sm_90 only: built for sm_90a (wgmma, setmaxnreg), which runs on compute capability 9.0 only";
  CHECK(tut::unsupported_gpu(s, 80) == why);
  CHECK(tut::unsupported_gpu(s, 100) == why);
  CHECK(tut::unsupported_gpu(step07_like(), 75) == "this step needs sm_80 or newer");
  CHECK(tut::unsupported_gpu(step07_like(), 100).empty());
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step10_warp_specialized needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);  // --thread names the TiledMMA's threads: the consumers
  CHECK(s.variants[0].tile_m == 128);
  CHECK(s.variants[0].tile_n == 256);
  CHECK(s.variants[0].tile_k == 64);
}

TEST_CASE("smem: four stages of 48 KB and the barriers, within an H100 block's 227 KB", "[step10]") {
  CHECK(Default::kStageBytes == (128 + 256) * 64 * 2);
  CHECK(Default::kThreads == 384);
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Default::kSmemBytes >= 4 * Default::kStageBytes + 2 * 4 * 8);
  CHECK(Default::kSmemBytes <= 4 * Default::kStageBytes + 1024);  // nothing but alignment beyond them
  tut::HostSmem<Default> smem;
  CHECK(smem.offset(&smem.sA()(0, 0, 0)) % 1024 == 0);
  CHECK(smem.offset(&smem.sB()(0, 0, 0)) % 1024 == 0);
  CHECK(smem.offset(&smem.storage->full[0]) == 4 * Default::kStageBytes);  // after the ring, outside the union
  CHECK(smem.offset(&smem.storage->empty[0]) == 4 * Default::kStageBytes + 4 * 8);
}

TEST_CASE("the printout: the roles and their registers, TMA boxes, the barrier phases, the epilogue", "[step10]") {
  tut::Options o;
  o.problem = step10::step().defaults;  // 300 x 600 x 512: tiles 3 x 3, 8 k-tiles
  std::string const out = trace_of(o);
  auto has = [&](std::string const& s) { return out.find(s) != std::string::npos; };
  CHECK(has("box A      64 x 128 halves (k x m), 16384 bytes"));
  CHECK(has("box B      64 x 256 halves (k x n), 32768 bytes"));
  CHECK(has("smem       197632 bytes per CTA"));
  CHECK(has("warpgroups 2 consumers (threads 0..255) + 1 producer (threads 256..383)"));
  CHECK(has("setmaxnreg producer 40, consumers 232 registers per thread  128x40 + 256x232 = 64512 of 65536"));
  CHECK(has("    0       0      parity 1 (passes: fresh)      TMA A,B  parity 0                     -"));
  CHECK(has("    4       0      parity 0 (k-tile 0 read)      TMA A,B  parity 1                     empty[3] (k-tile 3)"));
  CHECK(has("N % 4 == 0: 128-bit stores. Thread 0 stores 32 of its 32 chunks: all lie inside C."));
  o.tile = {2, 2};
  o.thread = 200;
  std::string const edge = trace_of(o);
  // 3x3 tiles in groups of 8 tile-rows: one group, down each column: tile (2,2) is raster tile 2 + 3*2.
  CHECK(edge.find("Tile (2,2) is computed by CTA blockIdx.x = 8.") != std::string::npos);
  CHECK(edge.find("A rows     256..383, of which 256..299 exist; 84 rows of zeros") != std::string::npos);
  CHECK(edge.find("B rows     512..767, of which 512..599 exist; 168 rows of zeros") != std::string::npos);
  // Rows 256..299 and cols 512..599 of the tile exist: thread 200's chunks start at rows 259, 263, ...
  CHECK(edge.find("Thread 200 stores 11 of its 32 chunks; the rest lie outside C.") != std::string::npos);
}

TEST_CASE("the printed L2 group is the kernel's schedule, and the kernel's CTAs visit the tiles that way", "[step10]") {
  using step10::Default;
  tut::TileSchedule const s = Default::kSchedule;
  tut::Options o;
  o.problem = {4096, 4096, 4096};
  std::ostringstream os;
  step10::step().variants.front().trace(os, o);
  CHECK(os.str().find("groups of " + std::to_string(s.group_m) + " tile-rows, for L2") != std::string::npos);
  CHECK(step10::step().variants.front().schedule.group_m == s.group_m);
  // 4096^2 in 128x256 tiles: 32 tile-rows, 16 tile-cols. CTA i of the first group_m*16 takes tile-row
  // i % group_m of tile-col i / group_m: a group's CTAs share group_m rows of A and one column of B at a time.
  int const tiles_m = 4096 / 128, tiles_n = 4096 / 256;
  for (int i = 0; i < s.group_m * tiles_n; ++i) {
    tut::TileCoord const t = s.tile(i, 0, tiles_m, tiles_n);
    INFO("CTA " << i);
    CHECK(t.m == i % s.group_m);
    CHECK(t.n == i / s.group_m);
  }
}

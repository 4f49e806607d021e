// Host tests of step 11: the GMMA smem atom against the 128-byte swizzle the TMA unit and wgmma define,
// the accumulators' TV layout against the PTX ISA's wgmma fragment, the warpgroups' partitions of A, B
// and C, the persistent schedule, the mbarrier protocol across tiles (epi_done included) run under every
// interleaving a random scheduler finds and with its planted faults, the masks, the sizes and GPUs the
// step runs on, and the printout.
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
#include "step11_persistent.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/ring_schedule.hpp"

using namespace cute;
using step11::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step11::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step11::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle TMA writes and wgmma reads, stage by stage", "[step11]") {
  for_each_config([](auto cfg) { gemm_checks::check_sw128_ring<decltype(cfg)>(); });
  CHECK(plain(step11::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step11]") {
  for_each_config([](auto cfg) { gemm_checks::check_wgmma_accumulators<decltype(cfg)>(); });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step11]") {
  for_each_config([](auto cfg) { gemm_checks::check_warpgroup_partitions<decltype(cfg)>(); });
}

TEST_CASE("the persistent schedule: min(132, tiles) CTAs, every tile once, balanced", "[step11]") {
  tut::TileSchedule const s = Default::kSchedule;
  CHECK(s.kind == tut::Visit::persistent);
  CHECK(s.ctas == 132);
  auto [tiles_m, tiles_n] = GENERATE(table<int, int>({{1, 1}, {4, 8}, {11, 12}, {133, 1}, {17, 17}, {7, 100}}));
  CAPTURE(tiles_m, tiles_n);
  int const tiles = tiles_m * tiles_n, ctas = s.cta_count(tiles_m, tiles_n);
  CHECK(ctas == std::min(132, tiles));
  std::vector<int> seen(std::size_t(tiles), 0);
  for (int c = 0; c < ctas; ++c) {
    int const v = s.visits(c, tiles_m, tiles_n);
    CHECK((v == (tiles + ctas - 1) / ctas || v == tiles / ctas));
    for (int j = 0; j < v; ++j) {
      tut::TileCoord const t = s.tile(c, j, tiles_m, tiles_n);
      REQUIRE((t.m >= 0 && t.m < tiles_m && t.n >= 0 && t.n < tiles_n));
      ++seen[std::size_t(t.m * tiles_n + t.n)];
    }
  }
  for (int x : seen) REQUIRE(x == 1);
}

namespace {

// The kernel's protocol across a CTA's tiles, run by a scheduler that picks any actor able to move: one
// producer thread, CONSUMERS consumer warpgroups, the TMA unit delivering bytes whenever it likes, and
// the epilogue (the consumers between their named barriers). Barriers are modelled as the PTX ISA states
// them: a phase completes when its pending arrivals (and expected transaction bytes) reach zero;
// wait(parity p) returns iff the current phase's parity is not p. The C tile lies in the ring's bytes from
// the epilogue's first named barrier until every consumer thread has arrived on epi_done.
enum class Outcome { ok, deadlock, stage_refilled_while_read, read_before_landed, loaded_over_c_tile };

struct Protocol {
  bool release_last = true;    // the kernel: release a tile's last stage in the epilogue
  bool epilogue_wait = true;   // the kernel: the producer waits on epi_done before a tile's first k-tile
};

template <int STAGES>
struct Model {
  using Barrier = mbarrier_model::Barrier;
  Protocol proto;
  int k_tiles, visits, consumers;
  Barrier full[STAGES], empty[STAGES], epi_done;
  int stage_holds[STAGES];                    // the k-tile count whose bytes sit in the stage (-1: none yet)
  int readers[STAGES] = {};                   // consumer batches whose wgmmas may still read the stage
  std::deque<std::pair<int, int>> loads;      // (stage, count) of each TMA load not yet delivered
  step11::RingState<STAGES> write;
  int produced = 0;
  std::vector<step11::RingState<STAGES>> read, release;
  std::vector<int> consumed;                  // k-tiles (all tiles) each consumer has issued
  std::vector<int> last_read;                 // the stage of the k-tile each consumer issued last
  std::vector<int> in_epilogue;               // the consumer waits at the epilogue of this tile (-1: no)
  int epilogue_tile = 0;                      // tiles whose epilogue is done
  bool c_in_ring = false;                     // the C tile is in the ring's bytes (between the barriers)
  Outcome bad = Outcome::ok;

  Model(Protocol p, int k, int v, int c)
      : proto(p), k_tiles(k), visits(v), consumers(c), read(std::size_t(c)), release(std::size_t(c)),
        consumed(std::size_t(c), 0), last_read(std::size_t(c), -1), in_epilogue(std::size_t(c), -1) {
    for (int s = 0; s < STAGES; ++s) {
      full[s].expected = full[s].pending = 1;
      empty[s].expected = empty[s].pending = c;
      stage_holds[s] = -1;
    }
    epi_done.expected = epi_done.pending = c;  // one arrival per warpgroup here: all its threads, as one
  }
  int total() const { return k_tiles * visits; }
  bool done() const { return epilogue_tile == visits && loads.empty() && produced == total(); }
  // One move of actor a (0: producer, 1: TMA loads, 2: the epilogue's start, 3: its end, 4+c: consumer c).
  bool step(int a) {
    if (a == 0) {
      if (produced == total()) return false;
      int const visit = produced / k_tiles;
      if (proto.epilogue_wait && visit > 0 && produced % k_tiles == 0 && !epi_done.passes(std::uint32_t((visit - 1) % 2)))
        return false;
      if (!empty[write.index].passes(write.producer_parity())) return false;
      if (readers[write.index] != 0) bad = Outcome::stage_refilled_while_read;
      if (c_in_ring) bad = Outcome::loaded_over_c_tile;
      full[write.index].tx += 1;
      full[write.index].arrive();
      loads.push_back({write.index, produced++});
      write.advance();
      return true;
    }
    if (a == 1) {
      if (loads.empty()) return false;
      auto const [s, k] = loads.front();
      loads.pop_front();
      if (c_in_ring) bad = Outcome::loaded_over_c_tile;  // the bytes land on the C tile
      stage_holds[s] = k;
      full[s].tx -= 1;
      full[s].complete_if_done();
      return true;
    }
    if (a == 2) {  // the first named barrier: every consumer has reached the epilogue; C goes into smem
      if (c_in_ring || epilogue_tile == visits) return false;
      for (int t : in_epilogue)
        if (t != epilogue_tile) return false;
      c_in_ring = true;
      return true;
    }
    if (a == 3) {  // C leaves smem; every consumer arrives on epi_done and goes on to its next tile
      if (!c_in_ring) return false;
      c_in_ring = false;
      ++epilogue_tile;
      for (int c = 0; c < consumers; ++c) epi_done.arrive();
      std::fill(in_epilogue.begin(), in_epilogue.end(), -1);
      return true;
    }
    int const c = a - 4;
    int& k = consumed[std::size_t(c)];
    if (in_epilogue[std::size_t(c)] >= 0 || k == total() || k / k_tiles > epilogue_tile) return false;
    auto& r = read[std::size_t(c)];
    if (!full[r.index].passes(r.consumer_parity())) return false;
    if (stage_holds[r.index] != k) bad = Outcome::read_before_landed;
    ++readers[r.index];
    int& previous = last_read[std::size_t(c)];
    auto& rel = release[std::size_t(c)];
    auto release_one = [&] {
      empty[rel.index].arrive();
      rel.advance();
    };
    if (k % k_tiles > 0) {                         // warpgroup_wait<1>: the previous k-tile's wgmmas are done
      --readers[previous];
      release_one();
    }
    previous = r.index;
    ++k;
    r.advance();
    if (k % k_tiles == 0) {                        // the tile's last k-tile: warpgroup_wait<0>, epilogue
      --readers[previous];
      if (proto.release_last) release_one();       // (--bug last_stage_kept: nobody tells the producer)
      in_epilogue[std::size_t(c)] = k / k_tiles - 1;
    }
    return true;
  }
};

template <int STAGES>
Outcome run_protocol(Protocol proto, int k_tiles, int visits, int consumers, unsigned seed) {
  Model<STAGES> m(proto, k_tiles, visits, consumers);
  bool const finished = mbarrier_model::run_random(m, 4 + consumers, seed, [&] { return m.bad != Outcome::ok; });
  return m.bad != Outcome::ok ? m.bad : finished ? Outcome::ok : Outcome::deadlock;
}

}  // namespace

TEST_CASE("the protocol over several tiles: no deadlock, no stage refilled while read or under the C tile", "[step11]") {
  for (int k_tiles = 1; k_tiles <= 9; ++k_tiles)
    for (int visits : {1, 2, 5})
      for (int consumers : {1, 2})
        for (unsigned seed = 0; seed < 12; ++seed) {
          INFO(k_tiles << " k-tiles, " << visits << " tiles, " << consumers << " consumers, seed " << seed);
          REQUIRE(run_protocol<Default::kStages>({}, k_tiles, visits, consumers, seed) == Outcome::ok);
          REQUIRE(run_protocol<2>({}, k_tiles, visits, consumers, seed) == Outcome::ok);
          REQUIRE(run_protocol<5>({}, k_tiles, visits, consumers, seed) == Outcome::ok);
        }
}

TEST_CASE("the protocol's model catches the planted faults: a kept last stage, no epilogue wait", "[step11]") {
  constexpr int S = Default::kStages;
  // --bug last_stage_kept: one release missing per tile. By the 4th tile (S-1 missing) the producer waits
  // for a stage nobody frees, under any interleaving; with fewer tiles the ring still has room.
  Protocol kept;
  kept.release_last = false;
  for (unsigned seed = 0; seed < 20; ++seed) {
    CHECK(run_protocol<S>(kept, 8, S, 2, seed) == Outcome::deadlock);
    CHECK(run_protocol<S>(kept, 8, S - 2, 2, seed) == Outcome::ok);
  }
  // --bug no_epilogue_wait: some interleaving loads the next tile's k-tiles over the C tile.
  Protocol eager;
  eager.epilogue_wait = false;
  int caught = 0;
  for (unsigned seed = 0; seed < 50; ++seed) caught += run_protocol<S>(eager, 3, 2, 2, seed) == Outcome::loaded_over_c_tile;
  CHECK(caught > 0);
}

TEST_CASE("the barrier schedule the printout shows: the ring runs on across tiles, epi_done's parity per tile", "[step11]") {
  constexpr int S = Default::kStages;
  for (int k_tiles : {1, 3, 4, 7, 8}) {
    auto const steps = tut::ring_schedule<step11::RingState, S>(k_tiles, {3, true, true});
    REQUIRE(int(steps.size()) == 3 * k_tiles);
    std::vector<int> released;  // k-tile counts, in the order the consumers release their stages
    for (auto const& b : steps) {
      INFO(k_tiles << " k-tiles, visit " << b.visit << ", k-tile " << b.k_tile);
      CHECK(b.stage == b.count % S);             // the ring does not restart at a tile
      CHECK(b.lap == b.count / S);
      CHECK(b.full_parity == std::uint32_t(b.lap % 2));
      CHECK(b.empty_parity == std::uint32_t((b.lap + 1) % 2));
      CHECK(b.epi_parity == (b.visit > 0 && b.k_tile == 0 ? (b.visit - 1) % 2 : -1));
      if (b.released_stage >= 0) released.push_back(b.count - 1);
      if (b.epilogue_released_stage >= 0) released.push_back(b.count);
    }
    for (int i = 0; i < int(released.size()); ++i) CHECK(released[std::size_t(i)] == i);  // each once, in order
  }
}

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step11]") {
  for_each_config([](auto cfg) { gemm_checks::check_epilogue_through_smem<decltype(cfg)>(); });
}

TEST_CASE("the epilogue's masks at every coordinate of ragged problems: each entry of C stored once", "[step11]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 600}, {1, 1}, {7, 13}, {131, 260}, {300, 301}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) { gemm_checks::check_epilogue_masks<decltype(cfg)>(step11::make_layout_C(M, N)); });
}

namespace {
// A step with only an oldest GPU, as steps 05-07 declare it.
tut::Step step07_like() {
  tut::Step s;
  s.min_cc = 80;
  return s;
}
}  // namespace

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step11]") {
  tut::Step const& s = step11::step();
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
        "step11_persistent needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);  // --thread names the TiledMMA's threads: the consumers
  CHECK(s.variants[0].tile_m == 128);
  CHECK(s.variants[0].tile_n == 256);
  CHECK(s.variants[0].tile_k == 64);
}

TEST_CASE("smem: four stages of 48 KB and the barriers, within an H100 block's 227 KB", "[step11]") {
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
  CHECK(smem.offset(&smem.storage->epi_done) == 4 * Default::kStageBytes + 2 * 4 * 8);  // the 9th mbarrier
  // The C tile (128 KB) lies in the ring's bytes: the union is the larger of the two.
  CHECK(smem.offset(&smem.storage->C) == smem.offset(&smem.storage->mainloop));
  CHECK(int(sizeof(smem.storage->C)) == 128 * 256 * 4);
}

TEST_CASE("the printout: the roles, TMA boxes, the visits, the ring across a tile boundary, epi_done", "[step11]") {
  tut::Options o;
  o.problem = step11::step().defaults;  // 300 x 600 x 512: tiles 3 x 3, 8 k-tiles
  std::string const out = trace_of(o);
  auto has = [&](std::string const& s) { return out.find(s) != std::string::npos; };
  CHECK(has("box A      64 x 128 halves (k x m), 16384 bytes"));
  CHECK(has("box B      64 x 256 halves (k x n), 32768 bytes"));
  CHECK(has("smem       197632 bytes per CTA"));
  CHECK(has("warpgroups 2 consumers (threads 0..255) + 1 producer (threads 256..383)"));
  CHECK(has("setmaxnreg producer 40, consumers 232 registers per thread  128x40 + 256x232 = 64512 of 65536"));
  CHECK(has("smem       197632 bytes per CTA                          4 stages x 49152 (sC's 131072 reuse them), 2 x 4 + 1 mbarriers"));
  CHECK(has("the launch starts min(132, tiles) = 9 CTAs for 9 tiles (3 x 3)"));
  CHECK(has("    0      7       3      parity 0 (4 k-tiles earlier read)  parity 1                     empty[2] (k-tile 6), "
            "empty[3] in the epilogue"));
  CHECK(!has("epi_done, parity"));  // one tile per CTA: nobody waits on epi_done
  o.tile = {2, 2};
  o.thread = 200;
  std::string const edge = trace_of(o);
  // 3x3 tiles in groups of 8 tile-rows: one group, down each column: tile (2,2) is raster tile 2 + 3*2.
  CHECK(edge.find("Tile (2,2) is computed by CTA blockIdx.x = 8, on its visit 0.") != std::string::npos);
  CHECK(edge.find("A rows     256..383, of which 256..299 exist; 84 rows of zeros") != std::string::npos);
  CHECK(edge.find("B rows     512..767, of which 512..599 exist; 168 rows of zeros") != std::string::npos);
  // 2100 x 4300: 289 tiles for 132 CTAs; CTA 9 takes three. Its second tile's first k-tile waits for
  // epi_done's phase 0 (the first tile's epilogue), then for empty[3], still fresh.
  o.problem = {2100, 4300, 136};
  o.tile = {16, 1};
  o.thread = 0;
  std::string const visits = trace_of(o);
  CHECK(visits.find("CTA 9      3 tiles: (1,1), (13,0), (16,1)") != std::string::npos);
  CHECK(visits.find("(first: epi_done, parity 0)\n    1      0       3      parity 1 (passes: fresh)") != std::string::npos);
}

TEST_CASE("the printed L2 group is the kernel's schedule, and the kernel's CTAs visit the tiles that way", "[step11]") {
  using step11::Default;
  tut::TileSchedule const s = Default::kSchedule;
  tut::Options o;
  o.problem = {4096, 4096, 4096};
  std::ostringstream os;
  step11::step().variants.front().trace(os, o);
  CHECK(os.str().find("groups of " + std::to_string(s.group_m) + " tile-rows, for L2") != std::string::npos);
  CHECK(step11::step().variants.front().schedule.group_m == s.group_m);
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

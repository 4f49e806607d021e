// Host tests of step 12: step 10's smem ring, accumulators and partitions, unchanged; step 11's persistent
// schedule (every tile once, by one CTA, at every shape class); the epilogue's subtiles (every value in
// its subtile, each buffer entry once, its stores' wavefronts, the buffers' place and swizzle); the
// direct stores' masks when TMA cannot store C; and the whole protocol, mainloop and epilogue over
// several tiles, run under every interleaving a random scheduler finds, with its faults shown to break it.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
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
#include "step12_tma_store.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/ring_schedule.hpp"

using namespace cute;
using step12::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step12::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step12::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle TMA writes and wgmma reads, stage by stage", "[step12]") {
  for_each_config([](auto cfg) { gemm_checks::check_sw128_ring<decltype(cfg)>(); });
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step12]") {
  for_each_config([](auto cfg) { gemm_checks::check_wgmma_accumulators<decltype(cfg)>(); });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step12]") {
  for_each_config([](auto cfg) { gemm_checks::check_warpgroup_partitions<decltype(cfg)>(); });
}

TEST_CASE("the persistent schedule: min(132, tiles) CTAs, every tile once, at every shape class", "[step12]") {
  tut::TileSchedule const s = Default::kSchedule;
  CHECK(s.kind == tut::Visit::persistent);
  CHECK(s.ctas == 132);
  // Fewer tiles than CTAs, exactly as many, one more, several waves, a ragged last wave; as tile counts.
  auto [tiles_m, tiles_n] = GENERATE(table<int, int>(
      {{1, 1}, {3, 3}, {4, 8}, {11, 12}, {12, 11}, {133, 1}, {1, 133}, {17, 17}, {32, 16}, {64, 32}, {7, 100}}));
  CAPTURE(tiles_m, tiles_n);
  int const tiles = tiles_m * tiles_n, ctas = s.cta_count(tiles_m, tiles_n);
  CHECK(ctas == std::min(132, tiles));
  std::vector<int> seen(std::size_t(tiles), 0);
  int visits_total = 0;
  for (int c = 0; c < ctas; ++c) {
    int const v = s.visits(c, tiles_m, tiles_n);
    // Balanced: every CTA has ceil(tiles/ctas) or floor(tiles/ctas) tiles, the lower CTAs the more.
    CHECK((v == (tiles + ctas - 1) / ctas || v == tiles / ctas));
    CHECK(v == (c < tiles % ctas || tiles % ctas == 0 ? (tiles + ctas - 1) / ctas : tiles / ctas));
    for (int j = 0; j < v; ++j) {
      tut::TileCoord const t = s.tile(c, j, tiles_m, tiles_n);
      REQUIRE((t.m >= 0 && t.m < tiles_m && t.n >= 0 && t.n < tiles_n));
      ++seen[std::size_t(t.m * tiles_n + t.n)];
      ++visits_total;
    }
  }
  CHECK(visits_total == tiles);
  for (int x : seen) REQUIRE(x == 1);
  CHECK(s.visits(ctas, tiles_m, tiles_n) == 0);  // no CTA past the grid
}

TEST_CASE("the epilogue's subtiles: every value in its subtile, each buffer entry once per subtile", "[step12]") {
  for_each_config([](auto cfg) {
    gemm_checks::check_epilogue_subtiles<decltype(cfg), step12::kEpiN, step12::kEpiBuffers>(
        [](auto, auto&& t) { return step12::by_subtile<decltype(cfg)::kSubtiles>(t); });
  });
  CHECK(plain(step12::SmemAtomC{}) == "Sw<3,4,3> o (8,32):(32,1)");
  CHECK(plain(typename Default::SmemLayoutC{}) == "Sw<3,4,3> o ((8,16),(32,1),(1,2)):((32,256),(1,0),(0,4096))");
}

// The TMA unit reads only its own swizzles, which XOR whole 16-byte chunks with the row: rows r and r^1
// of the 128-byte atom swap the two chunks of a 32-byte pair, and wgmma's fragment puts rows 4h..4h+3,
// 32 bytes each, in half-warp h. So each 16-lane phase of a 64-bit store meets 16 banks twice: two
// wavefronts, where step 10's own swizzle (not a TMA one) needed one.
TEST_CASE("the epilogue's stores into sC: 64-bit pairs, two wavefronts per 16-lane phase", "[step12]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::TiledMma mma;
    tut::HostSmem<Cfg> smem;
    Tensor sC_tile = make_tensor(smem.sC().data(), composition(typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{}));
    constexpr int SUB = Cfg::kSubtiles;
    for (int warp = 0; warp < int(size(mma)) / 32; ++warp)
      for (int e = 0; e < SUB; ++e) {
        std::vector<std::vector<std::int64_t>> bytes(32);
        for (int lane = 0; lane < 32; ++lane) {
          auto thr = mma.get_slice(32 * warp + lane);
          constexpr int V = int(decltype(size(thr.partition_C(sC_tile)))::value) / SUB;
          Tensor tCsC = step12::by_subtile<SUB>(thr.partition_C(sC_tile));  // ((PER,MMA_M),SUBTILES)
          for (int v = 0; v < V; v += 2) {
            REQUIRE(&tCsC(v + 1, e) == &tCsC(v, e) + 1);  // v0, v1: two adjacent floats, through the swizzle
            REQUIRE(smem.offset(&tCsC(v, e)) % 8 == 0);
            bytes[std::size_t(lane)].push_back(smem.offset(&tCsC(v, e)));
          }
        }
        for (std::size_t p = 0; p < bytes[0].size(); ++p)
          for (int half = 0; half < 2; ++half) {
            CAPTURE(warp, e, p, half);
            std::map<std::int64_t, int> words_per_bank;
            for (int lane = 16 * half; lane < 16 * half + 16; ++lane)
              for (int w = 0; w < 2; ++w) ++words_per_bank[(bytes[std::size_t(lane)][p] / 4 + w) % 32];
            REQUIRE(words_per_bank.size() == 16);  // 16 lanes x 2 words on 16 banks:
            for (auto const& [bank, words] : words_per_bank) REQUIRE(words == 2);  // each twice, 2 wavefronts
          }
      }
  });
}

TEST_CASE("the direct stores (N % 4 != 0): over every CTA and visit, each entry of C stored once", "[step12]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 601}, {1, 1}, {7, 13}, {131, 259}, {2100, 4301}, {1000, 999}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler cta_tiler;
    typename Cfg::TiledMma mma;
    auto const lc = step12::make_layout_C(M, N);
    int const tm = ceil_div(M, size<0>(cta_tiler)), tn = ceil_div(N, size<1>(cta_tiler));
    tut::TileSchedule const s = Cfg::kSchedule;
    std::vector<int> stored(std::size_t(M) * std::size_t(N), 0);
    for (int c = 0; c < s.cta_count(tm, tn); ++c)
      for (int j = 0; j < s.visits(c, tm, tn); ++j) {
        tut::TileCoord const tile = s.tile(c, j, tm, tn);
        Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, make_coord(tile.m, tile.n, _),
                               Step<_1, _1, X>{});
        for (int t = 0; t < int(size(mma)); ++t) {
          Tensor tCcC = mma.get_slice(t).partition_C(cC);
          Tensor tCpC = tut::make_mask(tCcC, shape(lc));
          for (int i = 0; i < int(size(tCcC)); ++i) {
            int const m = get<0>(tCcC(i)), n = get<1>(tCcC(i));
            REQUIRE(bool(tCpC(i)) == (m < M && n < N));
            if (tCpC(i)) ++stored[std::size_t(m) * std::size_t(N) + std::size_t(n)];
          }
        }
      }
    for (int x : stored) REQUIRE(x == 1);
  });
}

namespace {

// The whole protocol of the kernel over a CTA's tiles, run by a scheduler that picks any actor able to
// move: the producer thread, CONSUMERS consumer warpgroups, the TMA unit delivering loads, and the TMA
// unit finishing the reads of stores. Barriers are modelled as the PTX ISA states them: a phase
// completes when its pending arrivals (and expected transaction bytes) reach zero; wait(parity p)
// returns iff the current phase's parity is not p. The consumers' epilogue runs between two named
// barriers per subtile, so the model runs each subtile's steps once all consumers have arrived.
enum class Outcome { ok, deadlock, stage_refilled_while_read, read_before_landed, buffer_written_under_store };

struct Protocol {
  bool release_last = true;   // the kernel: release a tile's last stage in the epilogue
  int store_wait = step12::kEpiBuffers - 1;  // tma_store_wait<N>: at most N stores still reading
};

template <int STAGES>
struct Model {
  using Barrier = mbarrier_model::Barrier;
  Protocol proto;
  int k_tiles, visits, consumers, subtiles;
  Barrier full[STAGES], empty[STAGES];
  int stage_holds[STAGES];                    // the k-tile count whose bytes sit in the stage (-1: none yet)
  int readers[STAGES] = {};                   // consumer batches whose wgmmas may still read the stage
  std::deque<std::pair<int, int>> loads;      // (stage, count) of each TMA load not yet delivered
  std::vector<int> stores;                    // the buffer each issued store still reads, oldest first
  step12::RingState<STAGES> write;
  int produced = 0;
  std::vector<step12::RingState<STAGES>> read, release;
  std::vector<int> consumed;                  // k-tiles (all tiles) each consumer has issued
  std::vector<int> last_read;                 // the stage of the k-tile each consumer issued last
  std::vector<int> in_epilogue;               // the consumer waits at the epilogue of this tile (-1: no)
  int epilogue_tile = 0, subtile = 0;         // the epilogue under way
  Outcome bad = Outcome::ok;

  Model(Protocol p, int k, int v, int c, int sub)
      : proto(p), k_tiles(k), visits(v), consumers(c), subtiles(sub), read(std::size_t(c)), release(std::size_t(c)),
        consumed(std::size_t(c), 0), last_read(std::size_t(c), -1), in_epilogue(std::size_t(c), -1) {
    for (int s = 0; s < STAGES; ++s) {
      full[s].expected = full[s].pending = 1;
      empty[s].expected = empty[s].pending = c;
      stage_holds[s] = -1;
    }
  }
  int total() const { return k_tiles * visits; }
  bool done() const { return epilogue_tile == visits && stores.empty() && loads.empty() && produced == total(); }
  // One move of actor a (0: producer, 1: TMA loads, 2: TMA stores, 3: the epilogue, 4+c: consumer c).
  bool step(int a) {
    if (a == 0) {
      if (produced == total() || !empty[write.index].passes(write.producer_parity())) return false;
      if (readers[write.index] != 0) bad = Outcome::stage_refilled_while_read;
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
      stage_holds[s] = k;
      full[s].tx -= 1;
      full[s].complete_if_done();
      return true;
    }
    if (a == 2) {  // any issued store may finish reading its buffer
      if (stores.empty()) return false;
      stores.erase(stores.begin());
      return true;
    }
    if (a == 3) {  // the epilogue's next subtile, once every consumer has reached it
      if (epilogue_tile == visits) return false;
      for (int t : in_epilogue)
        if (t != epilogue_tile) return false;
      if (int(stores.size()) > proto.store_wait) return false;  // thread 0's tma_store_wait<N>
      int const buffer = subtile % step12::kEpiBuffers;
      for (int b : stores)
        if (b == buffer) bad = Outcome::buffer_written_under_store;
      stores.push_back(buffer);
      if (++subtile == subtiles) {
        subtile = 0;
        ++epilogue_tile;
        std::fill(in_epilogue.begin(), in_epilogue.end(), -1);
      }
      return true;
    }
    int const c = a - 4;
    int& k = consumed[std::size_t(c)];
    if (in_epilogue[std::size_t(c)] >= 0 || k == total() || k / k_tiles > epilogue_tile) return false;
    auto& r = read[std::size_t(c)];
    if (!full[r.index].passes(r.consumer_parity())) return false;
    if (stage_holds[r.index] != k) bad = Outcome::read_before_landed;
    ++readers[r.index];
    // Whose wgmmas are done is what the warpgroup_wait says (the stage the consumer read before); which
    // empty barrier it arrives on is what its release counter says: the two agree unless a release is lost.
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
      if (proto.release_last) release_one();       // (step 11's --bug last_stage_kept: nobody tells the producer)
      in_epilogue[std::size_t(c)] = k / k_tiles - 1;
    }
    return true;
  }
};

template <int STAGES>
Outcome run_protocol(Protocol proto, int k_tiles, int visits, int consumers, unsigned seed) {
  Model<STAGES> m(proto, k_tiles, visits, consumers, Default::kSubtiles);
  bool const finished = mbarrier_model::run_random(m, 4 + consumers, seed, [&] { return m.bad != Outcome::ok; });
  return m.bad != Outcome::ok ? m.bad : finished ? Outcome::ok : Outcome::deadlock;
}

}  // namespace

TEST_CASE("the protocol over several tiles: no deadlock, no stage or buffer reused while read", "[step12]") {
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

TEST_CASE("the protocol's model catches the planted faults: a kept last stage, a shallow store wait", "[step12]") {
  constexpr int S = Default::kStages;
  // A kept last stage (step 11's --bug last_stage_kept): one release missing per tile. By the 4th tile
  // (S-1 missing) the producer waits for a stage nobody frees, under any interleaving; with fewer tiles the
  // ring still has room.
  Protocol kept;
  kept.release_last = false;
  for (unsigned seed = 0; seed < 20; ++seed) {
    CHECK(run_protocol<S>(kept, 8, S, 2, seed) == Outcome::deadlock);
    CHECK(run_protocol<S>(kept, 8, S - 2, 2, seed) == Outcome::ok);
  }
  // tma_store_wait<BUFFERS> instead of <BUFFERS-1>: some interleaving writes a buffer a store still reads.
  Protocol shallow;
  shallow.store_wait = step12::kEpiBuffers;
  int caught = 0;
  for (unsigned seed = 0; seed < 50; ++seed)
    caught += run_protocol<S>(shallow, 3, 2, 2, seed) == Outcome::buffer_written_under_store;
  CHECK(caught > 0);
}

TEST_CASE("the barrier schedule the printout shows: the ring runs on across tiles, each stage released once", "[step12]") {
  constexpr int S = Default::kStages;
  for (int k_tiles : {1, 3, 4, 7, 8}) {
    auto const steps = tut::ring_schedule<step12::RingState, S>(k_tiles, {3, true});
    REQUIRE(int(steps.size()) == 3 * k_tiles);
    std::vector<int> released;  // k-tile counts, in the order the consumers release their stages
    for (auto const& b : steps) {
      INFO(k_tiles << " k-tiles, visit " << b.visit << ", k-tile " << b.k_tile);
      CHECK(b.count == b.visit * k_tiles + b.k_tile);
      CHECK(b.stage == b.count % S);             // the ring does not restart at a tile
      CHECK(b.lap == b.count / S);
      CHECK(b.full_parity == std::uint32_t(b.lap % 2));
      CHECK(b.empty_parity == std::uint32_t((b.lap + 1) % 2));
      if (b.released_stage >= 0) {
        CHECK(b.released_k_tile == b.k_tile - 1);
        CHECK(b.released_stage == (b.count - 1) % S);
        released.push_back(b.count - 1);
      }
      CHECK((b.epilogue_released_stage >= 0) == (b.k_tile == k_tiles - 1));
      if (b.epilogue_released_stage >= 0) {
        CHECK(b.epilogue_released_stage == b.stage);
        released.push_back(b.count);
      }
    }
    for (int i = 0; i < int(released.size()); ++i) CHECK(released[std::size_t(i)] == i);  // each once, in order
  }
}

namespace {
// A step with only an oldest GPU, as steps 05-07 declare it.
tut::Step step07_like() {
  tut::Step s;
  s.min_cc = 80;
  return s;
}
}  // namespace

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step12]") {
  tut::Step const& s = step12::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(tut::unsupported_gpu(s, 90).empty());
  std::string const why =
      "this step runs on sm_90 only: built for sm_90a (wgmma, setmaxnreg, TMA), which runs on compute capability 9.0 only";
  CHECK(tut::unsupported_gpu(s, 80) == why);
  CHECK(tut::unsupported_gpu(s, 100) == why);
  CHECK(tut::unsupported_gpu(step07_like(), 75) == "this step needs sm_80 or newer");
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step12_tma_store needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);  // --thread names the TiledMMA's threads: the consumers
  CHECK(s.variants[0].schedule.kind == tut::Visit::persistent);
  CHECK(s.variants[0].schedule.ctas == 132);
}

TEST_CASE("smem: the ring, two C buffers and the barriers, within an H100 block's 227 KB", "[step12]") {
  CHECK(Default::kStageBytes == (128 + 256) * 64 * 2);
  CHECK(Default::kThreads == 384);
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Default::kSmemBytes == 4 * Default::kStageBytes + 2 * 128 * 32 * 4 + 1024);
  CHECK(Default::kSmemBytes <= 227 * 1024);
  tut::HostSmem<Default> smem;
  CHECK(smem.offset(&smem.sA()(0, 0, 0)) % 1024 == 0);
  CHECK(smem.offset(&smem.sB()(0, 0, 0)) % 1024 == 0);
  CHECK(smem.offset(&smem.sC()(0, 0, 0)) == 4 * Default::kStageBytes);  // after the ring: not a union any more
  CHECK(smem.offset(&smem.storage->full[0]) == 4 * Default::kStageBytes + 2 * Default::kSubtileBytes);
  CHECK(smem.offset(&smem.storage->empty[0]) == 4 * Default::kStageBytes + 2 * Default::kSubtileBytes + 4 * 8);
}

TEST_CASE("the printout: the visits, the ring across a tile boundary, the epilogue's subtiles", "[step12]") {
  tut::Options o;
  o.problem = step12::step().defaults;  // 300 x 600 x 512: tiles 3 x 3, 8 k-tiles
  std::string const out = trace_of(o);
  auto has = [&](std::string const& text) { return out.find(text) != std::string::npos; };
  CHECK(has("smem       230400 bytes per CTA"));
  CHECK(has("the launch starts min(132, tiles) = 9 CTAs for 9 tiles (3 x 3)"));
  CHECK(has("CTA 0      1 tile: (0,0)"));
  CHECK(has("tCsC       (((2,2,4),1),8):(((1,256,8),0),0)"));
  o.problem = {2100, 4300, 136};  // 17 x 17 tiles, 3 k-tiles
  o.tile = {16, 1};
  std::string const visits = trace_of(o);
  // 289 tiles for 132 CTAs: CTAs 0..24 take 3 tiles, the others 2.
  CHECK(visits.find("the launch starts min(132, tiles) = 132 CTAs for 289 tiles (17 x 17)") != std::string::npos);
  CHECK(visits.find("empty[2] in the epilogue") != std::string::npos);  // 3 k-tiles: the last is in stage 2
  CHECK(visits.find("0      0       0      parity 1 (passes: fresh)") != std::string::npos);
  CHECK(visits.find("1      0       3      parity 1 (passes: fresh)") != std::string::npos);  // the ring runs on
  CHECK(visits.find("1      1       0      parity 0 (4 k-tiles earlier read)") != std::string::npos);
  CHECK(visits.find("(first: epi_done") == std::string::npos);  // C has buffers of its own: no wait for the epilogue
}

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
#include "pipeline.hpp"
#include "step10_warp_specialized.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"

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
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    // The kernel's own tensors over its SharedStorage: CuTe applies an smem layout's swizzle to the
    // pointer, in bytes, so the byte offsets below are the ones the kernel's sA(m,k,s) address.
    tut::HostSmem<Cfg> smem;
    auto check = [&](auto const& s_tensor) {
      int const rows = size<0>(s_tensor), cols = size<1>(s_tensor), stages = size<2>(s_tensor);
      std::int64_t const base = smem.offset(&s_tensor(0, 0, 0));
      REQUIRE(base % 1024 == 0);  // wgmma's descriptors assume the pattern starts on a 1 KB boundary
      REQUIRE(stages == Cfg::kStages);
      REQUIRE(cols == 64);  // 128 bytes of halves: one swizzle row
      std::vector<int> hits(std::size_t(rows * cols * stages), 0);
      for (int s = 0; s < stages; ++s)
        for (int mn = 0; mn < rows; ++mn)
          for (int k = 0; k < cols; ++k) {
            std::int64_t const byte = smem.offset(&s_tensor(mn, k, s)) - base;
            // wgmma's "128B swizzle" mode: rows of 128 bytes, 8 to a 1 KB atom, atoms stacked along mn; in
            // row r of an atom the 16-byte chunk c is stored at c ^ r (CU_TENSOR_MAP_SWIZZLE_128B too).
            int const chunk = (k / 8) ^ (mn % 8);
            REQUIRE(byte == s * rows * 128 + (mn / 8) * 1024 + (mn % 8) * 128 + chunk * 16 + (k % 8) * 2);
            ++hits[std::size_t(byte / 2)];
          }
      for (int h : hits) REQUIRE(h == 1);
    };
    check(smem.sA());
    check(smem.sB());
  });
  CHECK(plain(step10::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step10]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    using Atom = typename Cfg::TiledMma::Atom;
    constexpr int BLK_N = size<1>(typename Cfg::CtaTiler{});
    typename Atom::Traits::CLayout c_layout;  // (T128,V) -> m + 64·n of a 64×BLK_N tile
    REQUIRE(int(size<0>(c_layout)) == 128);
    REQUIRE(int(size<1>(c_layout)) == 64 * BLK_N / 128);
    std::set<int> seen;
    for (int t = 0; t < 128; ++t)
      for (int v = 0; v < int(size<1>(c_layout)); ++v) {
        // The PTX ISA's wgmma .m64nNk16 D fragment: warp w of the warpgroup holds rows 16w..16w+15; lane l
        // holds row l/4 (+8 for v%4 >= 2) of them, cols 2(l%4) + v%2 of the 8-column group v/4.
        int const row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((v / 2) % 2);
        int const col = 8 * (v / 4) + 2 * (t % 4) + v % 2;
        REQUIRE(int(c_layout(t, v)) == row + 64 * col);
        seen.insert(row + 64 * col);
      }
    CHECK(int(seen.size()) == 64 * BLK_N);  // every entry of the tile, once
    // A and B come from smem: every thread of the warpgroup names the whole 64x16 (BLK_Nx16) tile.
    CHECK(plain(typename Atom::Traits::ALayout{}) == "(128,(64,16)):(0,(1,64))");
    CHECK(plain(typename Atom::Traits::BLayout{}) == "(128,(" + std::to_string(BLK_N) + ",16)):(0,(1," +
                                                         std::to_string(BLK_N) + "))");
  });
}

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step10]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::TiledMma mma;
    typename Cfg::CtaTiler tiler;
    int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
    int const rows_per_wg = bm / Cfg::kConsumers;
    Tensor cA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
    Tensor cB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
    Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
    std::vector<int> owner(std::size_t(bm * bn), -1);
    for (int t = 0; t < Cfg::kMmaThreads; ++t) {
      auto thr = mma.get_slice(t);
      int const wg = t / 128;
      // A: the warpgroup's rows 64wg.., every k, each once; B: the whole tile, each once.
      std::set<std::pair<int, int>> a, b;
      Tensor tCcA = thr.partition_A(cA);
      for (int i = 0; i < int(size(tCcA)); ++i) {
        int const m = get<0>(tCcA(i)), k = get<1>(tCcA(i));
        REQUIRE(m / rows_per_wg == wg);
        a.insert({m, k});
      }
      REQUIRE(int(a.size()) == rows_per_wg * bk);
      REQUIRE(int(size(tCcA)) == rows_per_wg * bk);
      Tensor tCcB = thr.partition_B(cB);
      for (int i = 0; i < int(size(tCcB)); ++i) b.insert({get<0>(tCcB(i)), get<1>(tCcB(i))});
      REQUIRE(int(b.size()) == bn * bk);
      // C: the wgmma fragment of the warpgroup's rows, each entry of the CTA tile owned by one thread.
      Tensor tCcC = thr.partition_C(cC);
      REQUIRE(int(size(tCcC)) == bm * bn / Cfg::kMmaThreads);
      for (int i = 0; i < int(size(tCcC)); ++i) {
        int const m = get<0>(tCcC(i)), n = get<1>(tCcC(i));
        REQUIRE(m / rows_per_wg == wg);
        int const l = t % 128;
        REQUIRE(m % 64 % 8 == l % 32 / 4);  // the lane's row within each 8-row group (the D fragment)
        REQUIRE(m % 64 / 16 == l / 32);     // warp w of the warpgroup: rows 16w..16w+15
        REQUIRE(n % 8 / 2 == l % 4);        // the lane's column pair within each 8-column group
        int& o = owner[std::size_t(m * bn + n)];
        REQUIRE(o == -1);
        o = t;
      }
    }
    for (int o : owner) REQUIRE(o >= 0);
  });
}

namespace {

// The mbarrier protocol of the kernel, run by a scheduler that picks any actor able to move: one producer
// thread, CONSUMERS consumer warpgroups, and the TMA unit delivering bytes whenever it likes. Barriers are
// modelled as the PTX ISA states them: a phase completes when its pending arrivals (and expected
// transaction bytes) reach zero; wait(parity p) returns iff the current phase's parity is not p.
template <int STAGES>
struct PipelineModel {
  struct Barrier {
    int expected = 0;   // arrivals per phase
    int pending = 0;    // arrivals still missing in the current phase
    int tx = 0;         // transaction bytes still missing
    int phase = 0;      // phases completed
    bool passes(std::uint32_t parity) const { return std::uint32_t(phase % 2) != parity; }
    void complete_if_done() {
      if (pending == 0 && tx == 0) {
        ++phase;
        pending = expected;
      }
    }
    void arrive() {
      --pending;
      complete_if_done();
    }
  };
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
  std::mt19937 rng(seed);
  int const actors = 2 + consumers;
  while (!p.done()) {
    std::vector<int> order(static_cast<std::size_t>(actors));
    for (int a = 0; a < actors; ++a) order[std::size_t(a)] = a;
    std::shuffle(order.begin(), order.end(), rng);
    bool moved = false;
    for (int a : order)
      if ((moved = p.step(a))) break;
    REQUIRE(moved);  // someone can always move until the end: no deadlock
  }
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
  auto const steps = step10::barrier_schedule<S>(11);
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
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    tut::HostSmem<Cfg> smem;
    Tensor sC = smem.sC();                          // (BLK_M,BLK_N)
    Tensor csC = make_identity_tensor(product_each(shape(sC)));  // (BLK_M,BLK_N) -> (m,n)
    int const bm = size<0>(sC), bn = size<1>(sC);
    REQUIRE(int(cosize(sC.layout())) == bm * bn);
    // The MMA's stores: each lane's (v0,v1) pair is 8 contiguous bytes, one 64-bit store. The hardware
    // serves a 64-bit store in two phases of 16 lanes (128 bytes each): conflict-free when each phase's
    // 32 words fall in 32 different banks.
    typename Cfg::TiledMma mma;
    for (int warp = 0; warp < Cfg::kMmaThreads / 32; ++warp) {
      std::vector<std::vector<std::int64_t>> bytes(32);
      for (int lane = 0; lane < 32; ++lane) {
        Tensor tCsC = mma.get_slice(32 * warp + lane).partition_C(sC);  // (MMA,MMA_M,MMA_N)
        for (int i = 0; i < int(size(tCsC)); i += 2) {
          REQUIRE(&tCsC(i + 1) == &tCsC(i) + 1);  // v0, v1: two adjacent floats, through the swizzle
          REQUIRE(smem.offset(&tCsC(i)) % 8 == 0);
          bytes[std::size_t(lane)].push_back(smem.offset(&tCsC(i)));
        }
      }
      for (std::size_t p = 0; p < bytes[0].size(); ++p)
        for (int half = 0; half < 2; ++half) {
          CAPTURE(warp, p, half);
          std::set<std::int64_t> banks;
          for (int lane = 16 * half; lane < 16 * half + 16; ++lane)
            for (int w = 0; w < 2; ++w) banks.insert((bytes[std::size_t(lane)][p] / 4 + w) % 32);
          REQUIRE(banks.size() == 32);  // 16 lanes x 2 words: every bank once, 1 wavefront
        }
    }
    // The epilogue's copy: every (m,n) once, 4 consecutive n per chunk, 16 contiguous bytes of sC and of a
    // row-major gC; a warp's instruction covers whole rows (the 128-bit loads: 8 chunks of one bank row
    // per phase, so conflict-free too).
    typename Cfg::TiledCopyC copy_c;
    std::map<std::pair<int, int>, int> seen;
    int const N = 1000;  // a row-major C whose rows start 16-byte aligned (N % 4 == 0), wider than the tile
    std::vector<float> g(std::size_t(bm) * N);
    Tensor gC = make_tensor(make_gmem_ptr(g.data()), make_layout(make_shape(bm, bn), make_stride(N, Int<1>{})));
    for (int warp = 0; warp < Cfg::kMmaThreads / 32; ++warp) {
      // Per lane and instruction j: the chunk's 16-byte bank group in sC, and its (m, first n).
      std::vector<std::vector<std::int64_t>> group(32);
      std::vector<std::vector<std::pair<int, int>>> first(32);
      for (int lane = 0; lane < 32; ++lane) {
        auto thr = copy_c.get_slice(32 * warp + lane);
        Tensor c = group_modes<1, 3>(thr.partition_S(csC));  // (CPY,chunk) -> (m,n)
        Tensor s = group_modes<1, 3>(thr.partition_S(sC));   // (CPY,chunk) -> smem
        Tensor d = group_modes<1, 3>(thr.partition_D(gC));   // (CPY,chunk) -> gmem
        REQUIRE(int(size<0>(c)) == 4);
        for (int j = 0; j < int(size<1>(c)); ++j) {
          REQUIRE(smem.offset(&s(0, j)) % 16 == 0);
          REQUIRE((&d(0, j) - g.data()) % 4 == 0);
          for (int e = 0; e < 4; ++e) {
            ++seen[{int(get<0>(c(e, j))), int(get<1>(c(e, j)))}];
            REQUIRE(get<0>(c(e, j)) == get<0>(c(0, j)));
            REQUIRE(get<1>(c(e, j)) == get<1>(c(0, j)) + e);
            REQUIRE(&s(e, j) == &s(0, j) + e);
            REQUIRE(&d(e, j) == &d(0, j) + e);
          }
          group[std::size_t(lane)].push_back(smem.offset(&s(0, j)) / 16 % 8);
          first[std::size_t(lane)].push_back({int(get<0>(c(0, j))), int(get<1>(c(0, j)))});
        }
      }
      for (std::size_t j = 0; j < group[0].size(); ++j) {
        CAPTURE(warp, j);
        // The 128-bit loads: phase p (lanes 8p..8p+7) reads 8 chunks covering the 8 bank groups.
        for (int phase = 0; phase < 4; ++phase) {
          std::set<std::int64_t> groups;
          for (int l = 8 * phase; l < 8 * phase + 8; ++l) groups.insert(group[std::size_t(l)][j]);
          REQUIRE(groups.size() == 8);
        }
        // The stores: 32 chunks, whole rows of gC (bn/4 lanes a row), contiguous in each row.
        std::map<int, std::set<int>> cols_of_row;
        for (int lane = 0; lane < 32; ++lane) {
          auto const [m, n] = first[std::size_t(lane)][j];
          for (int e = 0; e < 4; ++e) cols_of_row[m].insert(n + e);
        }
        for (auto const& [row, cols] : cols_of_row) {
          CAPTURE(row);
          REQUIRE(int(cols.size()) == std::min(bn, 128));  // 32 lanes x 4 floats: whole rows, or 128 of one
          REQUIRE(*cols.rbegin() - *cols.begin() + 1 == int(cols.size()));  // contiguous
        }
      }
    }
    REQUIRE(int(seen.size()) == bm * bn);
    for (auto const& [mn, n] : seen) REQUIRE(n == 1);
  });
}

TEST_CASE("the epilogue's masks at every coordinate of ragged problems: each entry of C stored once", "[step10]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 600}, {1, 1}, {7, 13}, {131, 260}, {300, 301}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) {
    using Cfg = decltype(cfg);
    auto lc = step10::make_layout_C(M, N);
    typename Cfg::CtaTiler cta_tiler;
    int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
    std::vector<int> stored(std::size_t(M) * N, 0);
    for (int bx = 0; bx < gx; ++bx)
      for (int by = 0; by < gy; ++by) {
        Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, make_coord(bx, by, _), Step<_1, _1, X>{});
        for (int t = 0; t < Cfg::kMmaThreads; ++t) {
          CAPTURE(bx, by, t);
          Tensor tDcC = typename Cfg::TiledCopyC{}.get_slice(t).partition_D(cC);
          Tensor tDpC = tut::make_mask(tDcC, shape(lc));
          for (int i = 0; i < int(size(tDcC)); ++i) {
            int const m = get<0>(tDcC(i)), n = get<1>(tDcC(i));
            REQUIRE(bool(tDpC(i)) == (m < M && n < N));
            if (tDpC(i)) ++stored[std::size_t(m) * N + n];
          }
        }
      }
    for (int n : stored) REQUIRE(n == 1);
  });
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

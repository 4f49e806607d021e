// Host tests of step 13: one consumer warpgroup per tile, the two in turn. The tile is step 12's
// 128x128, so step 12's checks of the ring, the accumulators and the partitions run on it with a
// TiledMMA of one warpgroup; the epilogue's subtiles now take values from two 64-row halves. What is
// new is checked as a protocol: a model of the producer, the TMA unit and the two warpgroups, epilogues
// included, driven by a random scheduler, with mbarriers that answer a parity wait as the hardware does.
// It asserts that every wait returns in the phase it meant, that no stage is refilled while read, that
// every k-tile is read once, by the warpgroup of its tile, that no epilogue buffer is written while a
// store reads it, and that every subtile is stored; given the bugs the step plants, no turns at all, or
// step 12's shared epilogue buffers, it fails. Each warpgroup is one agent here: the drift between a
// warpgroup's four warps, which is why the kernel's turn[w] counts all 128 of its threads, is not modelled
// (the owner test at 1100x8001x8 on the GPU is what showed it).
#include <cstdint>
#include <deque>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step13_pingpong.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"

using namespace cute;
using step13::Default;
using step13::RingState;
using tut::plain;

namespace {

std::string trace_of(tut::Problem p) {
  tut::Options o;
  o.problem = p;
  std::ostringstream os;
  tut::variant_for(step13::step(), o).trace(os, o);
  return os.str();
}

// An mbarrier as the model sees it: how many phases have completed, and the arrivals still pending in
// the current one. A wait for parity P returns once the phase of parity P has completed, which is all the
// hardware can tell: it succeeds while the number of completed phases has the other parity, so a wait
// meant for phase n also succeeds in phase n - 2 (the model checks which one it got).
struct Barrier {
  int expected = 1;
  int pending = 1;
  int completed = 0;
  void arrive() {
    if (--pending == 0) {
      ++completed;
      pending = expected;
    }
  }
  bool passes(std::uint32_t parity) const { return std::uint32_t(completed & 1) != parity; }
};

// What can go wrong in the model's kernel: the kernel as written, without the turns, step 13's bugs, or
// step 12's epilogue buffers (both warpgroups writing buffers 0 and 1).
enum class Fault { none, no_turns, empty_waits_for_both, store_by_thread_0, shared_buffers };

struct Outcome {
  bool deadlock = false;     // no actor can move, and not all are done
  std::string error;         // the first broken rule, if any
  int reads = 0;             // k-tiles read by the warpgroups
};

// The kernel's protocol for one CTA: `visits` tiles of `k_tiles` k-tiles each through a ring of `S`
// stages; warpgroup w takes visits w, w+2, ... . One step of the scheduler moves one actor by one action:
// the producer (wait empty, issue the TMA), the TMA unit (one of its loads lands, in any order; or the
// oldest store some thread issued finishes reading its buffer), or a warpgroup (wait its turn, wait
// full, wgmma with the previous stage released, the last release, then one subtile of its epilogue:
// its storer's tma_store_wait<BUFFERS-1>, the subtile written into its buffer, the store issued).
template <int S>
Outcome run_protocol(int visits, int k_tiles, Fault fault, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Barrier> full(S), empty(S), turn(2);
  for (auto& b : full) b.expected = b.pending = 2;  // the producer's arrive.expect_tx, then the TMA's bytes
  for (auto& b : empty) b.expected = b.pending = fault == Fault::empty_waits_for_both ? 2 : 1;
  int const total = visits * k_tiles;
  std::vector<int> in_stage(S, -1);     // the k-tile a stage holds (-1: none yet)
  std::vector<int> readers(S, 0);       // warpgroups reading a stage now (read, not yet released)
  std::vector<int> read_by(std::size_t(total), -1);
  std::vector<int> in_flight;           // loads issued, not landed: k-tile numbers
  // Bulk stores belong to the thread that issued them, and complete in order: one queue per warpgroup's
  // storer, of the buffers its stores still read.
  std::vector<std::deque<int>> stores(2);
  std::vector<int> subtiles_stored(std::size_t(visits), 0);
  int const subtiles = Default::kSubtiles;
  Outcome out;
  int produced = 0;                     // the producer's next k-tile
  struct Consumer {
    int visit;
    int k = 0;                 // the next k-tile of the visit to read; k_tiles: the last release is due
    bool waited_turn = false;
    int held = -1;             // the stage read last, to release one k-tile later
    int subtile = -1;          // in the epilogue: the next subtile to store (-1: not there yet)
  };
  std::vector<Consumer> wg = {{0}, {1}};
  auto fail = [&](std::string const& e) {
    if (out.error.empty()) out.error = e;
  };
  for (int guard = 0; guard < 1000000 && out.error.empty(); ++guard) {
    std::vector<int> movable;  // 0: producer, 1: TMA unit, 2 + w: warpgroup w
    if (produced < total) {
      RingState<S> const w = RingState<S>::at(produced);
      if (empty[std::size_t(w.index)].passes(w.producer_parity())) movable.push_back(0);
    }
    if (!in_flight.empty() || !stores[0].empty() || !stores[1].empty()) movable.push_back(1);
    // The thread that issues warpgroup w's stores and waits for them (--bug store_by_thread_0: thread 0,
    // warpgroup 0's, for both; warpgroup 1 has none).
    auto storer = [&](int w) { return fault == Fault::store_by_thread_0 ? (w == 0 ? 0 : -1) : w; };
    for (int w = 0; w < 2; ++w) {
      Consumer const& c = wg[std::size_t(w)];
      if (c.visit >= visits) continue;
      if (c.visit > 0 && !c.waited_turn && fault != Fault::no_turns) {
        if (turn[std::size_t(w)].passes(step13::turn_parity(c.visit))) movable.push_back(2 + w);
        continue;
      }
      if (c.subtile >= 0) {  // the epilogue: the storer's tma_store_wait<BUFFERS-1> first
        int const t = storer(w);
        if (t < 0 || int(stores[std::size_t(t)].size()) <= step13::kEpiBuffers - 1) movable.push_back(2 + w);
        continue;
      }
      if (c.k == k_tiles) {
        movable.push_back(2 + w);  // the epilogue's release of the last stage
        continue;
      }
      RingState<S> const r = RingState<S>::at(c.visit * k_tiles + c.k);
      if (full[std::size_t(r.index)].passes(r.consumer_parity())) movable.push_back(2 + w);
    }
    if (movable.empty()) {  // all done, or stuck
      out.deadlock = wg[0].visit < visits || wg[1].visit < visits || produced < total;
      if (out.deadlock) return out;
      break;
    }
    int const who = movable[std::uint32_t(rng()) % movable.size()];
    if (who == 0) {  // the producer: its wait passed; the stage must be free of readers and of old data
      RingState<S> const w = RingState<S>::at(produced);
      if (empty[std::size_t(w.index)].completed != produced / S)
        fail("the producer's empty wait for k-tile " + std::to_string(produced) + " returned in the wrong phase");
      full[std::size_t(w.index)].arrive();  // arrive.expect_tx: the phase now waits for the bytes
      in_flight.push_back(produced++);
    } else if (who == 1 && (in_flight.empty() || (rng() % 3 == 0 && !(stores[0].empty() && stores[1].empty())))) {
      // the TMA unit: a thread's oldest store finishes reading its buffer
      std::size_t t = rng() % 2;
      if (stores[t].empty()) t = 1 - t;
      stores[t].pop_front();
    } else if (who == 1) {  // the TMA unit: one of the loads in flight lands
      std::size_t const i = std::uint32_t(rng()) % in_flight.size();
      int const p = in_flight[i];
      in_flight.erase(in_flight.begin() + std::ptrdiff_t(i));
      int const s = p % S;
      if (readers[std::size_t(s)] > 0) fail("k-tile " + std::to_string(p) + " lands in a stage still being read");
      in_stage[std::size_t(s)] = p;
      full[std::size_t(s)].arrive();
    } else {
      int const w = who - 2;
      Consumer& c = wg[std::size_t(w)];
      if (c.visit > 0 && !c.waited_turn && fault != Fault::no_turns) {
        if (turn[std::size_t(w)].completed != (c.visit - 1) / 2 + 1)
          fail("warpgroup " + std::to_string(w) + "'s turn wait before visit " + std::to_string(c.visit) +
               " returned in the wrong phase");
        c.waited_turn = true;
        continue;
      }
      auto release = [&](int stage) {
        --readers[std::size_t(stage)];
        empty[std::size_t(stage)].arrive();
      };
      if (c.subtile >= 0) {  // one subtile: into the warpgroup's buffer, then the storer issues its store
        int const buffer = fault == Fault::shared_buffers ? c.subtile % step13::kEpiBuffers
                                                          : step13::epi_buffer(w, c.subtile);
        for (auto const& q : stores)
          for (int b : q)
            if (b == buffer)
              fail("warpgroup " + std::to_string(w) + " writes buffer " + std::to_string(buffer) +
                   " while a store still reads it");
        if (int const t = storer(w); t >= 0) {
          stores[std::size_t(t)].push_back(buffer);
          ++subtiles_stored[std::size_t(c.visit)];
        }
        if (++c.subtile == subtiles) c = Consumer{c.visit + 2};  // on to the warpgroup's next tile
        continue;
      }
      if (c.k == k_tiles) {  // the epilogue begins: release the last stage
        release(c.held);
        c.subtile = 0;
        continue;
      }
      int const p = c.visit * k_tiles + c.k;
      RingState<S> const r = RingState<S>::at(p);
      if (full[std::size_t(r.index)].completed != p / S + 1 || in_stage[std::size_t(r.index)] != p)
        fail("warpgroup " + std::to_string(w) + " read stage " + std::to_string(r.index) + " for k-tile " +
             std::to_string(p) + ", which holds k-tile " + std::to_string(in_stage[std::size_t(r.index)]));
      if (read_by[std::size_t(p)] != -1) fail("k-tile " + std::to_string(p) + " read twice");
      read_by[std::size_t(p)] = w;
      ++readers[std::size_t(r.index)];
      ++out.reads;
      if (c.k == k_tiles - 1) turn[std::size_t(1 - w)].arrive();  // the tile's last k-tile: the other's turn
      if (c.held >= 0) release(c.held);                            // the previous k-tile's wgmmas are done
      c.held = r.index;
      ++c.k;
    }
  }
  if (out.error.empty() && (wg[0].visit < visits || wg[1].visit < visits))
    fail("the model ran out of steps");
  for (int p = 0; p < total && out.error.empty(); ++p)
    if (read_by[std::size_t(p)] != (p / k_tiles) % 2)
      fail("k-tile " + std::to_string(p) + " was read by warpgroup " + std::to_string(read_by[std::size_t(p)]));
  for (int v = 0; v < visits && out.error.empty(); ++v)
    if (subtiles_stored[std::size_t(v)] != subtiles)
      fail("tile " + std::to_string(v) + ": " + std::to_string(subtiles_stored[std::size_t(v)]) + " of " +
           std::to_string(subtiles) + " subtiles stored");
  return out;
}

}  // namespace

TEST_CASE("the ring, the accumulators and the partitions: step 12's 128x128 tile, on one warpgroup", "[step13]") {
  gemm_checks::check_sw128_ring<Default>();
  gemm_checks::check_wgmma_accumulators<Default>();
  gemm_checks::check_warpgroup_partitions<Default>();
  CHECK(int(size(typename Default::TiledMma{})) == 128);
  CHECK(plain(typename Default::TiledMma::AtomShape_MNK{}) == "(64,128,16)");
  CHECK(plain(typename Default::SmemLayoutB{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,6)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the epilogue's subtiles: values from both 64-row halves, each buffer entry once", "[step13]") {
  gemm_checks::check_epilogue_subtiles<Default, step13::kEpiN, step13::kEpiBuffers * Default::kConsumers>(
      [](auto, auto&& t) { return step13::by_subtile<Default::kSubtiles>(t); });
  CHECK(Default::kSubtiles == 8);
  CHECK(Default::kSubtileBytes == 8192);
  // Thread 0's subtile 0: 4 values in each of rows 0, 8, 64 and 72, columns 0, 1, 8 and 9.
  Tensor cC = make_identity_tensor(make_shape(Int<128>{}, Int<128>{}));
  Tensor t0 = step13::by_subtile<8>(typename Default::TiledMma{}.get_slice(0).partition_C(cC));
  CHECK(plain(shape(t0)) == "(((2,2,2),2),8)");  // ((PER,MMA_M),SUBTILES): PER = 8, as (2,2,2)
  std::set<std::pair<int, int>> sub0;
  for (int v = 0; v < 16; ++v) sub0.insert({get<0>(t0(v, 0)), get<1>(t0(v, 0))});
  CHECK(sub0 == std::set<std::pair<int, int>>{{0, 0}, {0, 1}, {8, 0}, {8, 1}, {0, 8}, {0, 9}, {8, 8}, {8, 9},
                                              {64, 0}, {64, 1}, {72, 0}, {72, 1}, {64, 8}, {64, 9}, {72, 8}, {72, 9}});
}

TEST_CASE("the ring positions: RingState::at(p) is p advances from stage 0; each warpgroup's tiles", "[step13]") {
  constexpr int S = Default::kStages;
  RingState<S> r;
  for (int p = 0; p < 500; ++p) {
    RingState<S> const a = RingState<S>::at(p);
    REQUIRE(a.index == r.index);
    REQUIRE(a.phase == r.phase);
    r.advance();
  }
  // Visit v of a CTA reads its k-tiles at v*K ..: with K = 8, visit 1 (warpgroup 1) starts in stage 2, lap 1.
  CHECK(RingState<S>::at(1 * 8).index == 2);
  CHECK(RingState<S>::at(1 * 8).consumer_parity() == 1);
  CHECK(step13::turn_parity(1) == 0);  // warpgroup 1's first turn: the first phase of turn[1]
  CHECK(step13::turn_parity(2) == 0);  // warpgroup 0's first turn: the first phase of turn[0]
  CHECK(step13::turn_parity(3) == 1);
  CHECK(step13::turn_parity(4) == 1);
  CHECK(step13::turn_parity(5) == 0);
}

TEST_CASE("the protocol: every wait in its phase, no stage refilled while read, each k-tile once, by its tile's warpgroup",
          "[step13]") {
  int runs = 0;
  for (int visits : {1, 2, 3, 5, 8})
    for (int k_tiles : {1, 2, 5, 6, 7, 13, 20})
      for (std::uint32_t seed = 0; seed < 12; ++seed) {
        CAPTURE(visits, k_tiles, seed);
        Outcome const o = run_protocol<Default::kStages>(visits, k_tiles, Fault::none, seed);
        REQUIRE(o.error.empty());
        REQUIRE_FALSE(o.deadlock);
        REQUIRE(o.reads == visits * k_tiles);
        ++runs;
      }
  CHECK(runs == 420);
  // A short ring too: 2 stages, where the laps come fastest.
  for (std::uint32_t seed = 0; seed < 50; ++seed) {
    Outcome const o = run_protocol<2>(6, 5, Fault::none, seed);
    REQUIRE(o.error.empty());
    REQUIRE_FALSE(o.deadlock);
  }
}

TEST_CASE("the protocol's model catches the faults: no turns, and step 12's empty barriers", "[step13]") {
  // Without turns a warpgroup waits for k-tiles of its next tile while the other's are still in the
  // ring: when they lie a lap or more ahead, some interleaving passes a wait in the phase before.
  int caught = 0;
  for (std::uint32_t seed = 0; seed < 40; ++seed) {
    Outcome const o = run_protocol<Default::kStages>(4, 8, Fault::no_turns, seed);
    if (!o.error.empty() || o.deadlock) ++caught;
  }
  CHECK(caught > 0);
  // With K no larger than the ring, no wait can run a lap ahead: the turns only order the tensor cores.
  for (std::uint32_t seed = 0; seed < 40; ++seed)
    CHECK(run_protocol<Default::kStages>(2, 3, Fault::no_turns, seed).error.empty());
  // Step 12's empty barriers, waiting for both warpgroups: the producer stops after one lap, at once.
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    Outcome const o = run_protocol<Default::kStages>(1, 8, Fault::empty_waits_for_both, seed);
    CHECK(o.error.empty());
    CHECK(o.deadlock);
    CHECK(o.reads == Default::kStages);  // the first lap, and no further
  }
  // One lap is all a problem with K <= 384 needs: the bug hides there.
  CHECK_FALSE(run_protocol<Default::kStages>(1, 6, Fault::empty_waits_for_both, 1).deadlock);
}

TEST_CASE("the epilogue in the model: each warpgroup's stores through its own buffers, every subtile stored",
          "[step13]") {
  CHECK(step13::epi_buffer(0, 0) == 0);
  CHECK(step13::epi_buffer(0, 7) == 1);
  CHECK(step13::epi_buffer(1, 0) == 2);
  CHECK(step13::epi_buffer(1, 5) == 3);
  // --bug store_by_thread_0: thread 0 issues warpgroup 0's stores; warpgroup 1's tiles are never stored.
  for (std::uint32_t seed = 0; seed < 10; ++seed) {
    Outcome const o = run_protocol<Default::kStages>(2, 3, Fault::store_by_thread_0, seed);
    CHECK(o.error == "tile 1: 0 of 8 subtiles stored");
    // With one tile per CTA, warpgroup 1 has nothing to store: the bug hides (the GPU check uses 2048^2).
    CHECK(run_protocol<Default::kStages>(1, 3, Fault::store_by_thread_0, seed).error.empty());
  }
  // Step 12's buffers, 0 and 1 for both warpgroups: while one warpgroup's store still reads a buffer, the
  // other, which waits only for its own stores, writes its subtile there. Some interleaving does.
  int caught = 0;
  for (std::uint32_t seed = 0; seed < 60; ++seed) {
    std::string const e = run_protocol<Default::kStages>(4, 2, Fault::shared_buffers, seed).error;
    if (e.find("while a store still reads it") != std::string::npos) ++caught;
  }
  CHECK(caught > 0);
}

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step13]") {
  tut::Step const& s = step13::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.k == 8);
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x128");
  CHECK(s.variants[0].threads == 128);  // the TiledMMA's: one warpgroup numbers the owners of a tile
  CHECK(s.variants[0].schedule.ctas == 132);
  CHECK_FALSE(s.choose);
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step13_pingpong needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  CHECK(tut::unsupported(s, {1000, 999, 776}).empty());
}

TEST_CASE("smem: step 12's ring, four 8 KB C buffers, the barriers, within an H100 block's 227 KB", "[step13]") {
  CHECK(Default::kSmemBytes == 230400);
  CHECK(Default::kStageBytes == 32768);
  CHECK(Default::kThreads == 384);
  CHECK(sizeof(Default::Smem::mainloop) == 6 * 32768);
  tut::HostSmem<Default> smem;
  Tensor sC = smem.sC();
  CHECK(plain(shape(sC)) == "((8,16),(16,1),(1,4))");
  CHECK(smem.offset(&sC(0, 0, 3)) - smem.offset(&sC(0, 0, 0)) == 3 * 8192);
}

TEST_CASE("the printout: the warpgroups' visits, their k-tiles in the ring, the turns", "[step13]") {
  auto has = [](std::string const& out, std::string const& text) { return out.find(text) != std::string::npos; };
  // 2048 x 2048 x 512: 256 tiles for 132 CTAs; CTA 0 takes tiles 0 and 132, K = 8 k-tiles each.
  std::string const out = trace_of({2048, 2048, 512});
  CHECK(has(out, "cta_tiler  (128,128,64)"));
  CHECK(has(out, "SM90_64x128x16_F32F16F16_SS<K,K> x warpgroups (1,1,1)"));
  CHECK(has(out, "    0      (0,0)     0          0..7                  0, 0 (parity 0)     -\n"));
  CHECK(has(out, "    1      (12,0)    1          8..15                 2, 1 (parity 1)     wait turn[1], parity 0\n"));
  CHECK(has(out, "(CTA 0, 2 visits.)"));
  std::string const one = trace_of({300, 600, 512});
  CHECK(has(one, "(CTA 0, 1 visit: warpgroup 1 has no tile.)"));
}

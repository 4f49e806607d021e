// Host tests of step 07: the staged swizzle, the cp.async partition of every stage, ldmatrix's lanes
// against the PTX ISA's description of ldmatrix and mma.sync (the registers it fills are the MMA's
// fragments), bank-conflict-free ldmatrix phases and epilogue accesses, the epilogue's partition, the
// pipeline's schedule, the masks, and the sizes the step runs.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "gemm_checks.hpp"
#include "step07_multistage.hpp"
#include "tut/format.hpp"
#include "tut/ldmatrix_rows.hpp"
#include "tut/mask.hpp"
#include "tut/pipe_schedule.hpp"

using namespace cute;
using step07::Default;
using step07::Small;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step07::Variants{});
}

template <class Cfg>
std::string name_of() {
  return std::is_same_v<Cfg, Default> ? "256x128" : "128x128";
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step07::step(), o.variant).trace(os, o);
  return os.str();
}

// partition_A or partition_B, and how many warps read each element of the operand.
struct PA {
  int readers;
  template <class Thr, class T>
  auto operator()(Thr const& thr, T const& t) const { return thr.partition_A(t); }
};
struct PB {
  int readers;
  template <class Thr, class T>
  auto operator()(Thr const& thr, T const& t) const { return thr.partition_B(t); }
};

}  // namespace

TEST_CASE("the staged smem: each stage a swizzled bijection of its own bytes, 16-byte chunks whole", "[step07]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    auto check = [](auto const& layout) {
      int const rows = size<0>(layout), cols = size<1>(layout), stages = size<2>(layout);
      REQUIRE(stages == Cfg::kStages);
      REQUIRE(int(cosize(layout)) == rows * cols * stages);
      std::vector<int> hits(std::size_t(rows * cols * stages), 0);
      for (int s = 0; s < stages; ++s)
        for (int mn = 0; mn < rows; ++mn)
          for (int k = 0; k < cols; ++k) {
            int const i = int(layout(mn, k, s));
            REQUIRE(i / (rows * cols) == s);  // stage s holds its own BLK_MN*BLK_K halves
            ++hits[std::size_t(i)];
            REQUIRE(i % 8 == k % 8);          // a chunk's 8 halves stay together and in order
            // Swizzle<3,3,3> within one 8-row atom: chunk XOR (index bits 6..8).
            int const plain_i = (mn % 8) * cols + k;
            int const atom = i - (i % (8 * cols));
            REQUIRE(i - atom == (plain_i ^ (((plain_i >> 6) & 7) << 3)));
          }
      for (int h : hits) REQUIRE(h == 1);
    };
    check(typename Cfg::SmemLayoutA{});
    check(typename Cfg::SmemLayoutB{});
  });
}

TEST_CASE("the cp.async partition covers every stage once, in 16-byte chunks on both sides", "[step07]") {
  for_each_config([](auto cfg) {
    INFO(name_of<decltype(cfg)>());
    gemm_checks::check_cp_async_partition<decltype(cfg)>();
  });
}

// The PTX ISA's ldmatrix .x4: lane l names row l%8 of matrix l/8; lane l receives, of matrix j, row l/4 at
// elements 2(l%4) and 2(l%4)+1, in its register j. Here every warp's every ldmatrix of a stage is run on
// coordinates by that rule, and what lands in each register must be what the MMA partition says the
// register holds (partition_A/B of the same smem, retiled as the kernel retiles tCrA/tCrB).
TEST_CASE("ldmatrix: each lane names one 16-byte row, and fills exactly the MMA's fragment", "[step07]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    tut::HostSmem<Cfg> smem;
    typename Cfg::TiledMma mma;
    auto check = [&](auto const& s2r, auto const& s, auto const& partition) {
      Tensor cs = make_identity_tensor(product_each(shape(s(_, _, 0))));  // (BLK_MN,BLK_K) -> (mn,k)
      int checked = 0;
      for (int warp = 0; warp < Cfg::kThreads / 32; ++warp) {
        CAPTURE(warp);
        // src[lane][instr]: the (mn,k) of the 8 halves lane names; dst[lane][instr][v]: the coordinate the
        // MMA partition puts at value v of the retiled registers.
        std::vector<std::vector<std::vector<std::pair<int, int>>>> src(32), dst(32);
        for (int lane = 0; lane < 32; ++lane) {
          auto thr = s2r.get_slice(32 * warp + lane);
          Tensor tXc = group_modes<1, 3>(thr.partition_S(cs));  // (CPY,instr) -> (mn,k)
          Tensor tXs = group_modes<1, 3>(thr.partition_S(s(_, _, 0)));
          REQUIRE(int(size<0>(tXc)) == 8);
          // The MMA's view of the same registers: coordinates of partition_A/B, retiled like tCrA/tCrB.
          Tensor tCc = partition(mma.get_slice(32 * warp + lane), cs);  // (MMA,MMA_MN,MMA_K) -> (mn,k)
          Tensor tXrc = group_modes<1, 3>(thr.retile_D(tCc));           // (CPY,instr) -> (mn,k)
          REQUIRE(size(tXrc) == size(tXc));
          for (int i = 0; i < int(size<1>(tXc)); ++i) {
            std::vector<std::pair<int, int>> row, reg;
            for (int e = 0; e < 8; ++e) {
              row.push_back({int(get<0>(tXc(e, i))), int(get<1>(tXc(e, i)))});
              reg.push_back({int(get<0>(tXrc(e, i))), int(get<1>(tXrc(e, i)))});
              REQUIRE(&tXs(e, i) == &tXs(0, i) + e);  // 16 contiguous bytes of smem
            }
            REQUIRE(smem.offset(&tXs(0, i)) % 16 == 0);
            for (int e = 1; e < 8; ++e) {
              REQUIRE(row[e].first == row[0].first);       // one row of the tile
              REQUIRE(row[e].second == row[0].second + e);  // 8 consecutive k
            }
            src[lane].push_back(row);
            dst[lane].push_back(reg);
          }
        }
        int const instrs = int(src[0].size());
        for (int i = 0; i < instrs; ++i)
          for (int lane = 0; lane < 32; ++lane)
            for (int j = 0; j < 4; ++j)       // register j: matrix j
              for (int h = 0; h < 2; ++h) {   // its two halves
                CAPTURE(i, lane, j, h);
                // matrix j's row lane/4 is named by lane 8j + lane/4; the element is 2(lane%4) + h of it
                auto const expected = src[std::size_t(8 * j + lane / 4)][std::size_t(i)][std::size_t(2 * (lane % 4) + h)];
                REQUIRE(dst[std::size_t(lane)][std::size_t(i)][std::size_t(2 * j + h)] == expected);
                ++checked;
              }
      }
      REQUIRE(checked == int(size(s(_, _, 0))) * partition.readers);  // every element, by each warp that reads it
    };
    // A's rows are read by each of the WARPS_N warps that share them; B's by each of the WARPS_M.
    check(typename Cfg::S2RCopyA{}, smem.sA(), PA{Cfg::kWarpsN});
    check(typename Cfg::S2RCopyB{}, smem.sB(), PB{Cfg::kWarpsM});
  });
}

TEST_CASE("ldmatrix is conflict-free: each phase of 8 lanes covers the 8 16-byte bank groups", "[step07]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    tut::HostSmem<Cfg> smem;
    for (bool a : {true, false}) {
      auto per_stage = [](auto const& tXs) { return int(size<1>(tXs) * size<2>(tXs)); };  // CPY_MN x CPY_K
      int const instrs = a ? per_stage(typename Cfg::S2RCopyA{}.get_slice(0).partition_S(smem.sA()))
                           : per_stage(typename Cfg::S2RCopyB{}.get_slice(0).partition_S(smem.sB()));
      for (int stage = 0; stage < Cfg::kStages; ++stage)
        for (int warp = 0; warp < Cfg::kThreads / 32; ++warp)
          for (int i = 0; i < instrs; ++i) {
            CAPTURE(a, stage, warp, i);
            auto const rows = a ? tut::ldmatrix_rows(typename Cfg::S2RCopyA{}, smem.sA(), smem, warp, i, stage)
                                : tut::ldmatrix_rows(typename Cfg::S2RCopyB{}, smem.sB(), smem, warp, i, stage);
            for (int phase = 0; phase < 4; ++phase) {
              std::set<std::int64_t> groups;
              for (int l = 8 * phase; l < 8 * phase + 8; ++l) {
                REQUIRE(rows[std::size_t(l)].matrix == phase);
                groups.insert(rows[std::size_t(l)].byte / 16 % 8);
              }
              REQUIRE(groups.size() == 8);
            }
          }
    }
  });
}

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step07]") {
  for_each_config([](auto cfg) {
    INFO(name_of<decltype(cfg)>());
    gemm_checks::check_epilogue_through_smem<decltype(cfg)>();
  });
}

TEST_CASE("the pipeline: every k-tile filled once, read from the stage it landed in, after it landed", "[step07]") {
  auto check = [](auto stages_constant, int k_tiles) {
    constexpr int S = decltype(stages_constant)::value;
    CAPTURE(S, k_tiles);
    auto const schedule =
        tut::pipe_schedule<step07::PipeState<S>>(k_tiles, S, {S - 1, step07::groups_in_flight<S>()});
    REQUIRE(int(schedule.size()) == S - 1 + k_tiles);
    std::vector<int> holds(S, -1);      // the k-tile each stage holds
    std::vector<bool> consumed(std::size_t(k_tiles + S), false);
    std::vector<int> filled(std::size_t(k_tiles), 0);
    int landed = 0;  // k-tiles 0..landed-1 are in smem and visible (after a wait and a barrier)
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      auto const& p = schedule[i];
      CAPTURE(i, p.k_tile, p.read_stage, p.fill_k_tile, p.fill_stage);
      if (p.k_tile >= 0) {
        // The math reads k-tile t from its stage, after it landed.
        REQUIRE(p.read_stage == p.k_tile % S);
        REQUIRE(holds[std::size_t(p.read_stage)] == p.k_tile);
        REQUIRE(landed > p.k_tile);
        // The fill goes to the stage read in the previous iteration (or one never read): not this one.
        REQUIRE(p.fill_stage != p.read_stage);
        int const old = holds[std::size_t(p.fill_stage)];
        REQUIRE((old < 0 || (old < p.k_tile && consumed[std::size_t(old)])));
        consumed[std::size_t(p.k_tile)] = true;
      }
      if (p.fill_k_tile >= 0) {
        REQUIRE(p.fill_k_tile < k_tiles);
        ++filled[std::size_t(p.fill_k_tile)];
        holds[std::size_t(p.fill_stage)] = p.fill_k_tile;
      }
      // Group g carries k-tile g; the wait after this point leaves at most S-2 groups in flight.
      bool const waits = p.k_tile >= 0 || int(i) == S - 2;
      if (waits) landed = std::min(k_tiles, p.landed);
      REQUIRE(p.committed == int(i) + 1);  // one group per iteration, empty or not
    }
    for (int f : filled) REQUIRE(f == 1);
    for (int t = 0; t < k_tiles; ++t) REQUIRE(consumed[std::size_t(t)]);
  };
  for (int k_tiles : {1, 2, 3, 4, 5, 8, 13}) {
    check(Int<2>{}, k_tiles);
    check(Int<Default::kStages>{}, k_tiles);
    check(Int<4>{}, k_tiles);
    check(Int<5>{}, k_tiles);
  }
}

TEST_CASE("the masks hold at every coordinate of ragged problems, copies and epilogue", "[step07]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{300, 200, 200},  // the default
                                                  {1, 1, 8},
                                                  {7, 13, 24},
                                                  {131, 260, 72}}));
  CAPTURE(M, N, K);
  for_each_config([&](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    auto la = step07::make_layout_A(M, K);
    auto lc = step07::make_layout_C(M, N);
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

TEST_CASE("sizes: any M and N, K a multiple of 8; anything else says why", "[step07]") {
  tut::Step const& s = step07::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 80);
  CHECK(s.multiple_of.m == 1);
  CHECK(s.multiple_of.n == 1);
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step07_multistage needs K to be a multiple of 8 (got M=7 N=13 K=12): each cp.async copies 16 bytes (8 "
        "halves) of a row");
  REQUIRE(s.variants.size() == 2);
  CHECK(s.variants[0].name == "256x128");
  CHECK(s.variants[0].threads == 256);
  CHECK(s.variants[0].tile_m == 256);
  CHECK(s.variants[0].tile_n == 128);
  CHECK(s.variants[0].tile_k == 64);
  CHECK(s.variants[1].name == "128x128");
  CHECK(s.variants[1].threads == 128);
  CHECK(s.variants[1].tile_m == 128);
  CHECK(s.variants[1].tile_k == 64);
}

TEST_CASE("smem: the ring's bytes per stage and in all, with the C tile in the same bytes", "[step07]") {
  CHECK(Default::kStageBytes == (256 + 128) * 64 * 2);
  CHECK(Default::kSmemBytes == 3 * Default::kStageBytes);
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Small::kSmemBytes == 3 * (128 + 128) * 64 * 2);
  CHECK(Small::kSmemBytes == int(sizeof(typename Small::Smem)));
  CHECK(Default::kSmemBytes >= 256 * 128 * 4);  // the C tile fits in the ring's bytes
  CHECK(Small::kSmemBytes >= 128 * 128 * 4);
  CHECK(plain(typename Small::SmemLayoutC{}) == "Sw<2,3,2> o ((8,16),(32,4)):((32,1024),(1,256))");
}

TEST_CASE("the printout: smem per stage, the timeline, ldmatrix's lanes, the epilogue", "[step07]") {
  tut::Options o;
  o.problem = step07::step().defaults;
  std::string const out = trace_of(o);
  CHECK(out.find("smem per stage: A 32768 + B 16384 = 49152 bytes; 3 stages = 147456 bytes (144 KB) per CTA.") !=
        std::string::npos);
  // K = 200: k-tiles 0..3; the prologue fills stages 0 and 1, then each k-tile fills the stage read last.
  CHECK(out.find("    prologue     -               k-tile 1 -> stage 1       2                 k-tiles 0..0 landed") !=
        std::string::npos);
  CHECK(out.find("    k-tile 0     stage 0         k-tile 2 -> stage 2       3                 k-tiles 0..1 landed") !=
        std::string::npos);
  CHECK(out.find("    k-tile 2     stage 2         nothing (stage 1), empty  5") != std::string::npos);
  // Warp 0's first A ldmatrix: lanes 0..7 name rows 0..7 at k 0..7, lanes 8..15 rows 8..15, lanes 16..23
  // rows 0..7 at k 8..15; with 128-byte rows swizzled, lane 1's row sits at byte 128 + 16.
  CHECK(out.find("   1  0       m=1,k=0..7           144     4") != std::string::npos);
  CHECK(out.find("  16  2       m=0,k=8..15           16     4") != std::string::npos);
  CHECK(out.find("lanes 0..7: 8 of the 8 16-byte bank groups, all 32 banks once: 1 wavefront") != std::string::npos);
  CHECK(out.find("N % 4 == 0: 128-bit stores.") != std::string::npos);
  o.problem.n = 150;
  CHECK(trace_of(o).find("N % 4 != 0: rows of C do not start 16-byte aligned") != std::string::npos);
}

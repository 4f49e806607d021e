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
#include "pipeline.hpp"
#include "step08_wgmma.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"

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
            // row r of an atom the 16-byte chunk c is stored at c ^ r. A cp.async chunk (8 k) stays whole.
            int const chunk = (k / 8) ^ (mn % 8);
            REQUIRE(byte == s * rows * 128 + (mn / 8) * 1024 + (mn % 8) * 128 + chunk * 16 + (k % 8) * 2);
            ++hits[std::size_t(byte / 2)];
          }
      for (int h : hits) REQUIRE(h == 1);
    };
    check(smem.sA());
    check(smem.sB());
  });
  CHECK(plain(step08::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the cp.async partition covers every stage once, in 16-byte chunks on both sides", "[step08]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    tut::HostSmem<Cfg> smem;
    auto check = [&](auto const& copy, auto const& s) {
      Tensor cs = make_identity_tensor(product_each(shape(s)));  // (BLK_MN,BLK_K,STAGES) -> (mn,k,stage)
      std::map<std::tuple<int, int, int>, int> writers;
      for (int t = 0; t < Cfg::kThreads; ++t) {
        CAPTURE(t);
        auto thr = copy.get_slice(t);
        Tensor tXc = thr.partition_D(cs);  // (CPY,CPY_MN,CPY_K,STAGES) -> (mn,k,stage)
        Tensor tXs = thr.partition_D(s);   // (CPY,CPY_MN,CPY_K,STAGES) -> smem
        REQUIRE(int(size<0>(tXs)) == 8);
        REQUIRE(int(size<3>(tXs)) == Cfg::kStages);
        for (int i = 0; i < int(size(tXc)); ++i) ++writers[{int(get<0>(tXc(i))), int(get<1>(tXc(i))), int(get<2>(tXc(i)))}];
        Tensor c = group_modes<1, 4>(tXc);
        Tensor d = group_modes<1, 4>(tXs);
        for (int j = 0; j < int(size<1>(c)); ++j) {
          REQUIRE(get<1>(c(0, j)) % 8 == 0);
          REQUIRE(smem.offset(&d(0, j)) % 16 == 0);
          for (int e = 1; e < 8; ++e) {
            REQUIRE(get<0>(c(e, j)) == get<0>(c(0, j)));
            REQUIRE(get<1>(c(e, j)) == get<1>(c(0, j)) + e);
            REQUIRE(get<2>(c(e, j)) == get<2>(c(0, j)));
            REQUIRE(&d(e, j) == &d(0, j) + e);
          }
        }
      }
      REQUIRE(int(writers.size()) == int(size(s)));
      for (auto const& [c, n] : writers) REQUIRE(n == 1);
    };
    check(typename Cfg::TiledCopyA{}, smem.sA());
    check(typename Cfg::TiledCopyB{}, smem.sB());
  });
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step08]") {
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

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step08]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::TiledMma mma;
    typename Cfg::CtaTiler tiler;
    int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
    int const rows_per_wg = bm / Cfg::kWarpgroups;
    Tensor cA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
    Tensor cB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
    Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
    std::vector<int> owner(std::size_t(bm * bn), -1);
    for (int t = 0; t < Cfg::kThreads; ++t) {
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
      REQUIRE(int(size(tCcC)) == bm * bn / Cfg::kThreads);
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

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step08]") {
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
    for (int warp = 0; warp < Cfg::kThreads / 32; ++warp) {
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
    for (int warp = 0; warp < Cfg::kThreads / 32; ++warp) {
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

TEST_CASE("the pipeline: every k-tile filled once, read after it landed, never refilled under a running batch", "[step08]") {
  auto check = [](auto stages_constant, int k_tiles) {
    constexpr int S = decltype(stages_constant)::value;
    constexpr int AHEAD = step08::copies_ahead<S>();
    CAPTURE(S, k_tiles);
    CHECK(AHEAD == S - 1 - step08::kWgmmaInFlight);
    auto const schedule = step08::pipeline_schedule<S>(k_tiles);
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

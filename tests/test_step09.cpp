// Host tests of step 09: the GMMA smem atom against the 128-byte swizzle the TMA unit writes and wgmma
// reads, the TMA boxes and the bytes each barrier expects, the accumulators and the warpgroups'
// partitions, the epilogue, the pipeline's barrier phases against the PTX ISA's mbarrier parity rule,
// the epilogue's masks, and the sizes and GPUs it runs on.
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
#include "step09_tma.hpp"
#include "tut/format.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"

using namespace cute;
using step09::Default;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step09::Variants{});
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step09::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the smem ring is the 128-byte swizzle TMA writes and wgmma reads, stage by stage", "[step09]") {
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
  CHECK(plain(step09::SmemAtomAB{}) == "Sw<3,4,3> o (8,64):(64,1)");
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,4,3> o ((8,16),(64,1),(1,4)):((64,512),(1,0),(0,8192))");
}

TEST_CASE("the TMA boxes: one per operand and k-tile, a whole stage, and the bytes its barrier expects", "[step09]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler tiler;
    int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
    // The box of A is one stage of sA: BLK_M x BLK_K halves; B's, BLK_N x BLK_K.
    CHECK(int(size(typename Cfg::SmemLayoutA{}(_, _, 0))) == bm * bk);
    CHECK(int(size(typename Cfg::SmemLayoutB{}(_, _, 0))) == bn * bk);
    CHECK(Cfg::kStageBytesA == bm * bk * 2);
    CHECK(Cfg::kStageBytesB == bn * bk * 2);
    CHECK(Cfg::kStageBytes == Cfg::kStageBytesA + Cfg::kStageBytesB);
    // A box is at most 256 elements along each dimension; its inner extent, 128 bytes, is the swizzle's.
    CHECK(bm <= 256);
    CHECK(bn <= 256);
    CHECK(bk * 2 == 128);
  });
  // The bytes: 16 KB of A and 32 KB of B per k-tile, and per barrier phase.
  CHECK(Default::kStageBytes == 49152);
}

TEST_CASE("the accumulators: the wgmma D fragment of the PTX ISA, at every (thread, value)", "[step09]") {
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

TEST_CASE("the warpgroups' partitions: A's rows by warpgroup, all of B, each C entry once", "[step09]") {
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

TEST_CASE("the epilogue: sC's accesses are conflict-free, and its copy partition stores whole rows", "[step09]") {
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

TEST_CASE("the pipeline: every k-tile loaded once, waited for at the parity that completes when it lands", "[step09]") {
  auto check = [](auto stages_constant, int k_tiles) {
    constexpr int S = decltype(stages_constant)::value;
    constexpr int AHEAD = step09::copies_ahead<S>();
    CAPTURE(S, k_tiles);
    CHECK(AHEAD == S - 1 - step09::kWgmmaInFlight);
    auto const schedule = step09::pipeline_schedule<S>(k_tiles);
    REQUIRE(int(schedule.size()) == AHEAD + k_tiles);
    std::vector<int> holds(S, -1);   // the k-tile each stage's last TMA brings
    std::vector<int> fills(S, 0);    // TMA copies issued into each stage: phases its barrier will complete
    std::vector<int> filled(std::size_t(k_tiles), 0);
    std::vector<bool> read(std::size_t(k_tiles), false);
    int done = 0;  // batches 0..done-1 are finished
    for (std::size_t i = 0; i < schedule.size(); ++i) {
      auto const& p = schedule[i];
      CAPTURE(i, p.k_tile, p.read_stage, p.parity, p.fill_k_tile, p.fill_stage);
      // The fill (after the barrier): its stage holds no k-tile a batch may still read, nor one unread.
      int const old = holds[std::size_t(p.fill_stage)];
      if (old >= 0 && p.fill_k_tile >= 0) {
        REQUIRE(read[std::size_t(old)]);
        REQUIRE(old < done);
      }
      if (p.fill_k_tile >= 0) {
        REQUIRE(p.fill_k_tile < k_tiles);
        ++filled[std::size_t(p.fill_k_tile)];
        holds[std::size_t(p.fill_stage)] = p.fill_k_tile;
        ++fills[std::size_t(p.fill_stage)];
      }
      if (p.k_tile < 0) continue;
      REQUIRE(p.read_stage == p.k_tile % S);
      REQUIRE(holds[std::size_t(p.read_stage)] == p.k_tile);
      REQUIRE(p.lap == p.k_tile / S);
      // The PTX ISA's rule: wait(bar, parity) returns once the phase of that parity has completed, i.e.
      // while the barrier's current phase (the number of phases completed, mod 2) differs from it. Phase
      // f of full[s] completes when the stage's f-th TMA copy (counting from 0) has landed.
      int const f = fills[std::size_t(p.read_stage)] - 1;  // this k-tile's copy is the stage's f-th
      REQUIRE(f == p.lap);
      auto passes = [&](int completed) { return std::uint32_t(completed % 2) != p.parity; };
      CHECK(passes(f + 1));   // its bytes landed: the wait returns ...
      CHECK(!passes(f));      // ... and not a moment before
      read[std::size_t(p.k_tile)] = true;
      REQUIRE(p.running == p.k_tile);
      done = p.k_tile + 1 - step09::kWgmmaInFlight;  // warpgroup_wait<kWgmmaInFlight>
    }
    for (int n : filled) REQUIRE(n == 1);
    for (bool r : read) REQUIRE(r);
  };
  for (int k_tiles : {1, 2, 3, 4, 5, 8, 13}) {
    check(Int<3>{}, k_tiles);
    check(Int<Default::kStages>{}, k_tiles);
    check(Int<5>{}, k_tiles);
  }
}

TEST_CASE("the epilogue's masks at every coordinate of ragged problems: each entry of C stored once", "[step09]") {
  auto [M, N] = GENERATE(table<int, int>({{300, 600}, {1, 1}, {7, 13}, {131, 260}, {300, 301}}));
  CAPTURE(M, N);
  for_each_config([&](auto cfg) {
    using Cfg = decltype(cfg);
    auto lc = step09::make_layout_C(M, N);
    typename Cfg::CtaTiler cta_tiler;
    int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
    std::vector<int> stored(std::size_t(M) * N, 0);
    for (int bx = 0; bx < gx; ++bx)
      for (int by = 0; by < gy; ++by) {
        Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, make_coord(bx, by, _), Step<_1, _1, X>{});
        for (int t = 0; t < Cfg::kThreads; ++t) {
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

TEST_CASE("sizes and GPUs: any M and N, K a multiple of 8, compute capability 9.0 only", "[step09]") {
  tut::Step const& s = step09::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 90);
  CHECK(s.max_cc == 90);
  CHECK(s.multiple_of.m == 1);
  CHECK(s.multiple_of.n == 1);
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  CHECK(tut::unsupported(s, {7, 13, 12}) ==
        "step09_tma needs K to be a multiple of 8 (got M=7 N=13 K=12): a TMA descriptor's rows must be a "
        "multiple of 16 bytes (8 halves)");
  REQUIRE(s.variants.size() == 1);
  CHECK(s.variants[0].name == "128x256");
  CHECK(s.variants[0].threads == 256);
  CHECK(s.variants[0].tile_m == 128);
  CHECK(s.variants[0].tile_n == 256);
  CHECK(s.variants[0].tile_k == 64);
}

TEST_CASE("smem: four stages of 48 KB, with the C tile in the same bytes, and the barriers", "[step09]") {
  CHECK(Default::kStageBytes == (128 + 256) * 64 * 2);
  CHECK(Default::kSmemBytes == 4 * Default::kStageBytes + 1024);  // the 4 mbarriers, padded to 1 KB
  tut::HostSmem<Default> smem;
  CHECK(smem.offset(&smem.storage->full[0]) == 4 * Default::kStageBytes);  // after the ring, outside the union
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Default::kSmemBytes >= 128 * 256 * 4);  // the C tile fits in the ring's bytes
  CHECK(Default::kSmemBytes <= 227 * 1024);
  CHECK(step09::copies_ahead<Default::kStages>() == 2);
}

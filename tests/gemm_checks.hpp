/// \file tests/gemm_checks.hpp
/// \brief Host checks that several steps share because their kernels share the thing checked: the
/// 128-byte-swizzled smem ring of the Hopper steps, the wgmma accumulators and the warpgroups'
/// partitions, the epilogue through smem (steps 07-10) and its subtiles (steps 11-12). Each takes the step's configuration \p Cfg;
/// the step's own test file calls them inside its TEST_CASEs, so a failure names the step. And the
/// printout of a step that picks its configuration by size, as its tests read it (steps 14-16).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <tuple>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "tut/format.hpp"
#include "tut/harness.hpp"
#include "tut/host_smem.hpp"
#include "tut/mask.hpp"
#include "tut/problem.hpp"

namespace gemm_checks {

using namespace cute;
using tut::plain;

/// \brief What step \p s prints (sections 2 to 4) for problem \p p: the configuration \p variant names,
/// or, where it is empty, the one the launch picks.
inline std::string trace_of(tut::Step const& s, tut::Problem p, std::string const& variant = "") {
  tut::Options o;
  o.problem = p;
  o.variant = variant;
  std::ostringstream os;
  tut::variant_for(s, o).trace(os, o);
  return os.str();
}

/// \brief Whether printout \p out holds \p text.
inline bool has(std::string const& out, std::string const& text) { return out.find(text) != std::string::npos; }

/// \brief The smem ring of \p Cfg (sA and sB, (BLK_MN,64,STAGES) of halves) is GMMA's 128-byte swizzle at
/// every (mn,k,stage): what wgmma's "128B swizzle" mode reads and CU_TENSOR_MAP_SWIZZLE_128B writes,
/// each array 1 KB aligned in the kernel's SharedStorage, each byte hit once.
template <class Cfg>
void check_sw128_ring() {
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
}

/// \brief The cp.async partitions of \p Cfg (TiledCopyA and TiledCopyB over the kernel's staged sA and sB):
/// every element of every stage written once, in chunks of 8 consecutive k, 16 contiguous bytes on both
/// sides (steps 07 and 08).
template <class Cfg>
void check_cp_async_partition() {
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
}

/// \brief The wgmma atom of \p Cfg's TiledMMA: its accumulators are the PTX ISA's wgmma D fragment at every
/// (thread, value), and A and B are broadcast to the warpgroup (read from smem).
template <class Cfg>
void check_wgmma_accumulators() {
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
}

/// \brief The warpgroups' partitions of \p Cfg's TiledMMA: A's rows by warpgroup, all of B, each C entry of
/// the CTA tile owned by exactly one thread, where the D fragment puts it.
template <class Cfg>
void check_warpgroup_partitions() {
  typename Cfg::TiledMma mma;
  typename Cfg::CtaTiler tiler;
  int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
  int const rows_per_wg = bm / (int(size(mma)) / 128);  // the TiledMMA's warpgroups stack along M
  Tensor cA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
  Tensor cB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
  Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
  std::vector<int> owner(std::size_t(bm * bn), -1);
  for (int t = 0; t < int(size(mma)); ++t) {
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
    REQUIRE(int(size(tCcC)) == bm * bn / int(size(mma)));
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
}

/// \brief The epilogue's subtiles of \p Cfg (steps 11 and 12, EPI_N columns each, through BUFFERS smem
/// buffers): every value of a thread's by_subtile lies in its subtile e and goes to its place in buffer 0
/// of sC, each subtile writes every buffer entry once, and buffer b starts b subtiles in, 1 KB aligned
/// (the TMA unit's swizzle period). \p by_subtile(Int<V>{}, t): the step's own by_subtile<V>(t).
template <class Cfg, int EPI_N, int BUFFERS, class BySubtile>
void check_epilogue_subtiles(BySubtile by_subtile) {
  typename Cfg::TiledMma mma;
  tut::HostSmem<Cfg> smem;
  Tensor sC = smem.sC();                                                // (BLK_M,EPI_N,BUFFERS)
  Tensor sC_tile = make_tensor(sC.data(), composition(typename Cfg::SmemLayoutC{}, typename Cfg::TileOnBuffer{}));
  int const bm = size<0>(typename Cfg::CtaTiler{}), bn = size<1>(typename Cfg::CtaTiler{});
  constexpr int SUB = Cfg::kSubtiles;
  Tensor cC = make_identity_tensor(select<0, 1>(typename Cfg::CtaTiler{}));  // (BLK_M,BLK_N) -> (m,n)
  std::vector<std::vector<int>> written(SUB, std::vector<int>(std::size_t(bm) * EPI_N, 0));
  for (int t = 0; t < int(size(mma)); ++t) {
    auto thr = mma.get_slice(t);
    constexpr int V = int(decltype(size(thr.partition_C(cC)))::value) / SUB;
    Tensor tCcC = by_subtile(Int<V>{}, thr.partition_C(cC));     // (V,SUBTILES) -> (m,n)
    Tensor tCsC = by_subtile(Int<V>{}, thr.partition_C(sC_tile));  // (V,SUBTILES) -> smem
    for (int e = 0; e < SUB; ++e)
      for (int v = 0; v < V; ++v) {
        CAPTURE(t, e, v);
        int const m = get<0>(tCcC(v, e)), n = get<1>(tCcC(v, e));
        REQUIRE(n / EPI_N == e);                               // the value lies in subtile e
        REQUIRE(&tCsC(v, e) == &sC(m, n % EPI_N, 0));          // and goes to its place in buffer 0
        ++written[std::size_t(e)][std::size_t(m) * EPI_N + std::size_t(n % EPI_N)];
      }
  }
  for (auto const& w : written)
    for (int x : w) REQUIRE(x == 1);  // each subtile fills the whole buffer, each entry once
  for (int b = 0; b < BUFFERS; ++b) {
    CHECK(smem.offset(&sC(0, 0, b)) == smem.offset(&sC(0, 0, 0)) + b * Cfg::kSubtileBytes);
    CHECK(smem.offset(&sC(0, 0, b)) % 1024 == 0);
  }
  CHECK(Cfg::kSubtileBytes == bm * EPI_N * 4);
  CHECK(SUB * EPI_N == bn);
}

/// \brief The epilogue through smem of \p Cfg: the TiledMMA's 64-bit stores into sC cover the 32 banks once
/// per 16-lane phase, the 128-bit reads 8 bank groups per 8-lane phase, and TiledCopyC stores every
/// (m,n) once, in whole contiguous rows of a row-major C.
template <class Cfg>
void check_epilogue_through_smem() {
  typename Cfg::TiledMma mma;  // its threads store the C tile
  tut::HostSmem<Cfg> smem;
  Tensor sC = smem.sC();                          // (BLK_M,BLK_N)
  Tensor csC = make_identity_tensor(product_each(shape(sC)));  // (BLK_M,BLK_N) -> (m,n)
  int const bm = size<0>(sC), bn = size<1>(sC);
  REQUIRE(int(cosize(sC.layout())) == bm * bn);
  // The MMA's stores: each lane's (v0,v1) pair is 8 contiguous bytes, one 64-bit store. The hardware
  // serves a 64-bit store in two phases of 16 lanes (128 bytes each): conflict-free when each phase's
  // 32 words fall in 32 different banks.
  for (int warp = 0; warp < int(size(mma)) / 32; ++warp) {
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
  for (int warp = 0; warp < int(size(mma)) / 32; ++warp) {
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
}

/// \brief TiledCopyC's masks for C laid out by \p lc (M,N): true exactly inside C, and every entry of C
/// stored once over all CTAs of the grid and all threads of TiledCopyC.
template <class Cfg, class CLayout>
void check_epilogue_masks(CLayout const& lc) {
  int const M = size<0>(lc), N = size<1>(lc);
  typename Cfg::CtaTiler cta_tiler;
  typename Cfg::TiledCopyC copy_c;
  int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
  std::vector<int> stored(std::size_t(M) * N, 0);
  for (int bx = 0; bx < gx; ++bx)
    for (int by = 0; by < gy; ++by) {
      Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, make_coord(bx, by, _), Step<_1, _1, X>{});
      for (int t = 0; t < int(size(copy_c)); ++t) {
        CAPTURE(bx, by, t);
        Tensor tDcC = copy_c.get_slice(t).partition_D(cC);
        Tensor tDpC = tut::make_mask(tDcC, shape(lc));
        for (int i = 0; i < int(size(tDcC)); ++i) {
          int const m = get<0>(tDcC(i)), n = get<1>(tDcC(i));
          REQUIRE(bool(tDpC(i)) == (m < M && n < N));
          if (tDpC(i)) ++stored[std::size_t(m) * N + n];
        }
      }
    }
  for (int n : stored) REQUIRE(n == 1);
}

/// The busiest CTA's tiles under Cfg's persistent schedule, counted CTA by CTA (a cluster's padded
/// tile-rows too): what Step::choose weighs (steps 14, 15).
template <class Cfg>
int busiest_visits(tut::Problem const& p) {
  typename Cfg::CtaTiler t;
  int const tm = int((p.m + size<0>(t) - 1) / size<0>(t)), tn = int((p.n + size<1>(t) - 1) / size<1>(t));
  int most = 0;
  for (int c = 0; c < Cfg::kCtas; ++c) most = std::max(most, Cfg::kSchedule.visits(c, tm, tn));
  return most;
}

/// One configuration of a kernel whose consumers work in groups (steps 14, 15): its ring, accumulators,
/// partitions and epilogue subtiles (EPI_N columns, EPI_BUFFERS per group, \p by_subtile the step's view),
/// and its threads and smem.
template <class Cfg, int EPI_N, int EPI_BUFFERS, class BySubtile>
void check_group_configuration(BySubtile by_subtile) {
  check_sw128_ring<Cfg>();
  check_wgmma_accumulators<Cfg>();
  check_warpgroup_partitions<Cfg>();
  check_epilogue_subtiles<Cfg, EPI_N, EPI_BUFFERS * Cfg::kGroups>(by_subtile);
  CHECK(int(size(typename Cfg::TiledMma{})) == 256 / Cfg::kGroups);  // a group: both warpgroups, or one
  CHECK(Cfg::kThreads == 384);
  CHECK(Cfg::kSmemBytes <= 227 * 1024);
}

}  // namespace gemm_checks

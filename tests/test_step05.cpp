// Host tests of step 05: the atom's TV layouts at every (lane, value) against the PTX ISA's fragment
// formulas, every element owned once, the register packing, the 2x2-warp TiledMMA's placement of warps,
// the math partition's rows, the sizes the step runs, and the printout's tables.
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "step05_tensorcore_mma.hpp"
#include "tut/printout.hpp"

using namespace cute;
using step05::Atom;
using step05::OneAtom;
using step05::Warps2x2;

namespace {

// (row, col) of (lane, value) in a column-major tile of `rows` rows, through a TV layout.
template <class TV>
std::pair<int, int> rc(TV const& tv, int rows, int lane, int v) {
  int const idx = int(tv(lane, v));
  return {idx % rows, idx / rows};
}

// The PTX ISA's fragment layouts for mma.m16n8k16 with .f16 A/B and .f32 C/D ("Matrix Fragments for
// mma.m16n8k16"): groupID = lane >> 2, threadID_in_group = lane % 4, and the value index i of a0..a7,
// b0..b3, c0..c3.
std::pair<int, int> ptx_a(int lane, int i) {  // (row m, col k)
  int const g = lane >> 2, t = lane % 4;
  return {g + 8 * ((i / 2) % 2), 2 * t + (i % 2) + 8 * (i / 4)};
}
std::pair<int, int> ptx_b(int lane, int i) {  // (n, k): the ISA's (row k, col n), swapped to CuTe's (N,K)
  int const g = lane >> 2, t = lane % 4;
  return {g, 2 * t + (i % 2) + 8 * (i / 2)};
}
std::pair<int, int> ptx_c(int lane, int i) {  // (row m, col n)
  int const g = lane >> 2, t = lane % 4;
  return {g + 8 * (i / 2), 2 * t + (i % 2)};
}

std::string trace_of(std::string const& variant, int thread) {
  tut::Options o;
  o.problem = step05::step().defaults;
  o.variant = variant;
  o.thread = thread;
  std::ostringstream os;
  tut::find_variant(step05::step(), variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the atom's TV layouts are the PTX ISA's fragments, at every (lane, value)", "[step05]") {
  Atom::LayoutA_TV a;
  Atom::LayoutB_TV b;
  Atom::LayoutC_TV c;
  REQUIRE(size<0>(a) == 32);
  REQUIRE(size<1>(a) == 8);  // a0..a7: 4 registers of 2 halves
  REQUIRE(size<1>(b) == 4);  // b0..b3: 2 registers
  REQUIRE(size<1>(c) == 4);  // c0..c3: 4 floats
  for (int lane = 0; lane < 32; ++lane) {
    CAPTURE(lane);
    for (int v = 0; v < 8; ++v) {
      CAPTURE(v);
      CHECK(rc(a, 16, lane, v) == ptx_a(lane, v));
    }
    for (int v = 0; v < 4; ++v) {
      CAPTURE(v);
      CHECK(rc(b, 8, lane, v) == ptx_b(lane, v));
      CHECK(rc(c, 16, lane, v) == ptx_c(lane, v));
    }
  }
}

TEST_CASE("every element of A (16x16), B (8x16) and C (16x8) is held by exactly one (lane, value)", "[step05]") {
  auto check = [](auto const& tv, int rows, int cols) {
    auto const cells = tut::tv_cells(tv, rows, cols);
    REQUIRE(cells.size() == std::size_t(rows * cols));
    std::set<std::pair<int, int>> seen;
    for (auto const& [t, v] : cells) {
      CHECK(t >= 0);  // -1: nobody holds it; -2: two (lane, value)s do
      seen.insert({t, v});
    }
    CHECK(seen.size() == std::size_t(rows * cols));  // and no (lane, value) holds two elements
  };
  check(Atom::LayoutA_TV{}, 16, 16);
  check(Atom::LayoutB_TV{}, 8, 16);
  check(Atom::LayoutC_TV{}, 16, 8);
  check(step05::Atom16x8x8::LayoutA_TV{}, 16, 8);
  check(step05::Atom16x8x8::LayoutB_TV{}, 8, 8);
}

TEST_CASE("a 32-bit register packs two neighbours in k, the lower k in bits 0..15", "[step05]") {
  auto const a = step05::register_halves(8);
  auto const b = step05::register_halves(4);
  REQUIRE(a.size() == 4);
  REQUIRE(b.size() == 2);
  for (int r = 0; r < 4; ++r) CHECK(a[std::size_t(r)] == std::pair{2 * r, 2 * r + 1});
  for (int r = 0; r < 2; ++r) CHECK(b[std::size_t(r)] == std::pair{2 * r, 2 * r + 1});
  // So each register's two halves are one row's k and k+1: one 32-bit word of K-major A or B.
  for (int lane = 0; lane < 32; ++lane)
    for (auto const& [lo, hi] : a) {
      auto const l = rc(Atom::LayoutA_TV{}, 16, lane, lo), h = rc(Atom::LayoutA_TV{}, 16, lane, hi);
      CHECK(l.first == h.first);
      CHECK(l.second % 2 == 0);
      CHECK(h.second == l.second + 1);
    }
}

TEST_CASE("the 2x2-warp TiledMMA puts warp w at (w%2, w/2) of its 32x16 tile, lanes as the atom's C", "[step05]") {
  Warps2x2::TiledMma mma;
  REQUIRE(size(mma) == 128);
  REQUIRE(tile_size<0>(mma) == 32);
  REQUIRE(tile_size<1>(mma) == 16);
  REQUIRE(tile_size<2>(mma) == 16);
  Tensor cC = make_identity_tensor(make_shape(Int<64>{}, Int<64>{}));  // (BLK_M,BLK_N) -> (m,n)
  std::vector<int> owner(64 * 64, -1);
  for (int t = 0; t < 128; ++t) {
    CAPTURE(t);
    int const w = t / 32, lane = t % 32;
    Tensor tCcC = mma.get_slice(t).partition_C(cC);  // (MMA,MMA_M,MMA_N) -> (m,n)
    REQUIRE(size<0>(tCcC) == 4);
    REQUIRE(size<1>(tCcC) == 2);  // 64 / 32
    REQUIRE(size<2>(tCcC) == 4);  // 64 / 16
    for (int v = 0; v < 4; ++v)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 4; ++j) {
          int const m = get<0>(tCcC(v, i, j)), n = get<1>(tCcC(v, i, j));
          CAPTURE(v, i, j, m, n);
          CHECK(m / 32 == i);             // repeat i of the TiledMMA down M
          CHECK(n / 16 == j);             // repeat j across N
          CHECK((m % 32) / 16 == w % 2);  // the warp's atom in the tile
          CHECK((n % 16) / 8 == w / 2);
          CHECK(std::pair{m % 16, n % 8} == ptx_c(lane, v));  // the lane's place in the atom
          owner[std::size_t(m * 64 + n)] = owner[std::size_t(m * 64 + n)] == -1 ? t : -2;
        }
  }
  for (int o : owner) CHECK(o >= 0);
}

TEST_CASE("the math partition: a warp's A rows are its C rows and its B rows its C cols, in every config",
          "[step05]") {
  // Not so for a thread: lane 0 holds B's row n = 0 but C's cols 0 and 1. The instruction hands values
  // between the lanes of a warp, so the rows line up per warp, not per thread.
  auto check = [](auto cfg) {
    using Cfg = decltype(cfg);
    typename Cfg::TiledMma mma;
    typename Cfg::CtaTiler tiler;
    int const bm = size<0>(tiler), bn = size<1>(tiler), bk = size<2>(tiler);
    Tensor cA = make_identity_tensor(make_shape(bm, bk));  // (BLK_M,BLK_K) -> (m,k)
    Tensor cB = make_identity_tensor(make_shape(bn, bk));  // (BLK_N,BLK_K) -> (n,k)
    Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n)
    std::vector<int> a_hits(std::size_t(bm * bk), 0), b_hits(std::size_t(bn * bk), 0);
    for (int w = 0; w < Cfg::kThreads / 32; ++w) {
      CAPTURE(Cfg::kThreads, w);
      std::set<int> a_rows, b_rows, c_rows, c_cols;
      std::set<std::pair<int, int>> a_elems, b_elems;
      for (int t = 32 * w; t < 32 * (w + 1); ++t) {
        auto thr = mma.get_slice(t);
        Tensor tCcA = thr.partition_A(cA);  // (MMA,MMA_M,MMA_K) -> (m,k)
        Tensor tCcB = thr.partition_B(cB);  // (MMA,MMA_N,MMA_K) -> (n,k)
        Tensor tCcC = thr.partition_C(cC);  // (MMA,MMA_M,MMA_N) -> (m,n)
        for (int i = 0; i < int(size(tCcA)); ++i) {
          a_rows.insert(get<0>(tCcA(i)));
          a_elems.insert({get<0>(tCcA(i)), get<1>(tCcA(i))});
          ++a_hits[std::size_t(get<0>(tCcA(i)) + bm * get<1>(tCcA(i)))];
        }
        for (int i = 0; i < int(size(tCcB)); ++i) {
          b_rows.insert(get<0>(tCcB(i)));
          b_elems.insert({get<0>(tCcB(i)), get<1>(tCcB(i))});
          ++b_hits[std::size_t(get<0>(tCcB(i)) + bn * get<1>(tCcB(i)))];
        }
        for (int i = 0; i < int(size(tCcC)); ++i) {
          c_rows.insert(get<0>(tCcC(i)));
          c_cols.insert(get<1>(tCcC(i)));
        }
      }
      CHECK(a_rows == c_rows);
      CHECK(b_rows == c_cols);
      // The warp holds every k of its rows: the whole A and B pieces its C piece needs.
      CHECK(a_elems.size() == a_rows.size() * std::size_t(bk));
      CHECK(b_elems.size() == b_rows.size() * std::size_t(bk));
    }
    // Each A element is loaded once per warp that needs it: WARPS_N warps share a row of A, WARPS_M a row of B.
    for (int h : a_hits) CHECK(h == Cfg::kWarpsN);
    for (int h : b_hits) CHECK(h == Cfg::kWarpsM);
  };
  check(OneAtom{});
  check(Warps2x2{});
}

TEST_CASE("sizes: multiples of every variant's tile; anything else names step06", "[step05]") {
  tut::Step const& s = step05::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 80);
  CHECK(s.multiple_of.m == 64);
  CHECK(s.multiple_of.n == 64);
  CHECK(s.multiple_of.k == 32);
  CHECK(tut::unsupported(s, {64, 64, 32}).empty());
  CHECK(tut::unsupported(s, {4096, 4096, 4096}).empty());
  for (tut::Problem p : {tut::Problem{16, 64, 32}, tut::Problem{64, 8, 32}, tut::Problem{64, 64, 16},
                         tut::Problem{65, 64, 32}}) {
    std::string const why = tut::unsupported(s, p);
    CAPTURE(p.m, p.n, p.k, why);
    CHECK(why.find("multiples of 64") != std::string::npos);
    CHECK(why.find("K a multiple of 32") != std::string::npos);
    CHECK(why.find("step06_global_gemm handles any M and N") != std::string::npos);
  }
  REQUIRE(s.variants.size() == 2);
  CHECK(s.variants[0].name == "atom");
  CHECK(s.variants[0].threads == 32);
  CHECK(s.variants[1].name == "warps2x2");
  CHECK(s.variants[1].threads == 128);
}

TEST_CASE("the printout draws C's rows 0 and 8 as the slides do, and thread 17's registers", "[step05]") {
  std::string const out = trace_of("atom", 17);
  CHECK(out.find("    0 | T0V0 T0V1 T1V0 T1V1 T2V0 T2V1 T3V0 T3V1\n") != std::string::npos);
  CHECK(out.find("    8 | T0V2 T0V3 T1V2 T1V3 T2V2 T2V3 T3V2 T3V3\n") != std::string::npos);
  // Lane 17: groupID 4, threadID_in_group 1.
  CHECK(out.find("a0 = V0 | V1   (m,k) = (4,2) | (4,3)") != std::string::npos);
  CHECK(out.find("a3 = V6 | V7   (m,k) = (12,10) | (12,11)") != std::string::npos);
  CHECK(out.find("b1 = V2 | V3   (n,k) = (4,10) | (4,11)") != std::string::npos);
  CHECK(out.find("c2 = V2   (m,n) = (12,2)") != std::string::npos);
  // The warp map of the 2x2 TiledMMA: warps 0 and 2 alternate across the first 16 rows, 1 and 3 below.
  CHECK(out.find("      0 02020202\n     16 13131313\n     32 02020202\n     48 13131313\n") != std::string::npos);
  std::string const w = trace_of("warps2x2", 113);
  CHECK(w.find("lane 17 of warp 3, the warp at (tm=1, tn=1)") != std::string::npos);
}

// Host tests of step 02: local_tile's three operations, and the masks at every coordinate of ragged shapes.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "step02_local_tile.hpp"
#include "tut/format.hpp"
#include "tut/mask.hpp"

using namespace cute;
using step02::CtaTiler;
using tut::plain;

namespace {

// Every CTA of problem (M,N,K), every thread: the masks the kernel builds (the same calls: local_tile of
// the identity tensors, partition_A/B/C, make_mask) against m<M, n<N, k<K at every element, and
// every C entry stored by exactly one thread of exactly one CTA. LA, LB, LC may be static or dynamic.
template <class LA, class LB, class LC>
void check_masks(LA const& la, LB const& lb, LC const& lc) {
  int const M = size<0>(la), K = size<1>(la), N = size<0>(lb);
  auto mma = step02::make_tiled_mma_fma();
  CtaTiler cta_tiler;
  int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
  std::map<std::pair<int, int>, int> stores;  // (m,n) -> how many threads store it
  for (int bx = 0; bx < gx; ++bx)
    for (int by = 0; by < gy; ++by) {
      auto cta_coord = make_coord(bx, by, _);
      Tensor cA = local_tile(make_identity_tensor(shape(la)), cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
      Tensor cB = local_tile(make_identity_tensor(shape(lb)), cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
      Tensor cC = local_tile(make_identity_tensor(shape(lc)), cta_tiler, cta_coord, Step<_1, _1, X>{});  // (BLK_M,BLK_N)
      REQUIRE(int(size<2>(cA)) == ceil_div(K, 8));  // local_tile rounds the k-tiles up
      std::map<std::pair<int, int>, int> owners;    // tile element -> threads owning it, in this CTA
      for (int t = 0; t < step02::kThreads; ++t) {
        CAPTURE(M, N, K, bx, by, t);
        auto thr = mma.get_slice(t);
        Tensor tCcA = thr.partition_A(cA);  // (MMA,MMA_M,MMA_K,k) -> (m,k)
        Tensor tCcB = thr.partition_B(cB);  // (MMA,MMA_N,MMA_K,k) -> (n,k)
        Tensor tCcC = thr.partition_C(cC);  // (MMA,MMA_M,MMA_N) -> (m,n)
        Tensor tCpA = tut::make_mask(tCcA, shape(la));  // (MMA,MMA_M,MMA_K,k) -> m<M && k<K
        Tensor tCpB = tut::make_mask(tCcB, shape(lb));  // (MMA,MMA_N,MMA_K,k) -> n<N && k<K
        Tensor tCpC = tut::make_mask(tCcC, shape(lc));  // (MMA,MMA_M,MMA_N) -> m<M && n<N
        for (int i = 0; i < int(size(tCcA)); ++i) {
          auto c = tCcA(i);
          REQUIRE(bool(tCpA(i)) == (int(get<0>(c)) < M && int(get<1>(c)) < K));
        }
        for (int i = 0; i < int(size(tCcB)); ++i) {
          auto c = tCcB(i);
          REQUIRE(bool(tCpB(i)) == (int(get<0>(c)) < N && int(get<1>(c)) < K));
        }
        REQUIRE(int(size(tCcC)) == 64);
        for (int i = 0; i < int(size(tCcC)); ++i) {
          int const m = get<0>(tCcC(i)), n = get<1>(tCcC(i));
          bool const inside = m < M && n < N;
          REQUIRE(bool(tCpC(i)) == inside);
          ++owners[{m, n}];
          if (tCpC(i)) ++stores[{m, n}];
        }
      }
      // The CTA's 128x128 tile: every element owned by exactly one thread, inside the problem or not.
      REQUIRE(owners.size() == 128u * 128u);
      for (auto const& [mn, count] : owners) {
        CAPTURE(bx, by, mn.first, mn.second);
        REQUIRE(count == 1);
        REQUIRE(mn.first / 128 == bx);
        REQUIRE(mn.second / 128 == by);
      }
    }
  // Over the whole grid: exactly the M x N entries of C are stored, each once.
  REQUIRE(stores.size() == std::size_t(M) * std::size_t(N));
  for (auto const& [mn, count] : stores) {
    CAPTURE(mn.first, mn.second);
    REQUIRE(count == 1);
    REQUIRE(mn.first < M);
    REQUIRE(mn.second < N);
  }
}

}  // namespace

TEST_CASE("masks at every coordinate of ragged problems (dynamic shapes, as the kernel builds them)", "[step02]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{200, 150, 20},  // the default: ragged in M, N and K
                                                  {1, 1, 1},
                                                  {129, 255, 9},
                                                  {128, 128, 8},  // nothing ragged: every mask is 1
                                                  {300, 7, 17},
                                                  {64, 200, 3}}));
  CAPTURE(M, N, K);
  check_masks(step02::make_layout_A(M, K), step02::make_layout_B(N, K), step02::make_layout_C(M, N));
}

TEST_CASE("masks at every coordinate of ragged problems (static shapes)", "[step02]") {
  SECTION("200x150x20") {
    check_masks(Layout<Shape<Int<200>, Int<20>>, Stride<_1, Int<200>>>{}, Layout<Shape<Int<150>, Int<20>>, Stride<_1, Int<150>>>{},
                Layout<Shape<Int<200>, Int<150>>, Stride<Int<150>, _1>>{});
  }
  SECTION("1x1x1") {
    check_masks(Layout<Shape<_1, _1>, Stride<_1, _1>>{}, Layout<Shape<_1, _1>, Stride<_1, _1>>{},
                Layout<Shape<_1, _1>, Stride<_1, _1>>{});
  }
}

TEST_CASE("local_tile = proj + tile + coord, on the default ragged problem", "[step02]") {
  int const M = 200, N = 150, K = 20;
  CtaTiler cta_tiler;
  Tensor mA = make_tensor(counting_iterator<int>(0), step02::make_layout_A(M, K));  // (M,K) -> idx
  Tensor mC = make_tensor(counting_iterator<int>(0), step02::make_layout_C(M, N));  // (M,N) -> idx
  // proj: A keeps (BLK_M,BLK_K), C keeps (BLK_M,BLK_N).
  CHECK(plain(dice(Step<_1, X, _1>{}, cta_tiler)) == "(128,8)");
  CHECK(plain(dice(Step<_1, _1, X>{}, cta_tiler)) == "(128,128)");
  // tile: zipped_divide rounds the number of tiles up.
  CHECK(plain(zipped_divide(mA, make_tile(_128{}, _8{})).layout()) == "((128,8),(2,3)):((1,200),(128,1600))");
  CHECK(plain(zipped_divide(mC, make_tile(_128{}, _128{})).layout()) == "((128,128),(2,2)):((150,1),(19200,128))");
  // coord: the slice is local_tile's result, for every CTA.
  for (int bx = 0; bx < 2; ++bx)
    for (int by = 0; by < 2; ++by) {
      CAPTURE(bx, by);
      Tensor gA = local_tile(mA, cta_tiler, make_coord(bx, by, _), Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
      Tensor zA = zipped_divide(mA, make_tile(_128{}, _8{}))(make_coord(_, _), make_coord(bx, _));  // (BLK_M,BLK_K,k)
      CHECK(gA.layout() == zA.layout());
      CHECK(*gA.data() == *zA.data());
      CHECK(*gA.data() == bx * 128);  // A(128*bx, 0)
      CHECK(plain(gA.layout()) == "(128,8,3):(1,200,1600)");
      Tensor gC = local_tile(mC, cta_tiler, make_coord(bx, by, _), Step<_1, _1, X>{});  // (BLK_M,BLK_N)
      CHECK(*gC.data() == bx * 128 * N + by * 128);  // C(128*bx, 128*by)
      CHECK(plain(gC.layout()) == "(128,128):(150,1)");
    }
}

TEST_CASE("step 02 runs any size, with step 01's layouts and tiler", "[step02]") {
  auto const& s = step02::step();
  for (tut::Problem p : {tut::Problem{1, 1, 1}, tut::Problem{200, 150, 20}, tut::Problem{256, 128, 32},
                         tut::Problem{4097, 3, 1000001}})
    CHECK(tut::unsupported(s, p).empty());
  auto const& v = s.variants.front();
  CHECK(v.threads == 256);
  CHECK(v.tile_m == 128);
  CHECK(v.tile_n == 128);
  CHECK(s.defaults.m == 200);
  CHECK(s.defaults.n == 150);
  CHECK(s.defaults.k == 20);
  auto st = s.layout_strides({200, 150, 20});
  CHECK(st.a_m == 1);
  CHECK(st.a_k == 200);
  CHECK(st.b_n == 1);
  CHECK(st.b_k == 150);
  CHECK(st.c_m == 150);
  CHECK(st.c_n == 1);
  // The tile and k-tile counts round up.
  CHECK(tut::tiles_of(v, {200, 150, 20}) == tut::TileCoord{2, 2});
  CHECK(tut::tiles_of(v, {1, 1, 1}) == tut::TileCoord{1, 1});
  CHECK(ceil_div(20, size<2>(CtaTiler{})) == 3);
}

// Host tests of step 01: thread 0's trace, the five-stage derivation, the permutation comparison, and
// partition properties at every coordinate.
#include <map>
#include <set>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "derivation.hpp"
#include "step01_naive.hpp"
#include "tut/format.hpp"
#include "tut/printout.hpp"

using namespace cute;
using step01::CtaTiler;
using step01::TiledMma;
using tut::plain;

namespace {

// The default problem (M=256, N=128, K=32), tiled for CTA (bx,by): static and dynamic shapes must give the same layouts.
template <class LayoutA, class LayoutB, class LayoutC>
struct Tiles {
  LayoutA la;
  LayoutB lb;
  LayoutC lc;
  int bx, by;
  auto gA() const { return local_tile(make_tensor(counting_iterator<int>(0), la), CtaTiler{}, make_coord(bx, by, _), Step<_1, X, _1>{}); }
  auto gB() const { return local_tile(make_tensor(counting_iterator<int>(0), lb), CtaTiler{}, make_coord(bx, by, _), Step<X, _1, _1>{}); }
  auto gC() const { return local_tile(make_tensor(counting_iterator<int>(0), lc), CtaTiler{}, make_coord(bx, by, _), Step<_1, _1, X>{}); }
};
template <class A, class B, class C>
Tiles<A, B, C> tiles(A a, B b, C c, int bx = 0, int by = 0) { return {a, b, c, bx, by}; }

// The row/col the plain-CUDA index code gives thread (tm, tn) for its i-th value (0..7).
int plain_cuda_index(int t, int i) { return t * 4 + (i < 4 ? i : 64 + (i - 4)); }

}  // namespace

TEST_CASE("thread 0's trace: CTA (0,0), M=256 N=128 K=32", "[step01][trace]") {
  auto check = [](auto const& t) {
    CHECK(plain(t.gA().layout()) == "(128,8,4):(1,256,2048)");
    CHECK(plain(t.gB().layout()) == "(128,8,4):(1,128,1024)");
    CHECK(plain(t.gC().layout()) == "(128,128):(128,1)");
    auto thr = step01::make_tiled_mma_fma().get_slice(0);
    CHECK(plain(thr.partition_C(t.gC()).layout()) == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
    CHECK(plain(thr.partition_A(t.gA()(_, _, 0)).layout()) == "(1,(4,2),8):(0,(1,64),256)");
    CHECK(plain(thr.partition_B(t.gB()(_, _, 0)).layout()) == "(1,(4,2),8):(0,(1,64),128)");
  };
  SECTION("dynamic shapes, as the kernel builds them") {
    check(tiles(step01::make_layout_A(256, 32), step01::make_layout_B(128, 32), step01::make_layout_C(256, 128)));
  }
  SECTION("static shapes") {
    check(tiles(Layout<Shape<_256, _32>, Stride<_1, _256>>{}, Layout<Shape<_128, _32>, Stride<_1, _128>>{},
                Layout<Shape<_256, _128>, Stride<_128, _1>>{}));
  }
  SECTION("grid and loop counts") {
    auto t = tiles(step01::make_layout_A(256, 32), step01::make_layout_B(128, 32), step01::make_layout_C(256, 128));
    CHECK(ceil_div(256, size<0>(CtaTiler{})) == 2);
    CHECK(ceil_div(128, size<1>(CtaTiler{})) == 1);
    auto thr = step01::make_tiled_mma_fma().get_slice(0);
    int const k_tiles = size<2>(t.gA());
    int const k_blocks = size<2>(thr.partition_A(t.gA()(_, _, 0)));
    int const fmas = size(thr.partition_C(t.gC()));
    CHECK(k_tiles == 4);
    CHECK(k_blocks == 8);
    CHECK(fmas == 64);
    CHECK(k_tiles * k_blocks * fmas == 2048);
  }
}

TEST_CASE("the plain-CUDA index formula equals partition_C for all 256 threads", "[step01][mapping]") {
  auto mma = step01::make_tiled_mma_fma();
  Tensor cC = make_identity_tensor(make_shape(_128{}, _128{}));  // (BLK_M,BLK_N) -> (m,n)
  for (int t = 0; t < 256; ++t) {
    CAPTURE(t);
    int const tm = t / 16, tn = t % 16;
    Tensor tCcC = mma.get_slice(t).partition_C(cC);  // (MMA,MMA_M,MMA_N) -> (m,n)
    REQUIRE(size<1>(tCcC) == 8);
    REQUIRE(size<2>(tCcC) == 8);
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) {
        auto c = tCcC(0, i, j);
        REQUIRE(get<0>(c) == plain_cuda_index(tm, i));
        REQUIRE(get<1>(c) == plain_cuda_index(tn, j));
      }
  }
}

TEST_CASE("every element of the 128x128 tile is owned by exactly one of the 256 threads", "[step01]") {
  auto mma = step01::make_tiled_mma_fma();
  std::map<std::pair<int, int>, int> owner;
  Tensor cC = make_identity_tensor(make_shape(_128{}, _128{}));
  for (int t = 0; t < 256; ++t) {
    Tensor tCcC = mma.get_slice(t).partition_C(cC);
    REQUIRE(size(tCcC) == 64);
    for (int i = 0; i < size(tCcC); ++i) {
      auto c = tCcC(i);
      auto [it, fresh] = owner.emplace(std::pair{int(get<0>(c)), int(get<1>(c))}, t);
      INFO("element (" << get<0>(c) << "," << get<1>(c) << ") owned by " << it->second << " and " << t);
      REQUIRE(fresh);
    }
  }
  CHECK(owner.size() == 128 * 128);
}

TEST_CASE("thread T's A rows and B rows are its C rows and cols", "[step01]") {
  auto mma = step01::make_tiled_mma_fma();
  Tensor cA = make_identity_tensor(make_shape(_128{}, _8{}));    // (BLK_M,BLK_K) -> (m,k)
  Tensor cB = make_identity_tensor(make_shape(_128{}, _8{}));    // (BLK_N,BLK_K) -> (n,k)
  Tensor cC = make_identity_tensor(make_shape(_128{}, _128{}));  // (BLK_M,BLK_N) -> (m,n)
  for (int t = 0; t < 256; ++t) {
    CAPTURE(t);
    auto thr = mma.get_slice(t);
    Tensor tCcA = thr.partition_A(cA);  // (MMA,MMA_M,MMA_K)
    Tensor tCcB = thr.partition_B(cB);  // (MMA,MMA_N,MMA_K)
    Tensor tCcC = thr.partition_C(cC);  // (MMA,MMA_M,MMA_N)
    for (int i = 0; i < 8; ++i)
      for (int k = 0; k < 8; ++k) {
        REQUIRE(get<0>(tCcA(0, i, k)) == get<0>(tCcC(0, i, 0)));  // same m, in the same order
        REQUIRE(get<1>(tCcA(0, i, k)) == k);                      // every k of the k-tile
        REQUIRE(get<0>(tCcB(0, i, k)) == get<1>(tCcC(0, 0, i)));  // same n, in the same order
        REQUIRE(get<1>(tCcB(0, i, k)) == k);
      }
  }
}

TEST_CASE("the five-stage derivation of partition_C, on the step's own gC", "[step01][mapping]") {
  auto mma = step01::make_tiled_mma_fma();
  // CTA (0,0)'s tile of the step's own C layout for the default problem, as the kernel cuts it.
  auto gC = local_tile(make_tensor(counting_iterator<int>(0), step01::make_layout_C(256, 128)), CtaTiler{},
                       make_coord(0, 0, _), Step<_1, _1, X>{}).layout();  // (BLK_M,BLK_N) -> idx
  REQUIRE(plain(gC) == "(128,128):(128,1)");
  auto flat2 = [](auto const& l) { return make_layout(flatten(layout<0>(l)), flatten(layout<1>(l))); };

  auto s1 = logical_divide(gC, make_tile(step01::PermutationMN{}, step01::PermutationMN{}));
  CHECK(plain(flat2(s1)) == "((16,4,2),(16,4,2)):((512,128,8192),(4,1,64))");
  auto s2 = zipped_divide(s1, make_tile(Layout<_1>{}, Layout<_1>{}));
  CHECK(plain(flatten(layout<1>(s2))) == "(16,4,2,16,4,2):(512,128,8192,4,1,64)");
  auto s3 = s2.compose(TiledMma::Atom::LayoutC_TV{}, _);
  CHECK(plain(layout<0>(s3)) == "(1,1):(0,0)");
  auto s4 = zipped_divide(s3, make_tile(_, make_tile(make_layout(_16{}), make_layout(_16{}))));
  CHECK(plain(layout<0>(s4)) == "(1,(16,16)):(0,(512,4))");
  CHECK(plain(layout<1>(s4)) == "(1,((4,2),(4,2))):(0,((128,8192),(1,64)))");
  // The hand-built stages are exactly what TiledMMA computes.
  CHECK(plain(s4) == plain(mma.thrfrg_C(gC)));
  // Stage 5: slicing thread t = (tm,tn) moves the origin to tm*512 + tn*4 and leaves tCgC.
  for (int t = 0; t < 256; ++t) {
    CAPTURE(t);
    auto [frag, offset] = slice_and_offset(make_coord(make_coord(0, make_coord(t / 16, t % 16)), _), s4);
    REQUIRE(offset == (t / 16) * 512 + (t % 16) * 4);
    Tensor tCgC = mma.get_slice(t).partition_C(make_tensor(counting_iterator<int>(0), gC));
    REQUIRE(*tCgC.data() == offset);
    REQUIRE(plain(tCgC.layout()) == "(1,(4,2),(4,2)):(0,(128,8192),(1,64))");
    REQUIRE(size(frag) == 64);
  }
}

TEST_CASE("the permutation comparison, as the printout computes it", "[step01][mapping]") {
  auto flat = [](auto perm) {
    auto d = logical_divide(Layout<_128, _128>{}, perm);
    return make_layout(flatten(d.shape()), flatten(d.stride()));
  };
  CHECK(plain(flat(Layout<Shape<_16, _4>, Stride<_4, _1>>{})) == "(16,4,2):(512,128,8192)");
  CHECK(plain(flat(Layout<Shape<_16, _4>, Stride<_1, _16>>{})) == "(16,4,2):(128,2048,8192)");
  CHECK(plain(take<0, 2>(flat(Layout<Shape<_16, _8>, Stride<_8, _1>>{}))) == "(16,8):(1024,128)");

  // The rows the printout lists, through its own function, with the step's thread layout.
  auto rows_of_thread0 = [](auto perm) { return step01::rows_with_permutation<128, step01::ThrLayout>(perm, 0); };
  CHECK(rows_of_thread0(step01::PermutationMN{}) == "{0..3, 64..67}");
  // ... and they are the rows the step's own TiledMMA gives thread 0.
  CHECK(rows_of_thread0(step01::PermutationMN{}) ==
        tut::rows_cols(tut::coords_of(step01::make_tiled_mma_fma().get_slice(0).partition_C(
                           make_identity_tensor(make_shape(_128{}, _128{})))))
            .first);
  CHECK(rows_of_thread0(Layout<Shape<_16, _4>, Stride<_1, _16>>{}) == "{0, 16, 32, 48, 64, 80, 96, 112}");
  CHECK(rows_of_thread0(Layout<Shape<_16, _8>, Stride<_8, _1>>{}) == "{0..7}");
}

TEST_CASE("step 01 declares tile multiples, its layouts and its tile", "[step01]") {
  auto const& s = step01::step();
  auto const& v = s.variants.front();
  CHECK(v.threads == 256);
  CHECK(v.tile_m == 128);
  CHECK(v.tile_n == 128);
  CHECK(v.tile_k == 8);
  CHECK(s.multiple_of.m == 128);
  CHECK(s.multiple_of.k == 8);
  CHECK(s.lifted_by == "step02_local_tile");
  auto st = s.layout_strides({256, 128, 32});
  CHECK(st.a_m == 1);
  CHECK(st.a_k == 256);
  CHECK(st.b_n == 1);
  CHECK(st.b_k == 128);
  CHECK(st.c_m == 128);
  CHECK(st.c_n == 1);
}

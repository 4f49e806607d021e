// Host tests of step 03: the copy partition covers the smem tile exactly once, the math partition's rows
// are C's rows, the vector copies line up, and the masks hold at every coordinate.
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "step03_smem_tiling.hpp"
#include "tut/format.hpp"
#include "tut/mask.hpp"

using namespace cute;
using step03::Config;
using step03::Default;
using tut::plain;

namespace {

// Every configuration the step compiles: its Variants, and the scalar twin each falls back to.
template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); (f(typename decltype(cfg)::Scalar{}), ...); }, step03::Variants{});
}

template <class Cfg>
std::string name_of() {
  return "Config<" + std::to_string(size<0>(typename Cfg::CtaTiler{})) + "," +
         std::to_string(size<1>(typename Cfg::CtaTiler{})) + "," + std::to_string(size<2>(typename Cfg::CtaTiler{})) +
         ", threads " + std::to_string(Cfg::kThreads) + ", vec " + std::to_string(Cfg::kVec) + ">";
}

// Over all threads, the copy partition of an smem tile of layout SmemLayout: every (mn,k) written by
// exactly one thread-value, and each vector VEC elements contiguous in smem from a multiple of VEC.
template <class Cfg, class TiledCopy, class SmemLayout>
void check_copy_partition(TiledCopy const& copy, SmemLayout const& s_layout) {
  Tensor cS = make_identity_tensor(shape(s_layout));                       // (BLK_MN,BLK_K) -> (mn,k)
  Tensor sIdx = make_tensor(counting_iterator<int>(0), s_layout);          // (BLK_MN,BLK_K) -> smem_idx
  std::map<std::pair<int, int>, int> writers;
  for (int t = 0; t < Cfg::kThreads; ++t) {
    CAPTURE(t);
    auto thr = copy.get_slice(t);
    Tensor tXcS = thr.partition_D(cS);    // (CPY,CPY_MN,CPY_K) -> (mn,k)
    Tensor tXsIdx = thr.partition_D(sIdx);  // (CPY,CPY_MN,CPY_K) -> smem_idx
    REQUIRE(int(size<0>(tXcS)) == Cfg::kVec);
    for (int i = 0; i < int(size(tXcS)); ++i) {
      auto c = tXcS(i);
      ++writers[{int(get<0>(c)), int(get<1>(c))}];
    }
    Tensor vIdx = group_modes<1, 3>(tXsIdx);   // (CPY,vector) -> smem_idx
    Tensor vCrd = group_modes<1, 3>(tXcS);     // (CPY,vector) -> (mn,k)
    for (int j = 0; j < int(size<1>(vIdx)); ++j) {  // each vector: one copy instruction
      Tensor v = vIdx(_, j);                        // VEC smem indices
      Tensor vc = vCrd(_, j);                       // VEC (mn,k)
      REQUIRE(v(0) % Cfg::kVec == 0);                        // 4·VEC-byte aligned
      REQUIRE(get<0>(vc(0)) % Cfg::kVec == 0);               // starts at a multiple of VEC along MN
      for (int e = 0; e < Cfg::kVec; ++e) {
        REQUIRE(v(e) == v(0) + e);                           // contiguous in smem
        REQUIRE(get<0>(vc(e)) == get<0>(vc(0)) + e);         // consecutive along MN, one k
        REQUIRE(get<1>(vc(e)) == get<1>(vc(0)));
      }
    }
  }
  REQUIRE(int(writers.size()) == int(size(s_layout)));
  for (auto const& [mk, count] : writers) {
    CAPTURE(mk.first, mk.second);
    REQUIRE(count == 1);
  }
}

}  // namespace

TEST_CASE("the copy partition covers each smem tile exactly once", "[step03]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    check_copy_partition<Cfg>(typename Cfg::TiledCopyA{}, typename Cfg::SmemLayoutA{});
    check_copy_partition<Cfg>(typename Cfg::TiledCopyB{}, typename Cfg::SmemLayoutB{});
  });
}

TEST_CASE("the math partition: tCsA rows are tCgC rows, tCsB rows are tCgC cols, every k", "[step03]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    typename Cfg::CtaTiler cta_tiler;
    typename Cfg::TiledMma mma;
    int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
    Tensor csA = make_identity_tensor(shape(typename Cfg::SmemLayoutA{}));  // (BLK_M,BLK_K) -> (m,k)
    Tensor csB = make_identity_tensor(shape(typename Cfg::SmemLayoutB{}));  // (BLK_N,BLK_K) -> (n,k)
    Tensor sAIdx = make_tensor(counting_iterator<int>(0), typename Cfg::SmemLayoutA{});  // -> smem_idx
    Tensor cC = make_identity_tensor(make_shape(bm, bn));                   // (BLK_M,BLK_N) -> (m,n)
    std::map<std::pair<int, int>, int> owners;
    for (int t = 0; t < Cfg::kThreads; ++t) {
      CAPTURE(t);
      auto thr = mma.get_slice(t);
      Tensor tCcA = thr.partition_A(csA);   // (MMA,MMA_M,MMA_K) -> (m,k)
      Tensor tCcB = thr.partition_B(csB);   // (MMA,MMA_N,MMA_K) -> (n,k)
      Tensor tCcC = thr.partition_C(cC);    // (MMA,MMA_M,MMA_N) -> (m,n)
      Tensor tCsAIdx = thr.partition_A(sAIdx);  // (MMA,MMA_M,MMA_K) -> smem_idx
      REQUIRE(int(size<1>(tCcA)) == int(size<1>(tCcC)));
      REQUIRE(int(size<1>(tCcB)) == int(size<2>(tCcC)));
      REQUIRE(int(size<2>(tCcA)) == bk);
      REQUIRE(int(size<2>(tCcB)) == bk);
      REQUIRE(int(size(tCcC)) * Cfg::kThreads == bm * bn);
      for (int k = 0; k < bk; ++k) {
        for (int i = 0; i < int(size<1>(tCcA)); ++i) {
          REQUIRE(get<0>(tCcA(0, i, k)) == get<0>(tCcC(0, i, 0)));  // same m, in the same order
          REQUIRE(get<1>(tCcA(0, i, k)) == k);                      // every k of the k-tile, in order
        }
        for (int j = 0; j < int(size<1>(tCcB)); ++j) {
          REQUIRE(get<0>(tCcB(0, j, k)) == get<1>(tCcC(0, 0, j)));  // same n, in the same order
          REQUIRE(get<1>(tCcB(0, j, k)) == k);
        }
        // Runs of 4 consecutive smem floats from a multiple of 4: one 128-bit load each.
        for (int i = 0; i < int(size<1>(tCsAIdx)); i += 4) {
          REQUIRE(tCsAIdx(0, i, k) % 4 == 0);
          for (int e = 1; e < 4; ++e) REQUIRE(tCsAIdx(0, i + e, k) == tCsAIdx(0, i, k) + e);
        }
      }
      for (int i = 0; i < int(size(tCcC)); ++i) ++owners[{int(get<0>(tCcC(i))), int(get<1>(tCcC(i)))}];
    }
    REQUIRE(int(owners.size()) == bm * bn);  // the C tile, each element owned once
    for (auto const& [mn, count] : owners) REQUIRE(count == 1);
  });
}

TEST_CASE("the copy masks hold at every coordinate of ragged problems", "[step03]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{200, 152, 40},  // the default: ragged in M, N and K
                                                  {200, 150, 20},  // N not a multiple of 4: scalar copies
                                                  {1, 1, 1},
                                                  {4, 132, 33},
                                                  {256, 128, 64}}));
  CAPTURE(M, N, K);
  auto check = [&](auto cfg, auto const& la, auto const& lb) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    typename Cfg::CtaTiler cta_tiler;
    int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
    for (int bx = 0; bx < gx; ++bx)
      for (int by = 0; by < gy; ++by) {
        auto cta_coord = make_coord(bx, by, _);
        Tensor cA = local_tile(make_identity_tensor(shape(la)), cta_tiler, cta_coord, Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
        Tensor cB = local_tile(make_identity_tensor(shape(lb)), cta_tiler, cta_coord, Step<X, _1, _1>{});  // (BLK_N,BLK_K,k)
        for (int t = 0; t < Cfg::kThreads; ++t) {
          CAPTURE(bx, by, t);
          Tensor tAcA = typename Cfg::TiledCopyA{}.get_slice(t).partition_S(cA);  // (CPY,CPY_M,CPY_K,k) -> (m,k)
          Tensor tBcB = typename Cfg::TiledCopyB{}.get_slice(t).partition_S(cB);  // (CPY,CPY_N,CPY_K,k) -> (n,k)
          Tensor tApA = tut::make_mask(tAcA, shape(la));  // (CPY,CPY_M,CPY_K,k) -> bool
          Tensor tBpB = tut::make_mask(tBcB, shape(lb));  // (CPY,CPY_N,CPY_K,k) -> bool
          for (int i = 0; i < int(size(tAcA)); ++i)
            REQUIRE(bool(tApA(i)) == (int(get<0>(tAcA(i))) < M && int(get<1>(tAcA(i))) < K));
          for (int i = 0; i < int(size(tBcB)); ++i)
            REQUIRE(bool(tBpB(i)) == (int(get<0>(tBcB(i))) < N && int(get<1>(tBcB(i))) < K));
          // A copy instruction is masked by its first element: every element of a vector must agree.
          Tensor pA = group_modes<1, 4>(tApA);  // (CPY,rest)
          Tensor pB = group_modes<1, 4>(tBpB);  // (CPY,rest)
          for (int j = 0; j < int(size<1>(pA)); ++j)
            for (int e = 1; e < int(size<0>(pA)); ++e) REQUIRE(bool(pA(e, j)) == bool(pA(0, j)));
          for (int j = 0; j < int(size<1>(pB)); ++j)
            for (int e = 1; e < int(size<0>(pB)); ++e) REQUIRE(bool(pB(e, j)) == bool(pB(0, j)));
        }
      }
  };
  tut::Problem const p{M, N, K};
  SECTION("dynamic shapes, as the kernel builds them") {
    auto la = step03::make_layout_A(M, K);
    auto lb = step03::make_layout_B(N, K);
    if (step03::vector_copies_fit(Default::kVec, p))
      check(Default{}, la, lb);
    check(Default::Scalar{}, la, lb);
  }
  SECTION("static shapes") {
    if (M == 200 && N == 152 && K == 40) {
      auto la = Layout<Shape<Int<200>, Int<40>>, Stride<_1, Int<200>>>{};
      auto lb = Layout<Shape<Int<152>, Int<40>>, Stride<_1, Int<152>>>{};
      check(Default{}, la, lb);
      check(Default::Scalar{}, la, lb);
    }
  }
}

TEST_CASE("vector copies fit exactly when M and N are multiples of VEC", "[step03]") {
  CHECK(step03::vector_copies_fit(4, {200, 152, 1}));
  CHECK(step03::vector_copies_fit(4, {4, 4, 7}));
  CHECK_FALSE(step03::vector_copies_fit(4, {200, 150, 40}));
  CHECK_FALSE(step03::vector_copies_fit(4, {201, 152, 40}));
  CHECK(step03::vector_copies_fit(1, {201, 151, 3}));
}

TEST_CASE("smem bytes, layouts and the step's description", "[step03]") {
  CHECK(Default::kSmemBytes == (128 + 128) * 32 * 4);
  CHECK(Default::kSmemBytes == 32768);
  CHECK(plain(typename Default::SmemLayoutA{}) == "(128,32):(1,128)");
  CHECK(plain(typename Default::SmemLayoutB{}) == "(128,32):(1,128)");
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    auto const tiler = typename Cfg::CtaTiler{};
    CHECK(Cfg::kSmemBytes == int((size<0>(tiler) + size<1>(tiler)) * size<2>(tiler) * sizeof(float)));
    CHECK(Cfg::kSmemBytes == int(sizeof(typename Cfg::Smem)));  // one SharedStorage, nothing else
    CHECK(Cfg::kSmemBytes <= 48 * 1024);  // dynamic smem up to 48 KB needs no opt-in
    CHECK(int(size(typename Cfg::TiledCopyA{})) == Cfg::kThreads);
    CHECK(int(size(typename Cfg::TiledMma{})) == Cfg::kThreads);
  });
  auto const& s = step03::step();
  REQUIRE(s.variants.size() == std::tuple_size_v<step03::Variants>);
  auto const& v = s.variants.front();  // Default
  CHECK(v.name == "128x128x32_t256_vec4");
  CHECK(v.threads == Default::kThreads);
  CHECK(v.tile_m == 128);
  CHECK(v.tile_n == 128);
  CHECK(v.tile_k == 32);
  CHECK(s.variants[3].threads == 128);  // 128x128x16_t128_vec4
}

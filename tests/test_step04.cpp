// Host tests of step 04: the swizzle is a bijection that keeps 4-float pieces, the copy partition
// covers each smem tile once, the math partition's rows are C's rows, the masks hold at every
// coordinate, and the bank-conflict model's counts on the kernel's own partitions.
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "smem_accesses.hpp"
#include "step04_swizzle.hpp"
#include "tut/format.hpp"
#include "tut/mask.hpp"

using namespace cute;
using step04::Default;
using step04::KMajor;
using step04::SmemKind;
using step04::Unswizzled;
using tut::plain;

namespace {

// Every configuration the step compiles: its Variants, and the scalar twin each falls back to.
template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); (f(typename decltype(cfg)::Scalar{}), ...); }, step04::Variants{});
}

template <class Cfg>
std::string name_of() {
  char const* kind = Cfg::kSmem == SmemKind::swizzled ? "swizzled" : Cfg::kSmem == SmemKind::plain ? "plain" : "k_major";
  return std::string("Config<") + kind + ", vec " + std::to_string(Cfg::kVec) + ">";
}

// smem_idx of (mn,k) under layout L: the kernel's own layout, evaluated.
template <class L>
int idx(L const& l, int mn, int k) {
  return int(l(mn, k));
}

}  // namespace

TEST_CASE("the swizzle is a bijection on the tile, keeps 4-float pieces, and is the printed function", "[step04]") {
  using Sw = typename Default::SmemLayoutA;  // Sw<3,2,7> o (128,32):(1,128)
  using Pl = typename Unswizzled::SmemLayoutA;
  Sw sw;
  Pl pl;
  REQUIRE(int(size(sw)) == 128 * 32);
  REQUIRE(int(cosize(sw)) == 128 * 32);
  std::vector<int> hits(128 * 32, 0);
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 32; ++k) {
      CAPTURE(m, k);
      int const i = idx(pl, m, k);  // the plain index m + 128k
      int const s = idx(sw, m, k);
      REQUIRE(i == m + 128 * k);
      REQUIRE(s >= 0);
      REQUIRE(s < 128 * 32);
      ++hits[s];
      CHECK(s == (i ^ (((i >> 9) & 7) << 2)));               // the function the printout writes
      CHECK(s % 4 == m % 4);                                 // a 4-float piece stays in order
      CHECK(s / 4 % 8 == ((m / 4) % 8 ^ (k / 4) % 8));       // piece m/4 mod 8 XOR k/4 mod 8
      CHECK(s / 32 == i / 32);                               // only within its 128-byte bank row
    }
  for (int s = 0; s < 128 * 32; ++s) REQUIRE(hits[s] == 1);  // every smem slot once: a bijection
}

TEST_CASE("the model on the kernel's own partitions", "[step04]") {
  // Derived from the geometry: a warp stores 4 rows x 8 pieces of 4 k; in plain M-major smem the 8
  // pieces of a row (k = 0, 4, .., 28, 512 bytes apart) share a bank: 8 wavefronts, 7 extra, for each
  // of the 16 stores (4 rows x 4 floats) of each of the 8 warps.
  int const warps = Default::kThreads / 32, stores = 16, extra_per_store = 8 - 1;
  auto by_name = [](auto const& counts) {
    std::map<std::string, tut::banks::Wavefronts> m;
    for (auto const& c : counts) m[c.partition] = c.waves;
    return m;
  };
  auto plain_counts = by_name(step04::Model<Unswizzled>::counts());
  auto swizzled = by_name(step04::Model<Default>::counts());
  auto kmajor = by_name(step04::Model<KMajor>::counts());
  CHECK(plain_counts["tAsA"].extra() == warps * stores * extra_per_store);  // 896
  CHECK(plain_counts["tBsB"].extra() == warps * stores * extra_per_store);
  CHECK(plain_counts["tAsA"].ideal == warps * stores);                     // one wavefront each, ideally
  CHECK(plain_counts["tCsA"].extra() == 0);  // 128-bit loads: broadcasts (A) and 128 contiguous bytes (B)
  CHECK(plain_counts["tCsB"].extra() == 0);
  for (auto const& [name, w] : swizzled) {
    CAPTURE(name);
    CHECK(w.extra() == 0);
    CHECK(w.ideal == plain_counts[name].ideal);  // the same instructions, only the addresses moved
  }
  // The loads: 32 k_blocks x 2 128-bit loads of 4 rows, 4 phases each, 8 warps.
  CHECK(swizzled["tCsA"].ideal == 32 * 2 * 4 * warps);
  // K-major smem: CuTe's copy reads one float per k_block, and nvcc merges 4 k_blocks of a row into one
  // 128-bit load (tut::banks::merge_unrolled). B: a quarter-warp's 8 lanes read rows n = 4*tn, 512 bytes
  // apart: the same 4 banks, 8 wavefronts per phase, 28 extra per load; 8 loads per 4 k, 8 groups of 4 k.
  // A: a quarter-warp's lanes share tm, so one address: a broadcast.
  CHECK(kmajor["tAsA"].extra() == 0);
  CHECK(kmajor["tCsB"].extra() == warps * (32 / 4) * 8 * (4 * 8 - 4));  // 14336
  CHECK(kmajor["tCsA"].extra() == 0);
  // The scalar twins store and load the same addresses: the same counts.
  auto scalar_plain = by_name(step04::Model<Unswizzled::Scalar>::counts());
  auto scalar_swizzled = by_name(step04::Model<Default::Scalar>::counts());
  for (auto const& [name, w] : plain_counts) {
    CAPTURE(name);
    CHECK(scalar_plain[name].extra() == w.extra());
    CHECK(scalar_swizzled[name].extra() == 0);
  }
}

TEST_CASE("the copy partition covers each smem tile once, 4 consecutive k of a row per thread", "[step04]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    tut::HostSmem<Cfg> smem;
    auto check = [&](auto const& copy, auto const& s) {
      Tensor cS = make_identity_tensor(shape(s));  // (BLK_MN,BLK_K) -> (mn,k)
      std::map<std::pair<int, int>, int> writers;
      std::set<float const*> slots;
      for (int t = 0; t < Cfg::kThreads; ++t) {
        CAPTURE(t);
        auto thr = copy.get_slice(t);
        Tensor tXcS = thr.partition_D(cS);  // (CPY,CPY_MN,CPY_K) -> (mn,k)
        Tensor tXsS = thr.partition_D(s);   // (CPY,CPY_MN,CPY_K) -> smem
        REQUIRE(int(size<0>(tXcS)) == 4);
        for (int i = 0; i < int(size(tXcS)); ++i) {
          ++writers[{int(get<0>(tXcS(i))), int(get<1>(tXcS(i)))}];
          slots.insert(&tXsS(i));
        }
        Tensor v = group_modes<1, 3>(tXcS);  // (CPY,vector) -> (mn,k)
        for (int j = 0; j < int(size<1>(v)); ++j) {
          REQUIRE(get<1>(v(0, j)) % 4 == 0);  // a 16-byte piece of the gmem row
          for (int e = 1; e < 4; ++e) {
            REQUIRE(get<0>(v(e, j)) == get<0>(v(0, j)));  // one row
            REQUIRE(get<1>(v(e, j)) == get<1>(v(0, j)) + e);  // consecutive k
          }
        }
      }
      REQUIRE(int(writers.size()) == int(size(s)));
      for (auto const& [mk, count] : writers) REQUIRE(count == 1);
      REQUIRE(int(slots.size()) == int(size(s)));  // and every smem slot once
    };
    check(typename Cfg::TiledCopyA{}, smem.sA());
    check(typename Cfg::TiledCopyB{}, smem.sB());
  });
}

TEST_CASE("the math partition: tCsA rows are tCgC rows, tCsB rows tCgC cols, read 4 at a time", "[step04]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    typename Cfg::CtaTiler cta_tiler;
    typename Cfg::TiledMma mma;
    tut::HostSmem<Cfg> smem;
    Tensor sA = smem.sA();
    int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
    Tensor csA = make_identity_tensor(shape(sA));                            // (BLK_M,BLK_K) -> (m,k)
    Tensor csB = make_identity_tensor(shape(smem.sB()));                     // (BLK_N,BLK_K) -> (n,k)
    Tensor cC = make_identity_tensor(make_shape(bm, bn));                    // (BLK_M,BLK_N) -> (m,n)
    std::map<std::pair<int, int>, int> owners;
    for (int t = 0; t < Cfg::kThreads; ++t) {
      CAPTURE(t);
      auto thr = mma.get_slice(t);
      Tensor tCcA = thr.partition_A(csA);
      Tensor tCcB = thr.partition_B(csB);
      Tensor tCcC = thr.partition_C(cC);
      Tensor tCsA = thr.partition_A(sA);
      for (int k = 0; k < bk; ++k) {
        for (int i = 0; i < int(size<1>(tCcA)); ++i) {
          REQUIRE(get<0>(tCcA(0, i, k)) == get<0>(tCcC(0, i, 0)));
          REQUIRE(get<1>(tCcA(0, i, k)) == k);
          REQUIRE(&tCsA(0, i, k) == &sA(get<0>(tCcA(0, i, k)), k));  // the element it names
        }
        for (int j = 0; j < int(size<1>(tCcB)); ++j) {
          REQUIRE(get<0>(tCcB(0, j, k)) == get<1>(tCcC(0, 0, j)));
          REQUIRE(get<1>(tCcB(0, j, k)) == k);
        }
        if constexpr (Cfg::kSmem != SmemKind::k_major) {
          // M-major, swizzled or not: runs of 4 consecutive smem floats from a multiple of 4.
          for (int i = 0; i < int(size<1>(tCsA)); i += 4) {
            REQUIRE((&tCsA(0, i, k) - smem.storage->A.begin()) % 4 == 0);
            for (int e = 1; e < 4; ++e) REQUIRE(&tCsA(0, i + e, k) == &tCsA(0, i, k) + e);
          }
        }
      }
      for (int i = 0; i < int(size(tCcC)); ++i) ++owners[{int(get<0>(tCcC(i))), int(get<1>(tCcC(i)))}];
    }
    REQUIRE(int(owners.size()) == bm * bn);
    for (auto const& [mn, count] : owners) REQUIRE(count == 1);
  });
}

TEST_CASE("the load masks hold at every coordinate of ragged problems", "[step04]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{200, 152, 40},  // the default: ragged in M, N and K
                                                  {200, 150, 21},  // K not a multiple of 4: scalar loads
                                                  {1, 1, 1},
                                                  {7, 13, 3},
                                                  {131, 259, 36}}));
  CAPTURE(M, N, K);
  tut::Problem const p{M, N, K};
  auto check = [&](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    auto la = step04::make_layout_A(M, K);
    auto lb = step04::make_layout_B(N, K);
    typename Cfg::CtaTiler cta_tiler;
    int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
    for (int bx = 0; bx < gx; ++bx)
      for (int by = 0; by < gy; ++by) {
        auto cta_coord = make_coord(bx, by, _);
        Tensor cA = local_tile(make_identity_tensor(shape(la)), cta_tiler, cta_coord, Step<_1, X, _1>{});
        Tensor cB = local_tile(make_identity_tensor(shape(lb)), cta_tiler, cta_coord, Step<X, _1, _1>{});
        for (int t = 0; t < Cfg::kThreads; ++t) {
          CAPTURE(bx, by, t);
          Tensor tAcA = typename Cfg::TiledCopyA{}.get_slice(t).partition_S(cA);
          Tensor tBcB = typename Cfg::TiledCopyB{}.get_slice(t).partition_S(cB);
          Tensor tApA = tut::make_mask(tAcA, shape(la));
          Tensor tBpB = tut::make_mask(tBcB, shape(lb));
          for (int i = 0; i < int(size(tAcA)); ++i)
            REQUIRE(bool(tApA(i)) == (int(get<0>(tAcA(i))) < M && int(get<1>(tAcA(i))) < K));
          for (int i = 0; i < int(size(tBcB)); ++i)
            REQUIRE(bool(tBpB(i)) == (int(get<0>(tBcB(i))) < N && int(get<1>(tBcB(i))) < K));
          if constexpr (Cfg::kVec == 4) {
            // A 128-bit load is masked by its first element: every element of a vector must agree.
            Tensor pA = group_modes<1, 4>(tApA);
            for (int j = 0; j < int(size<1>(pA)); ++j)
              for (int e = 1; e < 4; ++e) REQUIRE(bool(pA(e, j)) == bool(pA(0, j)));
          }
        }
      }
  };
  if (step04::vector_copies_fit(Default::kVec, p)) check(Default{});
  check(Default::Scalar{});
}

TEST_CASE("128-bit loads fit exactly when K is a multiple of 4", "[step04]") {
  CHECK(step04::vector_copies_fit(4, {201, 151, 40}));
  CHECK(step04::vector_copies_fit(4, {1, 1, 4}));
  CHECK_FALSE(step04::vector_copies_fit(4, {200, 152, 21}));
  CHECK_FALSE(step04::vector_copies_fit(4, {4, 4, 2}));
  CHECK(step04::vector_copies_fit(1, {1, 1, 3}));
}

TEST_CASE("smem bytes, layouts and the step's description", "[step04]") {
  CHECK(Default::kSmemBytes == (128 + 128) * 32 * 4);
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,2,7> o (128,32):(1,128)");
  CHECK(plain(typename Unswizzled::SmemLayoutA{}) == "(128,32):(1,128)");
  CHECK(plain(typename KMajor::SmemLayoutB{}) == "(128,32):(32,1)");
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    CHECK(Cfg::kSmemBytes == int(sizeof(typename Cfg::Smem)));
    CHECK(Cfg::kSmemBytes <= 48 * 1024);
    CHECK(int(size(typename Cfg::TiledCopyA{})) == Cfg::kThreads);
    CHECK(int(size(typename Cfg::TiledMma{})) == Cfg::kThreads);
  });
  auto const& s = step04::step();
  REQUIRE(s.variants.size() == std::tuple_size_v<step04::Variants>);
  CHECK(s.variants[0].name == "swizzled");
  CHECK(s.variants[1].name == "unswizzled");
  CHECK(s.variants[2].name == "kmajor");
  CHECK(s.convention.a == tut::Major::k);
  CHECK(s.convention.b == tut::Major::k);
}

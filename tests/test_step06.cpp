// Host tests of step 06: the swizzle is a bijection that keeps 16-byte chunks, the cp.async partition
// covers each smem tile once with whole 16-byte chunks on both sides, the math partition addresses the
// elements it names through the swizzle, the masks hold at every coordinate, the bank-conflict model's
// counts on the kernel's own partitions, and the sizes the step runs.
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "config.hpp"
#include "smem_accesses.hpp"
#include "step06_global_gemm.hpp"
#include "tut/format.hpp"
#include "tut/mask.hpp"

using namespace cute;
using step06::Default;
using step06::Unswizzled;
using tut::plain;

namespace {

template <class F>
void for_each_config(F&& f) {
  std::apply([&](auto... cfg) { (f(cfg), ...); }, step06::Variants{});
}

template <class Cfg>
std::string name_of() {
  return Cfg::kSwizzle ? "swizzled" : "unswizzled";
}

std::string trace_of(tut::Options o) {
  std::ostringstream os;
  tut::find_variant(step06::step(), o.variant).trace(os, o);
  return os.str();
}

}  // namespace

TEST_CASE("the swizzle is a bijection on the tile, keeps 16-byte chunks, and is the printed function", "[step06]") {
  typename Default::SmemLayoutA sw;     // Sw<3,3,3> o (128,32):(32,1)
  typename Unswizzled::SmemLayoutA pl;  // (128,32):(32,1)
  REQUIRE(int(size(sw)) == 128 * 32);
  REQUIRE(int(cosize(sw)) == 128 * 32);
  std::vector<int> hits(128 * 32, 0);
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 32; ++k) {
      CAPTURE(m, k);
      int const i = int(pl(m, k));  // the plain index 32m + k
      int const s = int(sw(m, k));
      REQUIRE(i == 32 * m + k);
      REQUIRE(s >= 0);
      REQUIRE(s < 128 * 32);
      ++hits[std::size_t(s)];
      CHECK(s == (i ^ (((i >> 6) & 7) << 3)));                       // the function the printout writes
      CHECK(s % 8 == k % 8);                                         // a chunk's 8 halves stay in order
      CHECK(s / 8 % 8 == (((m % 2) * 4 + k / 8) ^ (m / 2) % 8));     // chunk of the bank row XOR m/2 mod 8
      CHECK(s / 64 == i / 64);                                       // only within its 128-byte bank row
    }
  for (int h : hits) REQUIRE(h == 1);  // every smem slot once: a bijection
}

TEST_CASE("the cp.async partition covers each smem tile once, in 16-byte chunks on both sides", "[step06]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    tut::HostSmem<Cfg> smem;
    int const M = 300, K = 96;  // a gmem problem for the source side: 16-byte rows, several k-tiles
    std::vector<step06::ElementAB> gmem(std::size_t(M * K));
    Tensor mA = make_tensor(make_gmem_ptr(gmem.data()), step06::make_layout_A(M, K));  // (M,K)
    Tensor gA = local_tile(mA, typename Cfg::CtaTiler{}, make_coord(1, 0, _), Step<_1, X, _1>{});  // (BLK_M,BLK_K,k)
    auto check = [&](auto const& copy, auto const& s) {
      Tensor cS = make_identity_tensor(shape(s));  // (BLK_MN,BLK_K) -> (mn,k)
      std::map<std::pair<int, int>, int> writers;
      std::set<step06::ElementAB const*> slots;
      for (int t = 0; t < Cfg::kThreads; ++t) {
        CAPTURE(t);
        auto thr = copy.get_slice(t);
        Tensor tXcS = thr.partition_D(cS);   // (CPY,CPY_MN,CPY_K) -> (mn,k)
        Tensor tXsS = thr.partition_D(s);    // (CPY,CPY_MN,CPY_K) -> smem
        Tensor tXgX = thr.partition_S(gA);   // (CPY,CPY_M,CPY_K,k) -> gmem
        REQUIRE(int(size<0>(tXsS)) == 8);    // one cp.async: 8 halves
        for (int i = 0; i < int(size(tXcS)); ++i) {
          ++writers[{int(get<0>(tXcS(i))), int(get<1>(tXcS(i)))}];
          slots.insert(&tXsS(i));
        }
        Tensor c = group_modes<1, 3>(tXcS);  // (CPY,chunk) -> (mn,k)
        Tensor d = group_modes<1, 3>(tXsS);  // (CPY,chunk) -> smem
        for (int j = 0; j < int(size<1>(c)); ++j) {
          CAPTURE(j);
          REQUIRE(get<1>(c(0, j)) % 8 == 0);  // a chunk starts a 16-byte piece of the row
          auto const off = reinterpret_cast<char const*>(&d(0, j)) - static_cast<char const*>(smem.base());
          REQUIRE(off % 16 == 0);             // and lands 16-byte aligned
          for (int e = 1; e < 8; ++e) {
            REQUIRE(get<0>(c(e, j)) == get<0>(c(0, j)));      // one row
            REQUIRE(get<1>(c(e, j)) == get<1>(c(0, j)) + e);  // 8 consecutive k
            REQUIRE(&d(e, j) == &d(0, j) + e);                // 16 contiguous bytes of smem, swizzle and all
          }
        }
        for (int k_tile = 0; k_tile < int(size<3>(tXgX)); ++k_tile) {
          Tensor g = group_modes<1, 3>(tXgX(_, _, _, k_tile));  // (CPY,chunk) -> gmem
          for (int j = 0; j < int(size<1>(g)); ++j)
            for (int e = 1; e < 8; ++e) REQUIRE(&g(e, j) == &g(0, j) + e);  // 16 contiguous bytes of gmem
        }
      }
      REQUIRE(int(writers.size()) == int(size(s)));
      for (auto const& [mk, count] : writers) REQUIRE(count == 1);  // every (mn,k) once
      REQUIRE(int(slots.size()) == int(size(s)));                   // every smem slot once
    };
    check(typename Cfg::TiledCopyA{}, smem.sA());
    check(typename Cfg::TiledCopyB{}, smem.sB());
  });
}

TEST_CASE("the math partition over smem addresses the elements it names, through the swizzle", "[step06]") {
  for_each_config([](auto cfg) {
    using Cfg = decltype(cfg);
    INFO(name_of<Cfg>());
    tut::HostSmem<Cfg> smem;
    Tensor sA = smem.sA();
    Tensor sB = smem.sB();
    Tensor csA = make_identity_tensor(shape(sA));  // (BLK_M,BLK_K) -> (m,k)
    Tensor csB = make_identity_tensor(shape(sB));  // (BLK_N,BLK_K) -> (n,k)
    typename Cfg::TiledMma mma;
    std::map<std::pair<int, int>, int> a_readers;
    for (int t = 0; t < Cfg::kThreads; ++t) {
      CAPTURE(t);
      auto thr = mma.get_slice(t);
      Tensor tCsA = thr.partition_A(sA);
      Tensor tCcA = thr.partition_A(csA);
      Tensor tCsB = thr.partition_B(sB);
      Tensor tCcB = thr.partition_B(csB);
      REQUIRE(size(tCsA) == size(thr.partition_fragment_A(sA)));
      for (int i = 0; i < int(size(tCsA)); ++i) {
        REQUIRE(&tCsA(i) == &sA(get<0>(tCcA(i)), get<1>(tCcA(i))));
        ++a_readers[{int(get<0>(tCcA(i))), int(get<1>(tCcA(i)))}];
      }
      for (int i = 0; i < int(size(tCsB)); ++i) REQUIRE(&tCsB(i) == &sB(get<0>(tCcB(i)), get<1>(tCcB(i))));
    }
    // Every A element of the k-tile is read by the 2 warps that share its rows (WARPS_N = 2).
    REQUIRE(int(a_readers.size()) == int(size(sA)));
    for (auto const& [mk, count] : a_readers) REQUIRE(count == 2);
  });
}

TEST_CASE("the copy masks hold at every coordinate of ragged problems, whole chunks at a time", "[step06]") {
  auto [M, N, K] = GENERATE(table<int, int, int>({{200, 150, 40},  // the default: ragged M, N and k-tile
                                                  {1, 1, 8},
                                                  {7, 13, 24},
                                                  {131, 259, 72}}));
  CAPTURE(M, N, K);
  auto la = step06::make_layout_A(M, K);
  auto lb = step06::make_layout_B(N, K);
  typename Default::CtaTiler cta_tiler;
  int const gx = ceil_div(M, size<0>(cta_tiler)), gy = ceil_div(N, size<1>(cta_tiler));
  int inside = 0;
  for (int bx = 0; bx < gx; ++bx)
    for (int by = 0; by < gy; ++by) {
      auto cta_coord = make_coord(bx, by, _);
      Tensor cA = local_tile(make_identity_tensor(shape(la)), cta_tiler, cta_coord, Step<_1, X, _1>{});
      Tensor cB = local_tile(make_identity_tensor(shape(lb)), cta_tiler, cta_coord, Step<X, _1, _1>{});
      for (int t = 0; t < Default::kThreads; ++t) {
        CAPTURE(bx, by, t);
        Tensor tAcA = typename Default::TiledCopyA{}.get_slice(t).partition_S(cA);
        Tensor tBcB = typename Default::TiledCopyB{}.get_slice(t).partition_S(cB);
        Tensor tApA = tut::make_mask(tAcA, shape(la));
        Tensor tBpB = tut::make_mask(tBcB, shape(lb));
        for (int i = 0; i < int(size(tAcA)); ++i) {
          bool const in = int(get<0>(tAcA(i))) < M && int(get<1>(tAcA(i))) < K;
          REQUIRE(bool(tApA(i)) == in);
          inside += in;
        }
        for (int i = 0; i < int(size(tBcB)); ++i)
          REQUIRE(bool(tBpB(i)) == (int(get<0>(tBcB(i))) < N && int(get<1>(tBcB(i))) < K));
        // A cp.async is masked by its first element: the chunk's other 7 must agree (K % 8 == 0).
        Tensor pA = group_modes<1, 4>(tApA);
        Tensor pB = group_modes<1, 4>(tBpB);
        for (int j = 0; j < int(size<1>(pA)); ++j)
          for (int e = 1; e < 8; ++e) REQUIRE(bool(pA(e, j)) == bool(pA(0, j)));
        for (int j = 0; j < int(size<1>(pB)); ++j)
          for (int e = 1; e < 8; ++e) REQUIRE(bool(pB(e, j)) == bool(pB(0, j)));
      }
    }
  CHECK(inside == M * K * gy);  // each CTA column (one per N tile) copies all of A once
}

TEST_CASE("the model on the kernel's own partitions: 0 conflicts swizzled", "[step06]") {
  auto by_name = [](auto const& counts) {
    std::map<std::string, tut::banks::PartitionCount> m;
    for (auto const& c : counts) m[c.partition] = c;
    return m;
  };
  auto swizzled = by_name(step06::Model<Default>::counts());
  auto plain_counts = by_name(step06::Model<Unswizzled>::counts());
  int const warps = Default::kThreads / 32;
  // cp.async: 16 bytes a lane, 4 chunks per thread and operand (128 rows x 4 chunks / 128 threads).
  CHECK(swizzled["tAsA"].bytes == 16);
  CHECK(swizzled["tAsA"].waves.ideal == warps * 4 * 4);  // 4 instructions x 4 quarter-warp phases
  // The loads: copy_aligned(tCsA, tCrA) reads 64 halves of A per thread as 32 32-bit registers, in one phase.
  CHECK(swizzled["tCsA"].bytes == 4);
  CHECK(swizzled["tCsA"].waves.ideal == warps * 32);
  CHECK(swizzled["tCsB"].waves.ideal == warps * 32);
  for (auto const& [name, c] : swizzled) {
    CAPTURE(name);
    CHECK(c.waves.extra() == 0);
    CHECK(c.waves.ideal == plain_counts[name].waves.ideal);  // the same instructions, only the addresses moved
  }
  // Plain K-major smem, derived from the geometry: a quarter-warp's cp.async covers rows r and r+1 (4
  // threads a row), 128 contiguous bytes: no conflict. A load reads rows g = 0..7 at one k: rows 64 bytes
  // apart, so rows g, g+2, g+4, g+6 hit the same banks at different words: 4 wavefronts, 3 extra, for
  // each of the 32 loads of each of the 4 warps.
  CHECK(plain_counts["tAsA"].waves.extra() == 0);
  CHECK(plain_counts["tBsB"].waves.extra() == 0);
  CHECK(plain_counts["tCsA"].waves.extra() == warps * 32 * 3);
  CHECK(plain_counts["tCsB"].waves.extra() == warps * 32 * 3);
}

TEST_CASE("sizes: any M and N, K a multiple of 8; anything else says why", "[step06]") {
  tut::Step const& s = step06::step();
  CHECK(s.in_type == tut::DType::f16);
  CHECK(s.min_cc == 80);
  CHECK(s.multiple_of.m == 1);
  CHECK(s.multiple_of.n == 1);
  CHECK(s.multiple_of.k == 8);
  for (tut::Problem p : {tut::Problem{1, 1, 8}, tut::Problem{7, 13, 40}, tut::Problem{4096, 4096, 4096}})
    CHECK(tut::unsupported(s, p).empty());
  std::string const why = tut::unsupported(s, {7, 13, 12});
  CHECK(why == "step06_global_gemm needs K to be a multiple of 8 (got M=7 N=13 K=12): each cp.async copies 16 "
               "bytes (8 halves) of a row");
  REQUIRE(s.variants.size() == 2);
  CHECK(s.variants[0].name == "swizzled");
  CHECK(s.variants[1].name == "unswizzled");
  for (auto const& v : s.variants) {
    CHECK(v.threads == 128);
    CHECK(v.tile_m == 128);
    CHECK(v.tile_n == 128);
    CHECK(v.tile_k == 32);
  }
}

TEST_CASE("smem: 16 KB in one SharedStorage, K-major, Swizzle<3,3,3>", "[step06]") {
  CHECK(Default::kSmemBytes == 16384);
  CHECK(Default::kSmemBytes == int(sizeof(typename Default::Smem)));
  CHECK(Unswizzled::kSmemBytes == 16384);
  CHECK(plain(typename Default::SmemLayoutA{}) == "Sw<3,3,3> o (128,32):(32,1)");
  CHECK(plain(typename Unswizzled::SmemLayoutB{}) == "(128,32):(32,1)");
  CHECK(int(size(typename Default::TiledCopyA{})) == 128);
  CHECK(int(size(typename Default::TiledMma{})) == 128);
}

TEST_CASE("the printout: smem bytes, the swizzle, gemm()'s counts, thread 0's chunks, the model", "[step06]") {
  tut::Options o;
  o.problem = step06::step().defaults;
  std::string const out = trace_of(o);
  CHECK(out.find("smem       16384 bytes per CTA") != std::string::npos);
  CHECK(out.find("Swizzle<3,3,3>(i) = i ^ (((i >> 6) & 7) << 3)   with i = 32m + k") != std::string::npos);
  CHECK(out.find("gemm() per k-tile: 4x8x2 (MMA_M x MMA_N x MMA_K) = 64 mma.sync per warp") != std::string::npos);
  // Thread 0 copies rows 0, 32, 64, 96 at k 0..7: 4 threads a row, 32 rows per pass.
  CHECK(out.find("sA m {0, 32, 64, 96} x k {0..7}") != std::string::npos);
  CHECK(out.find("bank conflicts (model): tCsA (load A), unswizzled: 384 extra wavefronts per k-tile") !=
        std::string::npos);
  CHECK(out.find("bank conflicts (model): tCsA (load A), swizzled: 0 extra wavefronts per k-tile") != std::string::npos);
  // An edge CTA: thread 77 is row 19 (+32i) at chunk 1 (k 8..15); in CTA (1,1) of 200x150x40, rows 147,
  // 179 of A exist, 211 and 243 do not, and in the last k-tile (k 32..39) only chunk 0 exists.
  o.tile = {1, 1};
  o.thread = 77;
  std::string const edge = trace_of(o);
  CHECK(edge.find("A(m=147, k=40..47)  zero-fill (src_size 0)") != std::string::npos);
  o.thread = 76;
  std::string const edge0 = trace_of(o);
  CHECK(edge0.find("A(m=147, k=32..39)  copy 16 bytes") != std::string::npos);
  CHECK(edge0.find("A(m=211, k=32..39)  zero-fill (src_size 0)") != std::string::npos);
}

// Host tests of common/: printing, the CPU reference, verification, inputs, the command line.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "tut/cli.hpp"
#include "tut/format.hpp"
#include "tut/printout.hpp"
#include "tut/random.hpp"
#include "tut/reference.hpp"
#include "tut/status.hpp"
#include "tut/verify.hpp"

using namespace cute;

namespace {

// A fresh seed per run, reported by Catch2 on failure.
std::uint64_t test_seed() {
  static std::uint64_t const s = tut::fresh_seed();
  return s;
}

std::vector<float> random_vector(std::size_t n, std::uint64_t seed) {
  std::vector<float> v(n);
  tut::fill_inputs(v, tut::DType::f32, tut::Init::random, seed);
  return v;
}

}  // namespace

TEST_CASE("plain() drops CuTe's static-integer marks", "[print]") {
  auto stat = Layout<Shape<_1, Shape<_4, _2>>, Stride<_0, Stride<_128, Int<8192>>>>{};
  auto dyn = make_layout(make_shape(1, make_shape(4, 2)), make_stride(0, make_stride(128, 8192)));
  CHECK(tut::plain(stat) == "(1,(4,2)):(0,(128,8192))");
  CHECK(tut::plain(dyn) == tut::plain(stat));
  CHECK(tut::cute_str(stat) == "(_1,(_4,_2)):(_0,(_128,_8192))");
  CHECK(tut::plain(make_shape(_128{}, 8, 4)) == "(128,8,4)");
}

TEST_CASE("ranges() compresses sorted runs", "[print]") {
  CHECK(tut::ranges({0, 1, 2, 3, 64, 65, 66, 67}) == "{0..3, 64..67}");
  CHECK(tut::ranges({67, 3, 3, 0, 2, 1}) == "{0..3, 67}");
  CHECK(tut::ranges({5}) == "{5}");
  CHECK(tut::ranges({}) == "{}");
  CHECK(tut::ranges({0, 16, 32}) == "{0, 16, 32}");
}

TEST_CASE("ranges_compact shortens one long strided run", "[print]") {
  CHECK(tut::ranges_compact({0, 8, 16, 24, 32, 40}) == "{0, 8, .., 40}");
  CHECK(tut::ranges_compact({0, 8, 16, 24}) == "{0, 8, 16, 24}");        // short: listed
  CHECK(tut::ranges_compact({0, 1, 2, 3, 4, 5}) == "{0..5}");            // stride 1: a range
  CHECK(tut::ranges_compact({0, 8, 16, 25, 32, 40}) == "{0, 8, 16, 25, 32, 40}");
}

TEST_CASE("grid_lines and print_side_by_side lay out pictures in columns", "[print]") {
  tut::CharGrid g(2, 9, '.');
  g.at(1, 8) = '#';
  auto lines = tut::grid_lines(g, 4, 2, "k");
  REQUIRE(lines.size() == 3);
  CHECK(lines[0] == "      0        16 <- k");
  CHECK(lines[1] == "    0 ........ .");
  CHECK(lines[2] == "    4 ........ #");
  std::ostringstream os;
  tut::print_side_by_side(os, {{"a", "xy"}, {"b"}, {"c", "z"}}, 4, "> ");
  CHECK(os.str() == "> a   b   c\n> xy      z\n");
}

TEST_CASE("ownership_grid marks whole, partial and empty cells", "[print]") {
  std::vector<std::pair<std::int64_t, std::int64_t>> owned;
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) owned.emplace_back(r, c);  // cell (0,0) whole
  owned.emplace_back(5, 9);                                  // cell (1,2) partly
  owned.emplace_back(5, 9);                                  // a duplicate counts once
  auto g = tut::ownership_grid(owned, 8, 12, 4, 4);
  REQUIRE(g.rows == 2);
  REQUIRE(g.cols == 3);
  CHECK(g.at(0, 0) == '#');
  CHECK(g.at(1, 2) == '+');
  CHECK(g.at(0, 1) == '.');
  CHECK(g.at(1, 0) == '.');
}

TEST_CASE("reference_gemm over CuTe layouts equals a plain triple loop", "[reference]") {
  std::mt19937_64 gen(test_seed());
  CAPTURE(test_seed());
  for (int trial = 0; trial < 12; ++trial) {
    int const M = 1 + int(gen() % 37), N = 1 + int(gen() % 29), K = 1 + int(gen() % 41);
    bool const a_mmajor = gen() & 1, b_nmajor = gen() & 1, c_rowmajor = gen() & 1;
    CAPTURE(M, N, K, a_mmajor, b_nmajor, c_rowmajor);
    auto A = random_vector(std::size_t(M) * K, gen());
    auto B = random_vector(std::size_t(N) * K, gen());
    // Plain index arithmetic, written out by hand.
    auto a_at = [&](int m, int k) { return A[a_mmajor ? m + k * M : m * K + k]; };
    auto b_at = [&](int n, int k) { return B[b_nmajor ? n + k * N : n * K + k]; };
    // The same operands as CuTe tensors.
    Tensor tA = make_tensor(A.data(), make_layout(make_shape(M, K), a_mmajor ? make_stride(1, M) : make_stride(K, 1)));
    Tensor tB = make_tensor(B.data(), make_layout(make_shape(N, K), b_nmajor ? make_stride(1, N) : make_stride(K, 1)));
    std::vector<double> R(std::size_t(M) * N, -1.0);
    Tensor tR = make_tensor(R.data(), make_layout(make_shape(M, N), c_rowmajor ? make_stride(N, 1) : make_stride(1, M)));
    tut::reference_gemm(tA, tB, tR);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        double want = 0;
        for (int k = 0; k < K; ++k) want += double(a_at(m, k)) * double(b_at(n, k));
        REQUIRE(R[c_rowmajor ? m * N + n : m + n * M] == want);
      }
  }
}

namespace {

// A correct fp32 result for A (M-major), B (N-major), C row-major, as the kernels produce it.
struct Fixture {
  tut::Problem p;
  tut::OperandStrides s;
  std::vector<float> A, B, C;
  Fixture(int M, int N, int K, std::uint64_t seed) : p{M, N, K}, s{1, M, 1, N, N, 1} {
    A = random_vector(std::size_t(M) * K, seed);
    B = random_vector(std::size_t(N) * K, seed + 1);
    C.resize(std::size_t(M) * N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float acc = 0;
        for (int k = 0; k < K; ++k) acc = std::fma(A[m + k * M], B[n + k * N], acc);
        C[std::size_t(m) * N + n] = acc;
      }
  }
  tut::VerifyReport verify(tut::VerifyConfig cfg = {}) const {
    cfg.rtol = tut::default_rtol(tut::DType::f32, p.k);
    return tut::verify_gemm(p, s, A.data(), B.data(), C.data(), cfg);
  }
};

float poison() {
  float x;
  std::uint32_t const bits = tut::kPoisonBits;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// The reference entry and the scale of its terms, in double, straight from the fixture's own arrays (not
// through verify's internals): Σ_k A(m,k)·B(n,k), Σ_k |A(m,k)·B(n,k)| and Σ_k (A(m,k)·B(n,k))².
struct Exact {
  double value = 0, abs_sum = 0, sq_sum = 0;
};
Exact exact_entry(Fixture const& f, int m, int n) {
  int const M = int(f.p.m), N = int(f.p.n), K = int(f.p.k);
  Exact e;
  for (int k = 0; k < K; ++k) {
    double const t = double(f.A[std::size_t(m) + std::size_t(k) * M]) *  // A is M-major
                     double(f.B[std::size_t(n) + std::size_t(k) * N]);    // B is N-major
    e.value += t;
    e.abs_sum += std::abs(t);
    e.sq_sum += t * t;
  }
  return e;
}

// Store the float nearest want + err in C(m,n); return the error that float really carries, in double.
double plant(Fixture& f, int m, int n, double want, double err) {
  float const x = float(want + err);
  f.C[std::size_t(m) * std::size_t(f.p.n) + std::size_t(n)] = x;
  return double(x) - want;
}

}  // namespace

TEST_CASE("verify_gemm passes a correct fp32 result", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(67, 45, 300, test_seed());
  auto r = f.verify();
  CHECK(r.pass);
  CHECK_FALSE(r.sampled);
  CHECK(r.checked == 67 * 45);
  CHECK(r.unwritten == 0);
  CHECK(r.rel_frob < 1e-6);
}

TEST_CASE("verify_gemm catches a planted wrong entry and reports where", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(40, 33, 64, test_seed());
  f.C[std::size_t(17) * 33 + 29] += 0.01f;  // small, but far above fp32 rounding
  auto r = f.verify();
  CHECK_FALSE(r.pass);
  CHECK(r.wrong == 1);
  REQUIRE(r.first.size() == 1);
  CHECK(r.first[0].m == 17);
  CHECK(r.first[0].n == 29);
  CHECK_FALSE(r.first[0].unwritten);
}

TEST_CASE("the per-entry bound is tight: an error of 1.5x the bound fails, 0.5x passes", "[verify]") {
  CAPTURE(test_seed());
  // K = 64 sits on the 1e-5 floor; K = 4096 on the √K law, 4·√4096·2⁻²⁴ = 2⁻¹⁶. M·N is large enough that one
  // entry 1.5x over its bound leaves ‖C−R‖/‖R‖ under rtol: the per-entry bound alone must catch it.
  struct Case {
    int m, n, k;
    double rtol;
  };
  for (Case const c : {Case{40, 40, 64, 1e-5}, Case{128, 128, 4096, std::ldexp(1.0, -16)}}) {
    CAPTURE(c.m, c.n, c.k, c.rtol);
    Fixture f(c.m, c.n, c.k, test_seed() + std::uint64_t(c.k));
    std::mt19937_64 gen(test_seed() ^ std::uint64_t(c.k));
    for (int trial = 0; trial < 4; ++trial) {
      int const m = int(gen() % std::uint64_t(c.m)), n = int(gen() % std::uint64_t(c.n));
      double const sign = trial % 2 ? -1.0 : 1.0;
      CAPTURE(trial, m, n, sign);
      float const saved = f.C[std::size_t(m) * c.n + n];
      Exact const e = exact_entry(f, m, n);
      double const bound = c.rtol * e.abs_sum;

      double const over = std::abs(plant(f, m, n, e.value, sign * 1.5 * bound));
      REQUIRE(over > 1.45 * bound);
      REQUIRE(over < 1.55 * bound);
      auto r = f.verify();
      CHECK(r.rtol == c.rtol);
      CHECK_FALSE(r.pass);
      CHECK(r.wrong == 1);
      CHECK(r.rel_frob <= c.rtol);  // the norm criterion alone would let it through
      REQUIRE(r.first.size() == 1);
      CHECK(r.first[0].m == m);
      CHECK(r.first[0].n == n);
      CHECK(r.first[0].bound == Approx(bound).epsilon(1e-9));

      double const under = std::abs(plant(f, m, n, e.value, sign * 0.5 * bound));
      REQUIRE(under > 0.45 * bound);
      REQUIRE(under < 0.55 * bound);
      r = f.verify();
      CHECK(r.pass);
      CHECK(r.wrong == 0);

      f.C[std::size_t(m) * c.n + n] = saved;
    }
  }
}

TEST_CASE("the relative-Frobenius criterion fails a result whose every entry is within its bound", "[verify]") {
  CAPTURE(test_seed());
  int const M = 48, N = 48, K = 256;
  double const rtol = 1e-5;  // the floor: 4·√256·2⁻²⁴ ≈ 3.8e-6 is below it
  Fixture f(M, N, K, test_seed());
  std::vector<Exact> ref(std::size_t(M) * N);
  double scale2 = 0, bound2 = 0;
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      Exact const e = exact_entry(f, m, n);
      ref[std::size_t(m) * N + n] = e;
      scale2 += e.sq_sum;
      bound2 += (rtol * e.abs_sum) * (rtol * e.abs_sum);
    }
  // Every entry off by alpha times its own bound gives ‖C−R‖/‖AB‖ = alpha·‖bound‖/‖AB‖: pick alpha for a
  // target. ‖bound‖/‖AB‖ is about rtol·0.75·√K, so alpha is about target/12: far inside every entry's bound.
  double const bound_over_scale = std::sqrt(bound2 / scale2);
  CAPTURE(bound_over_scale);
  std::mt19937_64 gen(test_seed() ^ 0xf0b);
  for (double const target : {1.5, 0.5}) {  // in units of rtol
    double const alpha = target * rtol / bound_over_scale;
    CAPTURE(target, alpha);
    REQUIRE(alpha < 0.5);  // every entry stays well inside its bound
    double err2 = 0, worst = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        Exact const& e = ref[std::size_t(m) * N + n];
        double const sign = gen() & 1 ? 1.0 : -1.0;
        double const err = plant(f, m, n, e.value, sign * alpha * rtol * e.abs_sum);
        err2 += err * err;
        worst = std::max(worst, std::abs(err) / (rtol * e.abs_sum));
      }
    double const rel_frob = std::sqrt(err2 / scale2);
    CAPTURE(rel_frob, worst);
    REQUIRE(worst < 0.6);
    REQUIRE(rel_frob > 0.9 * target * rtol);
    REQUIRE(rel_frob < 1.1 * target * rtol);
    auto r = f.verify();
    CHECK(r.rtol == rtol);
    CHECK(r.unwritten == 0);
    CHECK(r.wrong == 0);
    CHECK(r.rel_frob == Approx(rel_frob).epsilon(1e-9));
    CHECK(r.pass == (target < 1));
  }
}

TEST_CASE("the norm criterion does not fail a correct entry whose reference cancels to almost 0", "[verify]") {
  // One entry, K = 1000: the products are of order 1, their sum is made about 1e-3. The fp32 result is off
  // by ordinary rounding (about 1e-6): relative to |R| that is 1e-3, relative to the terms it is tiny.
  CAPTURE(test_seed());
  int const K = 1000;
  Fixture f(1, 1, K, test_seed());
  // The second half repeats the first with B negated, so the products cancel exactly; then one pair is
  // left 1e-3 apart, through the largest A of the first half.
  for (int k = K / 2; k < K; ++k) {
    f.A[std::size_t(k)] = f.A[std::size_t(k - K / 2)];
    f.B[std::size_t(k)] = -f.B[std::size_t(k - K / 2)];
  }
  int j = 0;
  for (int k = 1; k < K / 2; ++k)
    if (std::abs(f.A[std::size_t(k)]) > std::abs(f.A[std::size_t(j)])) j = k;
  f.B[std::size_t(j + K / 2)] += float(1e-3 / f.A[std::size_t(j)]);
  Exact const e = exact_entry(f, 0, 0);
  REQUIRE(std::abs(e.value) < 2e-3);
  double const err = plant(f, 0, 0, e.value, 2e-6);
  CAPTURE(e.value, err, std::sqrt(e.sq_sum));
  REQUIRE(std::abs(err) / std::abs(e.value) > 1e-4);  // ‖C−R‖/‖R‖ would fail it 10× over
  auto r = f.verify();
  CHECK(r.wrong == 0);
  CHECK(r.rel_frob == Approx(std::abs(err) / std::sqrt(e.sq_sum)).epsilon(1e-9));
  CHECK(r.rel_frob < 1e-6);
  CHECK(r.pass);
}

TEST_CASE("verify_gemm catches an entry the kernel never wrote", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(24, 50, 16, test_seed());
  f.C[std::size_t(23) * 50 + 0] = poison();
  auto r = f.verify();
  CHECK_FALSE(r.pass);
  CHECK(r.unwritten == 1);
  CHECK(r.wrong == 0);
  REQUIRE(r.first.size() == 1);
  CHECK(r.first[0].unwritten);
  CHECK(r.first[0].m == 23);
  CHECK(r.first[0].n == 0);
}

TEST_CASE("a sampled verification always checks the edge tiles", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(130, 70, 9, test_seed());
  tut::VerifyConfig cfg;
  CHECK(cfg.samples == 4096);
  cfg.full_limit = 1000;  // force sampling
  cfg.samples = 16;
  cfg.tile_m = 64;
  cfg.tile_n = 32;
  cfg.seed = test_seed();
  // The last row and col of the problem are a corner of the bottom-right edge tile.
  f.C[std::size_t(129) * 70 + 69] -= 0.5f;
  auto r = f.verify(cfg);
  CHECK(r.sampled);
  // A 3×3 grid of tiles: the first tile, the 3 of the last tile column, the 2 others of the last tile row,
  // 5 entries each, and the 16 random ones.
  CHECK(r.checked == 6 * 5 + 16);
  CHECK_FALSE(r.pass);
  CHECK(r.wrong == 1);
  REQUIRE(r.first.size() == 1);
  CHECK(r.first[0].m == 129);
  CHECK(r.first[0].n == 69);
}

namespace {

// A 100×90 result in 32×24 CTA tiles: a 4×4 grid whose last tile row and column are partial. With
// samples = 0 only the corners and centres of the edge tiles are compared.
constexpr int kEdgeM = 100, kEdgeN = 90, kEdgeK = 16, kTileM = 32, kTileN = 24;

// Plant a clear error at each corner and at the centre of CTA tile (bm,bn) in turn: each must be compared.
void check_tile_is_sampled(Fixture& f, int bm, int bn) {
  tut::VerifyConfig cfg;
  cfg.full_limit = 1000;  // force sampling
  cfg.samples = 0;        // edge tiles only
  cfg.tile_m = kTileM;
  cfg.tile_n = kTileN;
  cfg.seed = test_seed();
  int const r0 = bm * kTileM, c0 = bn * kTileN;
  int const r1 = std::min(kEdgeM, r0 + kTileM) - 1, c1 = std::min(kEdgeN, c0 + kTileN) - 1;
  for (auto const& [pm, pn] : {std::pair{r0, c0}, {r0, c1}, {r1, c0}, {r1, c1}, {(r0 + r1) / 2, (c0 + c1) / 2}}) {
    int const m = pm, n = pn;
    CAPTURE(bm, bn, m, n);
    float& c = f.C[std::size_t(m) * kEdgeN + n];
    float const saved = c;
    c += 0.25f;
    auto r = f.verify(cfg);
    c = saved;
    CHECK(r.sampled);
    CHECK_FALSE(r.pass);
    CHECK(r.wrong == 1);
    REQUIRE(r.first.size() == 1);
    CHECK(r.first[0].m == m);
    CHECK(r.first[0].n == n);
  }
}

}  // namespace

TEST_CASE("sampling always checks the first CTA tile", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(kEdgeM, kEdgeN, kEdgeK, test_seed());
  check_tile_is_sampled(f, 0, 0);  // in neither the last tile row nor the last tile column
}

TEST_CASE("sampling always checks every tile of the last tile column", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(kEdgeM, kEdgeN, kEdgeK, test_seed());
  for (int bm = 0; bm < 4; ++bm) check_tile_is_sampled(f, bm, 3);
}

TEST_CASE("sampling always checks every tile of the last tile row", "[verify]") {
  CAPTURE(test_seed());
  Fixture f(kEdgeM, kEdgeN, kEdgeK, test_seed());
  for (int bn = 0; bn < 3; ++bn) check_tile_is_sampled(f, 3, bn);  // (3,3) is in the last column too
}

TEST_CASE("default_rtol: fp32 gets max(1e-5, 4·sqrt(K)·2^-24), fp16 gets the larger of that and K·2^-23", "[verify]") {
  using tut::DType;
  // The floor holds while 4·√K·2⁻²⁴ < 1e-5, that is up to K = 1759.
  for (std::int64_t k : {1, 2, 64, 1024, 1759}) {
    CAPTURE(k);
    CHECK(tut::default_rtol(DType::f32, k) == 1e-5);
  }
  CHECK(tut::default_rtol(DType::f32, 1760) > 1e-5);
  CHECK(tut::default_rtol(DType::f32, 1760) < 1.001e-5);
  // Past it, the √K term: at K = 4^j it is an exact power of two.
  CHECK(tut::default_rtol(DType::f32, 4096) == std::ldexp(1.0, -16));     // 4·64·2⁻²⁴
  CHECK(tut::default_rtol(DType::f32, 16384) == std::ldexp(1.0, -15));    // 4·128·2⁻²⁴
  CHECK(tut::default_rtol(DType::f32, 1 << 20) == std::ldexp(1.0, -12));  // 4·1024·2⁻²⁴
  CHECK(tut::default_rtol(DType::f32, 3000) == Approx(4 * std::sqrt(3000.0) * std::ldexp(1.0, -24)).epsilon(1e-12));
  // Quadrupling K doubles it, exactly (√(4K) = 2√K survives rounding), wherever the √K term rules.
  for (std::int64_t k : {1760, 3000, 4096, 12345, 100000, 1 << 20, 1 << 30}) {
    CAPTURE(k);
    CHECK(tut::default_rtol(DType::f32, 4 * k) == 2 * tut::default_rtol(DType::f32, k));
  }
  // fp16 on tensor cores: the worst case K·2⁻²³, never below fp32's. K·2⁻²³ passes 1e-5 at K = 84.
  for (std::int64_t k : {1, 16, 64, 83}) {
    CAPTURE(k);
    CHECK(tut::default_rtol(DType::f16, k) == 1e-5);
  }
  CHECK(tut::default_rtol(DType::f16, 84) > 1e-5);
  CHECK(tut::default_rtol(DType::f16, 84) == 84 * std::ldexp(1.0, -23));
  CHECK(tut::default_rtol(DType::f16, 4096) == std::ldexp(1.0, -11));
  CHECK(tut::default_rtol(DType::f16, 8192) == std::ldexp(1.0, -10));
  // Linear in K: doubling K doubles it, and it is always at least fp32's.
  for (std::int64_t k : {84, 100, 4096, 12345, 1 << 20}) {
    CAPTURE(k);
    CHECK(tut::default_rtol(DType::f16, 2 * k) == 2 * tut::default_rtol(DType::f16, k));
    CHECK(tut::default_rtol(DType::f16, k) >= tut::default_rtol(DType::f32, k));
  }
}

TEST_CASE("inputs are seeded, in [-1,1], not degenerate, and rounded to the type", "[random]") {
  CAPTURE(test_seed());
  auto a = random_vector(4096, test_seed());
  auto b = random_vector(4096, test_seed());
  auto c = random_vector(4096, test_seed() + 1);
  CHECK(a == b);
  CHECK(a != c);
  int nonzero = 0;
  for (float x : a) {
    REQUIRE(x >= -1.0f);
    REQUIRE(x <= 1.0f);
    nonzero += x != 0.0f;
  }
  CHECK(nonzero > 4000);
  std::vector<float> h(256);
  tut::fill_inputs(h, tut::DType::f16, tut::Init::random, test_seed());
  for (float x : h) REQUIRE(tut::round_to(tut::DType::f16, x) == x);
  std::vector<float> ones(10);
  tut::fill_inputs(ones, tut::DType::f32, tut::Init::ones, 0);
  for (float x : ones) REQUIRE(x == 1.0f);
}

namespace {
tut::CliResult parse(std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  return tut::parse_cli(int(argv.size()), argv.data(), {"prog", "test", {256, 128, 32}});
}
}  // namespace

TEST_CASE("the command line parses good input and rejects bad input", "[cli]") {
  auto r = parse({"--m", "512", "--thread", "17", "--tile", "1,0", "--seed", "42", "--init", "ones"});
  REQUIRE_FALSE(r.exit_now);
  CHECK(r.options.problem.m == 512);
  CHECK(r.options.problem.n == 128);  // default kept
  CHECK(r.options.thread == 17);
  CHECK(r.options.tile == tut::TileCoord{1, 0});
  CHECK(r.options.seed == 42);
  CHECK(r.options.init == tut::Init::ones);

  for (auto bad : std::vector<std::vector<std::string>>{{"--m", "0"},
                                                        {"--k", "-3"},
                                                        {"--n", "12x"},
                                                        {"--m", "1e3"},
                                                        {"--thread", "-1"},
                                                        {"--tile", "1"},
                                                        {"--tile", "1,-1"},
                                                        {"--tile", "a,b"},
                                                        {"--block", "1,0"},  // retired, with a message
                                                        {"--init", "zeros"},
                                                        {"--iters", "-5"},
                                                        {"--bogus"}}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse(bad), tut::UsageError);
  }
}

TEST_CASE("tv_cells inverts a TV layout; tv_grid draws it row by row", "[trace]") {
  // 4 threads x 2 values over a 2x4 tile (column-major index r + 2c): thread t holds column t.
  auto const tv = make_layout(make_shape(Int<4>{}, Int<2>{}), make_stride(Int<2>{}, Int<1>{}));
  auto const cells = tut::tv_cells(tv, 2, 4);
  REQUIRE(cells.size() == 8);
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 4; ++c) CHECK(cells[std::size_t(r * 4 + c)] == std::pair{c, r});
  auto const g = tut::tv_grid("title", cells, 2, 4, 0, 4, 'm', 'n');
  REQUIRE(g.size() == 4);
  CHECK(g[0] == "title");
  CHECK(g[2] == "    0 | T0V0 T1V0 T2V0 T3V0");
  CHECK(g[3] == "    1 | T0V1 T1V1 T2V1 T3V1");
  auto const t = tut::transpose_cells(cells, 2, 4);
  CHECK(t[std::size_t(3 * 2 + 1)] == std::pair{3, 1});
  // A layout that reaches a cell twice and leaves another empty says so.
  auto const bad = tut::tv_cells(make_layout(make_shape(Int<2>{}, Int<2>{}), make_stride(Int<1>{}, Int<0>{})), 2, 2);
  CHECK(bad[0] == std::pair{-2, -2});  // (0,0): by (t0,v0) and (t0,v1)
  CHECK(bad[1] == std::pair{-1, -1});  // (0,1): index 2, nobody
  CHECK(bad[2] == std::pair{-2, -2});
}

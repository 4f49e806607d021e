// Verification against the double-precision CPU reference.
#include "tut/verify.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <ostream>
#include <random>
#include <sstream>
#include <thread>

#include <cute/tensor.hpp>

#include "tut/format.hpp"
#include "tut/reference.hpp"

namespace tut {

bool is_poison(float x) {
  std::uint32_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits == kPoisonBits;
}

double default_rtol(DType t, std::int64_t k) {
  double const fp32 = std::max(1e-5, 4.0 * std::sqrt(double(k)) * std::ldexp(1.0, -24));
  if (t == DType::f16) return std::max(fp32, double(k) * std::ldexp(1.0, -23));
  return fp32;
}

namespace {

// Per-thread partial results, merged in thread order so the mismatch list stays in checking order.
struct Partial {
  std::int64_t checked = 0, wrong = 0;
  double max_abs_err = 0, err2 = 0, scale2 = 0;
  std::vector<Mismatch> first;
};

// The entries always sampled: corners and centre of every CTA tile on the last tile row or column,
// and of the first tile.
std::vector<std::pair<std::int64_t, std::int64_t>> edge_samples(Problem const& p, VerifyConfig const& cfg) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  std::int64_t const tm = std::max<std::int64_t>(cfg.tile_m, 1), tn = std::max<std::int64_t>(cfg.tile_n, 1);
  std::int64_t const gm = (p.m + tm - 1) / tm, gn = (p.n + tn - 1) / tn;
  auto add_tile = [&](std::int64_t bm, std::int64_t bn) {
    std::int64_t const r0 = bm * tm, c0 = bn * tn;
    std::int64_t const r1 = std::min(p.m, r0 + tm) - 1, c1 = std::min(p.n, c0 + tn) - 1;
    for (auto rc : {std::pair{r0, c0}, {r0, c1}, {r1, c0}, {r1, c1}, {(r0 + r1) / 2, (c0 + c1) / 2}})
      out.push_back(rc);
  };
  add_tile(0, 0);
  for (std::int64_t bm = 0; bm < gm; ++bm) add_tile(bm, gn - 1);
  for (std::int64_t bn = 0; bn + 1 < gn; ++bn) add_tile(gm - 1, bn);
  return out;
}

}  // namespace

VerifyReport verify_gemm(Problem const& p, OperandStrides const& s, float const* A, float const* B,
                         float const* C, VerifyConfig const& cfg) {
  using namespace cute;
  Tensor tA = make_tensor(A, make_layout(make_shape(p.m, p.k), make_stride(s.a_m, s.a_k)));  // (M,K)
  Tensor tB = make_tensor(B, make_layout(make_shape(p.n, p.k), make_stride(s.b_n, s.b_k)));  // (N,K)
  Tensor tC = make_tensor(C, make_layout(make_shape(p.m, p.n), make_stride(s.c_m, s.c_n)));  // (M,N)

  VerifyReport r;
  r.total = p.m * p.n;
  r.rtol = cfg.rtol;

  // 1. Coverage: every entry of C must have been written (scanned in full, whatever the size).
  for (std::int64_t m = 0; m < p.m; ++m)
    for (std::int64_t n = 0; n < p.n; ++n)
      if (is_poison(tC(m, n))) {
        if (r.unwritten++ < cfg.max_report) r.first.push_back({m, n, tC(m, n), 0.0, 0.0, true});
      }

  // 2. Which entries to compare: all of them, or a random sample plus every edge tile.
  double const macs = double(p.m) * double(p.n) * double(p.k);
  r.sampled = macs > double(cfg.full_limit);
  std::vector<std::pair<std::int64_t, std::int64_t>> picks;
  if (r.sampled) {
    picks = edge_samples(p, cfg);
    std::mt19937_64 gen(cfg.seed ^ 0x5eedull);
    std::uniform_int_distribution<std::int64_t> dm(0, p.m - 1), dn(0, p.n - 1);
    for (std::int64_t i = 0; i < cfg.samples; ++i) picks.emplace_back(dm(gen), dn(gen));
  }
  std::int64_t const count = r.sampled ? std::int64_t(picks.size()) : r.total;
  auto pick = [&](std::int64_t i) {
    return r.sampled ? picks[std::size_t(i)] : std::pair<std::int64_t, std::int64_t>{i / p.n, i % p.n};
  };

  // 3. Compare, split over the host's cores.
  unsigned const workers = std::max(1u, std::min<unsigned>(std::thread::hardware_concurrency(), 64));
  std::vector<Partial> parts(workers);
  auto work = [&](unsigned w) {
    Partial& pt = parts[w];
    std::int64_t const lo = count * w / workers, hi = count * (w + 1) / workers;
    for (std::int64_t i = lo; i < hi; ++i) {
      auto const [m, n] = pick(i);
      float const got = tC(m, n);
      if (is_poison(got)) continue;  // already reported as unwritten
      RefEntry const ref = reference_entry(tA, tB, m, n);
      double const err = std::isfinite(got) ? std::abs(double(got) - ref.value) : INFINITY;
      double const bound = cfg.rtol * ref.abs_sum;
      ++pt.checked;
      pt.max_abs_err = std::max(pt.max_abs_err, err);
      pt.err2 += err * err;
      pt.scale2 += ref.sq_sum;
      if (!(err <= bound)) {
        if (pt.wrong++ < cfg.max_report) pt.first.push_back({m, n, got, ref.value, bound, false});
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned w = 1; w < workers; ++w) pool.emplace_back(work, w);
  work(0);
  for (auto& t : pool) t.join();

  double err2 = 0, scale2 = 0;
  for (auto const& pt : parts) {
    r.checked += pt.checked;
    r.wrong += pt.wrong;
    r.max_abs_err = std::max(r.max_abs_err, pt.max_abs_err);
    err2 += pt.err2;
    scale2 += pt.scale2;
    for (auto const& mm : pt.first)
      if (int(r.first.size()) < 2 * cfg.max_report) r.first.push_back(mm);
  }
  // ‖C−R‖_F over √(Σ_{m,n} Σ_k (A·B)²), not over ‖R‖_F: for independent zero-mean inputs the two agree in
  // expectation (E[R(m,n)²] = Σ_k E[(A·B)²]), but ‖R‖_F collapses when a few compared entries happen to
  // cancel (one entry of K = 1000 summing to 0.14), and then a correct result would fail.
  r.rel_frob = scale2 > 0 ? std::sqrt(err2 / scale2) : std::sqrt(err2);
  r.pass = r.unwritten == 0 && r.wrong == 0 && r.checked > 0 && r.rel_frob <= r.rtol;
  return r;
}

void print_report(std::ostream& os, VerifyReport const& r) {
  auto sci = [](double x) {
    std::ostringstream s;
    s << std::scientific << std::setprecision(2) << x;
    return s.str();
  };
  std::ostringstream result;
  result << (r.pass ? "PASS" : "FAIL") << ": ";
  if (r.unwritten)
    result << r.unwritten << " of " << r.total << " entries never written; ";
  else
    result << "all " << r.total << " entries written; ";
  result << r.checked << " compared (" << (r.sampled ? "sampled, edge tiles included" : "full check") << ")";
  print_item(os, "result", result.str());
  print_item(os, "error", "max |C-R| = " + sci(r.max_abs_err) + ",  ||C-R||/||AB|| = " + sci(r.rel_frob) +
                              "  (tolerance " + sci(r.rtol) + ")");
  if (r.wrong) print_item(os, "wrong", std::to_string(r.wrong) + " entries outside |C-R| <= tol * sum_k |A*B|");
  for (auto const& mm : r.first) {
    os << "    C(" << mm.m << "," << mm.n << ") ";
    if (mm.unwritten)
      os << "never written\n";
    else
      os << "= " << mm.got << ", reference " << mm.want << ", allowed error " << sci(mm.bound) << "\n";
  }
}

}  // namespace tut

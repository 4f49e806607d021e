// bench_gemm: every registered step's kernels against cuBLAS, on the same sizes, in the same run.
//
// Each benchmark iteration is a batch of launches, back to back, timed with CUDA events (manual time,
// per launch; see time_loop). Counters:
//   TFLOP/s        2·M·N·K / time
//   vs_cuBLAS      this kernel's TFLOP/s / cuBLAS's at the same size, input type and operand
//                  convention, same run (cuBLAS runs first)
//   max_rel_diff   max |C − C_cuBLAS| / max |C_cuBLAS|, checked once before timing
//   batch          launches per timed iteration (Google Benchmark's Time is per batch)
//   ms_per_launch  the batch's time / batch
// Every variant of every step runs (tut::all_steps(), the list CMake registers). A kernel whose result
// differs from cuBLAS is reported as an error and makes the program exit 1.
// Default sizes: 512x512x256, 1024^3, 2048^3, 4096^3, 8192^3, and two ragged ones: 1000x999x777 and
// 1000x999x776 (for the steps whose K must be a multiple of 8). A step runs the sizes it supports. Run
// with --benchmark_filter=... to pick; --sizes=MxNxK,... replaces the default sizes. --bug=STEP:NAME times
// only that step's default variant with a planted bug (the step's --list-bugs). Every wait for the GPU
// goes through the watchdog (tut/watchdog.hpp): a kernel that never finishes ends the run with one line
// and exit 3; --timeout=S sets its limit per launch.
#include <algorithm>
#include <cmath>
#include <deque>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include "tut/buffers.hpp"
#include "tut/cuda_check.hpp"
#include "tut/harness.hpp"
#include "tut/random.hpp"
#include "tut/registration.hpp"
#include "tut/timing.hpp"
#include "tut/watchdog.hpp"

namespace {

void cublas_check(cublasStatus_t s, char const* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw tut::CudaError(std::string(what) + " failed: cuBLAS status " + std::to_string(int(s)));
}

cublasHandle_t g_cublas = nullptr;
bool g_mismatch = false;                          // a kernel differed from cuBLAS: exit 1
double g_timeout_s = 0;
std::deque<tut::Variant> g_bug_variants;          // --bug: the default variants with the bug (stable addresses)                           // --timeout=S: the watchdog's limit per launch (0: derived)
std::map<std::string, double> g_cublas_tflops;    // baseline key -> cuBLAS TFLOP/s in this run

// Device operands of one size, input type and convention, shared by every benchmark of that kind.
struct Operands {
  tut::Problem p;
  tut::DType type;
  tut::Convention conv;
  tut::DeviceBuffer<unsigned char> A, B;
  tut::DeviceBuffer<float> C, C_ref;
  Operands(tut::Problem q, tut::DType t, tut::Convention c)
      : p(q), type(t), conv(c), A(std::size_t(q.m * q.k) * tut::dtype_bytes(t)),
        B(std::size_t(q.n * q.k) * tut::dtype_bytes(t)), C(std::size_t(q.m * q.n)), C_ref(std::size_t(q.m * q.n)) {
    fill(A, std::size_t(q.m * q.k));
    fill(B, std::size_t(q.n * q.k));
  }
  void fill(tut::DeviceBuffer<unsigned char>& d, std::size_t count) const {
    std::vector<float> h(count);
    tut::fill_inputs(h, type, tut::Init::random, tut::fresh_seed());
    tut::upload_inputs(d, h, type);
  }
};

std::string size_name(tut::Problem const& p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

// "fp32_NT": the input type and the transposes, in BLAS's terms for C = A·Bᵀ with A, B column-major:
// N for an M-major A, T for a K-major one; T for an N-major B, N for a K-major one.
std::string kind_of(tut::DType t, tut::Convention const& c) {
  return std::string(tut::dtype_name(t)) + (c.a == tut::Major::mn ? "_N" : "_T") + (c.b == tut::Major::mn ? "T" : "N");
}

// "fp32_NT/4096x4096x4096": which cuBLAS run a kernel is compared with.
std::string baseline_key(Operands const& o) { return kind_of(o.type, o.conv) + "/" + size_name(o.p); }

// C (M,N) row-major = A (M,K) · B (N,K)ᵀ, in cuBLAS's column-major terms Cᵀ (N×M, ld N) = B' · A'':
// B' is B as an N×K matrix (N-major: op N, ld N; K-major: it is stored K×N, so op T, ld K) and A'' is
// Aᵀ (M-major: stored M×K, so op T, ld M; K-major: stored K×M, op N, ld K). fp32 operands use plain
// FP32 (no TF32); fp16 operands multiply in fp16 and accumulate and store fp32.
void cublas_gemm(Operands& o, float* C) {
  float const one = 1.f, zero = 0.f;
  int const M = int(o.p.m), N = int(o.p.n), K = int(o.p.k);
  bool const b_n = o.conv.b == tut::Major::mn, a_m = o.conv.a == tut::Major::mn;
  cublasOperation_t const op_b = b_n ? CUBLAS_OP_N : CUBLAS_OP_T, op_a = a_m ? CUBLAS_OP_T : CUBLAS_OP_N;
  int const ldb = b_n ? N : K, lda = a_m ? M : K;
  if (o.conv.c != tut::Order::row) throw tut::CudaError("bench_gemm: only row-major C is benchmarked");
  cudaDataType_t const t = o.type == tut::DType::f16 ? CUDA_R_16F : CUDA_R_32F;
  cublas_check(cublasGemmEx(g_cublas, op_b, op_a, N, M, K, &one, o.B.get(), t, ldb, o.A.get(), t, lda, &zero, C,
                            CUDA_R_32F, N, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

// Each benchmark iteration times a batch of launches issued back to back between two CUDA events, so
// the GPU never idles between them (timing each launch alone lets it idle, and cuBLAS, measured that
// way, lost 4% at 4096^3 and 11% at 8192^3 on an H100). The batch is sized from one warm-up launch to
// take about 20 ms, and is at least 3 launches. Google Benchmark's Time column is per batch; the
// counters ms_per_launch and TFLOP/s are per launch.
// Every wait for the GPU goes through the watchdog: a kernel that never finishes ends the run with one
// line naming it (\p what) and exit 3.
template <class Launch>
void time_loop(benchmark::State& state, Operands const& o, bool vs_cublas, std::string const& what, Launch&& launch) {
  double const limit_s = tut::watchdog_seconds(o.p, g_timeout_s);
  tut::GpuTimer timer;
  launch();  // warm-up
  tut::wait_or_exit("bench_gemm", what, limit_s);
  timer.start();
  launch();
  tut::wait_or_exit("bench_gemm", what, limit_s);
  float const one_ms = timer.stop();
  int const batch = std::clamp(int(20.0f / std::max(one_ms, 1e-3f)), 3, 200);
  double total_ms = 0;
  for (auto _ : state) {
    timer.start();
    for (int i = 0; i < batch; ++i) launch();
    tut::wait_or_exit("bench_gemm", what, batch * limit_s);
    float const ms = timer.stop();
    total_ms += ms;
    state.SetIterationTime(ms * 1e-3);  // the batch's time: Google Benchmark's Time column is per batch
  }
  TUT_CUDA_CHECK(cudaGetLastError());
  double const ms_per_launch = total_ms / double(state.iterations()) / double(batch);
  double const tflops = tut::gemm_tflops(o.p.m, o.p.n, o.p.k, ms_per_launch);
  state.counters["TFLOP/s"] = tflops;
  state.counters["batch"] = batch;
  state.counters["ms_per_launch"] = ms_per_launch;
  auto it = g_cublas_tflops.find(baseline_key(o));
  if (vs_cublas && it != g_cublas_tflops.end() && it->second > 0) state.counters["vs_cuBLAS"] = tflops / it->second;
}

void bench_cublas(benchmark::State& state, std::shared_ptr<Operands> o) {
  try {
    time_loop(state, *o, false, "cuBLAS", [&] { cublas_gemm(*o, o->C_ref.get()); });
    g_cublas_tflops[baseline_key(*o)] = state.counters["TFLOP/s"];
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

// max |C − C_ref| / max |C_ref|, after one launch of the kernel into a poisoned C.
double rel_diff_vs_cublas(Operands& o, tut::LaunchFn launch, std::string const& what) {
  o.C.fill_bytes(0xFF);
  cublas_gemm(o, o.C_ref.get());
  launch({o.p, o.A.get(), o.B.get(), o.C.get()}, nullptr);
  TUT_CUDA_CHECK(cudaGetLastError());
  tut::wait_or_exit("bench_gemm", what, tut::watchdog_seconds(o.p, g_timeout_s));
  std::vector<float> c, r;
  o.C.download(c);
  o.C_ref.download(r);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    diff = std::max(diff, std::isfinite(c[i]) ? double(std::abs(c[i] - r[i])) : INFINITY);
    scale = std::max(scale, double(std::abs(r[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

void bench_variant(benchmark::State& state, tut::Variant const* v, std::shared_ptr<Operands> o, std::string what) {
  try {
    // fp32 inputs: both sides accumulate fp32 in different orders; fp16 inputs: tensor-core rounding.
    double const limit = o->type == tut::DType::f16 ? 1e-3 : 1e-4;
    double const diff = rel_diff_vs_cublas(*o, v->launch, what);
    if (!(diff <= limit)) {
      g_mismatch = true;
      state.SkipWithError(("result differs from cuBLAS: max rel diff " + std::to_string(diff)).c_str());
      return;
    }
    time_loop(state, *o, true, what, [&] { v->launch({o->p, o->A.get(), o->B.get(), o->C.get()}, nullptr); });
    state.counters["max_rel_diff"] = diff;
  } catch (std::exception const& e) {
    g_mismatch = true;
    state.SkipWithError(e.what());
  }
}

std::vector<tut::Problem> parse_sizes(std::string const& list) {
  std::vector<tut::Problem> out;
  std::size_t pos = 0;
  while (pos < list.size()) {
    std::size_t const end = std::min(list.find(',', pos), list.size());
    tut::Problem p{};
    if (std::sscanf(list.substr(pos, end - pos).c_str(), "%ldx%ldx%ld", &p.m, &p.n, &p.k) != 3 || p.m < 1 || p.n < 1 ||
        p.k < 1)
      throw std::runtime_error("--sizes expects MxNxK[,MxNxK...], got '" + list + "'");
    out.push_back(p);
    pos = end + 1;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<tut::Problem> sizes = {{512, 512, 256},    {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096},
                                     {8192, 8192, 8192}, {1000, 999, 777},   {1000, 999, 776}};
  // Our own flags first; the rest belongs to Google Benchmark.
  std::vector<char*> rest;
  std::string bug;  // --bug=STEP:NAME: time only that step's default variant, with the bug planted
  try {
    for (int i = 0; i < argc; ++i) {
      std::string const a = argv[i];
      if (a.rfind("--sizes=", 0) == 0)
        sizes = parse_sizes(a.substr(8));
      else if (a.rfind("--bug=", 0) == 0)
        bug = a.substr(6);
      else if (a.rfind("--timeout=", 0) == 0) {
        std::size_t used = 0;
        g_timeout_s = std::stod(a.substr(10), &used);
        if (used != a.size() - 10 || !(g_timeout_s > 0))
          throw std::runtime_error("--timeout expects a number of seconds above 0, got '" + a.substr(10) + "'");
      }
      else
        rest.push_back(argv[i]);
    }
    if (!bug.empty()) {
      auto const colon = bug.find(':');
      bool found = false;
      for (tut::Step const* s : tut::all_steps())
        if (colon != std::string::npos && s->name == bug.substr(0, colon)) {
          tut::find_bug(*s, bug.substr(colon + 1));  // throws, listing the step's bugs
          found = true;
        }
      if (!found) throw std::runtime_error("--bug expects STEP:NAME, a step's name and one of its --list-bugs");
    }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "bench_gemm: error: %s\n", e.what());
    return 2;
  }
  int rest_argc = int(rest.size());
  benchmark::Initialize(&rest_argc, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_argc, rest.data())) return 2;

  tut::DeviceInfo const dev = tut::query_device();
  if (!dev.usable) {
    std::printf("bench_gemm: no usable GPU (%s); nothing to time\n", dev.why.c_str());
    return tut::require_gpu() ? 3 : 0;
  }
  benchmark::AddCustomContext("gpu", dev.name + " (sm_" + std::to_string(dev.cc()) + ", " +
                                         std::to_string(dev.sm_count) + " SMs)");
  cublas_check(cublasCreate(&g_cublas), "cublasCreate");
  cublas_check(cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");

  for (auto const& p : sizes) {
    // One set of operands (and one cuBLAS baseline, timed first) per input type and convention.
    std::map<std::string, std::shared_ptr<Operands>> operands;
    for (tut::Step const* step : tut::all_steps()) {
      tut::Step const& s = *step;
      if (!tut::unsupported_gpu(s, dev.cc()).empty() || !tut::unsupported(s, p).empty()) continue;
      if (!bug.empty() && bug.substr(0, bug.find(':')) != s.name) continue;
      std::string const key = kind_of(s.in_type, s.convention);
      auto& o = operands[key];
      if (!o) {
        o = std::make_shared<Operands>(p, s.in_type, s.convention);
        benchmark::RegisterBenchmark(("cublas_" + key + "/" + size_name(p)).c_str(), bench_cublas, o)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
      if (!bug.empty()) {  // the default variant with the bug: "<step>/bug:<name>/<size>"
        tut::PlantedBug const& b = tut::find_bug(s, bug.substr(bug.find(':') + 1));
        g_bug_variants.push_back(s.variants.front());
        g_bug_variants.back().launch = b.launch;
        std::string const name = s.name + "/bug:" + b.name + "/" + size_name(p);
        benchmark::RegisterBenchmark(name.c_str(), bench_variant, &g_bug_variants.back(), o, name)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
        continue;
      }
      for (std::size_t i = 0; i < s.variants.size(); ++i) {
        // The default variant is "<step>/<size>"; the others "<step>/<variant>/<size>".
        std::string const name = s.name + "/" + (i ? s.variants[i].name + "/" : "") + size_name(p);
        benchmark::RegisterBenchmark(name.c_str(), bench_variant, &s.variants[i], o, name)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  cublasDestroy(g_cublas);
  if (g_mismatch) std::fprintf(stderr, "bench_gemm: some kernels differ from cuBLAS (see the errors above)\n");
  return g_mismatch ? 1 : 0;
}

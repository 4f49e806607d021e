// bench_gemm: every step's kernel against cuBLAS, on the same sizes, in the same run.
//
// Each benchmark iteration is one kernel launch timed with CUDA events (manual time). Counters:
//   TFLOP/s        2·M·N·K / time
//   vs_cuBLAS      this kernel's TFLOP/s / cuBLAS's at the same size, same run (cuBLAS runs first)
//   max_rel_diff   max |C − C_cuBLAS| / max |C_cuBLAS|, checked once before timing
// Default sizes: 256x128x32, 1024^3, 2048^3, 4096^3 and the ragged 1000x999x777. Run with
// --benchmark_filter=... to pick; --sizes=MxNxK,... replaces the default sizes.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cublas_v2.h>

#include "step01_naive.hpp"
#include "step02_local_tile.hpp"
#include "step03_smem_tiling.hpp"
#include "tut/buffers.hpp"
#include "tut/cuda_check.hpp"
#include "tut/random.hpp"
#include "tut/timing.hpp"

namespace {

// The steps under test, in tutorial order.
std::vector<tut::Step const*> steps() { return {&step01::step(), &step02::step(), &step03::step()}; }

void cublas_check(cublasStatus_t s, char const* what) {
  if (s != CUBLAS_STATUS_SUCCESS) throw tut::CudaError(std::string(what) + " failed: cuBLAS status " + std::to_string(int(s)));
}

// Device operands of one size, shared by every benchmark of that size.
struct Operands {
  tut::Problem p;
  tut::DeviceBuffer<float> A, B, C, C_ref;
  explicit Operands(tut::Problem q)
      : p(q), A(std::size_t(q.m * q.k)), B(std::size_t(q.n * q.k)), C(std::size_t(q.m * q.n)),
        C_ref(std::size_t(q.m * q.n)) {
    std::vector<float> h(A.size());
    tut::fill_inputs(h, tut::DType::f32, tut::Init::random, tut::fresh_seed());
    A.upload(h);
    h.resize(B.size());
    tut::fill_inputs(h, tut::DType::f32, tut::Init::random, tut::fresh_seed());
    B.upload(h);
  }
};

std::map<std::string, double> g_cublas_tflops;  // "MxNxK" -> cuBLAS TFLOP/s in this run
cublasHandle_t g_cublas = nullptr;

std::string size_name(tut::Problem const& p) {
  return std::to_string(p.m) + "x" + std::to_string(p.n) + "x" + std::to_string(p.k);
}

// C (M,N) row-major = A (M,K) M-major · B (N,K)ᵀ N-major. In cuBLAS's column-major terms that is
// Cᵀ (N×M, ld N) = B (N×K, ld N) · Aᵀ, A being M×K with ld M. Plain FP32 (no TF32).
void cublas_sgemm(Operands& o, float* C) {
  float const one = 1.f, zero = 0.f;
  int const M = int(o.p.m), N = int(o.p.n), K = int(o.p.k);
  cublas_check(cublasSgemm(g_cublas, CUBLAS_OP_N, CUBLAS_OP_T, N, M, K, &one, o.B.get(), N, o.A.get(), M, &zero, C, N),
               "cublasSgemm");
}

template <class Launch>
void time_loop(benchmark::State& state, tut::Problem const& p, bool vs_cublas, Launch&& launch) {
  launch();  // warm-up
  TUT_CUDA_CHECK(cudaDeviceSynchronize());
  tut::GpuTimer timer;
  double total_ms = 0;
  for (auto _ : state) {
    timer.start();
    launch();
    float const ms = timer.stop();
    total_ms += ms;
    state.SetIterationTime(ms * 1e-3);
  }
  TUT_CUDA_CHECK(cudaGetLastError());
  double const tflops = tut::gemm_tflops(p.m, p.n, p.k, total_ms / double(state.iterations()));
  state.counters["TFLOP/s"] = tflops;
  auto it = g_cublas_tflops.find(size_name(p));
  if (vs_cublas && it != g_cublas_tflops.end() && it->second > 0) state.counters["vs_cuBLAS"] = tflops / it->second;
}

void bench_cublas(benchmark::State& state, std::shared_ptr<Operands> o) {
  try {
    time_loop(state, o->p, false, [&] { cublas_sgemm(*o, o->C_ref.get()); });
    g_cublas_tflops[size_name(o->p)] = state.counters["TFLOP/s"];
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

using LaunchFn = void (*)(tut::GemmArgs const&, cudaStream_t);

// max |C − C_ref| / max |C_ref|, after one launch of the step into a poisoned C.
double rel_diff_vs_cublas(Operands& o, LaunchFn launch) {
  o.C.fill_bytes(0xFF);
  cublas_sgemm(o, o.C_ref.get());
  launch({o.p, o.A.get(), o.B.get(), o.C.get()}, nullptr);
  TUT_CUDA_CHECK(cudaGetLastError());
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


void bench_launch(benchmark::State& state, LaunchFn launch, std::shared_ptr<Operands> o) {
  try {
    double const diff = rel_diff_vs_cublas(*o, launch);
    if (!(diff <= 1e-4)) {
      state.SkipWithError(("result differs from cuBLAS: max rel diff " + std::to_string(diff)).c_str());
      return;
    }
    time_loop(state, o->p, true, [&] { launch({o->p, o->A.get(), o->B.get(), o->C.get()}, nullptr); });
    state.counters["max_rel_diff"] = diff;
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

void bench_step(benchmark::State& state, tut::Step const* s, std::shared_ptr<Operands> o) {
  bench_launch(state, s->launch, o);
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
  std::vector<tut::Problem> sizes = {
      {256, 128, 32}, {1024, 1024, 1024}, {2048, 2048, 2048}, {4096, 4096, 4096}, {1000, 999, 777}};
  // Our own flag first; the rest belongs to Google Benchmark.
  std::vector<char*> rest;
  try {
    for (int i = 0; i < argc; ++i) {
      std::string const a = argv[i];
      if (a.rfind("--sizes=", 0) == 0)
        sizes = parse_sizes(a.substr(8));
      else
        rest.push_back(argv[i]);
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
    return 0;
  }
  benchmark::AddCustomContext("gpu", dev.name + " (sm_" + std::to_string(dev.cc()) + ", " +
                                         std::to_string(dev.sm_count) + " SMs)");
  cublas_check(cublasCreate(&g_cublas), "cublasCreate");
  cublas_check(cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");

  for (auto const& p : sizes) {
    auto o = std::make_shared<Operands>(p);
    std::string const tag = size_name(p);
    // cuBLAS first: the steps' vs_cuBLAS counters divide by its result.
    benchmark::RegisterBenchmark(("cublas_sgemm/" + tag).c_str(), bench_cublas, o)
        ->UseManualTime()->Unit(benchmark::kMillisecond);
    for (tut::Step const* s : steps()) {
      if (s->in_type != tut::DType::f32 || !s->unsupported(p).empty()) continue;
      benchmark::RegisterBenchmark((std::string(s->name) + "/" + tag).c_str(), bench_step, s, o)
          ->UseManualTime()->Unit(benchmark::kMillisecond);
    }
    // Step 03's other configurations (variants()[0] is its Default, timed above): what we tried.
    for (std::size_t i = 1; i < step03::variants().size(); ++i) {
      auto const& v = step03::variants()[i];
      benchmark::RegisterBenchmark(("step03_smem_tiling/" + std::string(v.name) + "/" + tag).c_str(), bench_launch,
                                   v.launch, o)
          ->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  cublasDestroy(g_cublas);
  return 0;
}

// bench_gemm: every registered step's kernels against cuBLAS, on the same sizes, in the same run.
//
// Each benchmark iteration is a batch of launches, back to back, timed with CUDA events (manual time,
// per launch; see time_loop). The baselines run first for each size, input type and operand convention:
//   cublas_<kind>/<size>    cublasGemmEx
//   cublasLt_<kind>/<size>  cublasLtMatmul, with the fastest of the algorithms (up to 8) that cuBLASLt's
//                           heuristic offers, each checked against cublasGemmEx and timed first (tune_lt)
//   cutlass_<name>_<kind>/<size>
//                           on a Hopper GPU, for the Hopper steps' fp16 problem (fp16_TN) where CUTLASS's TMA
//                           runs it (N a multiple of 4, K of 8): CUTLASS's own sm90 GEMMs, ping-pong 128x128
//                           and cooperative 128x256, both with a 2x1 cluster (bench/cutlass_gemm.cu), each
//                           checked against cublasGemmEx first
// Counters of every entry:
//   TFLOP/s        2·M·N·K / time
//   batch          launches per timed iteration (Google Benchmark's Time is per batch)
//   ms_per_launch  the batch's time / batch
// of the cublasLt_ entries:
//   algos_tried    how many algorithms the heuristic returned
//   algo_rank      the chosen one's place in that list (0: the heuristic's first choice)
// of each kernel's entry:
//   vs_cuBLAS      this kernel's TFLOP/s / cuBLAS's at the same size, input type and operand
//                  convention, same run (cuBLAS runs first)
//   max_rel_diff   max |C − C_cuBLAS| / max |C_cuBLAS|, checked once before timing
//   ratio_cuBLAS, ratio_cuBLASLt, ratio_CUTLASS, ratio_best
//                  this kernel's TFLOP/s / cuBLAS's, / cuBLASLt's, / the faster CUTLASS kernel's, / the
//                  fastest baseline's, each the median over interleaved rounds that time them all back to
//                  back (interleaved_rounds); ratio_cuBLASLt is left out where cuBLASLt has no algorithm
//                  for the kind, ratio_CUTLASS where no CUTLASS kernel runs; all of them for a kernel
//                  below half the best baseline's TFLOP/s (kRoundsFrom)
//   ratio_best_min, ratio_best_max  the lowest and highest ratio_best of a round
//   ratio_fastest  over one baseline, the fastest: the one with the lowest median time over the rounds;
//                  the median over the rounds (ratio_best takes each round's fastest, the luckiest of three
//                  or four)
//   rounds         how many rounds, each of two passes (--rounds=N, default 5)
//   ms_rounds      the kernel's time per launch in the rounds: the median over the rounds of its two
//                  batches' mean (ms_per_launch is time_loop's, timed alone, before them)
//   sustain_ratio, sustain_ratio_min, sustain_ratio_max
//                  with --sustain=S, the steady state (sustained): the kernel and every baseline take
//                  turns 5 times in segments of S seconds of back-to-back batches, and only the batches of
//                  each segment's last third are timed; against the baseline fastest there, the median of
//                  the 5 ratios, and their spread. The rounds' 20 ms batches are bursts: on a GPU at its
//                  power limit the two differ, and so may the fastest baseline (bench/README.md)
// After the run, a Markdown table on stdout (stderr when Google Benchmark's JSON or CSV goes there) sums
// it up: per kernel, its TFLOP/s, the baselines' and the three medians (print_summary).
// Every variant of every step runs (tut::all_steps(), the list CMake registers). A kernel whose result
// differs from cuBLAS is reported as an error and makes the program exit 1.
// Default sizes: 512x512x256, 1024^3, 2048^3, 4096^3, 8192^3, and two ragged ones: 1000x999x777 and
// 1000x999x776 (for the steps whose K must be a multiple of 8). A step runs the sizes it supports. Run
// with --benchmark_filter=... to pick; --sizes=MxNxK,... replaces the default sizes. --bug=STEP:NAME times
// only that step's default variant with a planted bug (the step's --list-bugs); --sustain=S adds the steady
// state (sustain_ratio above); --control adds control_cuBLASLt_<kind>/<size>, the tuned cuBLASLt in the
// rounds as if it were a kernel, against the baselines, itself among them. Every wait for the GPU
// goes through the watchdog (tut/watchdog.hpp): a kernel that never finishes ends the run with one line
// and exit 3; --timeout=S sets its limit per launch.
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <cublasLt.h>
#include <cublas_v2.h>

#include "cutlass_gemm.hpp"
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

// Interleaved rounds per kernel (interleaved_rounds), two passes each: with 5, one disturbed round cannot
// carry the median off, and the min..max of the rounds shows how well they agree. --rounds=N changes it.
constexpr int kDefaultRounds = 5;
// Rounds are for the kernels that contend with the vendor library: one at least this fraction of the
// better baseline in its own timing (time_loop). The others (steps 01-07 at most sizes) would spend
// minutes of rounds to confirm a ratio nobody disputes, and get their plain vs_cuBLAS only.
constexpr double kRoundsFrom = 0.5;
// The algorithms cuBLASLt's heuristic is asked for; each is checked and timed (lt_tuned).
constexpr int kLtAlgos = 8;
// cuBLASLt's workspace: 32 MiB, what cuBLAS's documentation recommends on Hopper (cublasSetWorkspace), so
// that the heuristic may offer the algorithms that need one (split-K ones, say).
constexpr std::size_t kLtWorkspaceBytes = std::size_t(32) << 20;

cublasHandle_t g_cublas = nullptr;
cublasLtHandle_t g_lt = nullptr;                  // one for the run: main creates and destroys it
tut::DeviceBuffer<unsigned char> g_lt_workspace;  // kLtWorkspaceBytes for every cublasLtMatmul; main frees it
bool g_mismatch = false;                          // a kernel differed from cuBLAS: exit 1
double g_timeout_s = 0;                           // --timeout=S: the watchdog's limit per launch (0: derived)
int g_rounds = kDefaultRounds;                    // --rounds=N
double g_sustain_s = 0;                           // --sustain=S: seconds per segment of the steady state (0: off)
bool g_control = false;                           // --control: time the tuned cuBLASLt as a kernel too (bench_control)
std::deque<tut::Variant> g_bug_variants;          // --bug: the default variants with the bug (stable addresses)
std::map<std::string, double> g_cublas_tflops;    // baseline key -> cuBLAS TFLOP/s in this run
std::map<std::string, double> g_cublaslt_tflops;  // baseline key -> the tuned cuBLASLt's TFLOP/s in this run
// baseline key -> CUTLASS kernel -> its TFLOP/s in this run (its entry's last call, as for cuBLAS)
std::map<std::string, std::map<std::string, double>> g_cutlass_tflops;
bool g_hopper = false;                            // the GPU is sm_90: CUTLASS's sm90 kernels run

// cuBLASLt's descriptors, owned: destroyed with their owner.
struct LtDestroy {
  void operator()(cublasLtMatmulDesc_t d) const { cublasLtMatmulDescDestroy(d); }
  void operator()(cublasLtMatrixLayout_t l) const { cublasLtMatrixLayoutDestroy(l); }
  void operator()(cublasLtMatmulPreference_t p) const { cublasLtMatmulPreferenceDestroy(p); }
};
template <class Opaque>
using LtOwner = std::unique_ptr<Opaque, LtDestroy>;

// cublasLtMatmul set up to compute what cublas_gemm computes (lt_gemm), and the algorithm lt_tuned chose.
struct LtGemm {
  LtOwner<cublasLtMatmulDescOpaque_t> desc;
  LtOwner<cublasLtMatrixLayoutOpaque_t> a, b, c;  // cuBLAS's A (our B), its B (our A), C (and D)
  int tried = 0;                                  // algorithms the heuristic returned
  int rank = -1;                                  // the chosen one's index in that list; -1: none usable
  cublasLtMatmulAlgo_t algo{};
};

// Device operands of one size, input type and convention, shared by every benchmark of that kind.
struct Operands {
  tut::Problem p;
  tut::DType type;
  tut::Convention conv;
  tut::DeviceBuffer<unsigned char> A, B;
  tut::DeviceBuffer<float> C, C_ref;
  std::optional<LtGemm> lt;  // set up and tuned on first use (lt_tuned), then the same for every benchmark
  // CUTLASS's kernels for these operands, by name, into C: set up on first use (cutlass_of), checked once.
  std::map<std::string, std::unique_ptr<bench::CutlassGemm>> cutlass;
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

// "fp32_NT/4096x4096x4096": which baselines a kernel is compared with.
std::string baseline_key(Operands const& o) { return kind_of(o.type, o.conv) + "/" + size_name(o.p); }

// C (M,N) row-major = A (M,K) · B (N,K)ᵀ, in cuBLAS's column-major terms Cᵀ (N×M, ld N) = B' · A'':
// B' is B as an N×K matrix (N-major: op N, ld N; K-major: it is stored K×N, so op T, ld K) and A'' is
// Aᵀ (M-major: stored M×K, so op T, ld M; K-major: stored K×M, op N, ld K). fp32 operands use plain
// FP32 (no TF32); fp16 operands multiply in fp16 and accumulate and store fp32. cublasGemmEx and
// cublasLtMatmul both make this one call.
struct BlasCall {
  cublasOperation_t op_b, op_a;  // cuBLAS's transa (on B') and transb (on A'')
  int n, m, k;                   // cuBLAS's m, n, k; C's ld is n
  int ldb, lda;                  // cuBLAS's lda (B's) and ldb (A's)
  cudaDataType_t type;           // A's and B's; C is CUDA_R_32F
};

BlasCall blas_call(Operands const& o) {
  if (o.conv.c != tut::Order::row) throw tut::CudaError("bench_gemm: only row-major C is benchmarked");
  bool const b_n = o.conv.b == tut::Major::mn, a_m = o.conv.a == tut::Major::mn;
  int const M = int(o.p.m), N = int(o.p.n), K = int(o.p.k);
  return {b_n ? CUBLAS_OP_N : CUBLAS_OP_T, a_m ? CUBLAS_OP_T : CUBLAS_OP_N, N, M, K, b_n ? N : K, a_m ? M : K,
          o.type == tut::DType::f16 ? CUDA_R_16F : CUDA_R_32F};
}

void cublas_gemm(Operands& o, float* C) {
  float const one = 1.f, zero = 0.f;
  BlasCall const c = blas_call(o);
  cublas_check(cublasGemmEx(g_cublas, c.op_b, c.op_a, c.n, c.m, c.k, &one, o.B.get(), c.type, c.ldb, o.A.get(), c.type,
                            c.lda, &zero, C, CUDA_R_32F, c.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

// The layout of a matrix that is rows×cols after \p op: cuBLASLt describes it as stored, before op.
LtOwner<cublasLtMatrixLayoutOpaque_t> lt_layout(cudaDataType_t t, cublasOperation_t op, int rows, int cols, int ld) {
  cublasLtMatrixLayout_t l = nullptr;
  bool const n = op == CUBLAS_OP_N;
  cublas_check(cublasLtMatrixLayoutCreate(&l, t, std::uint64_t(n ? rows : cols), std::uint64_t(n ? cols : rows), ld),
               "cublasLtMatrixLayoutCreate");
  return LtOwner<cublasLtMatrixLayoutOpaque_t>(l);
}

// cublasLtMatmul's descriptors for cublas_gemm's call (blas_call): the same operands, transposes and
// leading dimensions, fp32 compute and scale (CUBLAS_COMPUTE_32F: no TF32 either), fp32 C and D.
LtGemm lt_gemm(Operands const& o) {
  BlasCall const c = blas_call(o);
  LtGemm lt;
  cublasLtMatmulDesc_t desc = nullptr;
  cublas_check(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F), "cublasLtMatmulDescCreate");
  lt.desc.reset(desc);
  std::int32_t const transa = c.op_b, transb = c.op_a;  // int32_t: the attributes' type (cublasLt.h)
  cublas_check(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transa, sizeof transa),
               "cublasLtMatmulDescSetAttribute");
  cublas_check(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &transb, sizeof transb),
               "cublasLtMatmulDescSetAttribute");
  lt.a = lt_layout(c.type, c.op_b, c.n, c.k, c.ldb);         // B': N×K after op
  lt.b = lt_layout(c.type, c.op_a, c.k, c.m, c.lda);         // A'': K×M after op
  lt.c = lt_layout(CUDA_R_32F, CUBLAS_OP_N, c.n, c.m, c.n);  // Cᵀ: N×M
  return lt;
}

// One cublasLtMatmul of \p o with \p algo into \p C (D; beta is 0, so C is only named), on the default stream.
cublasStatus_t lt_matmul(Operands const& o, LtGemm const& lt, cublasLtMatmulAlgo_t const& algo, float* C) {
  float const one = 1.f, zero = 0.f;
  return cublasLtMatmul(g_lt, lt.desc.get(), &one, o.B.get(), lt.a.get(), o.A.get(), lt.b.get(), &zero, C, lt.c.get(),
                        C, lt.c.get(), &algo, g_lt_workspace.get(), g_lt_workspace.bytes(), nullptr);
}

// Times batches of launches issued back to back between two CUDA events. The stop event is recorded right
// after the last launch, before the wait (tut::GpuTimer::record_stop): recorded after it, it would add the
// wait's polling, up to a few ms, to the batch. Every wait goes through the watchdog: a launch that never
// finishes ends the run with one line naming it (\p what) and exit 3.
class BatchTimer {
 public:
  // The milliseconds \p batch launches took; \p limit_s is the watchdog's limit per launch.
  template <class Launch>
  float ms(int batch, std::string const& what, double limit_s, Launch&& launch) {
    timer_.start();
    for (int i = 0; i < batch; ++i) launch();
    timer_.record_stop();
    tut::wait_or_exit("bench_gemm", what, batch * limit_s);
    TUT_CUDA_CHECK(cudaGetLastError());
    return timer_.elapsed();
  }

  // A batch of about 20 ms of \p launch, from one warm-up launch and one timed: at least 3 launches, at
  // most 200.
  template <class Launch>
  int batch_of_20ms(std::string const& what, double limit_s, Launch&& launch) {
    ms(1, what, limit_s, launch);  // warm-up
    float const one_ms = ms(1, what, limit_s, launch);
    return std::clamp(int(20.0f / std::max(one_ms, 1e-3f)), 3, 200);
  }

 private:
  tut::GpuTimer timer_;
};

// What time_loop measured: the launches per batch, and TFLOP/s.
struct Timed {
  int batch;
  double tflops;
};

// Each benchmark iteration times a batch of launches issued back to back between two CUDA events, so
// the GPU never idles between them (timing each launch alone lets it idle, and cuBLAS, measured that
// way, lost 4% at 4096^3 and 11% at 8192^3 on an H100). The batch is sized from one warm-up launch to
// take about 20 ms, and is at least 3 launches. Google Benchmark's Time column is per batch; the
// counters ms_per_launch and TFLOP/s are per launch. BatchTimer times the batches, and sends every wait
// through the watchdog.
template <class Launch>
Timed time_loop(benchmark::State& state, Operands const& o, bool vs_cublas, std::string const& what, Launch&& launch) {
  double const limit_s = tut::watchdog_seconds(o.p, g_timeout_s);
  BatchTimer timer;
  int const batch = timer.batch_of_20ms(what, limit_s, launch);
  double total_ms = 0;
  for (auto _ : state) {
    float const ms = timer.ms(batch, what, limit_s, launch);
    total_ms += ms;
    state.SetIterationTime(ms * 1e-3);  // the batch's time: Google Benchmark's Time column is per batch
  }
  double const ms_per_launch = total_ms / double(state.iterations()) / double(batch);
  double const tflops = tut::gemm_tflops(o.p.m, o.p.n, o.p.k, ms_per_launch);
  state.counters["TFLOP/s"] = tflops;
  state.counters["batch"] = batch;
  state.counters["ms_per_launch"] = ms_per_launch;
  auto it = g_cublas_tflops.find(baseline_key(o));
  if (vs_cublas && it != g_cublas_tflops.end() && it->second > 0) state.counters["vs_cuBLAS"] = tflops / it->second;
  return {batch, tflops};
}

// The largest max_rel_diff a result may have. fp32 inputs: both sides accumulate fp32 in different
// orders; fp16 inputs: tensor-core rounding.
double tolerance(tut::DType t) { return t == tut::DType::f16 ? 1e-3 : 1e-4; }

// cublasGemmEx's C for \p o (left in o.C_ref too), on the host: what every other result is checked against.
std::vector<float> cublas_reference(Operands& o) {
  cublas_gemm(o, o.C_ref.get());
  tut::wait_or_exit("bench_gemm", "cuBLAS", tut::watchdog_seconds(o.p, g_timeout_s));
  std::vector<float> r;
  o.C_ref.download(r);
  return r;
}

// max |C − C_ref| / max |C_ref|, after one \p launch into a poisoned o.C; \p ref is cublas_reference's.
template <class Launch>
double rel_diff(Operands& o, std::vector<float> const& ref, std::string const& what, Launch&& launch) {
  o.C.fill_bytes(0xFF);
  launch();
  TUT_CUDA_CHECK(cudaGetLastError());
  tut::wait_or_exit("bench_gemm", what, tut::watchdog_seconds(o.p, g_timeout_s));
  std::vector<float> c;
  o.C.download(c);
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    diff = std::max(diff, std::isfinite(c[i]) ? double(std::abs(c[i] - ref[i])) : INFINITY);
    scale = std::max(scale, double(std::abs(ref[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

// cuBLASLt tuned for \p o: the heuristic's algorithms (up to kLtAlgos, allowed kLtWorkspaceBytes of
// workspace), each checked once against cublasGemmEx's result as a kernel is (one that fails or differs
// is dropped, with a line on stderr), the others timed (a warm-up, then a batch of about 20 ms), the
// fastest kept. \p what names it in those lines and to the watchdog.
LtGemm tune_lt(Operands& o, std::string const& what) {
  LtGemm lt = lt_gemm(o);
  cublasLtMatmulPreference_t p = nullptr;
  cublas_check(cublasLtMatmulPreferenceCreate(&p), "cublasLtMatmulPreferenceCreate");
  LtOwner<cublasLtMatmulPreferenceOpaque_t> const pref(p);
  std::uint64_t const workspace = g_lt_workspace.bytes();
  cublas_check(cublasLtMatmulPreferenceSetAttribute(p, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                                    sizeof workspace),
               "cublasLtMatmulPreferenceSetAttribute");
  std::vector<cublasLtMatmulHeuristicResult_t> found(kLtAlgos);
  cublasStatus_t const s = cublasLtMatmulAlgoGetHeuristic(g_lt, lt.desc.get(), lt.a.get(), lt.b.get(), lt.c.get(),
                                                          lt.c.get(), p, kLtAlgos, found.data(), &lt.tried);
  if (s == CUBLAS_STATUS_NOT_SUPPORTED)
    lt.tried = 0;  // no algorithm for this kind
  else
    cublas_check(s, "cublasLtMatmulAlgoGetHeuristic");

  double const limit_s = tut::watchdog_seconds(o.p, g_timeout_s);
  std::vector<float> const ref = cublas_reference(o);
  BatchTimer timer;
  float best_ms = INFINITY;
  for (int i = 0; i < lt.tried; ++i) {
    cublasLtMatmulAlgo_t const& algo = found[std::size_t(i)].algo;
    cublasStatus_t status = found[std::size_t(i)].state;
    double diff = INFINITY;
    if (status == CUBLAS_STATUS_SUCCESS)
      diff = rel_diff(o, ref, what, [&] { status = lt_matmul(o, lt, algo, o.C.get()); });
    if (status != CUBLAS_STATUS_SUCCESS || !(diff <= tolerance(o.type))) {
      std::string const why = status != CUBLAS_STATUS_SUCCESS
                                  ? "cuBLAS status " + std::to_string(int(status))
                                  : "result differs from cublasGemmEx's: max rel diff " + std::to_string(diff);
      std::fprintf(stderr, "bench_gemm: %s: algorithm %d of %d dropped: %s\n", what.c_str(), i, lt.tried, why.c_str());
      continue;
    }
    auto const launch = [&] { cublas_check(lt_matmul(o, lt, algo, o.C.get()), "cublasLtMatmul"); };
    int const batch = timer.batch_of_20ms(what, limit_s, launch);
    float const ms = timer.ms(batch, what, limit_s, launch) / float(batch);
    if (ms < best_ms) {
      best_ms = ms;
      lt.rank = i;
      lt.algo = algo;
    }
  }
  return lt;
}

// tune_lt's result for \p o, tuned on first use and kept in \p o, so that the cublasLt_ entry and every
// kernel's rounds use the same algorithm, whichever of them --benchmark_filter lets run. Where cuBLASLt
// has no usable algorithm, or fails, a line on stderr says so, and the kernels are compared with cuBLAS
// alone: a baseline's trouble is not the kernel's.
LtGemm const& lt_tuned(Operands& o) {
  if (o.lt) return *o.lt;
  std::string const what = "cuBLASLt " + baseline_key(o);
  try {
    o.lt = tune_lt(o, what);
  } catch (std::exception const& e) {
    std::fprintf(stderr, "bench_gemm: %s: %s\n", what.c_str(), e.what());
    o.lt = LtGemm{};
  }
  if (o.lt->rank < 0)
    std::fprintf(stderr, "bench_gemm: %s: no usable algorithm (%d from the heuristic): compared with cuBLAS alone\n",
                 what.c_str(), o.lt->tried);
  return *o.lt;
}

// The tuned cuBLASLt's launch for \p o (lt_tuned's algorithm, into o.C), or an empty function where it has
// no usable algorithm.
std::function<void()> lt_launch(Operands& o) {
  LtGemm const& lt = lt_tuned(o);
  if (lt.rank < 0) return {};
  return [&o, &lt] { cublas_check(lt_matmul(o, lt, lt.algo, o.C.get()), "cublasLtMatmul"); };
}

void bench_cublas(benchmark::State& state, std::shared_ptr<Operands> o) {
  try {
    auto const launch = [&] { cublas_gemm(*o, o->C_ref.get()); };
    g_cublas_tflops[baseline_key(*o)] = time_loop(state, *o, false, "cuBLAS", launch).tflops;
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

void bench_cublaslt(benchmark::State& state, std::shared_ptr<Operands> o) {
  try {
    std::function<void()> const launch = lt_launch(*o);
    if (!launch) {
      state.SkipWithError("no usable cuBLASLt algorithm (see stderr)");
      return;
    }
    LtGemm const& lt = lt_tuned(*o);
    g_cublaslt_tflops[baseline_key(*o)] = time_loop(state, *o, false, "cuBLASLt", launch).tflops;
    state.counters["algos_tried"] = lt.tried;
    state.counters["algo_rank"] = lt.rank;
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

// Whether CUTLASS's kernels (bench/cutlass_gemm.cu) compute \p o's problem: the Hopper steps' (fp16, A and
// B K-major, C row-major), on a Hopper GPU, at a size their TMA takes.
bool cutlass_applies(Operands const& o) {
  return g_hopper && o.type == tut::DType::f16 && o.conv.a == tut::Major::k && o.conv.b == tut::Major::k &&
         o.conv.c == tut::Order::row && bench::cutlass_runs(int(o.p.m), int(o.p.n), int(o.p.k));
}

// CUTLASS kernel \p name for \p o: set up on first use, checked once against cublasGemmEx's result as a
// kernel is, and kept in \p o. nullptr where it cannot be set up or differs (a line on stderr says so):
// the kernels are then compared with the other baselines.
bench::CutlassGemm* cutlass_of(Operands& o, std::string const& name) {
  if (auto const it = o.cutlass.find(name); it != o.cutlass.end()) return it->second.get();
  std::string const what = "CUTLASS " + name + " " + baseline_key(o);
  std::unique_ptr<bench::CutlassGemm> g;
  try {
    g = bench::cutlass_gemm(name, int(o.p.m), int(o.p.n), int(o.p.k), o.A.get(), o.B.get(), o.C.get());
    double const diff = rel_diff(o, cublas_reference(o), what, [&] { g->run(nullptr); });
    if (!(diff <= tolerance(o.type))) {
      std::fprintf(stderr, "bench_gemm: %s differs from cuBLAS (max rel diff %g): not a baseline\n", what.c_str(), diff);
      g.reset();
    }
  } catch (std::exception const& e) {
    std::fprintf(stderr, "bench_gemm: %s: %s: not a baseline\n", what.c_str(), e.what());
    g.reset();
  }
  return (o.cutlass[name] = std::move(g)).get();
}

void bench_cutlass(benchmark::State& state, std::shared_ptr<Operands> o, std::string name) {
  try {
    bench::CutlassGemm* const g = cutlass_of(*o, name);
    if (!g) {
      state.SkipWithError("CUTLASS kernel not usable here (see stderr)");
      return;
    }
    g_cutlass_tflops[baseline_key(*o)][name] =
        time_loop(state, *o, false, "CUTLASS " + name, [&] { g->run(nullptr); }).tflops;
  } catch (std::exception const& e) {
    state.SkipWithError(e.what());
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  std::size_t const n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// The kernel's TFLOP/s over each baseline's, one per round (the same flops: the baseline's time over the
// kernel's). lt is empty where cuBLASLt has no algorithm, cutlass (over the faster CUTLASS kernel of the
// round) where no CUTLASS kernel runs; best is over the fastest baseline of the round.
struct Rounds {
  std::vector<double> blas, lt, cutlass, best;
  std::string fastest;  // the baseline with the lowest median time over the rounds
  std::vector<double> vs_fastest;  // over that one baseline, in every round
  double kernel_ms = 0;             // the kernel's batch: the median over the rounds of its two batches' mean
};

// One entry of a round: a baseline, or the kernel.
enum Group { kBlas, kLt, kCutlass, kKernel };
struct Entry {
  std::string name;
  std::function<void()> launch;
  Group group;
};

// The baselines a kernel of \p o's kind is timed against: cuBLAS, the tuned cuBLASLt where it has an
// algorithm, and CUTLASS's kernels where they apply and passed their check.
std::vector<Entry> baselines_of(Operands& o) {
  std::vector<Entry> entries{{"cuBLAS", [&o] { cublas_gemm(o, o.C.get()); }, kBlas}};
  if (std::function<void()> lt = lt_launch(o)) entries.push_back({"cuBLASLt", std::move(lt), kLt});
  if (cutlass_applies(o))
    for (std::string const& name : bench::cutlass_kernels())
      if (bench::CutlassGemm* const g = cutlass_of(o, name))
        entries.push_back({"CUTLASS " + name, [g] { g->run(nullptr); }, kCutlass});
  return entries;
}

// The baselines, then the kernel (\p what): the entries of a round, and of --sustain's alternations.
template <class Launch>
std::vector<Entry> with_kernel(Operands& o, std::string const& what, Launch&& kernel) {
  std::vector<Entry> entries = baselines_of(o);
  entries.push_back({what, kernel, kKernel});
  return entries;
}

// \p t: each entry's times, one per round (or alternation), the kernel's last. The baseline with the lowest
// median time (the first of them on a tie), and its time over the kernel's in each round.
struct Fastest {
  std::size_t entry;
  std::vector<double> ratios;
};
Fastest fastest_baseline(std::vector<std::vector<double>> const& t) {
  std::size_t const k = t.size() - 1;
  Fastest out{0, {}};
  for (std::size_t e = 1; e < k; ++e)
    if (median(t[e]) < median(t[out.entry])) out.entry = e;
  for (std::size_t r = 0; r < t[k].size(); ++r) out.ratios.push_back(t[out.entry][r] / t[k][r]);
  return out;
}

// g_rounds rounds of the kernel against every baseline. A round is two passes, each of which times, back to
// back, a batch of cublasGemmEx, one of the tuned cublasLtMatmul, one of each CUTLASS kernel and one of the
// kernel, \p batch launches each, so that all share the GPU's state of that moment (clocks, temperature,
// whatever else runs), which entries timed seconds apart do not. The second pass runs them in the reverse
// order, kernel first. A round's ratios are over each entry's time summed over its two passes: every entry
// then sits, on average, in the middle of the round, and a trend across the round (a GPU that slows as it
// warms) costs each as much. Per pass the kernel's place counts: on a GPU at its power limit it changes the
// speed of the whole batch (bench/README.md): at 8192^3 on an H100, step 16 held 0.87 to 0.92 of
// cuBLASLt in the passes where it ran last, and 0.88 to 1.00 (median 0.97) where it ran first (2026-11-27).
// Rounds of one pass each gave an odd count more passes of one kind than of the other, and the median fell
// among the more numerous.
template <class Launch>
Rounds interleaved_rounds(Operands& o, int batch, std::string const& what, Launch&& kernel) {
  std::vector<Entry> const entries = with_kernel(o, what, kernel);
  double const limit_s = tut::watchdog_seconds(o.p, g_timeout_s);
  BatchTimer timer;
  Rounds out;
  std::size_t const n = entries.size();
  std::vector<std::vector<double>> times(n);  // per entry, its time in each round: both passes' batches
  for (int r = 0; r < g_rounds; ++r) {
    for (std::vector<double>& t : times) t.push_back(0);
    for (int pass = 0; pass < 2; ++pass)
      for (std::size_t j = 0; j < n; ++j) {
        std::size_t const e = pass == 0 ? j : n - 1 - j;
        times[e].back() += timer.ms(batch, entries[e].name, limit_s, entries[e].launch);
      }
    std::array<double, 4> ms;  // per group, the fastest of its entries in this round
    ms.fill(INFINITY);
    for (std::size_t e = 0; e < n; ++e) ms[entries[e].group] = std::min(ms[entries[e].group], times[e].back());
    double const k = ms[kKernel];
    out.blas.push_back(ms[kBlas] / k);
    if (std::isfinite(ms[kLt])) out.lt.push_back(ms[kLt] / k);
    if (std::isfinite(ms[kCutlass])) out.cutlass.push_back(ms[kCutlass] / k);
    out.best.push_back(std::min({ms[kBlas], ms[kLt], ms[kCutlass]}) / k);
  }
  Fastest const f = fastest_baseline(times);
  out.fastest = entries[f.entry].name;
  out.vs_fastest = f.ratios;
  out.kernel_ms = median(times[n - 1]) / 2;  // one batch: half a round's two
  return out;
}

// --sustain=S, the steady state: the kernel and every baseline take turns in segments of S seconds of
// back-to-back batches, kSustainAlternations times, the kernel first in even alternations and last in odd
// ones. Only the batches that start in a segment's last third are timed: by then the GPU has run that load
// for 2S/3 seconds and sits at its power limit, where 20 ms batches (the rounds) do not get. The kernel is
// held against the fastest baseline there, the lowest median time per launch over its segments, which
// need not be the fastest of the rounds: one ratio per alternation, its time per launch over the kernel's.
constexpr int kSustainAlternations = 5;
struct Sustained {
  std::string against;         // the fastest baseline at the power limit
  std::vector<double> ratios;  // its time per launch over the kernel's, one per alternation
};
template <class Launch>
Sustained sustained(Operands& o, int batch, std::string const& what, Launch&& kernel) {
  std::vector<Entry> const entries = with_kernel(o, what, kernel);
  double const limit_s = tut::watchdog_seconds(o.p, g_timeout_s);
  BatchTimer timer;
  auto const segment = [&](Entry const& e) {  // ms per launch in the last third
    auto const t0 = std::chrono::steady_clock::now();
    double ms = 0, last = 0;
    int launches = 0;
    for (;;) {
      double const at = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (at >= g_sustain_s) break;
      last = timer.ms(batch, e.name, limit_s, e.launch);
      if (at >= g_sustain_s * 2 / 3) {
        ms += last;
        launches += batch;
      }
    }
    return launches ? ms / launches : last / batch;  // S shorter than a batch: its one batch
  };
  std::size_t const n = entries.size();
  std::vector<std::vector<double>> ms(n);  // per entry, its time per launch in each alternation
  for (int a = 0; a < kSustainAlternations; ++a)
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t const e = a % 2 ? j : n - 1 - j;  // even: the kernel (entries' last) first, then backwards
      ms[e].push_back(segment(entries[e]));
    }
  Fastest f = fastest_baseline(ms);
  return {entries[f.entry].name, std::move(f.ratios)};
}

// One line of the summary table (print_summary).
struct SummaryRow {
  std::string entry;         // the benchmark's name: Google Benchmark may run it more than once, the last counts
  std::string size, kernel;  // "4096x4096x4096", "step10_warp_specialized"
  std::string key;           // baseline_key
  double tflops;             // time_loop's
  int lt_tried;              // algorithms cuBLASLt's heuristic returned for the key
  double blas, lt, cutlass, best;  // the medians of the rounds (lt, cutlass: NaN without that baseline)
  double best_min, best_max;
  std::string fastest;                        // the fastest baseline of the rounds
  double vs_fastest;                          // the median ratio to it, round by round
  std::string sustain_vs;                     // --sustain: the fastest baseline at the power limit
  double sustain, sustain_min, sustain_max;   // the median ratio to it, and the spread (NaN: off)
};
std::vector<SummaryRow> g_summary;  // in the order the kernels first ran
// entry -> its --sustain: the baseline it is held against, and the ratios (measured once per entry)
std::map<std::string, Sustained> g_sustained;

double tflops_of(std::map<std::string, double> const& baseline, std::string const& key);
double cutlass_tflops(std::string const& key);

// The rounds of a kernel that time_loop timed as \p t (and --sustain's steady state), into \p state's
// counters and a row of the summary.
void rounds_of(benchmark::State& state, Operands& o, std::string const& what, std::function<void()> const& kernel,
               Timed const& t) {
  auto const or_0 = [](double x) { return std::isnan(x) ? 0.0 : x; };  // NaN: that baseline did not run
  double const baseline = std::max({or_0(tflops_of(g_cublas_tflops, baseline_key(o))),
                                    or_0(tflops_of(g_cublaslt_tflops, baseline_key(o))),
                                    or_0(cutlass_tflops(baseline_key(o)))});
  if (!(t.tflops >= kRoundsFrom * baseline)) return;  // below half the best baseline: no rounds (kRoundsFrom)
  Rounds const r = interleaved_rounds(o, t.batch, what, kernel);
  auto const [lo, hi] = std::minmax_element(r.best.begin(), r.best.end());
  SummaryRow row{what, size_name(o.p), what.substr(0, what.rfind('/')), baseline_key(o), t.tflops,
                 lt_tuned(o).tried, median(r.blas), r.lt.empty() ? NAN : median(r.lt),
                 r.cutlass.empty() ? NAN : median(r.cutlass), median(r.best), *lo, *hi, r.fastest,
                 median(r.vs_fastest), "", NAN, NAN, NAN};
  // --sustain: Google Benchmark may call this entry more than once; the steady state is measured once.
  if (g_sustain_s > 0) {
    auto [it, fresh] = g_sustained.try_emplace(what);
    if (fresh) it->second = sustained(o, t.batch, what, kernel);
    Sustained const& s = it->second;
    auto const [slo, shi] = std::minmax_element(s.ratios.begin(), s.ratios.end());
    row.sustain_vs = s.against;
    row.sustain = median(s.ratios);
    row.sustain_min = *slo;
    row.sustain_max = *shi;
    state.SetLabel("sustained vs " + s.against);  // the JSON's "label": counters hold numbers only
    state.counters["sustain_ratio"] = row.sustain;
    state.counters["sustain_ratio_min"] = row.sustain_min;
    state.counters["sustain_ratio_max"] = row.sustain_max;
  }
  state.counters["ratio_cuBLAS"] = row.blas;
  if (!r.lt.empty()) state.counters["ratio_cuBLASLt"] = row.lt;
  if (!r.cutlass.empty()) state.counters["ratio_CUTLASS"] = row.cutlass;
  state.counters["ratio_best"] = row.best;
  state.counters["ratio_best_min"] = row.best_min;
  state.counters["ratio_best_max"] = row.best_max;
  state.counters["ratio_fastest"] = row.vs_fastest;
  state.counters["rounds"] = g_rounds;
  state.counters["ms_rounds"] = r.kernel_ms / t.batch;
  auto const same =
      std::find_if(g_summary.begin(), g_summary.end(), [&](SummaryRow const& s) { return s.entry == what; });
  if (same == g_summary.end())
    g_summary.push_back(row);
  else
    *same = row;
}

void bench_variant(benchmark::State& state, tut::Variant const* v, std::shared_ptr<Operands> o, std::string what) {
  try {
    auto const kernel = [&] { v->launch({o->p, o->A.get(), o->B.get(), o->C.get()}, nullptr); };
    double const diff = rel_diff(*o, cublas_reference(*o), what, kernel);
    if (!(diff <= tolerance(o->type))) {
      g_mismatch = true;
      state.SkipWithError(("result differs from cuBLAS: max rel diff " + std::to_string(diff)).c_str());
      return;
    }
    Timed const t = time_loop(state, *o, true, what, kernel);
    state.counters["max_rel_diff"] = diff;
    rounds_of(state, *o, what, kernel, t);
  } catch (std::exception const& e) {
    g_mismatch = true;
    state.SkipWithError(e.what());
  }
}

// --control: the tuned cuBLASLt timed as if it were a kernel, "control_cuBLASLt_<kind>/<size>", against the
// baselines, itself among them: its ratios are what the rounds make of a kernel exactly as fast as cuBLASLt.
void bench_control(benchmark::State& state, std::shared_ptr<Operands> o, std::string what) {
  try {
    std::function<void()> const kernel = lt_launch(*o);
    if (!kernel) {
      state.SkipWithError("no usable cuBLASLt algorithm (see stderr)");
      return;
    }
    rounds_of(state, *o, what, kernel, time_loop(state, *o, false, what, kernel));
  } catch (std::exception const& e) {
    g_mismatch = true;
    state.SkipWithError(e.what());
  }
}

// \p x with \p decimals, or "-" where there is no figure (NaN).
std::string fixed(double x, int decimals) {
  if (std::isnan(x)) return "-";
  char s[32];
  std::snprintf(s, sizeof s, "%.*f", decimals, x);
  return s;
}

double tflops_of(std::map<std::string, double> const& baseline, std::string const& key) {
  auto const it = baseline.find(key);
  return it == baseline.end() ? NAN : it->second;
}

// The faster CUTLASS kernel's TFLOP/s for \p key (their entries'), or NaN where none ran.
double cutlass_tflops(std::string const& key) {
  auto const it = g_cutlass_tflops.find(key);
  if (it == g_cutlass_tflops.end() || it->second.empty()) return NAN;
  double best = 0;
  for (auto const& [name, tflops] : it->second) best = std::max(best, tflops);
  return best;
}

// The run in one Markdown table, for notes: per kernel timed, its TFLOP/s (its entry's), the baselines'
// (their entries'; CUTLASS's: the faster of its kernels), and the medians of its interleaved rounds, with
// the lowest and highest ratio_best. Padded to read as plain text too; a "-" where a baseline did not run
// (--benchmark_filter, or CUTLASS where it does not apply) or cuBLASLt has no algorithm. Written to \p out.
void print_summary(std::FILE* out) {
  if (g_summary.empty()) return;
  std::map<std::string, int> tried;  // baseline key -> algorithms cuBLASLt's heuristic returned
  std::set<int> counts;
  for (SummaryRow const& r : g_summary) {
    tried[r.key] = r.lt_tried;
    counts.insert(r.lt_tried);
  }
  std::string const n = counts.size() == 1 ? std::to_string(*counts.begin()) : "N";
  // The last column, --sustain's, only where it ran.
  using Row = std::array<std::string, 12>;
  std::size_t const cols = g_sustain_s > 0 ? 12 : 11;
  std::vector<Row> rows = {{"size", "kernel", "TFLOP/s", "cuBLAS", "cuBLASLt (best of " + n + ")", "CUTLASS",
                            "vs cuBLAS", "vs cuBLASLt", "vs CUTLASS", "vs best (min..max)", "vs the fastest",
                            "sustained vs the fastest (min..max)"}};
  for (SummaryRow const& r : g_summary)
    rows.push_back({r.size, r.kernel, fixed(r.tflops, 2), fixed(tflops_of(g_cublas_tflops, r.key), 2),
                    fixed(tflops_of(g_cublaslt_tflops, r.key), 2), fixed(cutlass_tflops(r.key), 2),
                    fixed(r.blas, 3), fixed(r.lt, 3), fixed(r.cutlass, 3),
                    fixed(r.best, 3) + " (" + fixed(r.best_min, 3) + ".." + fixed(r.best_max, 3) + ")",
                    fixed(r.vs_fastest, 3) + " " + r.fastest,
                    std::isnan(r.sustain) ? "-"
                                          : fixed(r.sustain, 3) + " vs " + r.sustain_vs + " (" +
                                                fixed(r.sustain_min, 3) + ".." + fixed(r.sustain_max, 3) + ")"});
  std::array<std::size_t, 12> width{};
  for (auto const& row : rows)
    for (std::size_t c = 0; c < cols; ++c) width[c] = std::max(width[c], row[c].size());
  auto const line = [&](Row const& row) {
    std::string s = "|";
    for (std::size_t c = 0; c < cols; ++c) {
      std::string const pad(width[c] - row[c].size(), ' ');
      s += " " + (c < 2 ? row[c] + pad : pad + row[c]) + " |";  // size and kernel left, figures right
    }
    return s;
  };
  std::string rule = "|";
  for (std::size_t c = 0; c < cols; ++c)
    rule += c < 2 ? ":" + std::string(width[c] + 1, '-') + "|" : std::string(width[c] + 1, '-') + ":|";
  std::fprintf(out, "\nKernel TFLOP/s / baseline TFLOP/s: medians of %d interleaved rounds, two passes each (--rounds)",
               g_rounds);
  if (g_sustain_s > 0)
    std::fprintf(out, "; sustained: medians of %d alternations of %g s segments, the last third of each timed (--sustain)",
                 kSustainAlternations, g_sustain_s);
  std::fprintf(out, "\n\n");
  std::fprintf(out, "%s\n%s\n", line(rows[0]).c_str(), rule.c_str());
  for (std::size_t i = 1; i < rows.size(); ++i) std::fprintf(out, "%s\n", line(rows[i]).c_str());
  if (counts.size() > 1) {
    std::fprintf(out, "\nN, the algorithms cuBLASLt's heuristic returned:");
    for (auto const& [key, count] : tried) std::fprintf(out, " %s %d;", key.c_str(), count);
    std::fprintf(out, "\n");
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

// --rounds=N: 1 or more; at most 1000, so that a slip of the keyboard does not run for hours.
int parse_rounds(std::string const& n) {
  char* end = nullptr;
  long const r = std::strtol(n.c_str(), &end, 10);
  if (*end != '\0' || r < 1 || r > 1000)
    throw std::runtime_error("--rounds expects a whole number of rounds from 1 to 1000, got '" + n + "'");
  return int(r);
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
      else if (a.rfind("--rounds=", 0) == 0)
        g_rounds = parse_rounds(a.substr(9));
      else if (a.rfind("--sustain=", 0) == 0) {
        std::size_t used = 0;
        g_sustain_s = std::stod(a.substr(10), &used);
        if (used != a.size() - 10 || !(g_sustain_s > 0) || g_sustain_s > 600)
          throw std::runtime_error("--sustain expects the seconds of a segment, above 0 and at most 600, got '" +
                                   a.substr(10) + "'");
      }
      else if (a == "--control")
        g_control = true;
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
  // The summary table goes to stdout, unless Google Benchmark writes JSON or CSV there (--benchmark_format):
  // then to stderr, so that stdout stays one file a parser reads.
  bool const machine_stdout = std::any_of(rest.begin(), rest.end(), [](char const* a) {
    std::string const s = a;
    return s.rfind("--benchmark_format=", 0) == 0 && s != "--benchmark_format=console";
  });
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
  g_hopper = dev.cc() == 90;
  cublas_check(cublasCreate(&g_cublas), "cublasCreate");
  cublas_check(cublasSetMathMode(g_cublas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  cublas_check(cublasLtCreate(&g_lt), "cublasLtCreate");
  g_lt_workspace = tut::DeviceBuffer<unsigned char>(kLtWorkspaceBytes);

  for (auto const& p : sizes) {
    // One set of operands (and the baselines, cuBLAS, cuBLASLt and where they apply CUTLASS's, timed first)
    // per input type and convention.
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
        benchmark::RegisterBenchmark(("cublasLt_" + key + "/" + size_name(p)).c_str(), bench_cublaslt, o)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
        if (cutlass_applies(*o))
          for (std::string const& c : bench::cutlass_kernels())
            benchmark::RegisterBenchmark(("cutlass_" + c + "_" + key + "/" + size_name(p)).c_str(), bench_cutlass, o, c)
                ->UseManualTime()->Unit(benchmark::kMillisecond);
        if (g_control) {
          std::string const name = "control_cuBLASLt_" + key + "/" + size_name(p);
          benchmark::RegisterBenchmark(name.c_str(), bench_control, o, name)->UseManualTime()->Unit(benchmark::kMillisecond);
        }
      }
      if (!bug.empty()) {  // the default variant with the bug: "<step>/bug:<name>/<size>"
        std::string const bug_name = bug.substr(bug.find(':') + 1);  // named: no temporary for the reference to outlive
        tut::PlantedBug const& b = tut::find_bug(s, bug_name);
        g_bug_variants.push_back(s.variants.front());
        g_bug_variants.back().launch = b.launch;
        std::string const name = s.name + "/bug:" + b.name + "/" + size_name(p);
        benchmark::RegisterBenchmark(name.c_str(), bench_variant, &g_bug_variants.back(), o, name)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
        continue;
      }
      // The variant the step runs at this size is "<step>/<size>": the default, or the one the step's
      // choose() picks (step 14); the others "<step>/<variant>/<size>".
      std::size_t const chosen = s.choose ? std::size_t(s.choose(p)) : 0;
      for (std::size_t i = 0; i < s.variants.size(); ++i) {
        std::string const name = s.name + "/" + (i != chosen ? s.variants[i].name + "/" : "") + size_name(p);
        benchmark::RegisterBenchmark(name.c_str(), bench_variant, &s.variants[i], o, name)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
      }
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  print_summary(machine_stdout ? stderr : stdout);
  benchmark::Shutdown();
  // The registered benchmarks hold the Operands: release them (device memory, cuBLASLt descriptors) before
  // the workspace and the handles they are used with.
  benchmark::ClearRegisteredBenchmarks();
  g_lt_workspace = tut::DeviceBuffer<unsigned char>();
  cublasLtDestroy(g_lt);
  cublasDestroy(g_cublas);
  if (g_mismatch) std::fprintf(stderr, "bench_gemm: some kernels differ from cuBLAS (see the errors above)\n");
  return g_mismatch ? 1 : 0;
}

// The driver every step binary runs: parse, validate, print, run on the GPU, verify, time.
#include "tut/harness.hpp"

#include <climits>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/buffers.hpp"
#include "tut/cuda_check.hpp"
#include "tut/print.hpp"
#include "tut/random.hpp"
#include "tut/status.hpp"
#include "tut/timing.hpp"
#include "tut/verify.hpp"

namespace tut {

std::pair<std::int64_t, std::int64_t> grid_of(Step const& s, Problem const& p) {
  return {(p.m + s.tile_m - 1) / s.tile_m, (p.n + s.tile_n - 1) / s.tile_n};
}

void validate(Step const& s, Options const& o) {
  Problem const& p = o.problem;
  // The kernels index with 32-bit integers: each operand must have fewer than 2^31 elements.
  auto check_count = [](char const* what, std::int64_t a, std::int64_t b) {
    if (a > INT_MAX / b)
      throw UsageError(std::string(what) + " = " + std::to_string(a) + "*" + std::to_string(b) +
                       " elements exceeds 2^31-1, the 32-bit index range of these kernels");
  };
  check_count("M*K", p.m, p.k);
  check_count("N*K", p.n, p.k);
  check_count("M*N", p.m, p.n);
  if (std::string why = s.unsupported(p); !why.empty()) throw UsageError(why);
  if (o.thread >= s.threads)
    throw UsageError("--thread " + std::to_string(o.thread) + " is out of range: a CTA of " + s.name + " has " +
                     std::to_string(s.threads) + " threads (0.." + std::to_string(s.threads - 1) + ")");
  auto const [gx, gy] = grid_of(s, p);
  if (o.block_x >= gx || o.block_y >= gy)
    throw UsageError("--block " + std::to_string(o.block_x) + "," + std::to_string(o.block_y) +
                     " is out of range: the grid is (" + std::to_string(gx) + "," + std::to_string(gy) + ")");
}

void check_device_memory(Step const& s, Problem const& p, DeviceInfo const& dev) {
  double const need = double(dtype_bytes(s.in_type)) * (double(p.m) * double(p.k) + double(p.n) * double(p.k)) +
                      4.0 * double(p.m) * double(p.n);
  if (need > double(dev.free_bytes)) {
    std::ostringstream msg;
    msg << std::fixed << std::setprecision(2) << "this problem needs " << need / (1 << 30)
        << " GiB of device memory; " << dev.name << " has " << double(dev.free_bytes) / (1 << 30) << " GiB free";
    throw UsageError(msg.str());
  }
}

namespace {

std::string layout_str(std::int64_t r, std::int64_t c, std::int64_t sr, std::int64_t sc) {
  return plain(cute::make_layout(cute::make_shape(r, c), cute::make_stride(sr, sc)));
}

void print_problem(std::ostream& os, Step const& s, Options const& o) {
  Problem const& p = o.problem;
  OperandStrides const st = s.strides(p);
  os << s.name << ": " << s.title << '\n';
  print_section(os, 1, "Problem");
  os << "  C(M,N) = A(M,K) * B(N,K)^T     M=" << p.m << "  N=" << p.n << "  K=" << p.k << "     "
     << dtype_name(s.in_type) << " in, fp32 accumulate, fp32 out\n";
  print_item(os, "mA", layout_str(p.m, p.k, st.a_m, st.a_k), "(M,K) -> idx, " + majorness(st.a_m, st.a_k, "M", "K"));
  print_item(os, "mB", layout_str(p.n, p.k, st.b_n, st.b_k), "(N,K) -> idx, " + majorness(st.b_n, st.b_k, "N", "K"));
  std::string const c_major = st.c_n == 1 ? "row-major" : st.c_m == 1 ? "column-major" : "strided";
  print_item(os, "mC", layout_str(p.m, p.n, st.c_m, st.c_n), "(M,N) -> idx, " + c_major);
  if (o.init == Init::ones)
    print_item(os, "inputs", "all ones", "every C entry should be K");
  else
    print_item(os, "inputs", "uniform in [-1,1], seed " + std::to_string(o.seed), "rerun with --seed to repeat");
}

// Allocate, fill, poison, launch, verify and time. Returns the exit code.
int run_on_gpu(std::ostream& os, Step const& s, Options const& o, DeviceInfo const& dev) {
  Problem const& p = o.problem;
  check_device_memory(s, p, dev);
  std::size_t const in_bytes = dtype_bytes(s.in_type);
  std::size_t const a_elems = std::size_t(p.m * p.k), b_elems = std::size_t(p.n * p.k), c_elems = std::size_t(p.m * p.n);

  // Inputs: generated on the host (rounded to the input type), so the reference sees the same numbers.
  std::vector<float> hA(a_elems), hB(b_elems), hC;
  fill_inputs(hA, s.in_type, o.init, o.seed);
  fill_inputs(hB, s.in_type, o.init, o.seed + 1);

  DeviceBuffer<unsigned char> dA(a_elems * in_bytes), dB(b_elems * in_bytes);
  if (s.in_type == DType::f16) {
    auto upload16 = [](DeviceBuffer<unsigned char>& d, std::vector<float> const& h) {
      auto bits = to_f16_bits(h);
      TUT_CUDA_CHECK(cudaMemcpy(d.get(), bits.data(), d.bytes(), cudaMemcpyHostToDevice));
    };
    upload16(dA, hA);
    upload16(dB, hB);
  } else {
    TUT_CUDA_CHECK(cudaMemcpy(dA.get(), hA.data(), dA.bytes(), cudaMemcpyHostToDevice));
    TUT_CUDA_CHECK(cudaMemcpy(dB.get(), hB.data(), dB.bytes(), cudaMemcpyHostToDevice));
  }
  DeviceBuffer<float> dC(c_elems);
  dC.fill_bytes(0xFF);  // poison: an entry the kernel never writes keeps kPoisonBits

  GemmArgs const args{p, dA.get(), dB.get(), dC.get()};
  s.launch(args, nullptr);
  TUT_CUDA_CHECK(cudaGetLastError());
  TUT_CUDA_CHECK(cudaDeviceSynchronize());
  dC.download(hC);

  print_section(os, 5, "Verification against the CPU reference (double accumulation)");
  print_item(os, "gpu", dev.name, "sm_" + std::to_string(dev.cc()) + ", " + std::to_string(dev.sm_count) + " SMs");
  VerifyConfig cfg;
  cfg.rtol = default_rtol(s.in_type, p.k);
  cfg.tile_m = s.tile_m;
  cfg.tile_n = s.tile_n;
  cfg.seed = o.seed;
  VerifyReport const rep = verify_gemm(p, s.strides(p), hA.data(), hB.data(), hC.data(), cfg);
  print_report(os, rep);

  if (o.iters > 0) {
    print_section(os, 6, "Timing (CUDA events)");
    s.launch(args, nullptr);  // warm-up
    TUT_CUDA_CHECK(cudaGetLastError());
    GpuTimer timer;
    timer.start();
    for (int i = 0; i < o.iters; ++i) s.launch(args, nullptr);
    float const ms = timer.stop() / float(o.iters);
    TUT_CUDA_CHECK(cudaGetLastError());
    std::ostringstream line;
    line << std::fixed << std::setprecision(4) << ms << " ms per launch (mean of " << o.iters << "), "
         << std::setprecision(2) << gemm_tflops(p.m, p.n, p.k, ms) << " TFLOP/s";
    print_item(os, "time", line.str());
  }
  return rep.pass ? kExitVerified : kExitWrongResult;
}

}  // namespace

int run_step(int argc, char** argv, Step const& s) {
  Options o;
  try {
    CliResult const r = parse_cli(argc, argv, {s.name, s.title, s.defaults});
    if (r.exit_now) return r.code;
    o = r.options;
    validate(s, o);
  } catch (UsageError const& e) {
    std::cerr << s.name << ": error: " << e.what() << '\n';
    return kExitBadUsage;
  }

  std::ostream& os = std::cout;
  try {
    print_problem(os, s, o);
    if (!o.quiet) s.trace(os, o);
    if (o.print_only) return kExitVerified;

    DeviceInfo const dev = query_device();
    if (!dev.usable) {
      os.flush();
      std::cerr << s.name << ": no usable GPU (" << dev.why << "): printed the layouts, ran nothing\n";
      return kExitNoGpu;
    }
    if (dev.cc() < s.min_cc) {
      os.flush();
      std::cerr << s.name << ": " << dev.name << " is sm_" << dev.cc() << "; this step needs sm_" << s.min_cc
                << " or newer: printed the layouts, ran nothing\n";
      return kExitNoGpu;
    }
    return run_on_gpu(os, s, o, dev);
  } catch (UsageError const& e) {
    os.flush();
    std::cerr << s.name << ": error: " << e.what() << '\n';
    return kExitBadUsage;
  } catch (CudaError const& e) {
    os.flush();
    std::cerr << s.name << ": CUDA error: " << e.what() << '\n';
    return kExitCudaError;
  }
}

}  // namespace tut

// The driver every step binary runs: parse, validate, print, run on the GPU, verify, time.
#include "tut/harness.hpp"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/buffers.hpp"
#include "tut/cuda_check.hpp"
#include "tut/format.hpp"
#include "tut/owner.hpp"
#include "tut/pictures.hpp"
#include "tut/random.hpp"
#include "tut/reference.hpp"
#include "tut/status.hpp"
#include "tut/timing.hpp"
#include "tut/verify.hpp"
#include "tut/watchdog.hpp"

namespace tut {

char const* check_name(Check c) {
  switch (c) {
    case Check::verification: return "verification";
    case Check::owner_test: return "owner_test";
    case Check::bank_model: return "bank_model";
    case Check::memcheck: return "memcheck";
    case Check::racecheck: return "racecheck";
    case Check::watchdog: return "watchdog";
    case Check::sass: return "sass";
  }
  return "?";
}

namespace {

// How a learner sees check \p c catch a bug, in words.
std::string check_words(Check c) {
  switch (c) {
    case Check::verification: return "the run reports FAIL (exit 1)";
    case Check::owner_test: return "the owner test (`--owners`) prints FAIL and the entries' wrong owners (exit 1)";
    case Check::bank_model: return "Nsight Compute's bank-conflict counters disagree with the printout's model "
                                   "(`scripts/bank_check.sh`)";
    case Check::memcheck: return "`compute-sanitizer --tool memcheck` reports errors";
    case Check::racecheck: return "`compute-sanitizer --tool racecheck` reports hazards";
    case Check::watchdog: return "the kernel never finishes: the watchdog prints one line and exits 3";
    case Check::sass: return "no GPU check sees it; `--sass` (the SASS test) reports what the bug took out of the SASS, or put in";
  }
  return "?";
}

}  // namespace

PlantedBug const& find_bug(Step const& s, std::string const& name) {
  std::string names;
  for (auto const& b : s.bugs) {
    if (b.name == name) return b;
    names += (names.empty() ? "" : ", ") + b.name;
  }
  throw UsageError("--bug " + name + " is not one of " + s.name + "'s: " + (names.empty() ? "(none)" : names));
}

std::string bug_list(Step const& s) {
  std::ostringstream os;
  for (auto const& b : s.bugs) {
    os << b.name << ": caught by " << check_name(b.caught_by) << "; run: " << s.name << " --bug " << b.name
       << (b.run.empty() ? "" : " " + b.run) << '\n'
       << "    breaks: " << b.breaks << '\n'
       << "    caught: " << check_words(b.caught_by) << (b.why.empty() ? "" : "; " + b.why)
       << (b.caught_by == Check::sass ? "; host test: bug_" + s.name.substr(0, 6) + "_" + b.name + "_sass" : "") << '\n';
  }
  return os.str();
}

TileCoord tiles_of(Variant const& v, Problem const& p) {
  return tile_counts(p.m, p.n, v.tile_m, v.tile_n);
}

std::string breaks_size_rule(SizeRule rule, Problem const& q) {
  switch (rule) {
    case SizeRule::any:
      return q.m == 1 && q.n == 1 && q.k == 1 ? "" : "SIZES ANY runs every size, but the step needs multiples";
    case SizeRule::any_mn:
      return q.m == 1 && q.n == 1 && q.k > 1 ? "" : "SIZES ANY_MN runs any M and N, and K in multiples above 1";
    default:
      return q.m > 1 || q.n > 1 ? "" : "SIZES TILE_MULTIPLES needs multiples of a tile in M or N";
  }
}

std::string unsupported(Step const& s, Problem const& p) {
  Problem const& q = s.multiple_of;
  if (p.m % q.m == 0 && p.n % q.n == 0 && p.k % q.k == 0) return "";
  std::string need;
  if (q.m == q.n && q.m > 1)
    need = "M and N to be multiples of " + std::to_string(q.m);
  else if (q.m > 1 || q.n > 1)
    need = "M to be a multiple of " + std::to_string(q.m) + " and N of " + std::to_string(q.n);
  if (q.k > 1) need += (need.empty() ? "K to be a multiple of " : " and K a multiple of ") + std::to_string(q.k);
  std::string why = s.name + " needs " + need + " (got M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) +
                    " K=" + std::to_string(p.k) + ")";
  if (!s.sizes_why.empty()) why += ": " + s.sizes_why;
  if (!s.lifted_by.empty()) why += "; " + s.lifted_by + " handles " + s.lifted_sizes;
  return why;
}

std::string unsupported_gpu(Step const& s, int cc) {
  bool const too_new = s.max_cc != 0 && cc > s.max_cc;
  if (cc >= s.min_cc && !too_new) return "";
  if (s.max_cc == 0) return "this step needs sm_" + std::to_string(s.min_cc) + " or newer";
  std::string const which = s.min_cc == s.max_cc
                                ? "sm_" + std::to_string(s.max_cc) + " only"
                                : "sm_" + std::to_string(s.min_cc) + " to sm_" + std::to_string(s.max_cc);
  return "this step runs on " + which + (s.arch_why.empty() ? "" : ": " + s.arch_why);
}

Variant const& find_variant(Step const& s, std::string const& name) {
  if (name.empty()) return s.variants.front();
  std::string names;
  for (auto const& v : s.variants) {
    if (v.name == name) return v;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  throw UsageError("--variant " + name + " is not one of " + s.name + "'s: " + names);
}

Variant const& variant_for(Step const& s, Options const& o) {
  // --bug and --stress run the default variant: the bugs and the race amplifier are compiled into it only.
  if (!o.variant.empty() || !s.choose || !o.bug.empty() || o.stress) return find_variant(s, o.variant);
  int const i = s.choose(o.problem);
  if (i < 0 || std::size_t(i) >= s.variants.size())
    throw std::logic_error(s.name + ": choose() picked variant " + std::to_string(i) + " of " +
                           std::to_string(s.variants.size()));
  return s.variants[std::size_t(i)];
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
  if (std::string why = unsupported(s, p); !why.empty()) throw UsageError(why);
  Variant const& v = variant_for(s, o);
  if (o.stress && !s.stress)
    throw UsageError("--stress: " + s.name + " has no race amplifier; the steps with TMA stores build one, for "
                     "the race between a TMA store and the threads that write its buffer again");
  if (o.stress && &v != &s.variants.front())
    throw UsageError("--stress builds the default variant only (" + s.variants.front().name + ")");
  if (!o.bug.empty() && &v != &s.variants.front())
    throw UsageError("--bug plants its bug into the default variant only (" + s.variants.front().name + ")");
  if (o.thread >= v.threads)
    throw UsageError("--thread " + std::to_string(o.thread) + " is out of range: it picks one of the " +
                     std::to_string(v.threads) + " threads of " + s.name + "'s TiledMMA (0.." +
                     std::to_string(v.threads - 1) + ")");
  TileCoord const tiles = tiles_of(v, p);
  if (o.tile.m >= tiles.m || o.tile.n >= tiles.n)
    throw UsageError("--tile " + std::to_string(o.tile.m) + "," + std::to_string(o.tile.n) +
                     " is out of range: C has " + std::to_string(tiles.m) + "x" + std::to_string(tiles.n) +
                     " tiles (0.." + std::to_string(tiles.m - 1) + ",0.." + std::to_string(tiles.n - 1) + ")");
  // CUDA launches at most 2^31-1 CTAs along x and 65535 along y.
  GridDims const grid = v.schedule.grid(tiles.m, tiles.n);
  if (grid.y > 65535)
    throw UsageError("this problem needs a grid of " + std::to_string(grid.x) + "x" + std::to_string(grid.y) + " CTAs of " +
                     s.name + ", and CUDA allows at most 65535 along y: use a smaller N");
  // An owner id numbers (visit·CTAs + CTA)·threads + thread; visit·CTAs + CTA stays below the tiles.
  double const ids = double(tiles.m) * double(tiles.n) * double(v.threads);
  if (o.owners && ids > double(kOwnerIdLimit))
    throw UsageError("--owners numbers every thread of every tile below 2^24; this problem needs " +
                     std::to_string(std::int64_t(ids)) + ": use a smaller problem");
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

bool require_gpu() {
  char const* v = std::getenv("TUT_REQUIRE_GPU");
  return v != nullptr && std::string(v) != "" && std::string(v) != "0";
}

namespace {

// The regular files in \p dir and when each was last written (none if \p dir is "" or missing).
std::map<std::string, std::filesystem::file_time_type> files_in(std::string const& dir) {
  std::map<std::string, std::filesystem::file_time_type> out;
  std::error_code ec;
  if (!dir.empty())
    for (auto const& e : std::filesystem::directory_iterator(dir, ec))
      if (e.is_regular_file()) out[e.path().string()] = e.last_write_time();
  return out;
}

// --svg and --html: the files they wrote (new in the folder, or written again since \p before), one line
// each, so that a learner sees what appeared where.
void print_written(std::ostream& os, Options const& o,
                   std::map<std::string, std::filesystem::file_time_type> const& before) {
  std::vector<std::string> files;
  for (auto const& [path, time] : files_in(o.svg_dir))
    if (auto const it = before.find(path); it == before.end() || it->second != time) files.push_back(path);
  if (!o.html_file.empty()) {  // once, if --svg's folder holds it too
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path const page = fs::weakly_canonical(o.html_file, ec);
    if (std::none_of(files.begin(), files.end(), [&](std::string const& f) { return fs::weakly_canonical(f, ec) == page; }))
      files.push_back(o.html_file);
  }
  os << "\npictures: wrote " << files.size() << (files.size() == 1 ? " file" : " files") << '\n';
  for (auto const& f : files) os << "  " << f << '\n';
}

std::string layout_str(std::int64_t r, std::int64_t c, std::int64_t sr, std::int64_t sc) {
  return plain(cute::make_layout(cute::make_shape(r, c), cute::make_stride(sr, sc)));
}

void print_problem(std::ostream& os, Step const& s, Options const& o) {
  Problem const& p = o.problem;
  Convention const& cv = s.convention;
  OperandStrides const st = strides_of(cv, p);
  os << s.name << ": " << s.title << '\n';
  print_section(os, 1, "Problem");
  os << "  C(M,N) = A(M,K) * B(N,K)^T     M=" << p.m << "  N=" << p.n << "  K=" << p.k << "     "
     << dtype_name(s.in_type) << " in, fp32 accumulate, fp32 out\n";
  print_item(os, "mA", layout_str(p.m, p.k, st.a_m, st.a_k), "(M,K) -> idx, " + major_name(cv.a, 'M'));
  print_item(os, "mB", layout_str(p.n, p.k, st.b_n, st.b_k), "(N,K) -> idx, " + major_name(cv.b, 'N'));
  print_item(os, "mC", layout_str(p.m, p.n, st.c_m, st.c_n), "(M,N) -> idx, " + order_name(cv.c));
  if (o.init == Init::ones)
    print_item(os, "inputs", "all ones", "every C entry should be K");
  else
    print_item(os, "inputs", "uniform in [-1,1], seed " + std::to_string(o.seed), "rerun with --seed to repeat");
  if (!o.variant.empty() && o.variant != s.variants.front().name) print_item(os, "variant", o.variant);
}

// The operands on the host (rounded to the input type, so the reference sees the kernel's numbers) and
// on the device, and C poisoned: an entry the kernel never writes keeps kPoisonBits.
struct Operands {
  std::vector<float> hA, hB;
  DeviceBuffer<unsigned char> dA, dB;
  DeviceBuffer<float> dC;

  Operands(Step const& s, Options const& o)
      : hA(std::size_t(o.problem.m * o.problem.k)), hB(std::size_t(o.problem.n * o.problem.k)),
        dA(hA.size() * dtype_bytes(s.in_type)), dB(hB.size() * dtype_bytes(s.in_type)),
        dC(std::size_t(o.problem.m * o.problem.n)) {
    fill_inputs(hA, s.in_type, o.init, o.seed);
    fill_inputs(hB, s.in_type, o.init, o.seed + 1);
    upload_inputs(dA, hA, s.in_type);
    upload_inputs(dB, hB, s.in_type);
    dC.fill_bytes(0xFF);
  }
  GemmArgs args(Problem const& p, Store store) const { return {p, dA.get(), dB.get(), dC.get(), store}; }
};

// What the watchdog's line names: the step's kernel, and the bug planted into it.
std::string kernel_words(Step const& s, Options const& o) {
  return s.name + "'s kernel" + (o.bug.empty() ? "" : " (with --bug " + o.bug + ")");
}

void launch_and_wait(Step const& s, Variant const& v, Options const& o, GemmArgs const& args) {
  v.launch(args, nullptr);
  TUT_CUDA_CHECK(cudaGetLastError());
  wait_or_exit(s.name, kernel_words(s, o), watchdog_seconds(args.problem, o.timeout_s));
  TUT_CUDA_CHECK(cudaDeviceSynchronize());
}

void print_gpu(std::ostream& os, DeviceInfo const& dev) {
  print_item(os, "gpu", dev.name, "sm_" + std::to_string(dev.cc()) + ", " + std::to_string(dev.sm_count) + " SMs");
}

// --stress, --bug: the race amplifier, if this run has it; which bug it planted, what it breaks and what catches it.
void print_bug(std::ostream& os, Step const& s, Options const& o) {
  if (o.stress)
    print_item(os, "stress", "the kernel built with the race amplifier (--stress): the producer warpgroup's idle "
                             "warps keep the SM's stores to L2 busy, so the TMA stores read their buffers slowly");
  if (o.bug.empty()) return;
  PlantedBug const& b = find_bug(s, o.bug);
  print_item(os, "bug", b.name + ", planted on purpose (--bug): " + b.breaks);
  print_item(os, "caught by", std::string(check_name(b.caught_by)) + ": " + check_words(b.caught_by));
}

// Plant o.fault after the launch, on C(M-1,N-1): a corner of the last tile, compared by every verification.
void plant_fault(Options const& o, Step const& s, Operands& ops, double rtol) {
  Problem const& p = o.problem;
  OperandStrides const st = strides_of(s.convention, p);
  std::int64_t const m = p.m - 1, n = p.n - 1;
  float* at = ops.dC.get() + (m * st.c_m + n * st.c_n);
  if (o.fault == Fault::skip_one) {
    TUT_CUDA_CHECK(cudaMemset(at, 0xFF, sizeof(float)));
  } else if (o.fault == Fault::over_tolerance || o.fault == Fault::fixed_error) {
    using namespace cute;
    Tensor tA = make_tensor(ops.hA.data(), make_layout(make_shape(p.m, p.k), make_stride(st.a_m, st.a_k)));  // (M,K)
    Tensor tB = make_tensor(ops.hB.data(), make_layout(make_shape(p.n, p.k), make_stride(st.b_n, st.b_k)));  // (N,K)
    double const abs_sum = reference_entry(tA, tB, m, n).abs_sum;
    // Twice the allowed error, or a fault of fixed size whatever the tolerance (kFixedFault).
    double const error = o.fault == Fault::over_tolerance ? 2.0 * rtol * abs_sum : kFixedFault * abs_sum;
    float c = 0;
    TUT_CUDA_CHECK(cudaMemcpy(&c, at, sizeof c, cudaMemcpyDeviceToHost));
    c = float(double(c) + error);
    TUT_CUDA_CHECK(cudaMemcpy(at, &c, sizeof c, cudaMemcpyHostToDevice));
  }
}

}  // namespace

VerifyConfig verify_config(Step const& s, Variant const& v, Options const& o) {
  VerifyConfig cfg;
  cfg.rtol = default_rtol(s.in_type, o.problem.k);
  cfg.tile_m = v.tile_m;
  cfg.tile_n = v.tile_n;
  cfg.seed = o.seed;
  return cfg;
}

namespace {

// Allocate, fill, poison, launch, verify and time. Returns the exit code.
int run_on_gpu(std::ostream& os, Step const& s, Variant const& v, Options const& o, DeviceInfo const& dev) {
  Problem const& p = o.problem;
  check_device_memory(s, p, dev);
  Operands ops(s, o);
  GemmArgs const args = ops.args(p, Store::sums);
  if (o.fault != Fault::no_launch) launch_and_wait(s, v, o, args);

  VerifyConfig const cfg = verify_config(s, v, o);
  plant_fault(o, s, ops, cfg.rtol);
  std::vector<float> hC;
  ops.dC.download(hC);

  print_section(os, 5, "Verification against the CPU reference (double accumulation)");
  print_gpu(os, dev);
  if (o.fault == Fault::fixed_error)
    print_item(os, "fault", "planted on purpose (--inject fixed-error): 2^-13 of C(M-1,N-1)'s sum of |products|, "
                            "which an fp32 step's tolerance must reject");
  else if (o.fault != Fault::none)
    print_item(os, "fault", "planted on purpose (--inject): this run must FAIL");
  print_bug(os, s, o);
  // The reference reads the operands through the step's declared convention, not through its layouts.
  VerifyReport const rep = verify_gemm(p, strides_of(s.convention, p), ops.hA.data(), ops.hB.data(), hC.data(), cfg);
  print_report(os, rep);

  if (o.iters > 0 && o.fault == Fault::none) {
    print_section(os, 6, "Timing (CUDA events)");
    launch_and_wait(s, v, o, args);  // warm-up
    GpuTimer timer;
    timer.start();
    for (int i = 0; i < o.iters; ++i) v.launch(args, nullptr);
    wait_or_exit(s.name, kernel_words(s, o), o.iters * watchdog_seconds(p, o.timeout_s));
    float const ms = timer.stop() / float(o.iters);
    TUT_CUDA_CHECK(cudaGetLastError());
    std::ostringstream line;
    line << std::fixed << std::setprecision(4) << ms << " ms per launch (mean of " << o.iters << "), "
         << std::setprecision(2) << gemm_tflops(p.m, p.n, p.k, ms) << " TFLOP/s";
    print_item(os, "time", line.str());
  }
  return rep.pass ? kExitVerified : kExitWrongResult;
}

// Launch with the owner epilogue and compare, entry by entry, with the host partition the printout uses.
int run_owner_check(std::ostream& os, Step const& s, Variant const& v, Options const& o, DeviceInfo const& dev) {
  Problem const& p = o.problem;
  check_device_memory(s, p, dev);
  Operands ops(s, o);
  launch_and_wait(s, v, o, ops.args(p, Store::owners));
  std::vector<float> hC;
  ops.dC.download(hC);
  std::vector<std::uint32_t> const want = v.owners(p, v.schedule);
  OperandStrides const st = strides_of(s.convention, p);
  TileCoord const tiles = tiles_of(v, p);
  auto who = [&](std::uint32_t id) { return owner_str(id, v.schedule, tiles.m, tiles.n, v.threads); };

  print_section(os, 5, "Who stores each C entry: the kernel's owner epilogue against the printout");
  print_gpu(os, dev);
  print_bug(os, s, o);
  std::int64_t wrong = 0;
  std::vector<std::string> first;
  for (std::int64_t m = 0; m < p.m; ++m)
    for (std::int64_t n = 0; n < p.n; ++n) {
      float const c = hC[std::size_t(m * st.c_m + n * st.c_n)];
      std::uint32_t const w = want[std::size_t(m * p.n + n)];
      bool const is_id = c >= 0.f && c < float(kOwnerIdLimit) && float(std::uint32_t(c)) == c;
      std::uint32_t const got = is_poison(c) ? kNoOwner : is_id ? std::uint32_t(c) : kManyOwners;
      if (got == w && w != kNoOwner && w != kManyOwners) continue;
      if (wrong++ < 8)
        first.push_back("C(" + std::to_string(m) + "," + std::to_string(n) + ") stored by " +
                        who(got) + "; the printout says " + who(w));
    }
  std::int64_t const total = p.m * p.n;
  if (wrong == 0)
    print_item(os, "result", "PASS: all " + std::to_string(total) +
                                 " entries stored by the thread, CTA and tile that the printout's partition names");
  else
    print_item(os, "result", "FAIL: " + std::to_string(wrong) + " of " + std::to_string(total) +
                                 " entries not stored by the thread, CTA and tile the printout names");
  for (auto const& line : first) os << "    " << line << '\n';
  return wrong == 0 ? kExitVerified : kExitWrongResult;
}

// --sass: the step's SASS classes in its own binary beside the previous step's binary (same folder).
int run_sass(std::ostream& os, Step const& s, Options const& o) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path const self = fs::read_symlink("/proc/self/exe", ec);
  int const bug = o.bug.empty() ? 0 : find_bug(s, o.bug).id;
  os << s.name << ": " << s.title << '\n';
  print_section(os, 1, "SASS: the instructions this step's idea brings, and no spills");
  std::vector<SassKernel> here, previous;
  try {
    here = read_sass(self.string());
    if (!s.previous.empty() && fs::exists(self.parent_path() / s.previous)) previous = read_sass((self.parent_path() / s.previous).string());
  } catch (std::exception const& e) {
    os.flush();
    std::cerr << s.name << ": error: " << e.what() << '\n';
    return kExitCudaError;
  }
  if (bug) {
    PlantedBug const& b = find_bug(s, o.bug);
    print_item(os, "bug", b.name + " (--bug): the kernels compiled with it; the previous step's column is still "
                                   "the previous step's kernels");
  }
  std::string const arch = here.empty() ? "" : " sm_" + std::to_string(here.front().arch);
  os << "  cuobjdump -sass," << arch << " code built with CUDA " << CUDART_VERSION / 1000 << "."
     << CUDART_VERSION % 1000 / 10 << ": the instructions of each class in this binary's kernels\n  ("
     << (bug ? "those with the bug" : "every variant's") << ")"
     << (s.previous.empty() ? std::string() : ", and in " + s.previous + "'s, the step before") << "\n\n";
  std::string const prev_col = s.previous.empty() ? "" : s.previous.substr(0, 6);
  SassReport const r = report_sass(os, s.sass, here, bug, s.name.substr(0, 6), previous, prev_col);
  os << '\n';
  print_item(os, "result", r.verdict);
  return r.pass ? kExitVerified : kExitWrongResult;
}

}  // namespace

int run_step(int argc, char** argv, Step const& s) {
  Options o;
  try {
    CliSpec spec{s.name.c_str(), s.title.c_str(), s.defaults, {}};
    for (auto const& v : s.variants) spec.variants.push_back(v.name);
    for (auto const& b : s.bugs) spec.bugs.push_back(b.name);
    spec.bug_list = bug_list(s);
    spec.stress = s.stress != nullptr;
    CliResult const r = parse_cli(argc, argv, spec);
    if (r.exit_now) return r.code;
    o = r.options;
    validate(s, o);
    // Where the pictures go must exist before anything is printed: a bad path is bad usage.
    if (!o.svg_dir.empty()) make_dir(o.svg_dir);
    if (!o.html_file.empty()) make_parent_dir(o.html_file);
  } catch (UsageError const& e) {
    std::cerr << s.name << ": error: " << e.what() << '\n';
    return kExitBadUsage;
  }

  std::ostream& os = std::cout;
  if (o.sass) return run_sass(os, s, o);
  // --bug: the default variant, launched with the bug compiled in.
  Variant v = variant_for(s, o);
  if (!o.bug.empty()) v.launch = find_bug(s, o.bug).launch;
  if (o.stress) v.launch = s.stress(o.bug.empty() ? 0 : find_bug(s, o.bug).id);
  // No GPU: a skip (77) for a learner without one; a failure (3) where a GPU is required.
  auto no_gpu = [&](std::string const& why) {
    os.flush();
    std::cerr << s.name << ": no usable GPU (" << why << ")"
              << (require_gpu() ? ", and TUT_REQUIRE_GPU is set\n" : ": printed the layouts, ran nothing\n");
    return require_gpu() ? kExitCudaError : kExitNoGpu;
  };
  try {
    print_problem(os, s, o);
    if (!o.quiet) v.trace(os, o);
    if (!o.svg_dir.empty() || !o.html_file.empty()) {
      auto const before = files_in(o.svg_dir);
      v.pictures(o, strides_of(s.convention, o.problem), s.name, v.schedule);
      if (v.extra_svg && !o.svg_dir.empty()) v.extra_svg(o, o.svg_dir);
      print_written(os, o, before);
    }
    if (o.print_only) return kExitVerified;

    DeviceInfo const dev = query_device();
    if (!dev.usable && !dev.absent) {
      os.flush();
      std::cerr << s.name << ": CUDA error: the runtime failed to start: " << dev.why << '\n';
      return kExitCudaError;
    }
    if (!dev.usable) return no_gpu(dev.why);
    if (std::string why = unsupported_gpu(s, dev.cc()); !why.empty()) return no_gpu(dev.name + " is sm_" +
                                                                                 std::to_string(dev.cc()) + "; " + why);
    return o.owners ? run_owner_check(os, s, v, o, dev) : run_on_gpu(os, s, v, o, dev);
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

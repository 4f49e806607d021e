/// \file harness.hpp
/// \brief The driver every step's main() hands itself to: parse, print, run, verify, time.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "tut/cli.hpp"
#include "tut/cuda_check.hpp"
#include "tut/problem.hpp"
#include "tut/registration.hpp"
#include "tut/sass.hpp"
#include "tut/tile_schedule.hpp"
#include "tut/verify.hpp"

namespace tut {

/// \brief What a kernel's epilogue stores into C.
enum class Store : int {
  sums,    ///< the GEMM: C(m,n) = Σ_k A(m,k)·B(n,k)
  owners,  ///< the owner_id() (owner.hpp) of the thread, CTA and visit that store C(m,n): the printout's test
};

/// \brief Device pointers of one GEMM launch. A and B hold Step::in_type elements.
struct GemmArgs {
  Problem problem;            ///< extents
  void const* A = nullptr;    ///< (M,K), laid out as the step's Convention says
  void const* B = nullptr;    ///< (N,K)
  float* C = nullptr;         ///< (M,N)
  Store store = Store::sums;  ///< what the epilogue writes
};

/// \brief Launch a kernel on a stream (asynchronously; the caller checks for errors).
using LaunchFn = void (*)(GemmArgs const& args, cudaStream_t stream);
/// \brief Print sections 2-4: the tiler and grid, the traced CTA's and thread's partitions, what is new.
using TraceFn = void (*)(std::ostream& os, Options const& o);
/// \brief On the host, for every C(m,n) (row-major, m·N + n): the owner_id() of the thread, CTA and visit
/// that store it, read off the same partition the printout shows and the CTAs \p s sends to each tile;
/// kNoOwner where none does.
using OwnersFn = std::vector<std::uint32_t> (*)(Problem const& p, TileSchedule const& s);

/// \brief Write the pictures of the traced tile and thread (Options::svg_dir, Options::html_file); \p st gives
/// C's offsets, \p step names the step on the pictures, \p s orders the grid picture (pictures.hpp).
using PicturesFn = void (*)(Options const& o, OperandStrides const& st, std::string const& step,
                            TileSchedule const& s);
/// \brief Write a step's own extra pictures into \p dir (the bank maps of steps with a swizzle, say).
using ExtraSvgFn = void (*)(Options const& o, std::string const& dir);

/// \brief One compiled configuration of a step's kernel. Everything here is derived from the step's own
/// config (its CuTe layouts, tiler and TiledMMA), so what is printed is what runs.
struct Variant {
  std::string name;            ///< "default" for the one the binary runs unless --variant says otherwise
  LaunchFn launch = nullptr;   ///< runs it
  TraceFn trace = nullptr;     ///< prints it
  OwnersFn owners = nullptr;   ///< who stores what, on the host
  PicturesFn pictures = nullptr;  ///< --svg and --html
  ExtraSvgFn extra_svg = nullptr;  ///< the step's own pictures for --svg, if any
  int threads = 0;             ///< the TiledMMA's threads, the range of --thread (from step 10 on, fewer than the CTA's)
  std::int64_t tile_m = 0;     ///< C tile rows (BLK_M): ⌈M/tile_m⌉ tiles down M
  std::int64_t tile_n = 0;     ///< C tile cols (BLK_N): ⌈N/tile_n⌉ tiles across N
  std::int64_t tile_k = 0;     ///< k-tile depth (BLK_K)
  TileSchedule schedule{};     ///< how the kernel's CTAs visit the tiles (a 2-D grid unless it says otherwise)
};

/// \brief The check that catches a planted bug (PlantedBug): what a learner runs to see it caught.
enum class Check {
  verification,  ///< the run itself: verification fails, exit 1
  owner_test,    ///< --owners: "FAIL: n of N entries not stored by the thread, CTA and tile the printout names"
  bank_model,    ///< the printout's bank-conflict model disagrees with Nsight Compute's counters
  memcheck,      ///< compute-sanitizer --tool memcheck reports errors
  racecheck,     ///< compute-sanitizer --tool racecheck reports hazards
  watchdog,      ///< the kernel never finishes: the watchdog's line, exit 3
  sass,          ///< no GPU check sees it: --sass (the SASS test) reports a class the bug took away
};

/// \brief The name of \p c as --list-bugs prints it ("verification", "racecheck", ...).
char const* check_name(Check c);

/// \brief One bug a learner can plant with --bug NAME: the step's kernel (or, in step 12, its launch)
/// compiled with it, a line or two different (its `Bug` template argument), and the check that catches it.
struct PlantedBug {
  int id = 0;                 ///< the value of the step's Bug template argument, in its kernel or launch (never 0: no bug)
  std::string name;           ///< --bug NAME
  std::string breaks;         ///< what it breaks, one line
  Check caught_by = Check::verification;  ///< the check that catches it
  std::string run;            ///< the flags of the run that shows the catch ("--m 128 --n 128 --k 40")
  std::string why;            ///< why that check and not another (one line, optional)
  LaunchFn launch = nullptr;  ///< the default variant's launch, with the bug compiled in
};

/// \brief What a step tells the harness about itself: what its add_tutorial_step() call registers
/// (Registration), then what its code says (tut::make_step builds one).
struct Step {
  /// \brief An empty step (the tests fill one in by hand).
  Step() = default;
  /// \brief The registered facts of \p r; the rest is the step code's to fill in.
  explicit Step(Registration const& r)
      : name(r.name), title(r.title), sizes(r.sizes), min_cc(r.min_cc), max_cc(r.max_cc), arch_why(r.arch_why),
        sizes_why(r.sizes_why), lifted_by(r.lifted_by), lifted_sizes(r.lifted_sizes), previous(r.previous) {}

  // ---- Registered (CMakeLists.txt) ----
  std::string name;                    ///< "step01_naive": the folder, the binary, the page
  std::string title;                   ///< one line for the banner and --help
  SizeRule sizes = SizeRule::any;      ///< which sizes it runs; multiple_of gives the numbers
  int min_cc = 0;                      ///< oldest compute capability the kernel runs on, e.g. 80
  int max_cc = 0;                      ///< newest compute capability the kernel runs on (0: any newer one)
  std::string arch_why;                ///< when max_cc is set: why, for the message
  std::string sizes_why;               ///< why the sizes are limited, for the message (optional)
  std::string lifted_by;               ///< the step that runs more sizes, if any
  std::string lifted_sizes = "any size";  ///< what lifted_by runs, for the message
  std::string previous;                ///< the step registered before this one ("" for the first)

  // ---- From the step's code ----
  DType in_type = DType::f32;          ///< type of A and B: the element type of the step's config
  Problem defaults;                    ///< default problem size
  Convention convention{};             ///< how A, B and C are laid out: the reference reads them this way
  /// \brief The strides the step's own layout functions give for \p p; the tests check that they are the
  /// convention's. Never used to verify.
  OperandStrides (*layout_strides)(Problem const& p) = nullptr;
  Problem multiple_of{1, 1, 1};        ///< the sizes the step runs: M, N, K multiples of these
  std::vector<Variant> variants;       ///< [0] is the default; every one is benchmarked and GPU-tested
  /// \brief The variant a run uses when --variant does not say, by problem size: an index into
  /// variants (step 14 picks its configuration so); nullptr: always variants[0].
  int (*choose)(Problem const& p) = nullptr;
  std::vector<PlantedBug> bugs;        ///< the bugs --bug plants into the default variant
  /// \brief --stress: the launch of the default variant built with the race amplifier (tut/stress.cuh),
  /// with bug id \p bug planted (0: none); nullptr: the step has no --stress.
  LaunchFn (*stress)(int bug) = nullptr;
  std::vector<SassClass> sass;         ///< the SASS instruction classes this step's idea brings (--sass)
};

/// \brief The bug --bug names; throws UsageError listing the names.
PlantedBug const& find_bug(Step const& s, std::string const& name);

/// \brief What --list-bugs prints: per bug, "NAME: caught by CHECK; run: FLAGS" and what it breaks.
std::string bug_list(Step const& s);

/// \brief The tiles of \p v for \p p, as (tile-rows ⌈M/tile_m⌉, tile-cols ⌈N/tile_n⌉).
TileCoord tiles_of(Variant const& v, Problem const& p);

/// \brief "" if \p multiple_of keeps \p rule (SIZES ANY: 1,1,1; ANY_MN: 1,1,k with k > 1;
/// TILE_MULTIPLES: more than 1 in M or N), else what is wrong.
std::string breaks_size_rule(SizeRule rule, Problem const& multiple_of);

/// \brief "" if \p s runs \p p (Step::multiple_of), else one line saying why not and which step does.
std::string unsupported(Step const& s, Problem const& p);

/// \brief The variant --variant names (the default for ""); throws UsageError listing the names.
Variant const& find_variant(Step const& s, std::string const& name);

/// \brief The variant a run of \p o uses: the one --variant names, else (unless --bug or --stress, which
/// run the default) the one Step::choose picks for o.problem, else the default.
Variant const& variant_for(Step const& s, Options const& o);

/// \brief Check \p o against \p s (sizes, element counts, variant, thread and tile ranges); throw UsageError.
void validate(Step const& s, Options const& o);

/// \brief Throw UsageError if A, B and C of \p p do not fit in \p dev's free memory.
void check_device_memory(Step const& s, Problem const& p, DeviceInfo const& dev);

/// \brief True when the environment sets TUT_REQUIRE_GPU to anything but "" or "0": then a run that
/// finds no usable GPU is an error (exit 3), not a skip (exit 77).
bool require_gpu();

/// \brief How a run of variant \p v of \p s on \p o's problem is verified: the tolerance of the step's input
/// type at the problem's K (default_rtol), the variant's CTA tile for the sampled entries, the run's seed.
VerifyConfig verify_config(Step const& s, Variant const& v, Options const& o);

/// \brief "" if \p s runs on a GPU of compute capability \p cc (major·10 + minor), else one line saying why not.
std::string unsupported_gpu(Step const& s, int cc);

/// \brief The whole program of a step binary. Returns the process exit code (see ExitCode).
int run_step(int argc, char** argv, Step const& s);

}  // namespace tut

/// \file cli.hpp
/// \brief The command line every step binary shares.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tut/problem.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief A fault the harness plants on purpose, to show that verification catches it (the tests use these).
enum class Fault {
  none,            ///< run as usual
  no_launch,       ///< launch nothing: C keeps its poison
  skip_one,        ///< launch, then poison C(M-1,N-1) again, as if the kernel had skipped it
  over_tolerance,  ///< launch, then add twice its allowed error to C(M-1,N-1)
  fixed_error,     ///< launch, then add kFixedFault·Σ|A(m,k)·B(n,k)| to C(M-1,N-1): a fault of fixed size
};

/// \brief The size of Fault::fixed_error, relative to the entry's Σ|products|: 2^-13. At K = 4096 the
/// fp32 steps' tolerance (1.5·10^-5) rejects it and the fp16 steps' (2^-11) accepts it, so a test that
/// plants it catches an fp32 step verified with the fp16 tolerance.
inline constexpr double kFixedFault = 1.0 / 8192;

/// \brief Parsed command-line options of a step binary.
struct Options {
  Problem problem;             ///< --m --n --k
  std::int64_t thread = 0;     ///< --thread T: the thread to trace
  TileCoord tile;              ///< --tile TM,TN: the C tile to trace (tile-row TM along M, tile-col TN along N)
  bool print_only = false;     ///< --print-only: print the partitions, run nothing, need no GPU
  bool quiet = false;          ///< --quiet: skip the partition printout (sections 2-4)
  std::uint64_t seed = 0;      ///< --seed S (default: a fresh one, printed)
  Init init = Init::random;    ///< --init random|ones
  int iters = 10;              ///< --iters N: timed launches after verification (0: no timing)
  std::string variant;         ///< --variant NAME: which compiled configuration ("" for the default)
  bool owners = false;         ///< --owners: check who stores each C entry instead of the sums
  Fault fault = Fault::none;   ///< --inject FAULT
  std::string svg_dir;         ///< --svg DIR: write the step's pictures there ("" for none)
  std::string html_file;       ///< --html FILE: write the C tile's ownership page there ("" for none)
  std::string bug;             ///< --bug NAME: run the default variant with that bug compiled in ("" for none)
  double timeout_s = 0;        ///< --timeout S: the watchdog's limit per launch (0: derived from the size)
  bool sass = false;           ///< --sass: count the step's SASS instruction classes, check them, run nothing
  bool stress = false;         ///< --stress: run the kernel built with the race amplifier (tut/stress.cuh)
};

/// \brief What the parser needs to know about the step it parses for.
struct CliSpec {
  char const* name = "";       ///< program name, e.g. "step01_naive"
  char const* title = "";      ///< one-line description for --help
  Problem defaults;            ///< default M, N, K
  std::vector<std::string> variants = {};  ///< names --variant accepts, the default first
  std::vector<std::string> bugs = {};      ///< names --bug accepts
  std::string bug_list = {};               ///< what --list-bugs prints
  bool stress = false;                     ///< the step has --stress (its help lists it)
};

/// \brief The outcome of parse_cli().
struct CliResult {
  bool exit_now = false;  ///< --help was printed: exit with \p code
  int code = 0;           ///< exit code when exit_now
  Options options;        ///< the options, when !exit_now
};

/// \brief Parse \p argv. --help prints the usage (exit_now, code 0). Malformed input — unknown flags,
/// non-numeric or out-of-range numbers, M/N/K < 1, a bad --tile — throws UsageError with one line.
/// Limits that depend on the step (tile multiples, thread and tile ranges) are checked by the harness.
CliResult parse_cli(int argc, char** argv, CliSpec const& spec);

}  // namespace tut

/// \file cli.hpp
/// \brief The command line every step binary shares.
#pragma once

#include <cstdint>
#include <string>

#include "tut/problem.hpp"

namespace tut {

/// \brief Parsed command-line options of a step binary.
struct Options {
  Problem problem;             ///< --m --n --k
  std::int64_t thread = 0;     ///< --thread T: the thread to trace
  std::int64_t block_x = 0;    ///< --block X,Y: the CTA to trace (X runs along M)
  std::int64_t block_y = 0;    ///< (Y runs along N)
  bool print_only = false;     ///< --print-only: print the partitions, run nothing, need no GPU
  bool quiet = false;          ///< --quiet: skip the partition printout (sections 2-4)
  std::uint64_t seed = 0;      ///< --seed S (default: a fresh one, printed)
  Init init = Init::random;    ///< --init random|ones
  int iters = 10;              ///< --iters N: timed launches after verification (0: no timing)
};

/// \brief What the parser needs to know about the step it parses for.
struct CliSpec {
  char const* name = "";       ///< program name, e.g. "step01_naive"
  char const* title = "";      ///< one-line description for --help
  Problem defaults;            ///< default M, N, K
};

/// \brief The outcome of parse_cli().
struct CliResult {
  bool exit_now = false;  ///< --help was printed: exit with \p code
  int code = 0;           ///< exit code when exit_now
  Options options;        ///< the options, when !exit_now
};

/// \brief Parse \p argv. --help prints the usage (exit_now, code 0). Malformed input — unknown flags,
/// non-numeric or out-of-range numbers, M/N/K < 1, a bad --block — throws UsageError with one line.
/// Limits that depend on the step (tile multiples, thread and block ranges) are checked by the harness.
CliResult parse_cli(int argc, char** argv, CliSpec const& spec);

}  // namespace tut

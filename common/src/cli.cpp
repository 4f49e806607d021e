// The command line of every step binary, on CLI11.
#include "tut/cli.hpp"

#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "tut/random.hpp"
#include "tut/status.hpp"

namespace tut {

namespace {

// "X,Y" -> two non-negative integers.
std::pair<std::int64_t, std::int64_t> parse_block(std::string const& s) {
  auto const comma = s.find(',');
  auto bad = [&] { return UsageError("--block expects X,Y (two non-negative integers), got '" + s + "'"); };
  if (comma == std::string::npos) throw bad();
  auto num = [&](std::string const& part) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9) throw bad();
    return std::int64_t(std::stoll(part));
  };
  return {num(s.substr(0, comma)), num(s.substr(comma + 1))};
}

}  // namespace

CliResult parse_cli(int argc, char** argv, CliSpec const& spec) {
  CLI::App app{std::string(spec.name) + ": " + spec.title, spec.name};
  app.get_formatter()->column_width(30);

  Options o;
  o.problem = spec.defaults;
  std::string block = "0,0";
  std::string init = "random";
  std::optional<std::uint64_t> seed;

  app.add_option("--m", o.problem.m, "rows of C and A (M)")->capture_default_str();
  app.add_option("--n", o.problem.n, "columns of C, rows of B (N)")->capture_default_str();
  app.add_option("--k", o.problem.k, "reduction extent (K)")->capture_default_str();
  app.add_option("--thread", o.thread, "thread of the traced CTA to print")->capture_default_str();
  app.add_option("--block", block, "CTA to trace, as X,Y (X along M, Y along N)")->capture_default_str();
  app.add_flag("--print-only", o.print_only, "print the layouts and partitions; run nothing (no GPU needed)");
  app.add_flag("--quiet", o.quiet, "skip the partition printout (sections 2-4)");
  app.add_option("--seed", seed, "seed of the random inputs (default: a fresh one, printed)");
  app.add_option("--init", init, "input values: random (uniform in [-1,1]) or ones")
      ->check(CLI::IsMember({"random", "ones"}))
      ->capture_default_str();
  app.add_option("--iters", o.iters, "timed launches after verification (0: no timing)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  app.footer(
      "Exit codes: 0 verified, 1 wrong result, 2 bad usage, 3 CUDA error, 77 no usable GPU.");

  try {
    app.parse(argc, argv);
  } catch (CLI::CallForHelp const&) {
    std::cout << app.help();
    return {true, kExitVerified, {}};
  } catch (CLI::ParseError const& e) {
    throw UsageError(e.what());
  }

  auto const& p = o.problem;
  if (p.m < 1 || p.n < 1 || p.k < 1)
    throw UsageError("M, N and K must be at least 1 (got M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) +
                     " K=" + std::to_string(p.k) + ")");
  if (o.thread < 0) throw UsageError("--thread must be at least 0 (got " + std::to_string(o.thread) + ")");
  auto const [bx, by] = parse_block(block);
  o.block_x = bx;
  o.block_y = by;
  o.init = init == "ones" ? Init::ones : Init::random;
  o.seed = seed ? *seed : fresh_seed();
  return {false, 0, o};
}

}  // namespace tut

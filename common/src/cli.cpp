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

// "TM,TN" -> two non-negative integers.
TileCoord parse_tile(std::string const& s) {
  auto const comma = s.find(',');
  auto bad = [&] { return UsageError("--tile expects TM,TN (two non-negative integers), got '" + s + "'"); };
  if (comma == std::string::npos) throw bad();
  auto num = [&](std::string const& part) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 9) throw bad();
    return std::stoi(part);
  };
  return {num(s.substr(0, comma)), num(s.substr(comma + 1))};
}

}  // namespace

CliResult parse_cli(int argc, char** argv, CliSpec const& spec) {
  CLI::App app{std::string(spec.name) + ": " + spec.title, spec.name};
  app.get_formatter()->column_width(30);

  Options o;
  o.problem = spec.defaults;
  std::string tile = "0,0";
  std::string block;
  std::string init = "random";
  std::optional<std::uint64_t> seed;

  app.add_option("--m", o.problem.m, "rows of C and A (M)")->capture_default_str();
  app.add_option("--n", o.problem.n, "columns of C, rows of B (N)")->capture_default_str();
  app.add_option("--k", o.problem.k, "reduction extent (K)")->capture_default_str();
  app.add_option("--tile", tile,
                 "C tile to trace, as TM,TN: tile-row TM (rows TM*BLK_M..) and tile-col TN (cols TN*BLK_N..); the "
                 "printout says which CTA computes it")
      ->type_name("TM,TN")
      ->capture_default_str();
  app.add_option("--thread", o.thread, "thread to trace, of the CTA that computes the traced tile")
      ->capture_default_str();
  // Retired: a CTA no longer names a tile (a 1-D or persistent grid numbers its CTAs otherwise).
  app.add_option("--block", block, "retired: use --tile TM,TN")->group("");
  app.add_flag("--print-only", o.print_only, "print the layouts and partitions; run nothing (no GPU needed)");
  app.add_flag("--quiet", o.quiet, "skip the partition printout (sections 2-4)");
  app.add_option("--seed", seed, "seed of the random inputs (default: a fresh one, printed)");
  app.add_option("--init", init, "input values: random (uniform in [-1,1]) or ones")
      ->check(CLI::IsMember({"random", "ones"}))
      ->capture_default_str();
  app.add_option("--iters", o.iters, "timed launches after verification (0: no timing)")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  std::string names;
  for (auto const& v : spec.variants) names += (names.empty() ? "" : ", ") + v;
  app.add_option("--variant", o.variant, "compiled configuration to run (default: the first): " + names)
      ->check(CLI::IsMember(spec.variants));
  app.add_option("--svg", o.svg_dir,
                 "write the pictures of the traced tile and thread (SVG) into DIR, created if missing, and list them")
      ->type_name("DIR")
      ->group("Pictures");
  app.add_option("--html", o.html_file,
                 "write one self-contained page of the traced tile: hover a cell, pick a thread for its partition")
      ->type_name("FILE")
      ->group("Pictures");
  bool list_variants = false;
  app.add_flag("--list-variants", list_variants, "print the names --variant accepts, one a line, and exit");
  std::string fault = "none";
  app.add_flag("--owners", o.owners,
               "run the owner epilogue: check that every C entry is stored by the thread, CTA and tile the "
               "printout names")
      ->group("Checks");
  app.add_option("--inject", fault,
                 "plant a fault that verification must catch (exit 1): no-launch, skip-one, over-tolerance; or "
                 "fixed-error, 2^-13 of the entry's sum of |products|, which only fp32 steps reject")
      ->check(CLI::IsMember({"none", "no-launch", "skip-one", "over-tolerance", "fixed-error"}))
      ->capture_default_str()
      ->group("Checks");
  if (!spec.bugs.empty()) {
    std::string bug_names;
    for (auto const& b : spec.bugs) bug_names += (bug_names.empty() ? "" : ", ") + b;
    app.add_option("--bug", o.bug,
                   "plant a bug a learner could write into the kernel (the default variant), and see which check "
                   "catches it: " + bug_names)
        ->check(CLI::IsMember(spec.bugs))
        ->group("Checks");
  }
  bool list_bugs = false;
  app.add_flag("--list-bugs", list_bugs, "print the bugs --bug plants, what each breaks and the check that catches it")
      ->group("Checks");
  app.add_flag("--sass", o.sass,
               "count the SASS instructions this step's idea brings (cuobjdump), beside the previous step's, and "
               "check them and that nothing spills; run nothing (no GPU needed)")
      ->group("Checks");
  // Every step parses --stress, so that one without it can say why (validate); only those with it list it.
  app.add_flag("--stress", o.stress,
               "run the kernel built with the race amplifier: the producer warpgroup's idle warps keep the SM's "
               "stores to L2 busy, so a TMA store still reading a buffer the threads write again is caught "
               "(the default variant; with --bug, the bug too)")
      ->group(spec.stress ? "Checks" : "");
  app.add_option("--timeout", o.timeout_s,
                 "the watchdog: seconds a launch may take before the run ends with one line and exit 3 "
                 "(default: 10x the time at 1 TFLOP/s, plus 5 s)")
      ->check(CLI::Range(0.0, 86400.0))
      ->type_name("S")
      ->group("Checks");
  app.footer(
      "Exit codes: 0 verified, 1 wrong result, 2 bad usage, 3 CUDA error or a kernel the watchdog gave up on,\n"
      "77 no usable GPU (3 instead of 77 when the environment sets TUT_REQUIRE_GPU=1).");

  try {
    app.parse(argc, argv);
  } catch (CLI::CallForHelp const&) {
    std::string help = app.help();
    if (help.empty() || help.back() != '\n') help += '\n';
    std::cout << help;
    return {true, kExitVerified, {}};
  } catch (CLI::ParseError const& e) {
    throw UsageError(e.what());
  }

  if (list_bugs) {
    std::cout << (spec.bug_list.empty() ? std::string("no bugs to plant in this step\n") : spec.bug_list);
    return {true, kExitVerified, {}};
  }
  if (list_variants) {
    for (auto const& v : spec.variants) std::cout << v << '\n';
    return {true, kExitVerified, {}};
  }
  auto const& p = o.problem;
  if (p.m < 1 || p.n < 1 || p.k < 1)
    throw UsageError("M, N and K must be at least 1 (got M=" + std::to_string(p.m) + " N=" + std::to_string(p.n) +
                     " K=" + std::to_string(p.k) + ")");
  if (o.thread < 0) throw UsageError("--thread must be at least 0 (got " + std::to_string(o.thread) + ")");
  if (app.count("--block") > 0)
    throw UsageError("--block is retired: pick the C tile to trace with --tile TM,TN; the printout says which CTA "
                     "computes it (in a 2-D grid, CTA (TM,TN))");
  o.tile = parse_tile(tile);
  o.init = init == "ones" ? Init::ones : Init::random;
  o.fault = fault == "no-launch"        ? Fault::no_launch
            : fault == "skip-one"       ? Fault::skip_one
            : fault == "over-tolerance" ? Fault::over_tolerance
            : fault == "fixed-error"    ? Fault::fixed_error
                                        : Fault::none;
  if (o.owners && o.fault != Fault::none) throw UsageError("--owners and --inject do not go together");
  if (!o.bug.empty() && o.fault != Fault::none) throw UsageError("--bug and --inject do not go together");
  if (!o.bug.empty() && !o.variant.empty() && !spec.variants.empty() && o.variant != spec.variants.front())
    throw UsageError("--bug plants its bug into the default variant (" + spec.variants.front() + "), not --variant " +
                     o.variant);
  o.seed = seed ? *seed : fresh_seed();
  return {false, 0, o};
}

}  // namespace tut

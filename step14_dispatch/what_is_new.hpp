/// \file step14_dispatch/what_is_new.hpp
/// \brief The helper of section 4 of step 14's printout, what only this step prints: the configuration
/// choose() picks for the problem, and why.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"

namespace step14 {

/// \brief What choose() weighs for problem \p p: each configuration's tiles, its busiest CTA's share and
/// its time per entry; the one it picks, and the one that runs, printed above (\p printed, by name: --variant,
/// --bug and --stress run another).
inline void print_choice(std::ostream& os, tut::Problem const& p, std::string const& printed) {
  using tut::str;
  os << "  The launch runs the configuration whose busiest CTA finishes first (choose(), config.hpp): a\n"
     << "  persistent kernel takes as long as that CTA, which computes ceil(tiles / " << Default::kCtas
     << ") tiles, ragged ones whole.\n\n";
  tut::print_row(os, {"config", "schedule", "tiles", "busiest CTA", "x time/entry", "= time", ""},
                 {9, 13, 18, 20, 14, 12, 0});
  int const chosen = choose(p);
  int const k_row = p.k % 64 == 0 ? 0 : 1;  // kTimePerEntry's row: 0 when K's rows are 128-byte aligned
  auto const milli = [](std::int64_t v) {  // 1250 -> "1.250"
    std::string const f = std::to_string(v % 1000);
    return std::to_string(v / 1000) + "." + std::string(3 - f.size(), '0') + f;
  };
  auto row = [&](auto cfg, int i) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler t;
    int const bm = size<0>(t), bn = size<1>(t);
    std::int64_t const tm = (p.m + bm - 1) / bm, tn = (p.n + bn - 1) / bn;
    std::int64_t const work = tut::busiest_cta_work(p.m, p.n, bm, bn, Cfg::kCtas);
    std::string const name = tut::config_name<Cfg>();
    std::int64_t const per_entry = kTimePerEntry[k_row][i];
    std::string const busiest = str(work / (bm * bn)) + (work == bm * bn ? " tile, " : " tiles, ") + str(work);
    std::string const mark = name == printed ? "<- runs" : i == chosen ? "<- choose()'s pick" : "";
    tut::print_row(os, {name, Cfg::kGroups == 2 ? "ping-pong" : "cooperative",
                        str(tm) + " x " + str(tn) + " = " + str(tm * tn), busiest, milli(per_entry),
                        str(work * per_entry / 1000), mark},
                   {9, 13, 18, 20, 14, 12, 0});
  };
  row(Default{}, 0);
  row(Pingpong{}, 1);
  row(Small{}, 2);
  os << "  (busiest CTA: its tiles, and their entries of C; time/entry: relative to " << tut::config_name<Default>()
     << "'s, measured, with K " << (k_row ? "not " : "") << "a multiple of 64.)\n\n";
}

}  // namespace step14

/// \file step12_tile_choice/what_is_new.hpp
/// \brief The helpers of section 4 of step 12's printout, what only this step prints: how choose()
/// weighed the two tiles.
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

namespace step12 {

using tut::plain;
using tut::print_item;
using tut::str;

/// \brief How choose() weighed the two configurations for this problem: each one's tiles, CTAs, and the work of
/// its busiest CTA.
inline void print_choice(std::ostream& os, tut::Options const& o) {
  std::int64_t const M = o.problem.m, N = o.problem.n;
  int const chosen = choose(M, N);
  os << "  Both configurations are step 11's kernel; only the CTA tile differs. The kernel takes as long as\n"
     << "  its busiest CTA, so choose() compares that CTA's work, ceil(tiles / 132) tiles of BLK_M x BLK_N:\n\n"
     << "    config   tiles          CTAs   busiest CTA             work (entries of C, x K)\n";
  auto row = [&](auto cfg, int index) {
    using C = decltype(cfg);
    int const bm = size<0>(typename C::CtaTiler{}), bn = size<1>(typename C::CtaTiler{});
    tut::TileCoord const t = tut::tile_counts(M, N, bm, bn);
    int const tiles = t.m * t.n, ctas = C::kSchedule.cta_count(t.m, t.n);
    int const most = (tiles + C::kCtas - 1) / C::kCtas;
    std::string cells[] = {tut::config_name<C>(), str(tiles) + " (" + str(t.m) + " x " + str(t.n) + ")", str(ctas),
                           str(most) + " tile" + (most == 1 ? "" : "s") + " of " + str(bm) + "x" + str(bn),
                           str(busiest_cta_work(M, N, bm, bn, C::kCtas)) + (index == chosen ? "   <- chosen" : "")};
    int const widths[] = {9, 15, 7, 24, 0};
    os << "    ";
    for (int c = 0; c < 5; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  };
  row(Default{}, 0);
  row(Small{}, 1);
  os << "\n  " << (chosen == 1 ? "128x128: its busiest CTA does less, since 128x256 tiles would leave CTAs idle."
                               : "128x256: no less work for the busiest CTA with 128x128 tiles (a tie goes to the\n"
                                 "  larger tile, which loads 48 KB per k-tile for twice the math of 128x128's 32 KB).")
     << "\n  --variant 128x256 or --variant 128x128 runs the other one.\n\n";
}

}  // namespace step12

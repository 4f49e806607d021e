/// \file step13_pingpong/what_is_new.hpp
/// \brief The helpers of section 4 of step 13's printout, what only this step prints: which warpgroup
/// takes which of the CTA's tiles, and the turns.
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

namespace step13 {

/// \brief The ping-pong: the traced CTA's tiles, which warpgroup takes each, where its k-tiles lie in the ring,
/// and the turn each waits for.
template <class Cfg>
void print_turns(std::ostream& os, tut::TracedTile const& traced, int K) {
  constexpr int S = Cfg::kStages;
  int const bk = size<2>(typename Cfg::CtaTiler{});
  int const k_tiles = (K + bk - 1) / bk;
  tut::TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, cta = traced.visitor.cta;
  int const visits = s.visits(cta, tm, tn);
  os << "  Each consumer warpgroup computes whole tiles of its own: warpgroup 0 the CTA's visits 0, 2, 4, ...,\n"
     << "  warpgroup 1 visits 1, 3, 5, ... The producer fills the ring with the visits' k-tiles in order, so\n"
     << "  visit v's k-tiles are the CTA's k-tiles v*" << k_tiles << " .. v*" << k_tiles << "+" << k_tiles - 1
     << ": k-tile p lands in stage p % " << S << ", on lap p / " << S << ".\n"
     << "  The warpgroups take turns: the one of visit v arrives on turn[(v+1) % 2] once its last k-tile has landed,\n"
     << "  and the one of visit v+1 waits on turn[(v+1) % 2] before its mainloop (turn_parity(v+1)). Then, while\n"
     << "  one multiplies, the other stores its tile; and no warpgroup waits for a k-tile more than a lap ahead.\n\n";
  os << "    visit  tile      warpgroup  k-tiles in the ring   first: stage, lap   before its mainloop\n";
  for (int v = 0; v < visits && v < 6; ++v) {
    tut::TileCoord const t = s.tile(cta, v, tm, tn);
    int const first = v * k_tiles;
    RingState<S> const r = RingState<S>::at(first);
    std::string cells[] = {tut::str(v), "(" + tut::str(t.m) + "," + tut::str(t.n) + ")", tut::str(v % 2),
                           tut::str(first) + ".." + tut::str(first + k_tiles - 1),
                           tut::str(r.index) + ", " + tut::str(first / S) + " (parity " +
                               tut::str(r.consumer_parity()) + ")",
                           v == 0 ? std::string("-")
                                  : "wait turn[" + tut::str(v % 2) + "], parity " + tut::str(turn_parity(v))};
    int const widths[] = {7, 10, 11, 22, 20, 0};
    os << "    ";
    for (int c = 0; c < 6; ++c) {
      os << cells[c];
      if (widths[c] > 0) os << std::string(std::size_t(std::max<int>(1, widths[c] - int(cells[c].size()))), ' ');
    }
    os << '\n';
  }
  if (visits > 6) os << "    ...\n";
  os << "  (CTA " << cta << ", " << visits << " visit" << (visits == 1 ? "" : "s")
     << (visits == 1 ? ": warpgroup 1 has no tile" : "") << ".)\n\n";
}

}  // namespace step13

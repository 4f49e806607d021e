/// \file tut/choice.hpp
/// \brief What the steps that choose their configuration at launch (Step::choose: steps 14 and 15) print
/// and draw of the choice: each configuration's tiles, its busiest CTA's share and its measured time per
/// entry, the one choose() picks (section 4); and the picture of the picks over M and N (host only).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/printout_sm90.hpp"
#include "tut/problem.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief "1.250" for 1250: a time per entry, in 1/1000.
std::string thousandths(std::int64_t v);

/// \brief The table of section 4: for each configuration of \p Variants (a std::tuple of Configs), its
/// schedule, its tiles for problem \p p and its busiest CTA's tiles and entries of C (under its own
/// schedule: in clusters, the tile-rows counted up to whole clusters), \p per_entry[i] (its time per entry) and their product. Marked:
/// the one that runs (\p printed, by name: --variant, --bug and --stress run another) and \p chosen,
/// choose()'s pick. \p note ends the table: what the times are relative to, and which row of them.
template <class Variants>
void print_choice(std::ostream& os, Problem const& p, std::string const& printed, int chosen,
                  std::int64_t const* per_entry, std::string const& note) {
  std::vector<std::vector<std::string>> rows;
  int ctas = 0, name_width = 9;
  auto row = [&](auto cfg, int i) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler t;
    int const bm = cute::size<0>(t), bn = cute::size<1>(t);
    std::int64_t const tm = Cfg::kSchedule.rows_of(int((p.m + bm - 1) / bm)), tn = (p.n + bn - 1) / bn;  // clusters: whole
    std::int64_t const work = busiest_cta_work(p.m, p.n, bm, bn, Cfg::kSchedule);
    std::string const name = config_name<Cfg>();
    std::string const busiest = str(work / (bm * bn)) + (work == bm * bn ? " tile, " : " tiles, ") + str(work);
    std::string const mark = name == printed ? "<- runs" : i == chosen ? "<- choose()'s pick" : "";
    rows.push_back({name, Cfg::kGroups == 2 ? "ping-pong" : "cooperative", str(tm) + " x " + str(tn) + " = " + str(tm * tn),
                    busiest, thousandths(per_entry[i]), str(work * per_entry[i] / 1000), mark});
    ctas = Cfg::kCtas;
    name_width = std::max(name_width, int(name.size()) + 2);
  };
  std::apply([&](auto... cfg) {
    int i = 0;
    (row(cfg, i++), ...);  // in Variants' order
  }, Variants{});
  os << "  The launch runs the configuration whose busiest CTA finishes first (choose(), config.hpp): a\n"
     << "  persistent kernel takes as long as that CTA, which computes ceil(tiles / " << ctas
     << ") tiles, ragged ones whole.\n\n";
  std::vector<int> const widths = {name_width, 13, 18, 20, 14, 12, 0};
  print_row(os, {"config", "schedule", "tiles", "busiest CTA", "x time/entry", "= time", ""}, widths);
  for (auto const& r : rows) print_row(os, r, widths);
  os << "  " << note << "\n\n";
}

/// \brief The table of section 4 for a choice by measured costs: for each configuration of \p Variants, its
/// schedule, its tiles for \p p, its busiest CTA's tiles and their k-tiles, \p costs[i] (the k-tile's scaled
/// by \p k_factor[i]) and predicted_ns. Marked: the one that runs (\p printed) and \p chosen. \p note ends it.
template <class Variants>
void print_cost_choice(std::ostream& os, Problem const& p, std::string const& printed, int chosen, Cost const* costs,
                       std::int64_t const* k_factor, std::string const& note) {
  std::vector<std::vector<std::string>> rows;
  int ctas = 0, name_width = 9;
  auto row = [&](auto cfg, int i) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler t;
    int const bm = cute::size<0>(t), bn = cute::size<1>(t), bk = cute::size<2>(t);
    std::int64_t const tm = Cfg::kSchedule.rows_of(int((p.m + bm - 1) / bm)), tn = (p.n + bn - 1) / bn;  // clusters: whole
    std::int64_t const tiles = busiest_cta_work(p.m, p.n, bm, bn, Cfg::kSchedule) / (bm * bn);
    std::int64_t const ns = predicted_ns(p.m, p.n, p.k, bm, bn, bk, Cfg::kSchedule, costs[i], k_factor[i]);
    std::string const name = config_name<Cfg>();
    std::string const mark = name == printed ? "<- runs" : i == chosen ? "<- choose()'s pick" : "";
    rows.push_back({name, Cfg::kGroups == 2 ? "ping-pong" : "cooperative", str(tm) + " x " + str(tn) + " = " + str(tm * tn),
                    str(tiles) + " x " + str((p.k + bk - 1) / bk),
                    str(costs[i].k_tile * k_factor[i] / 1000) + ", " + str(costs[i].tile) + ", " + str(costs[i].launch),
                    thousandths(ns) + " us", mark});
    ctas = Cfg::kCtas;
    name_width = std::max(name_width, int(name.size()) + 2);
  };
  std::apply([&](auto... cfg) {
    int i = 0;
    (row(cfg, i++), ...);  // in Variants' order
  }, Variants{});
  os << "  The launch runs the configuration whose busiest CTA finishes first (choose(), config.hpp): it\n"
     << "  computes ceil(tiles / " << ctas << ") tiles, and each costs its k-tiles' mainloop and what its\n"
     << "  epilogue adds; measured, in ns.\n\n";
  std::vector<int> const widths = {name_width, 13, 18, 18, 24, 14, 0};
  print_row(os, {"config", "schedule", "tiles", "tiles x k-tiles", "ns: k-tile, tile, once", "= time", ""}, widths);
  for (auto const& r : rows) print_row(os, r, widths);
  os << "  " << note << "\n\n";
}

/// \brief One configuration in the picture of the choice.
struct ChoiceKey {
  std::string mark;      ///< the letter in its cells
  std::string fill;      ///< their colour
  std::string name;      ///< config_name: "128x256"
  std::string schedule;  ///< "cooperative" or "ping-pong"
};

/// \brief The picture of the choice: \p choose's pick for M and N from 1024 to 8192 in steps of 1024 and
/// K = \p k, one cell each, marked and coloured by \p keys (one per configuration, in Variants' order),
/// written to \p file.
void write_choice_picture(std::string const& file, std::string const& title, std::string const& note, std::int64_t k,
                          std::function<int(Problem const&)> const& choose, std::vector<ChoiceKey> const& keys);

}  // namespace tut

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

/// \brief "1.250" for 1250: a value in 1/1000 (a time per entry; microseconds from nanoseconds).
std::string thousandths(std::int64_t v);

/// \brief What the tables of section 4 share: after \p intro(the CTAs of the schedules), one row per
/// configuration of \p Variants (a std::tuple of Configs), in their order: its name, its schedule and its
/// tiles for problem \p p (under its own schedule: in clusters, the tile-rows counted up to whole clusters);
/// then the cells \p weigh(cfg, i) returns, what the choice weighs, under \p header, \p widths wide; then a
/// mark: the one that runs (\p printed, by name: --variant, --bug and --stress run another), or \p chosen,
/// choose()'s pick. \p note ends the table.
template <class Variants, class Intro, class Weigh>
void print_choice_table(std::ostream& os, Problem const& p, std::string const& printed, int chosen, Intro&& intro,
                        std::vector<std::string> const& header, std::vector<int> const& widths, Weigh&& weigh,
                        std::string const& note) {
  std::vector<std::vector<std::string>> rows;
  int ctas = 0, name_width = 9;
  auto row = [&](auto cfg, int i) {
    using Cfg = decltype(cfg);
    typename Cfg::CtaTiler t;
    int const bm = cute::size<0>(t), bn = cute::size<1>(t);
    std::int64_t const tm = Cfg::kSchedule.rows_of(int((p.m + bm - 1) / bm)), tn = (p.n + bn - 1) / bn;  // clusters: whole
    std::string const name = config_name<Cfg>();
    std::vector<std::string> r = {name, Cfg::kGroups == 2 ? "ping-pong" : "cooperative",
                                  str(tm) + " x " + str(tn) + " = " + str(tm * tn)};
    for (std::string& cell : weigh(cfg, i)) r.push_back(std::move(cell));
    r.push_back(name == printed ? "<- runs" : i == chosen ? "<- choose()'s pick" : "");
    rows.push_back(std::move(r));
    ctas = Cfg::kCtas;
    name_width = std::max(name_width, int(name.size()) + 2);
  };
  std::apply([&](auto... cfg) {
    int i = 0;
    (row(cfg, i++), ...);  // in Variants' order
  }, Variants{});
  os << intro(ctas);
  std::vector<std::string> head = {"config", "schedule", "tiles"};
  std::vector<int> w = {name_width, 13, 18};
  head.insert(head.end(), header.begin(), header.end());
  w.insert(w.end(), widths.begin(), widths.end());
  head.push_back("");
  w.push_back(0);
  print_row(os, head, w);
  for (auto const& r : rows) print_row(os, r, w);
  os << "  " << note << "\n\n";
}

/// \brief The table of section 4 for a choice by work (step 14's): each configuration's busiest CTA's tiles
/// and entries of C, \p per_entry[i] (its time per entry) and their product. \p note: what the times are
/// relative to, and which row of them.
template <class Variants>
void print_choice(std::ostream& os, Problem const& p, std::string const& printed, int chosen,
                  std::int64_t const* per_entry, std::string const& note) {
  auto const intro = [](int ctas) {
    return "  The launch runs the configuration whose busiest CTA finishes first (choose(), config.hpp): a\n"
           "  persistent kernel takes as long as that CTA, which computes ceil(tiles / " + str(ctas) +
           ") tiles, ragged ones whole.\n\n";
  };
  auto const weigh = [&](auto cfg, int i) -> std::vector<std::string> {
    typename decltype(cfg)::CtaTiler t;
    int const bm = cute::size<0>(t), bn = cute::size<1>(t);
    std::int64_t const work = busiest_cta_work(p.m, p.n, bm, bn, decltype(cfg)::kSchedule);
    return {str(work / (bm * bn)) + (work == bm * bn ? " tile, " : " tiles, ") + str(work), thousandths(per_entry[i]),
            str(work * per_entry[i] / 1000)};
  };
  print_choice_table<Variants>(os, p, printed, chosen, intro, {"busiest CTA", "x time/entry", "= time"}, {20, 14, 12},
                               weigh, note);
}

/// \brief The table of section 4 for a choice by measured costs (step 15's): each configuration's busiest
/// CTA's tiles and their k-tiles, \p costs[i] (the k-tile's scaled by \p k_factor[i], and at the power
/// limit by \p power_factor[i] too), and predicted_ns in a burst and at the power limit, which choose()
/// adds up.
template <class Variants>
void print_cost_choice(std::ostream& os, Problem const& p, std::string const& printed, int chosen, Cost const* costs,
                       std::int64_t const* k_factor, std::int64_t const* power_factor, std::string const& note) {
  auto const intro = [](int ctas) {
    return "  The launch runs the configuration whose busiest CTA finishes first (choose(), config.hpp), in a\n"
           "  burst and at the power limit together: it computes ceil(tiles / " + str(ctas) + ") tiles, and each costs its\n"
           "  k-tiles' mainloop and what its epilogue adds; measured, in ns. At the power limit (700 W on an\n"
           "  H100) the clock falls, and a k-tile costs more: how much depends on the configuration.\n\n";
  };
  auto const us = [](std::int64_t ns) { return str((ns + 50) / 100 / 10) + "." + str((ns + 50) / 100 % 10); };
  auto const weigh = [&](auto cfg, int i) -> std::vector<std::string> {
    typename decltype(cfg)::CtaTiler t;
    int const bm = cute::size<0>(t), bn = cute::size<1>(t), bk = cute::size<2>(t);
    std::int64_t const tiles = busiest_cta_work(p.m, p.n, bm, bn, decltype(cfg)::kSchedule) / (bm * bn);
    std::int64_t const at_limit = k_factor[i] * power_factor[i] / 1000;  // choose()'s factor at the power limit
    std::int64_t const burst = predicted_ns(p.m, p.n, p.k, bm, bn, bk, decltype(cfg)::kSchedule, costs[i], k_factor[i]);
    std::int64_t const limit = predicted_ns(p.m, p.n, p.k, bm, bn, bk, decltype(cfg)::kSchedule, costs[i], at_limit);
    return {str(tiles) + " x " + str((p.k + bk - 1) / bk),
            str(costs[i].k_tile * k_factor[i] / 1000) + " (" + str(costs[i].k_tile * at_limit / 1000) + "), " +
                str(costs[i].tile) + ", " + str(costs[i].launch),
            us(burst) + " + " + us(limit) + " = " + us(burst + limit)};
  };
  print_choice_table<Variants>(os, p, printed, chosen, intro,
                               {"tiles x k-tiles", "ns: k-tile (limit), tile, once", "= us: burst + limit"}, {18, 32, 26},
                               weigh, note);
}

/// \brief The note under print_cost_choice's table where a k-tile's cost depends on how K's rows lie in L2
/// (steps 15 and 16): \p row 0, K a multiple of 64; 1, of 16 and not 64; 2, neither; and \p ragged, where
/// M or N leave a partial tile of a configuration whose k-tile then costs more (kRaggedFactor).
std::string k_tile_cost_note(int row, bool ragged);

/// \brief One configuration in the picture of the choice.
struct ChoiceKey {
  std::string mark;      ///< the letter in its cells
  std::string fill;      ///< their colour
  std::string name;      ///< config_name: "128x256"
  std::string schedule;  ///< "cooperative" or "ping-pong"
};

/// \brief The picture of the choice: \p choose's pick for M and N from 1024 to 8192 in steps of 1024 and
/// K = \p k, one cell each, marked and coloured by \p keys (one per index \p choose returns: in Variants'
/// order), written to \p file; the legend names the keys of the cells.
void write_choice_picture(std::string const& file, std::string const& title, std::string const& note, std::int64_t k,
                          std::function<int(Problem const&)> const& choose, std::vector<ChoiceKey> const& keys);

}  // namespace tut

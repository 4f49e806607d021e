/// \file pictures.hpp
/// \brief `--svg DIR` and `--html FILE`: every step's pictures, read off the same CuTe objects that run
/// (the CTA tiler, the TiledMMA and, where the step has shared memory, its copy partitions and smem
/// tiles: a SmemSide). Host only.
///
/// Files written into DIR: ownership.svg (the traced CTA's C tile, coloured by thread),
/// ownership_corner.svg (the same for the last tile, where the problem's edges cut it), thread.svg (the
/// traced thread's A, B and C elements), grid.svg (the CTA grid), copy_a.svg (the TiledCopy's TV grid,
/// for steps with one), mma.svg (a tensor-core TiledMMA's A, B and C as thread and value, laid out as CuTe's
/// print_svg draws them), plus what the step adds.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

#include "tut/banks.hpp"
#include "tut/cli.hpp"
#include "tut/format.hpp"
#include "tut/problem.hpp"
#include "tut/svg.hpp"
#include "tut/tile_schedule.hpp"

namespace tut {

/// \brief One tile the HTML page can show: who holds each cell, where the tile lies, and each thread's
/// own partition as text (computed here, by the binary; the page's script only looks it up).
struct PageView {
  std::string name;                    ///< the view's name in the page's menu: "C tile: partition_C"
  std::string what;                    ///< one sentence on what a cell's colour means
  svg::Cells cells;                    ///< (thread, value) per cell, row-major
  char row_name = 'm';                 ///< the row coordinate's name (the page's vertical axis)
  char col_name = 'n';                 ///< the column coordinate's name (the horizontal axis)
  std::int64_t first_row = 0;          ///< the coordinate of the tile's row 0
  std::int64_t first_col = 0;          ///< the coordinate of the tile's col 0
  std::int64_t stride_row = 0;         ///< a cell's offset is stride_row·row + stride_col·col (both 0: none)
  std::int64_t stride_col = 0;         ///< see stride_row
  std::vector<std::string> text;       ///< per thread (or bank): its partition, as the printout writes it
  std::string unit = "thread";         ///< what a cell's first number names: "thread", or "bank"
  std::string value = "value";         ///< what its second names: "value" (index), or "word" (smem word)
};

/// \brief The page of one step's traced tile: its views (the C tile first), and the thread selected when
/// the page opens without #thread=N.
struct ViewerPage {
  std::string step;                    ///< "step01_naive"
  std::string cta;                     ///< "CTA (0,0)"
  std::vector<PageView> views;         ///< the C tile's partition_C first, then the step's others
  int traced = 0;                      ///< the thread picked when the page opens
};

/// \brief The self-contained page (no network, no external script): a grid of the view's tile, with
/// its axes; hover for a cell's thread, value index, coordinates and offset; click or `#thread=N` to pick
/// a thread and show its own partition; a menu (or `#view=V`) for the step's other partitions.
std::string html_page(ViewerPage const& p);

/// \brief Create directory \p dir (and its parents) if missing; throws UsageError if it cannot.
void make_dir(std::string const& dir);
/// \brief Create the directory \p file lies in, if missing; throws UsageError if it cannot, or if \p file
/// is itself a directory.
void make_parent_dir(std::string const& file);

namespace detail {

// (thread, value) per cell of a rows × cols tile, for a partition of its identity tensor per thread. A
// cell several threads hold (an MMA's A or B, which warps side by side share) shows the lowest.
template <class PartitionOf>
svg::Cells cells_of(int rows, int cols, int threads, PartitionOf&& partition_of) {
  svg::Cells c;
  c.rows = rows;
  c.cols = cols;
  c.owner.assign(std::size_t(rows) * std::size_t(cols), {-1, -1});
  c.inside.assign(c.owner.size(), true);
  for (int t = 0; t < threads; ++t) {
    auto part = partition_of(t);  // (values...) -> (row, col) in the tile
    for (int v = 0; v < int(cute::size(part)); ++v) {
      auto const rc = part(v);
      auto& owner = c.owner[std::size_t(cute::get<0>(rc)) * std::size_t(cols) + std::size_t(cute::get<1>(rc))];
      if (owner.first < 0) owner = {t, v};
    }
  }
  return c;
}

}  // namespace detail

/// \brief Who holds each cell of CTA (\p bx,\p by)'s C tile through \p TiledMma's partition_C, and which
/// cells lie past the edges of an M×N problem.
template <class CtaTiler, class TiledMma>
svg::Cells c_cells(Problem const& p, std::int64_t bx, std::int64_t by) {
  using namespace cute;
  int const bm = size<0>(CtaTiler{}), bn = size<1>(CtaTiler{});
  TiledMma mma;
  Tensor cC = make_identity_tensor(make_shape(bm, bn));  // (BLK_M,BLK_N) -> (m,n) in the tile
  svg::Cells c = detail::cells_of(bm, bn, int(size(mma)), [&](int t) { return mma.get_slice(t).partition_C(cC); });
  for (int m = 0; m < bm; ++m)
    for (int n = 0; n < bn; ++n)
      c.inside[std::size_t(m) * std::size_t(bn) + std::size_t(n)] = bx * bm + m < p.m && by * bn + n < p.n;
  return c;
}

namespace detail {

// The 4-byte smem word of each (row, col) of an smem tile, row-major: \p SmemLayout is the tile's own
// layout, swizzle included, (mn,k) or (mn,k,stage) with stage 0 taken; its elements are \p Element; the
// buffer is 128-byte aligned (smem_idx 0 in bank 0), as the steps' SharedStorage is.
template <class SmemLayout, class Element>
std::vector<std::int64_t> smem_words() {
  SmemLayout const layout{};
  int const rows = int(cute::size<0>(layout)), cols = int(cute::size<1>(layout));
  std::vector<std::int64_t> words;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      std::int64_t idx = 0;
      if constexpr (decltype(cute::rank(layout))::value == 3)
        idx = std::int64_t(layout(r, c, 0));
      else
        idx = std::int64_t(layout(r, c));
      words.push_back(idx * std::int64_t(sizeof(Element)) / banks::kBankBytes);
    }
  return words;
}

}  // namespace detail

/// \brief A panel of an smem tile coloured by bank: each (row, col) of \p SmemLayout by the bank of the
/// word it lies in (detail::smem_words).
template <class SmemLayout, class Element>
svg::BankPanel bank_panel(std::string title, char row_name, char col_name) {
  SmemLayout const layout{};
  svg::BankPanel p{std::move(title), int(cute::size<0>(layout)), int(cute::size<1>(layout)), row_name, col_name, {}};
  for (std::int64_t w : detail::smem_words<SmemLayout, Element>()) p.bank.push_back(int(w % banks::kBanks));
  return p;
}

/// \brief The order in which \p s's CTAs visit \p tiles_m × \p tiles_n tiles, for the grid picture (empty
/// for a 2-D grid, where each tile is its own CTA).
svg::GridOrder grid_order(TileSchedule const& s, int tiles_m, int tiles_n);

/// \brief dir/tile_order.svg: the order in which a 1-D or persistent schedule \p s visits the 16 × 16 tiles
/// of \p blk_m × \p blk_n at (16·blk_m) × (16·blk_n): small enough to number, large enough for the groups
/// (steps 10-12).
inline void write_tile_order(std::string const& dir, TileSchedule const& s, int blk_m, int blk_n) {
  svg::write_file(dir + "/tile_order.svg", svg::grid_map(16 * std::int64_t(blk_m), 16 * std::int64_t(blk_n), blk_m,
                                                         blk_n, 0, 0, grid_order(s, 16, 16)));
}

/// \brief The shared-memory side of a step, for its pictures: the copy partitions of A and B (gmem -> smem)
/// and the smem tiles they write ((mn,k), or (mn,k,stage) with stage 0 shown), of \p Element_.
template <class TiledCopyA_, class TiledCopyB_, class SmemLayoutA_, class SmemLayoutB_, class Element_>
struct SmemSide {
  using TiledCopyA = TiledCopyA_;    ///< gmem -> smem copy of A
  using TiledCopyB = TiledCopyB_;    ///< gmem -> smem copy of B
  using SmemLayoutA = SmemLayoutA_;  ///< sA
  using SmemLayoutB = SmemLayoutB_;  ///< sB
  using Element = Element_;          ///< the type of A's and B's elements
};

/// \brief The SmemSide of a step's configuration \p Cfg (its TiledCopyA/B and SmemLayoutA/B).
template <class Cfg, class Element>
using SmemSideOf = SmemSide<typename Cfg::TiledCopyA, typename Cfg::TiledCopyB, typename Cfg::SmemLayoutA,
                            typename Cfg::SmemLayoutB, Element>;

namespace detail {

// A copy partition of one k-tile of an operand as a page view: who writes each element into smem.
template <class TiledCopy>
PageView copy_view(char op, int rows, int cols, char row_name, std::int64_t first_row) {
  using namespace cute;
  TiledCopy copy;
  Tensor c = make_identity_tensor(make_shape(rows, cols));  // (BLK_MN,BLK_K) -> (mn,k)
  PageView v{std::string(1, op) + " tile (one k-tile): the copy partition",
             "the thread whose copy (partition_D) writes the element into smem",
             cells_of(rows, cols, int(size(copy)), [&](int t) { return copy.get_slice(t).partition_D(c); }),
             row_name, 'k', first_row, 0, 0, 0, {}};
  for (int t = 0; t < int(size(copy)); ++t) {
    auto const [mns, ks] = rows_cols(coords_of(copy.get_slice(t).partition_D(c)));
    v.text.push_back("thread " + std::to_string(t) + "\ncopies  " + cute_str(shape(copy.get_slice(t).partition_D(c))) +
                     " elements of " + op + " (CPY,CPY_" + (op == 'A' ? "M" : "N") + ",CPY_K)\n" + op + " rows  " + mns +
                     " of the tile\nk       " + ks + " of the k-tile");
  }
  return v;
}

// An smem tile as a page view of banks: each element coloured by the bank its word lies in.
template <class SmemLayout, class Element>
PageView bank_view(char op, char row_name) {
  using namespace cute;
  SmemLayout const layout{};
  int const rows = int(size<0>(layout)), cols = int(size<1>(layout));
  std::vector<std::int64_t> const words = smem_words<SmemLayout, Element>();
  PageView v{std::string("s") + op + ": the bank of each element", "the smem bank its 4-byte word lies in",
             {}, row_name, 'k', 0, 0, 0, 0, {}, "bank", "word"};
  v.cells.rows = rows;
  v.cells.cols = cols;
  v.cells.inside.assign(std::size_t(rows) * std::size_t(cols), true);
  std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> of_bank(banks::kBanks);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      std::int64_t const w = words[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
      int const b = int(w % banks::kBanks);
      v.cells.owner.push_back({b, int(w)});
      of_bank[std::size_t(b)].push_back({r, c});
    }
  for (int b = 0; b < banks::kBanks; ++b) {
    auto const [rs, ks] = rows_cols(of_bank[std::size_t(b)]);
    v.text.push_back("bank " + std::to_string(b) + "\nholds   " + std::to_string(of_bank[std::size_t(b)].size()) +
                     " elements of s" + op + "\n" + row_name + "       " + rs + "\nk       " + ks);
  }
  return v;
}

}  // namespace detail

/// \brief Write the pictures of \p o's traced tile and thread into o.svg_dir, and the C tile's page into
/// o.html_file (each only if set). \p st: the operand strides (the step's convention), for C offsets;
/// \p schedule: how the CTAs visit the tiles, for the grid picture.
/// \p Smem: the step's SmemSide (its copy partitions and smem tiles), or void if it has none.
template <class CtaTiler, class TiledMma, class Smem>
void write_pictures(Options const& o, OperandStrides const& st, std::string const& step,
                    TileSchedule const& schedule) {
  using namespace cute;
  CtaTiler cta_tiler;
  TiledMma mma;
  Problem const& p = o.problem;
  int const bm = size<0>(cta_tiler), bn = size<1>(cta_tiler), bk = size<2>(cta_tiler);
  int const threads = int(size(mma)), T = int(o.thread);
  std::int64_t const tm = o.tile.m, tn = o.tile.n;
  std::string const cta = schedule.kind == Visit::grid_2d
                              ? "CTA (" + std::to_string(tm) + "," + std::to_string(tn) + ")"
                              : "tile (" + std::to_string(tm) + "," + std::to_string(tn) + ")";
  svg::Cells const cells = c_cells<CtaTiler, TiledMma>(p, tm, tn);

  if (!o.svg_dir.empty()) make_dir(o.svg_dir);
  if (!o.html_file.empty()) {
    make_parent_dir(o.html_file);
    ViewerPage page{step, cta, {}, T};
    // The C tile: each thread's tCgC as the printout writes it, where it starts, and its rows and cols.
    PageView c_view{"C tile: partition_C", "the thread whose partition_C holds the element (it computes and stores it)",
                    cells, 'm', 'n', tm * bm, tn * bn, st.c_m, st.c_n, {}};
    // C as the step lays it out: row-major with a static unit stride (its make_layout_C), which CuTe
    // keeps, so that tCgC reads exactly as the printout's; otherwise both strides as they are.
    auto c_text = [&](auto const& c_layout, int t) {
      Tensor mC = make_tensor(make_gmem_ptr(static_cast<float*>(nullptr)), c_layout);          // (M,N)
      Tensor gC = local_tile(mC, cta_tiler, make_coord(tm, tn, _), cute::Step<_1, _1, X>{});  // (BLK_M,BLK_N)
      return plain(mma.get_slice(t).partition_C(gC).layout());
    };
    auto tCgC_of = [&](int t) {
      return st.c_n == 1 ? c_text(make_layout(make_shape(p.m, p.n), make_stride(st.c_m, Int<1>{})), t)
                         : c_text(make_layout(make_shape(p.m, p.n), make_stride(st.c_m, st.c_n)), t);
    };
    Tensor cC = local_tile(make_identity_tensor(make_shape(p.m, p.n)), cta_tiler, make_coord(tm, tn, _),
                           cute::Step<_1, _1, X>{});  // (BLK_M,BLK_N) -> (m,n) in C
    for (int t = 0; t < threads; ++t) {
      auto const coords = coords_of(mma.get_slice(t).partition_C(cC));
      auto const [rows, cols] = rows_cols(coords);
      auto const [m0, n0] = coords.front();
      c_view.text.push_back("thread " + std::to_string(t) + "\ntCgC    " + tCgC_of(t) +
                            "   from C(" + std::to_string(m0) + "," + std::to_string(n0) + "), offset " +
                            std::to_string(m0 * st.c_m + n0 * st.c_n) + "\nC rows  " + rows + "\nC cols  " + cols);
    }
    page.views.push_back(std::move(c_view));
    if constexpr (!std::is_void_v<Smem>) {
      // One k-tile of A and of B: who copies each element; and the bank of each element of sA and sB.
      page.views.push_back(detail::copy_view<typename Smem::TiledCopyA>('A', bm, bk, 'm', tm * bm));
      page.views.push_back(detail::copy_view<typename Smem::TiledCopyB>('B', bn, bk, 'n', tn * bn));
      page.views.push_back(detail::bank_view<typename Smem::SmemLayoutA, typename Smem::Element>('A', 'm'));
      page.views.push_back(detail::bank_view<typename Smem::SmemLayoutB, typename Smem::Element>('B', 'n'));
    }
    svg::write_file(o.html_file, html_page(page));
  }
  if (o.svg_dir.empty()) return;
  std::string const dir = o.svg_dir + "/";

  svg::write_file(dir + "ownership.svg",
                  svg::ownership(cells, T, step + ": who stores each C entry of " + cta,
                                 'm', 'n', tm * bm, tn * bn));
  // The last tile, where the problem's edges cut it (and it is not the traced one): the cells past them.
  TileCoord const tiles = tile_counts(p.m, p.n, bm, bn);
  std::int64_t const lm = tiles.m - 1, ln = tiles.n - 1;
  if ((p.m % bm != 0 || p.n % bn != 0) && (lm != tm || ln != tn)) {
    std::string const corner = schedule.kind == Visit::grid_2d
                                   ? "CTA (" + std::to_string(lm) + "," + std::to_string(ln) + ")"
                                   : "tile (" + std::to_string(lm) + "," + std::to_string(ln) + ")";
    svg::write_file(dir + "ownership_corner.svg",
                    svg::ownership(c_cells<CtaTiler, TiledMma>(p, lm, ln), T,
                                   step + ": who stores each C entry of the corner " + corner, 'm', 'n', lm * bm,
                                   ln * bn));
  }

  // The traced thread's elements of one k-tile of A and B, and of the C tile (tile coordinates).
  auto thr = mma.get_slice(T);
  auto touched = [](auto const& part) {
    std::vector<std::pair<int, int>> v;
    for (int i = 0; i < int(size(part)); ++i) v.push_back({int(get<0>(part(i))), int(get<1>(part(i)))});
    return v;
  };
  std::vector<svg::Panel> panels{
      {"A (m,k)", bm, bk, touched(thr.partition_A(make_identity_tensor(make_shape(bm, bk)))), 'm', 'k'},
      {"B (n,k)", bn, bk, touched(thr.partition_B(make_identity_tensor(make_shape(bn, bk)))), 'n', 'k'},
      {"C (m,n)", bm, bn, touched(thr.partition_C(make_identity_tensor(make_shape(bm, bn)))), 'm', 'n'}};
  svg::write_file(dir + "thread.svg", svg::thread_panels(panels, svg::thread_color(T),
                                                         step + ": thread " + std::to_string(T) +
                                                             "'s partition_A, _B (one k-tile) and _C"));

  svg::write_file(dir + "grid.svg", svg::grid_map(p.m, p.n, bm, bn, tm, tn, grid_order(schedule, tiles.m, tiles.n)));

  if constexpr (!std::is_void_v<Smem>) {
    typename Smem::TiledCopyA copy_a;
    Tensor cA = make_identity_tensor(make_shape(Int<size<0>(CtaTiler{})>{}, Int<size<2>(CtaTiler{})>{}));  // (BLK_M,BLK_K)
    svg::Cells const copy_cells = detail::cells_of(bm, bk, int(size(copy_a)), [&](int t) {
      return copy_a.get_slice(t).partition_D(cA);
    });
    int const run = int(size<0>(copy_a.get_slice(0).partition_D(cA)));  // elements per copy instruction
    // Only the rows until the threads repeat (the values go on): the rest is the same picture again.
    std::vector<int> thread_of;
    for (auto const& [t, v] : copy_cells.owner) thread_of.push_back(t);
    int const period = svg::row_period(thread_of, bm, bk);
    svg::write_file(dir + "copy_a.svg",
                    svg::tv_grid(svg::first_rows(copy_cells, period), run,
                                 step + ": the copy partition of A (partition_D)" +
                                     (period < bm ? ", rows 0.." + std::to_string(period - 1) + " of " + std::to_string(bm) +
                                                        ": the threads repeat every " + std::to_string(period) + " rows"
                                                  : std::string()),
                                 'm', 'k'));
  }
  // A tensor-core TiledMMA's A, B and C as thread and value (for scalar FMAs it says nothing the ownership
  // map does not), in a window of one atom's M and K and two atoms' N: the other warps repeat it, with
  // their own threads. Not for an atom that reads A from smem (wgmma): its A layout gives every thread
  // the whole tile (thread stride 0).
  using AtomA = typename TiledMma::Atom::LayoutA_TV;
  if constexpr (decltype(size<0>(typename TiledMma::Atom::LayoutC_TV{}))::value > 1 &&
                !is_constant<0, decltype(stride<0>(AtomA{}))>::value) {
    using AtomShape = typename TiledMma::Atom::Shape_MNK;
    int const tm = int(tile_size<0>(mma)), tn = int(tile_size<1>(mma)), tk = int(tile_size<2>(mma));
    int const wm = std::min(tm, int(size<0>(AtomShape{}))), wn = std::min(tn, 2 * int(size<1>(AtomShape{}))),
              wk = std::min(tk, int(size<2>(AtomShape{})));
    int const threads = int(size(mma));
    svg::Cells const a = detail::cells_of(tm, tk, threads, [&](int t) {
      return mma.get_slice(t).partition_A(make_identity_tensor(make_shape(tm, tk)));
    });
    svg::Cells const b = detail::cells_of(tn, tk, threads, [&](int t) {
      return mma.get_slice(t).partition_B(make_identity_tensor(make_shape(tn, tk)));
    });
    svg::Cells const c = detail::cells_of(tm, tn, threads, [&](int t) {
      return mma.get_slice(t).partition_C(make_identity_tensor(make_shape(tm, tn)));
    });
    bool const whole = wm == tm && wn == tn && wk == tk;
    svg::write_file(dir + "mma.svg",
                    svg::mma_panels(svg::first_rows(a, wm, wk), svg::first_rows(b, wn, wk), svg::first_rows(c, wm, wn),
                                    step + ": the TiledMMA's A, B and C, each element's thread T and value V",
                                    whole ? "the whole " + std::to_string(tm) + "x" + std::to_string(tn) + "x" +
                                                std::to_string(tk) + " tile of the TiledMMA"
                                          : "m 0.." + std::to_string(wm - 1) + ", n 0.." + std::to_string(wn - 1) +
                                                ", k 0.." + std::to_string(wk - 1) + " of the TiledMMA's " +
                                                std::to_string(tm) + "x" + std::to_string(tn) + "x" +
                                                std::to_string(tk) + " tile: the other warps repeat the pattern with "
                                                "their own threads (ownership.svg shows where)"));
  }
}

}  // namespace tut

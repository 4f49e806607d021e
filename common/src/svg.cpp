// The SVG writer and the pictures every step draws (tut/svg.hpp).
#include "tut/svg.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <numeric>
#include <set>

#include "tut/status.hpp"

namespace tut::svg {

namespace {

// A number as SVG wants it: no exponent, at most 2 decimals, no trailing zeros.
std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

// One unit square per cell, as path commands: "M c r h1 v1 h-1 z" (x = col, y = row), runs of
// consecutive cells in a row merged into one rectangle.
std::string squares(std::vector<std::pair<int, int>> cells) {
  std::sort(cells.begin(), cells.end());
  std::string d;
  for (std::size_t i = 0; i < cells.size();) {
    std::size_t j = i + 1;
    while (j < cells.size() && cells[j].first == cells[i].first && cells[j].second == cells[j - 1].second + 1) ++j;
    int const len = int(j - i);
    d += "M" + std::to_string(cells[i].second) + " " + std::to_string(cells[i].first) + "h" + std::to_string(len) +
         "v1h-" + std::to_string(len) + "z";
    i = j;
  }
  return d;
}

constexpr char const* kFont = "font-family=\"DejaVu Sans Mono,monospace\"";

// The width a page shows a picture at without scaling it down (GitHub's Markdown body: 830 px): a
// picture drawn within it keeps every text at the size it was drawn.
constexpr double kPageWidth = 830;

// The width a line of monospace text of \p size needs.
double text_width(std::string const& s, double size) { return 0.62 * size * double(s.size()); }

// \p s in lines of at most \p width characters, broken at spaces: a note under a title that stays within
// the picture's width instead of setting it.
std::vector<std::string> wrap(std::string const& s, std::size_t width = 100) {
  std::vector<std::string> lines{""};
  std::size_t at = 0;
  while (at < s.size()) {
    std::size_t const space = s.find(' ', at);
    std::string const word = s.substr(at, space == std::string::npos ? std::string::npos : space - at);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) lines.emplace_back();
    lines.back() += (lines.back().empty() ? "" : " ") + word;
    at = space == std::string::npos ? s.size() : space + 1;
  }
  return lines;
}

// The note's lines under the title, from y = 34, 14 apart (a picture moves its top down by the extra lines).
void draw_note(Doc& d, double x, std::vector<std::string> const& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) d.text(x, 34 + 14 * double(i), lines[i], 10, "start", "#555");
}

// The width of the widest of \p lines at \p size.
double lines_width(std::vector<std::string> const& lines, double size) {
  double w = 0;
  for (auto const& l : lines) w = std::max(w, text_width(l, size));
  return w;
}

// \p s at \p size broken into lines that fit the page's width from \p x.
std::vector<std::string> heading_lines(double x, std::string const& s, double size) {
  return s.empty() ? std::vector<std::string>{} : wrap(s, std::size_t((kPageWidth - x - 16) / (0.62 * size)));
}

// The width the heading needs from the picture's left edge.
double heading_width(double x, std::string const& title, std::string const& note) {
  return x + 16 + std::max(lines_width(heading_lines(x, title, 13), 13), lines_width(heading_lines(x, note, 10), 10));
}

// How far below a one-line title and note (y 18 and 34) the heading's last line lies, once broken.
double heading_extra(double x, std::string const& title, std::string const& note) {
  return 16 * double(heading_lines(x, title, 13).size() - 1) +
         14 * double(std::max<std::size_t>(heading_lines(x, note, 10).size(), 1) - 1);
}

// A title (13) and a note under it (10), each broken into lines that fit the page's width from \p x.
void draw_heading(Doc& d, double x, std::string const& title, std::string const& note) {
  auto const title_lines = heading_lines(x, title, 13), note_lines = heading_lines(x, note, 10);
  double const extra_title = 16 * double(title_lines.size() - 1);
  for (std::size_t i = 0; i < title_lines.size(); ++i) d.text(x, 18 + 16 * double(i), title_lines[i], 13);
  for (std::size_t i = 0; i < note_lines.size(); ++i)
    d.text(x, 34 + extra_title + 14 * double(i), note_lines[i], 10, "start", "#555");
}

// Every how many cells of \p cell units a ruler number fits in \p room units: 1, 2, 4, 8, ...
int ruler_step(double cell, double room) {
  int step = 1;
  while (step * cell < room) step *= 2;
  return step;
}

}  // namespace

Doc::Doc(double width, double height) : width_(width), height_(height) {}

void Doc::rect(double x, double y, double w, double h, std::string const& fill, std::string const& stroke,
               double stroke_width, std::string const& title) {
  body_ << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(w) << "\" height=\"" << num(h)
        << "\" fill=\"" << fill << "\"";
  if (!stroke.empty()) body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << num(stroke_width) << "\"";
  if (title.empty())
    body_ << "/>\n";
  else
    body_ << "><title>" << escape(title) << "</title></rect>\n";
}

void Doc::text(double x, double y, std::string const& s, double size, std::string const& anchor,
               std::string const& fill) {
  body_ << "<text x=\"" << num(x) << "\" y=\"" << num(y) << "\" font-size=\"" << num(size) << "\" " << kFont
        << " text-anchor=\"" << anchor << "\" fill=\"" << fill << "\">" << escape(s) << "</text>\n";
}

void Doc::text_turned(double cx, double cy, std::string const& s, double size, bool down) {
  body_ << "<text x=\"" << num(cx) << "\" y=\"" << num(cy) << "\" font-size=\"" << num(size) << "\" " << kFont
        << " text-anchor=\"middle\" dominant-baseline=\"central\" fill=\"#000\"";
  if (down) body_ << " transform=\"rotate(90 " << num(cx) << " " << num(cy) << ")\"";
  body_ << ">" << escape(s) << "</text>\n";
}

void Doc::path(std::string const& d, std::string const& fill, std::string const& stroke, double stroke_width,
               std::string const& title) {
  body_ << "<path d=\"" << d << "\" fill=\"" << fill << "\"";
  if (!stroke.empty())
    body_ << " stroke=\"" << stroke << "\" stroke-width=\"" << num(stroke_width) << "\" stroke-linejoin=\"round\"";
  if (title.empty())
    body_ << "/>\n";
  else
    body_ << "><title>" << escape(title) << "</title></path>\n";
}

void Doc::begin_group(double dx, double dy, double scale) {
  body_ << "<g transform=\"translate(" << num(dx) << " " << num(dy) << ")"
        << (scale != 1 ? " scale(" + num(scale) + ")" : "") << "\">\n";
}

void Doc::end_group() { body_ << "</g>\n"; }

std::string Doc::str() const {
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width_) << "\" height=\"" << num(height_)
     << "\" viewBox=\"0 0 " << num(width_) << " " << num(height_) << "\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << body_.str() << "</svg>\n";
  return os.str();
}

std::string escape(std::string const& s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

int row_period(std::vector<int> const& key, int rows, int cols) {
  for (int p = 1; p < rows; ++p) {
    if (rows % p != 0) continue;
    bool repeats = true;
    for (std::size_t i = std::size_t(p) * std::size_t(cols); repeats && i < key.size(); ++i)
      repeats = key[i] == key[i - std::size_t(p) * std::size_t(cols)];
    if (repeats) return p;
  }
  return rows;
}

Cells first_rows(Cells const& c, int rows, int cols) {
  Cells out;
  out.rows = rows;
  out.cols = cols < 0 ? c.cols : cols;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < out.cols; ++k) {
      std::size_t const i = std::size_t(r) * std::size_t(c.cols) + std::size_t(k);
      out.owner.push_back(c.owner[i]);
      out.inside.push_back(c.inside[i]);
    }
  return out;
}

std::string thread_color(int t) {
  // Golden-angle hues: consecutive threads land far apart on the wheel; lightness in three bands so
  // that threads 2^k apart (same hue, nearly) still differ.
  double const hue = std::fmod(double(t) * 137.508, 360.0);
  int const light = 45 + 12 * (t % 3);
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%d,70%%,%d%%)", int(hue), light);
  return buf;
}

void write_file(std::string const& path, std::string const& content) {
  std::ofstream f(path, std::ios::binary);
  f << content;
  if (!f) throw UsageError("cannot write " + path);
}

std::string ownership(Cells const& c, int traced, std::string const& title, char row_name,
                      char col_name, std::int64_t first_row, std::int64_t first_col) {
  // Small tiles get big cells (a 16x8 tile is drawn 384 wide), large ones at least 2 units a cell.
  double const cell = std::max(2.0, std::min(24.0, 512.0 / std::max(c.rows, c.cols)));
  double const left = 56, top = 60;  // the title, the note, then the column numbers, each on its own line
  std::string const note = "each cell one element, coloured by the thread that owns it; thread " +
                           std::to_string(traced) + " outlined" +
                           (std::count(c.inside.begin(), c.inside.end(), false) ? "; pale: past the edge" : "");
  Doc d(std::max({left + c.cols * cell + 16, left + text_width(title, 13) + 16, left + text_width(note, 10) + 16}),
        top + c.rows * cell + 40);
  d.text(left, 18, title, 13);
  d.text(left, 34, note, 10, "start", "#555");
  std::map<int, std::vector<std::pair<int, int>>> by_thread;
  std::vector<std::pair<int, int>> outside;
  for (int r = 0; r < c.rows; ++r)
    for (int k = 0; k < c.cols; ++k) {
      std::size_t const i = std::size_t(r) * std::size_t(c.cols) + std::size_t(k);
      if (c.owner[i].first >= 0) by_thread[c.owner[i].first].push_back({r, k});
      if (!c.inside[i]) outside.push_back({r, k});
    }
  d.begin_group(left, top, cell);
  for (auto const& [t, cells] : by_thread) d.path(squares(cells), thread_color(t), "", 0, "thread " + std::to_string(t));
  if (!outside.empty()) d.path(squares(outside), "rgba(255,255,255,0.75)", "", 0, "past the edge: not stored");
  if (by_thread.count(traced)) d.path(squares(by_thread[traced]), "none", "black", 2.5 / cell);
  d.end_group();
  int const step = ruler_step(cell, 28);
  for (int k = 0; k < c.cols; k += step)
    d.text(left + (k + 0.5) * cell, top - 4, std::to_string(first_col + k), 9, "middle", "#555");
  int const rstep = ruler_step(cell, 14);
  for (int r = 0; r < c.rows; r += rstep)
    if ((r + 1) * cell >= 9)  // a row number clear of the column numbers above the tile
      d.text(left - 6, top + (r + 1) * cell, std::to_string(first_row + r), 9, "end", "#555");
  d.text(left + c.cols * cell / 2, top + c.rows * cell + 24, std::string(1, col_name) + " ->", 11, "middle");
  d.text(12, top + c.rows * cell / 2, std::string(1, row_name), 11, "start");
  return d.str();
}

std::string thread_panels(std::vector<Panel> const& panels, std::string const& color, std::string const& title) {
  int max_rows = 0, max_dim = 0;
  for (auto const& p : panels) {
    max_rows = std::max(max_rows, p.rows);
    max_dim = std::max({max_dim, p.rows, p.cols});
  }
  double const cell = std::max(2.0, std::min(8.0, 384.0 / max_dim));
  double const top = 56, gap = 40;
  double width = 24;
  for (auto const& p : panels) width += p.cols * cell + gap;
  Doc d(std::max(width, 24 + text_width(title, 13) + 16), top + max_rows * cell + 36);
  d.text(24, 20, title, 13);
  double x = 24;
  for (auto const& p : panels) {
    d.text(x, top - 10, p.title, 11);
    d.rect(x, top, p.cols * cell, p.rows * cell, "#eeeeee", "#bbbbbb", 0.5);
    d.begin_group(x, top, cell);
    d.path(squares(p.touched), color, "", 0, std::to_string(p.touched.size()) + " elements");
    d.end_group();
    d.text(x, top + p.rows * cell + 16,
           std::to_string(p.touched.size()) + " of " + std::to_string(p.rows) + "x" + std::to_string(p.cols), 9,
           "start", "#555");
    x += p.cols * cell + gap;
  }
  return d.str();
}

std::string tv_grid(Cells const& c, int run, std::string const& title, char row_name, char col_name) {
  // Cells of 12 units, so that a vector's thread label fits at 9; a tall grid folds into blocks of rows
  // side by side, as many as the page's width holds, so that the picture stays within it.
  double const left = 48, block_gap = 40, cell = std::min(12.0, (kPageWidth - left - 16) / c.cols);
  double const block_w = c.cols * cell + block_gap;
  int const blocks_across = std::max(1, int((kPageWidth - left - 16 + block_gap) / block_w));
  int const rows_per_block = c.rows * cell > 640 ? std::max(1, (c.rows + blocks_across - 1) / blocks_across) : c.rows;
  int const blocks = (c.rows + rows_per_block - 1) / rows_per_block;
  std::string const note = "coloured by thread; each " + std::to_string(run) +
                           "-element vector (one copy instruction) outlined and labelled with its thread";
  double const top = 60 + heading_extra(left, title, note);
  Doc d(std::max(left + blocks * block_w - block_gap + 16, heading_width(left, title, note)),
        top + rows_per_block * cell + 40);
  draw_heading(d, left, title, note);
  auto at = [&](int r, int k) { return c.owner[std::size_t(r) * std::size_t(c.cols) + std::size_t(k)]; };
  // Where cell (r, k) is drawn: its block's column of the picture, and its row within the block.
  auto x_of = [&](int r, double k) { return left + (r / rows_per_block) * block_w + k * cell; };
  auto y_of = [&](double r) { return top + std::fmod(r, double(rows_per_block)) * cell; };
  std::map<int, std::vector<std::pair<int, int>>> by_thread;
  // Each vector: (thread, first value) -> its cells.
  std::map<std::pair<int, int>, std::vector<std::pair<int, int>>> vectors;
  for (int r = 0; r < c.rows; ++r)
    for (int k = 0; k < c.cols; ++k) {
      auto const [t, v] = at(r, k);
      if (t < 0) continue;
      by_thread[t].push_back({r, k});
      vectors[{t, v - v % run}].push_back({r, k});
    }
  for (int b = 0; b < blocks; ++b) {
    d.begin_group(left + b * block_w, top, cell);
    for (auto const& [t, cells] : by_thread) {
      std::vector<std::pair<int, int>> mine;
      for (auto const& [r, k] : cells)
        if (r / rows_per_block == b) mine.push_back({r - b * rows_per_block, k});
      if (!mine.empty()) d.path(squares(mine), thread_color(t), "", 0, "thread " + std::to_string(t));
    }
    d.end_group();
  }
  for (auto const& [tv, cells] : vectors) {
    // The vector's extent; its label runs along it, at 9 where it fits (down a column: turned), else
    // none: the colour says it.
    int r0 = c.rows, r1 = -1, k0 = c.cols, k1 = -1;
    for (auto const& [r, k] : cells) r0 = std::min(r0, r), r1 = std::max(r1, r), k0 = std::min(k0, k), k1 = std::max(k1, k);
    if (r0 / rows_per_block != r1 / rows_per_block) continue;  // split between two blocks: no label
    double const x = x_of(r0, k0), y = y_of(r0), w = (k1 - k0 + 1) * cell, h = (r1 - r0 + 1) * cell;
    d.rect(x, y, w, h, "none", "#fff", 0.8);
    std::string const label = "T" + std::to_string(tv.first);
    bool const down = h > w;
    double const along = down ? h : w, across = down ? w : h;
    if (0.8 * across < 9 || 0.9 * along < text_width(label, 9)) continue;
    d.text_turned(x + w / 2, y + h / 2, label, 9, down);
  }
  for (int b = 0; b < blocks; ++b) {
    double const x0 = left + b * block_w;
    for (int r = b * rows_per_block; r < std::min(c.rows, (b + 1) * rows_per_block); r += ruler_step(cell, 14))
      d.text(x0 - 6, y_of(r) + cell, std::to_string(r), 9, "end", "#555");
    for (int k = 0; k < c.cols; k += ruler_step(cell, 24))
      d.text(x0 + (k + 0.5) * cell, top - 4, std::to_string(k), 9, "middle", "#555");
    d.text(x0 + c.cols * cell / 2, top + rows_per_block * cell + 24, std::string(1, col_name) + " ->", 11, "middle");
  }
  d.text(12, top + rows_per_block * cell / 2, std::string(1, row_name), 11, "start");
  return d.str();
}

std::string mma_panels(Cells const& a, Cells const& b, Cells const& c, std::string const& title, std::string const& note) {
  // Cells of 24 units: "T127" over "V15" at 9 in each.
  double const cell = 24, gap = 10, x0 = 28;
  auto const note_lines = wrap(note);
  double const top = 70 + 14 * double(note_lines.size() - 1);
  double const xc = x0 + a.cols * cell + gap, yc = top + b.cols * cell + gap;  // C's corner; B is drawn k down
  Doc d(std::max({xc + c.cols * cell + 8, 12 + text_width(title, 13) + 16, 12 + lines_width(note_lines, 10) + 16}),
        yc + c.rows * cell + 28);
  d.text(12, 18, title, 13);
  draw_note(d, 12, note_lines);
  auto cell_at = [&](double x, double y, std::pair<int, int> tv) {
    if (tv.first < 0) return;
    d.rect(x, y, cell, cell, thread_color(tv.first), "#fff", 0.8,
           "thread " + std::to_string(tv.first) + ", value " + std::to_string(tv.second));
    d.text(x + cell / 2, y + 10, "T" + std::to_string(tv.first), 9, "middle");
    d.text(x + cell / 2, y + 21, "V" + std::to_string(tv.second), 9, "middle");
  };
  auto owner = [](Cells const& g, int r, int k) { return g.owner[std::size_t(r) * std::size_t(g.cols) + std::size_t(k)]; };
  for (int m = 0; m < a.rows; ++m)
    for (int k = 0; k < a.cols; ++k) cell_at(x0 + k * cell, yc + m * cell, owner(a, m, k));
  for (int n = 0; n < b.rows; ++n)
    for (int k = 0; k < b.cols; ++k) cell_at(xc + n * cell, top + k * cell, owner(b, n, k));
  for (int m = 0; m < c.rows; ++m)
    for (int n = 0; n < c.cols; ++n) cell_at(xc + n * cell, yc + m * cell, owner(c, m, n));
  d.text(x0, yc - 8, "A (m down, k across)", 11);
  d.text(x0, top + 12, "B (n across,", 11);
  d.text(x0, top + 28, "k down)", 11);
  d.text(xc, yc + c.rows * cell + 18, "C (m down, n across)", 11);
  return d.str();
}

std::string grid_map(std::int64_t M, std::int64_t N, int blk_m, int blk_n, std::int64_t tm, std::int64_t tn,
                     GridOrder const& order) {
  std::int64_t const gx = (M + blk_m - 1) / blk_m, gy = (N + blk_n - 1) / blk_n;
  bool const numbered = !order.cta_of_tile.empty();
  // At most 64x64 cells: beyond that one cell stands for a group of tiles, as the text map groups them.
  constexpr std::int64_t kMaxCells = 64;
  std::int64_t const per_x = (gx + kMaxCells - 1) / kMaxCells, per_y = (gy + kMaxCells - 1) / kMaxCells;
  int const rows = int((gx + per_x - 1) / per_x), cols = int((gy + per_y - 1) / per_y);
  double const cell = std::max(6.0, std::min(40.0, 480.0 / std::max(rows, cols)));
  bool const labels = numbered && per_x * per_y == 1 && cell >= 16;  // room for a CTA number in each cell
  double const left = 48, top = numbered ? 72 : 56;
  std::string const title = (numbered ? "The tiles: " : "The grid: ") + std::to_string(gx) + "x" + std::to_string(gy) +
                            (numbered ? " tiles of " : " CTAs of ") + std::to_string(blk_m) + "x" +
                            std::to_string(blk_n) + " for C " + std::to_string(M) + "x" + std::to_string(N);
  std::string const group = per_x * per_y > 1 ? "; one cell per " + std::to_string(per_x) + "x" +
                                                    std::to_string(per_y) + (numbered ? " tiles" : " CTAs")
                                              : std::string();
  std::string const note =
      numbered ? std::string(labels ? "number: the CTA (blockIdx.x); colour: " : "colour and line: ") +
                     "the order the CTAs start in, light first; traced tile outlined" + group
               : "blue whole, orange cut by M, green cut by N, red both; traced CTA outlined" + group;
  Doc d(std::max({left + cols * cell + 24, left + text_width(title, 13) + 16, left + text_width(note, 10) + 16,
                  left + text_width(order.words, 10) + 16}),
        top + rows * cell + 40);
  d.text(left, 18, title, 13);
  d.text(left, 34, note, 10, "start", "#555");
  if (numbered) d.text(left, 50, order.words, 10, "start", "#555");
  bool const ragged_m = M % blk_m != 0, ragged_n = N % blk_n != 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      std::int64_t const m = r * per_x, n = c * per_y;  // the cell's first tile
      std::string fill, tip;
      if (numbered) {
        int const rank = order.rank_of_tile[std::size_t(m * gy + n)];
        double const f = order.ranks > 1 ? double(rank) / double(order.ranks - 1) : 0.0;
        int const shade = int(235 - 150 * f);  // light blue first, dark blue last
        fill = "rgb(" + std::to_string(shade - 60 < 0 ? 0 : shade - 60) + "," + std::to_string(shade - 20) + ",255)";
        tip = "tile (" + std::to_string(m) + "," + std::to_string(n) + "): CTA " +
              std::to_string(order.cta_of_tile[std::size_t(m * gy + n)]);
      } else {
        bool const cut_m = ragged_m && r == rows - 1, cut_n = ragged_n && c == cols - 1;  // the last group: the cut CTAs
        fill = cut_m && cut_n ? "#e57373" : cut_m ? "#ffb74d" : cut_n ? "#81c784" : "#64b5f6";
        tip = "CTAs (" + std::to_string(m) + ".., " + std::to_string(n) + "..): rows " + std::to_string(m * blk_m) +
              ".., cols " + std::to_string(n * blk_n) + "..";
      }
      d.rect(left + c * cell, top + r * cell, cell, cell, fill, "white", 1, tip);
      if (labels) {
        int const rank = order.rank_of_tile[std::size_t(m * gy + n)];
        d.text(left + (c + 0.5) * cell, top + (r + 0.68) * cell, std::to_string(order.cta_of_tile[std::size_t(m * gy + n)]),
               cell >= 28 ? 10 : 8, "middle", 2 * rank > order.ranks ? "white" : "#222");
      }
    }
  if (numbered && per_x * per_y == 1 && !labels) {
    // Where the cells are too small for numbers: the visiting order as one line through the tiles' centres, from the first CTA's tile to the last.
    std::vector<std::pair<int, std::int64_t>> by_rank;  // (rank, tile)
    for (std::int64_t i = 0; i < gx * gy; ++i) by_rank.push_back({order.rank_of_tile[std::size_t(i)], i});
    std::sort(by_rank.begin(), by_rank.end());
    std::string path;
    for (auto const& [rank, i] : by_rank)
      path += (path.empty() ? "M" : " L") + num(left + (double(i % gy) + 0.5) * cell) + " " +
              num(top + (double(i / gy) + 0.5) * cell);
    d.path(path, "none", "rgba(0,0,0,0.45)", 1.2, "the order the CTAs start in");
  }
  d.rect(left + double(tn / per_y) * cell, top + double(tm / per_x) * cell, cell, cell, "none", "black", 2.5);
  d.text(left + cols * cell / 2, top + rows * cell + 24, numbered ? "tile-col (N) ->" : "blockIdx.y (N) ->", 11,
         "middle");
  d.text(8, top - 8, numbered ? "tile-row (M)" : "blockIdx.x (M)", 10, "start");
  return d.str();
}

std::string bank_maps(std::string const& title, banks::WarpAccess const& unswizzled, banks::WarpAccess const& swizzled) {
  double const box = 22, left = 96, top = 56;
  Doc d(left + 32 * box + 24, top + 2 * (3 * box + 24) + 16);  // wide enough for the notes below
  d.text(12, 20, title, 13);
  d.text(12, 36, "per lane: the bank of its first word; colour: how many different words that bank serves in the lane's phase",
         10, "start", "#555");
  auto draw = [&](banks::WarpAccess const& w, std::string const& label, double y) {
    int const per_phase = banks::lanes_per_phase(w.bytes);
    std::vector<int> degree(banks::kWarp, 1);
    for (int first = 0; first < banks::kWarp; first += per_phase) {
      std::map<int, std::set<std::int64_t>> words;
      for (int l = first; l < first + per_phase; ++l)
        if (w.addr[l] != banks::kIdle)
          for (int b = 0; b < w.bytes; b += banks::kBankBytes) words[banks::bank_of(w.addr[l] + b)].insert((w.addr[l] + b) / 4);
      for (int l = first; l < first + per_phase; ++l)
        if (w.addr[l] != banks::kIdle) degree[l] = int(words[banks::bank_of(w.addr[l])].size());
    }
    banks::Wavefronts const f = banks::wavefronts(w);
    d.text(12, y + box * 0.7, label, 11);
    d.text(12, y + box * 1.7, std::to_string(f.needed) + " wavefronts", 10, "start", "#555");
    d.text(12, y + box * 2.5, "ideal " + std::to_string(f.ideal), 10, "start", "#555");
    for (int l = 0; l < banks::kWarp; ++l) {
      double const x = left + l * box;
      d.text(x + box / 2, y - 4, std::to_string(l), 9, "middle", "#777");
      if (w.addr[l] == banks::kIdle) {
        d.rect(x, y, box, box, "#f5f5f5", "#ccc", 0.5, "lane " + std::to_string(l) + ": idle");
        continue;
      }
      std::string const fill = degree[l] == 1 ? "#a5d6a7" : degree[l] == 2 ? "#fff176" : "#ef9a9a";
      d.rect(x, y, box, box, fill, "#888", 0.5,
             "lane " + std::to_string(l) + ": byte " + std::to_string(w.addr[l]) + ", bank " +
                 std::to_string(banks::bank_of(w.addr[l])) + ", " + std::to_string(degree[l]) + "-way");
      d.text(x + box / 2, y + box * 0.68, std::to_string(banks::bank_of(w.addr[l])), 10, "middle");
      if (per_phase < banks::kWarp && l % per_phase == 0 && l > 0) d.rect(x - 1, y - 2, 2, box + 4, "black");
    }
  };
  draw(unswizzled, "unswizzled", top);
  draw(swizzled, "swizzled", top + 3 * box + 24);
  return d.str();
}

std::string timeline(std::string const& title, std::string const& note, std::vector<std::string> const& rows,
                     std::vector<std::string> const& cols, std::vector<Bar> const& bars,
                     std::vector<std::pair<std::string, std::string>> const& key) {
  double label_w = 0, col_w = 64;
  for (auto const& r : rows) label_w = std::max(label_w, text_width(r, 11));
  for (auto const& c : cols) col_w = std::max(col_w, text_width(c, 10) + 8);
  for (auto const& b : bars) col_w = std::max(col_w, text_width(b.label, 10) / double(b.to - b.from) + 8);
  double const left = 16 + label_w + 12, row_h = 30, band_gap = 34;
  // A timeline wider than a page folds into bands of columns, one under the other, each with its own
  // column heads and row names: every text keeps its size where the page shows the picture.
  int const per_band = std::max(1, int((kPageWidth - left - 16) / col_w));
  int const ncols = int(cols.size()), bands = (ncols + per_band - 1) / per_band;
  double const first_top = 70 + heading_extra(12, title, note), band_h = double(rows.size()) * row_h;
  auto band_top = [&](int band) { return first_top + double(band) * (band_h + band_gap); };
  double const bottom = band_top(bands - 1) + band_h;
  double key_width = 0;
  for (auto const& k : key) key_width = std::max(key_width, text_width(k.second, 10) + 40);
  std::size_t const key_cols = std::size_t(std::clamp(int((kPageWidth - 12) / std::max(key_width, 1.0)), 1, 3));
  Doc d(std::max({left + double(std::min(ncols, per_band)) * col_w + 16, heading_width(12, title, note),
                  12 + double(std::min(key_cols, key.size())) * key_width}),
        bottom + 24 + 20 * double((key.size() + key_cols - 1) / key_cols));
  draw_heading(d, 12, title, note);
  for (int band = 0; band < bands; ++band) {
    int const c0 = band * per_band, c1 = std::min(ncols, c0 + per_band);
    double const top = band_top(band);
    for (int c = c0; c < c1; ++c) {
      double const x = left + double(c - c0) * col_w;
      d.rect(x, top, col_w, band_h, c % 2 ? "#fafafa" : "#f0f0f0");
      d.text(x + col_w / 2, top - 8, cols[std::size_t(c)], 10, "middle", "#333");
    }
    for (std::size_t r = 0; r < rows.size(); ++r)
      d.text(left - 12, top + (double(r) + 0.65) * row_h, rows[r], 11, "end");
    for (auto const& b : bars) {
      // The part of the bar in this band; its label where it fits (the colour and the key say the rest).
      int const from = std::max(b.from, c0), to = std::min(b.to, c1);
      if (from >= to) continue;
      double const x = left + (from - c0) * col_w + 2, y = top + b.row * row_h + 4, w = (to - from) * col_w - 4;
      d.rect(x, y, w, row_h - 8, b.fill, "#555", 0.5, b.tip.empty() ? b.label : b.tip);
      if (text_width(b.label, 10) <= w - 2) d.text(x + w / 2, y + (row_h - 8) * 0.7, b.label, 10, "middle");
    }
  }
  for (std::size_t i = 0; i < key.size(); ++i) {
    double const x = 12 + double(i % key_cols) * key_width, y = bottom + 16 + 20 * double(i / key_cols);
    d.rect(x, y, 14, 14, key[i].first, "#555", 0.5);
    d.text(x + 20, y + 11, key[i].second, 10, "start", "#333");
  }
  return d.str();
}

std::string ldmatrix_lanes(std::string const& title, std::string const& note, std::vector<LaneRow> const& rows,
                           int chunk, char row_name) {
  int mn0 = INT_MAX, k0 = INT_MAX, mn1 = 0, k1 = 0;
  for (auto const& r : rows) mn0 = std::min(mn0, r.mn), k0 = std::min(k0, r.k), mn1 = std::max(mn1, r.mn), k1 = std::max(k1, r.k);
  int const n_rows = mn1 - mn0 + 1, n_chunks = (k1 - k0) / chunk + 1;
  auto const note_lines = wrap(note);
  double const seg_w = 170, row_h = 22, left = 64, top = 76 + 14 * double(note_lines.size() - 1);
  Doc d(std::max({left + n_chunks * seg_w + 24, left + 4 * 180, 12 + text_width(title, 13) + 16,
                  12 + lines_width(note_lines, 10) + 16}),
        top + n_rows * row_h + 40);
  d.text(12, 18, title, 13);
  draw_note(d, 12, note_lines);
  static char const* const kMatrix[] = {"#90caf9", "#a5d6a7", "#ffcc80", "#ce93d8"};
  for (int c = 0; c < n_chunks; ++c)
    d.text(left + (c + 0.5) * seg_w, top - 8,
           "k " + std::to_string(k0 + c * chunk) + ".." + std::to_string(k0 + c * chunk + chunk - 1), 10, "middle", "#333");
  for (auto const& r : rows) {
    double const x = left + double((r.k - k0) / chunk) * seg_w, y = top + double(r.mn - mn0) * row_h;
    int const bank = banks::bank_of(r.byte);
    d.rect(x + 1, y + 1, seg_w - 2, row_h - 2, kMatrix[r.matrix % 4], "#555", 0.5,
           "lane " + std::to_string(r.lane) + ": " + row_name + "=" + std::to_string(r.mn) + ", byte " +
               std::to_string(r.byte) + ", banks " + std::to_string(bank) + ".." + std::to_string(bank + 3));
    d.text(x + 8, y + row_h * 0.68, "lane " + std::to_string(r.lane), 10, "start");
    d.text(x + seg_w - 8, y + row_h * 0.68, "banks " + std::to_string(bank) + "-" + std::to_string(bank + 3), 9, "end", "#333");
  }
  for (int m = 0; m < n_rows; ++m)
    d.text(left - 8, top + (m + 0.68) * row_h, std::string(1, row_name) + "=" + std::to_string(mn0 + m), 10, "end", "#555");
  for (int j = 0; j < 4; ++j) {
    d.rect(left + j * 180, top + n_rows * row_h + 14, 14, 14, kMatrix[j], "#555", 0.5);
    d.text(left + j * 180 + 20, top + n_rows * row_h + 25, "matrix " + std::to_string(j) + " (lanes " +
           std::to_string(8 * j) + ".." + std::to_string(8 * j + 7) + ")", 9, "start", "#333");
  }
  return d.str();
}

std::string tma_boxes(std::string const& title, std::string const& note, std::int64_t M, std::int64_t K,
                      int box_m, int box_k, std::int64_t tile_m, int stages) {
  std::int64_t const k_tiles = (K + box_k - 1) / box_k, tiles_m = (M + box_m - 1) / box_m;
  std::int64_t const rows_shown = tiles_m * box_m;  // the last tile-row's boxes may pass M
  double const sx = std::min(1.5, (kPageWidth - 80) / double(k_tiles * box_k)), sy = std::min(1.5, 420.0 / double(rows_shown));
  auto const note_lines = wrap(note);
  double const left = 56, top = 64 + 14 * double(note_lines.size() - 1);
  double const w = double(K) * sx, h = double(M) * sy;
  Doc d(std::max({left + double(k_tiles * box_k) * sx + 24, 12 + text_width(title, 13) + 16, 12 + lines_width(note_lines, 10) + 16}),
        top + double(rows_shown) * sy + 56);
  d.text(12, 18, title, 13);
  draw_note(d, 12, note_lines);
  d.rect(left, top, w, h, "#eeeeee", "#888", 1, "A: " + std::to_string(M) + " x " + std::to_string(K));
  static char const* const kStage[] = {"#90caf9", "#a5d6a7", "#ffcc80", "#ce93d8", "#ef9a9a", "#80deea"};
  for (std::int64_t row = 0; row < tiles_m; ++row) {
    bool const traced = row == tile_m;
    for (std::int64_t t = 0; t < k_tiles; ++t) {
      double const x = left + double(t * box_k) * sx, y = top + double(row * box_m) * sy;
      int const stage = int(t % stages);
      d.rect(x, y, box_k * sx, box_m * sy, traced ? kStage[stage % 6] : "#fafafa", traced ? "#333" : "#bbb",
             traced ? 1.5 : 0.5,
             "tile-row " + std::to_string(row) + ", k-tile " + std::to_string(t) + ": one TMA box of " +
                 std::to_string(box_k) + " x " + std::to_string(box_m) + " halves (k x m) into stage " + std::to_string(stage));
      d.text(x + box_k * sx / 2, y + box_m * sy / 2 - 2, "k-tile " + std::to_string(t), 9, "middle", traced ? "#000" : "#999");
      d.text(x + box_k * sx / 2, y + box_m * sy / 2 + 10, "stage " + std::to_string(stage), 9, "middle", traced ? "#333" : "#aaa");
    }
    d.text(left - 6, top + double(row * box_m) * sy + 10, std::to_string(row * box_m), 9, "end", traced ? "#000" : "#777");
  }
  if (rows_shown > M) {  // the last tile-row's box rows past the matrix: the TMA writes zeros there
    double const y = top + double(M) * sy, hh = double(rows_shown - M) * sy;
    d.rect(left, y, double(k_tiles * box_k) * sx, hh, "rgba(255,255,255,0.6)", "#c62828", 1,
           "rows " + std::to_string(M) + ".." + std::to_string(rows_shown - 1) + ": past A, filled with zeros");
    d.text(left + 4, y + hh - 4, "rows " + std::to_string(M) + ".." + std::to_string(rows_shown - 1) +
           " lie past A: the TMA writes zeros there, and reads nothing", 9, "start", "#c62828");
  }
  for (std::int64_t t = 0; t <= k_tiles; t += std::max<std::int64_t>(1, k_tiles / 8))
    d.text(left + double(t * box_k) * sx, top - 6, std::to_string(t * box_k), 9, "middle", "#555");
  d.text(left + w / 2, top + double(rows_shown) * sy + 20, "k ->", 11, "middle");
  d.text(left - 6, top + h, std::to_string(M), 9, "end", "#c62828");
  d.text(12, top + h / 2, "m", 11);
  return d.str();
}

std::string bank_color(int b) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "hsl(%d,70%%,%d%%)", (b * 360) / banks::kBanks, b % 2 ? 40 : 62);
  return buf;
}

std::string bank_tiles(std::string const& title, std::string const& note, std::vector<BankPanel> const& all) {
  // Only the rows until every panel's banks repeat (the rest of each tile is the same picture again),
  // the same rows for each, so that they can be compared.
  int period = 1;
  for (auto const& p : all) period = std::lcm(period, row_period(p.bank, p.rows, p.cols));
  std::vector<BankPanel> panels = all;
  std::string shown;
  for (auto& p : panels)
    if (period < p.rows) {
      shown = "; rows 0.." + std::to_string(period - 1) + " of " + std::to_string(p.rows) + ", where the banks repeat";
      p.rows = period;
      p.bank.resize(std::size_t(period) * std::size_t(p.cols));
    }
  int max_rows = 0, cols = 0;
  for (auto const& p : panels) max_rows = std::max(max_rows, p.rows), cols += p.cols;
  double const cell = std::max(3.0, std::min(12.0, 640.0 / std::max(max_rows, cols)));
  auto const note_lines = wrap(note + shown);
  double const left = 40, top = 74 + 14 * double(note_lines.size() - 1), gap = 36, key_box = 16;
  // A panel is as wide as its cells or its title, whichever is wider, so that no two titles meet.
  auto panel_w = [&](BankPanel const& p) { return std::max(p.cols * cell, text_width(p.title, 11)); };
  double width = left;
  for (auto const& p : panels) width += panel_w(p) + gap;
  Doc d(std::max({width, left + banks::kBanks * key_box + 16, 12 + text_width(title, 13) + 16, 12 + lines_width(note_lines, 10) + 16}),
        top + max_rows * cell + 40 + 2 * key_box);
  d.text(12, 18, title, 13);
  draw_note(d, 12, note_lines);
  double x = left;
  for (auto const& p : panels) {
    d.text(x, top - 20, p.title, 11);
    d.text(x, top - 6, std::string(1, p.col_name) + " ->", 9, "start", "#555");
    std::vector<std::vector<std::pair<int, int>>> by_bank(banks::kBanks);
    for (int r = 0; r < p.rows; ++r)
      for (int c = 0; c < p.cols; ++c) by_bank[std::size_t(p.bank[std::size_t(r) * std::size_t(p.cols) + std::size_t(c)])].push_back({r, c});
    d.begin_group(x, top, cell);
    for (int b = 0; b < banks::kBanks; ++b)
      if (!by_bank[std::size_t(b)].empty()) d.path(squares(by_bank[std::size_t(b)]), bank_color(b), "", 0, "bank " + std::to_string(b));
    d.end_group();
    d.rect(x, top, p.cols * cell, p.rows * cell, "none", "#888", 0.5);
    for (int r = 0; r < p.rows; r += ruler_step(cell, 14))
      d.text(x - 4, top + (r + 1) * cell, std::to_string(r), 9, "end", "#555");
    x += panel_w(p) + gap;
  }
  d.text(12, top + max_rows * cell / 2, std::string(1, panels.empty() ? 'm' : panels.front().row_name), 11);
  double const ky = top + max_rows * cell + 20;
  d.text(left, ky - 4, "banks:", 9, "start", "#555");
  for (int b = 0; b < banks::kBanks; ++b) {
    d.rect(left + b * key_box, ky, key_box, key_box, bank_color(b), "white", 0.5, "bank " + std::to_string(b));
    d.text(left + (b + 0.5) * key_box, ky + key_box * 0.7, std::to_string(b), 9, "middle", b % 2 ? "#fff" : "#000");
  }
  return d.str();
}

}  // namespace tut::svg

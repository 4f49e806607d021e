// The non-template half of --svg and --html (tut/pictures.hpp): the HTML page, file plumbing.
#include "tut/pictures.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

#include "tut/status.hpp"

namespace tut {

namespace {

std::string json_string(std::string const& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The page's script: it only reads the embedded data D (never recomputes a partition), builds one div per
// cell, shows a cell's data on hover, and highlights the picked thread's cells (class "hl").
constexpr char const* kScript = R"JS(
const grid = document.getElementById("grid"), info = document.getElementById("info");
const picked = document.getElementById("picked"), layout = document.getElementById("layout");
grid.style.gridTemplateColumns = "repeat(" + D.cols + ", 6px)";
const cells = [];
for (let i = 0; i < D.rows * D.cols; ++i) {
  const c = document.createElement("div");
  const t = D.owner[2 * i];
  c.className = D.inside[i] === "1" ? "c" : "c out";
  c.dataset.i = i;
  if (t >= 0) c.style.background = D.colors[t];
  grid.appendChild(c);
  cells.push(c);
}
function describe(i) {
  const t = D.owner[2 * i], v = D.owner[2 * i + 1];
  const m = D.first_m + Math.floor(i / D.cols), n = D.first_n + i % D.cols;
  const where = D.inside[i] === "1" ? "offset " + (m * D.c_m + n * D.c_n) : "past the edge: not stored";
  return "(m,n) = (" + m + "," + n + ")   thread " + t + "   value " + v + "   " + where;
}
function pick(t) {
  if (!(t >= 0 && t < D.threads)) return;
  for (let i = 0; i < cells.length; ++i) cells[i].classList.toggle("hl", D.owner[2 * i] === t);
  grid.classList.add("picking");
  picked.textContent = "thread " + t;
  layout.textContent = "tCgC = " + D.tCgC[t];
  if (location.hash !== "#thread=" + t) history.replaceState(null, "", "#thread=" + t);
}
grid.addEventListener("mouseover", e => { if (e.target.dataset.i) info.textContent = describe(+e.target.dataset.i); });
grid.addEventListener("click", e => { if (e.target.dataset.i) pick(D.owner[2 * +e.target.dataset.i]); });
function pick_from_hash() {
  const h = /^#thread=(\d+)$/.exec(location.hash);
  pick(h ? +h[1] : D.traced);
}
window.addEventListener("hashchange", pick_from_hash);
pick_from_hash();
)JS";

}  // namespace

std::string html_page(CTilePage const& p) {
  svg::Cells const& c = p.cells;
  int threads = 0;
  for (auto const& [t, v] : c.owner) threads = std::max(threads, t + 1);
  std::ostringstream data;
  data << "const D = {\"step\": " << json_string(p.step) << ", \"rows\": " << c.rows << ", \"cols\": " << c.cols
       << ", \"threads\": " << threads << ", \"traced\": " << p.traced << ", \"first_m\": " << p.first_m
       << ", \"first_n\": " << p.first_n << ", \"c_m\": " << p.c_m << ", \"c_n\": " << p.c_n << ",\n\"owner\": [";
  for (std::size_t i = 0; i < c.owner.size(); ++i)
    data << (i ? "," : "") << (i % 32 == 0 ? "\n" : "") << c.owner[i].first << "," << c.owner[i].second;
  data << "],\n\"inside\": \"";
  for (bool in : c.inside) data << (in ? '1' : '0');
  data << "\",\n\"colors\": [";
  for (int t = 0; t < threads; ++t) data << (t ? "," : "") << (t % 8 == 0 ? "\n" : "") << json_string(svg::thread_color(t));
  data << "],\n\"tCgC\": [";
  for (std::size_t t = 0; t < p.tCgC.size(); ++t) data << (t ? ",\n" : "\n") << json_string(p.tCgC[t]);
  data << "]};\n";

  std::string const title = p.step + ": who stores each C entry of " + p.cta;
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << svg::escape(title)
     << "</title>\n<style>\n"
     << "body { font-family: sans-serif; margin: 16px; color: #222; }\n"
     << "#grid { display: grid; width: max-content; border: 1px solid #999; cursor: crosshair; }\n"
     << ".c { width: 6px; height: 6px; }\n"
     << ".c.out { opacity: 0.25; }\n"
     << ".c.hl { outline: 1px solid #000; position: relative; z-index: 1; }\n"
     << "#grid.picking .c:not(.hl) { opacity: 0.35; }\n"
     << "#info, #layout, #picked { font-family: monospace; margin: 4px 0; min-height: 1.2em; }\n"
     << "</style>\n</head>\n<body>\n<h1>" << svg::escape(title) << "</h1>\n"
     << "<p>Each cell is one element of the " << c.rows << "x" << c.cols
     << " C tile, coloured by the thread whose partition_C holds it. Hover a cell for its thread, value index, "
        "(m,n) and offset in C; click one (or open the page with <code>#thread=N</code>) to pick its thread. "
        "The data is the step binary's own partition, written by <code>--html</code>.</p>\n"
     << "<div id=\"picked\"></div>\n<div id=\"layout\"></div>\n<div id=\"info\">hover a cell</div>\n"
     << "<div id=\"grid\"></div>\n<script>\n"
     << data.str() << kScript << "</script>\n</body>\n</html>\n";
  return os.str();
}

void printf_to_file(std::string const& path, void (*draw)()) {
  // Point file descriptor 1 at the file for the duration of draw(), then put the terminal back.
  std::fflush(stdout);
  int const saved = dup(STDOUT_FILENO);
  int const fd = saved < 0 ? -1 : ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) {
    if (saved >= 0) close(saved);
    throw UsageError("cannot write " + path);
  }
  dup2(fd, STDOUT_FILENO);
  close(fd);
  draw();
  std::fflush(stdout);
  dup2(saved, STDOUT_FILENO);
  close(saved);
}

void make_dir(std::string const& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir)) throw UsageError("cannot create directory " + dir);
}

void make_parent_dir(std::string const& file) {
  if (std::filesystem::is_directory(file)) throw UsageError(file + " is a directory, not a file to write");
  auto const parent = std::filesystem::path(file).parent_path();
  if (!parent.empty()) make_dir(parent.string());
}

svg::GridOrder grid_order(TileSchedule const& s, int tiles_m, int tiles_n) {
  svg::GridOrder g;
  if (s.kind == Visit::grid_2d) return g;
  std::size_t const tiles = std::size_t(tiles_m) * std::size_t(tiles_n);
  g.cta_of_tile.assign(tiles, -1);
  g.rank_of_tile.assign(tiles, -1);
  int const ctas = s.cta_count(tiles_m, tiles_n);
  for (int cta = 0; cta < ctas; ++cta)
    for (int j = 0; j < s.visits(cta, tiles_m, tiles_n); ++j) {
      TileCoord const t = s.tile(cta, j, tiles_m, tiles_n);
      std::size_t const i = std::size_t(t.m) * std::size_t(tiles_n) + std::size_t(t.n);
      g.cta_of_tile[i] = cta;
      g.rank_of_tile[i] = j * ctas + cta;  // CTAs start in order of their numbers, every visit after the last
    }
  g.ranks = int(tiles);
  std::string const groups = "groups of " + std::to_string(s.group_m) + " tile-rows, down each column of a group";
  g.words = s.kind == Visit::raster_1d
                ? "1-D grid, one CTA per tile, in raster order: " + groups
                : "persistent: " + std::to_string(ctas) + " CTAs; CTA c takes raster tiles c, c+" + std::to_string(ctas) +
                      ", ... (" + groups + ")";
  return g;
}

}  // namespace tut

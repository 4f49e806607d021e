// The non-template half of --svg and --html (tut/pictures.hpp): the HTML page, file plumbing.
#include "tut/pictures.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <system_error>

#include "tut/status.hpp"

namespace tut {

namespace {

std::string json_string(std::string const& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The page's script: it only reads the embedded data D (never recomputes a partition). It builds one div
// per cell of the chosen view, rulers along both axes, shows a cell's data on hover, and highlights the
// picked thread's cells (class "hl") and shows that thread's own partition text.
constexpr char const* kScript = R"JS(
const grid = document.getElementById("grid"), info = document.getElementById("info");
const picked = document.getElementById("picked"), layout = document.getElementById("layout");
const menu = document.getElementById("view"), what = document.getElementById("what");
const top_ruler = document.getElementById("top"), left_ruler = document.getElementById("left");
const corner = document.getElementById("corner");
let V = null, cells = [], thread = D.traced;
D.views.forEach((v, i) => { const o = document.createElement("option"); o.value = i; o.textContent = v.name; menu.appendChild(o); });
function ruler(box, count, px, first, vertical) {
  box.textContent = "";
  const every = Math.max(1, Math.pow(2, Math.ceil(Math.log2(Math.max(1, 28 / px)))));
  for (let i = 0; i < count; i += every) {
    const s = document.createElement("span");
    s.textContent = first + i;
    s.style[vertical ? "top" : "left"] = (i * px) + "px";
    box.appendChild(s);
  }
  box.style[vertical ? "height" : "width"] = (count * px) + "px";
}
function show(vi) {
  V = D.views[vi];
  menu.value = vi;
  what.textContent = "Colour: " + V.what + ".";
  const px = Math.max(6, Math.min(24, Math.floor(768 / Math.max(V.rows, V.cols))));
  grid.style.gridTemplateColumns = "repeat(" + V.cols + ", " + px + "px)";
  grid.textContent = "";
  cells = [];
  for (let i = 0; i < V.rows * V.cols; ++i) {
    const c = document.createElement("div");
    const t = V.owner[2 * i];
    c.className = V.inside[i] === "1" ? "c" : "c out";
    c.dataset.i = i;
    c.style.width = c.style.height = px + "px";
    if (t >= 0) c.style.background = D.colors[t % D.colors.length];
    grid.appendChild(c);
    cells.push(c);
  }
  ruler(top_ruler, V.cols, px, V.first_col, false);
  ruler(left_ruler, V.rows, px, V.first_row, true);
  corner.textContent = V.row_name + " \u2193  " + V.col_name + " \u2192";
  pick(Math.min(thread, V.text.length - 1));
}
function describe(i) {
  const t = V.owner[2 * i], v = V.owner[2 * i + 1];
  const r = V.first_row + Math.floor(i / V.cols), c = V.first_col + i % V.cols;
  const at = "(" + V.row_name + "," + V.col_name + ") = (" + r + "," + c + ")";
  const where = V.inside[i] !== "1" ? "past the edge: not stored"
              : V.stride_row || V.stride_col ? "offset " + (r * V.stride_row + c * V.stride_col) : "";
  return at + "   " + V.unit + " " + t + "   " + V.value + " " + v + "   " + where;
}
function pick(t) {
  if (!(t >= 0 && t < V.text.length)) return;
  thread = t;
  for (let i = 0; i < cells.length; ++i) cells[i].classList.toggle("hl", V.owner[2 * i] === t);
  grid.classList.add("picking");
  picked.textContent = V.unit + " " + t;
  layout.textContent = V.text[t];
  const hash = "#thread=" + t + (menu.value !== "0" ? "&view=" + menu.value : "");
  if (location.hash !== hash) history.replaceState(null, "", hash);
}
grid.addEventListener("mouseover", e => { if (e.target.dataset.i) info.textContent = describe(+e.target.dataset.i); });
grid.addEventListener("click", e => { if (e.target.dataset.i) pick(V.owner[2 * +e.target.dataset.i]); });
menu.addEventListener("change", () => show(+menu.value));
function from_hash() {
  const t = /thread=(\d+)/.exec(location.hash), v = /view=(\d+)/.exec(location.hash);
  thread = t ? +t[1] : D.traced;
  show(v && +v[1] < D.views.length ? +v[1] : 0);
}
window.addEventListener("hashchange", from_hash);
from_hash();
)JS";

void view_json(std::ostream& data, PageView const& v) {
  svg::Cells const& c = v.cells;
  data << "{\"name\": " << json_string(v.name) << ", \"what\": " << json_string(v.what) << ", \"rows\": " << c.rows
       << ", \"cols\": " << c.cols << ", \"first_row\": " << v.first_row << ", \"first_col\": " << v.first_col
       << ", \"row_name\": \"" << v.row_name << "\", \"col_name\": \"" << v.col_name << "\", \"stride_row\": "
       << v.stride_row << ", \"stride_col\": " << v.stride_col << ", \"unit\": " << json_string(v.unit)
       << ", \"value\": " << json_string(v.value) << ",\n\"owner\": [";
  for (std::size_t i = 0; i < c.owner.size(); ++i)
    data << (i ? "," : "") << (i % 32 == 0 ? "\n" : "") << c.owner[i].first << "," << c.owner[i].second;
  data << "],\n\"inside\": \"";
  for (bool in : c.inside) data << (in ? '1' : '0');
  data << "\",\n\"text\": [";
  for (std::size_t t = 0; t < v.text.size(); ++t) data << (t ? ",\n" : "\n") << json_string(v.text[t]);
  data << "]}";
}

}  // namespace

std::string html_page(ViewerPage const& p) {
  int threads = 0;
  for (auto const& v : p.views) threads = std::max(threads, int(v.text.size()));
  std::ostringstream data;
  data << "const D = {\"step\": " << json_string(p.step) << ", \"threads\": " << threads << ", \"traced\": " << p.traced
       << ",\n\"colors\": [";
  for (int t = 0; t < threads; ++t) data << (t ? "," : "") << (t % 8 == 0 ? "\n" : "") << json_string(svg::thread_color(t));
  data << "],\n\"views\": [";
  for (std::size_t i = 0; i < p.views.size(); ++i) {
    data << (i ? ",\n" : "\n");
    view_json(data, p.views[i]);
  }
  data << "]};\n";

  std::string const title = p.step + ": who holds what in " + p.cta;
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << svg::escape(title)
     << "</title>\n<style>\n"
     << "body { font-family: sans-serif; margin: 16px; color: #222; }\n"
     << "#frame { display: grid; grid-template-columns: auto max-content; grid-template-rows: auto auto; "
        "width: max-content; }\n"
     << "#corner { font-family: monospace; font-size: 12px; align-self: end; padding: 0 6px 4px 0; }\n"
     << "#top, #left { position: relative; font-family: monospace; font-size: 10px; color: #555; }\n"
     << "#top { height: 14px; } #left { width: 40px; }\n"
     << "#top span { position: absolute; bottom: 1px; } #left span { position: absolute; right: 4px; }\n"
     << "#grid { display: grid; width: max-content; border: 1px solid #999; cursor: crosshair; }\n"
     << ".c.out { opacity: 0.25; }\n"
     << ".c.hl { outline: 1px solid #000; position: relative; z-index: 1; }\n"
     << "#grid.picking .c:not(.hl) { opacity: 0.35; }\n"
     << "#info, #picked { font-family: monospace; margin: 4px 0; min-height: 1.2em; }\n"
     << "#layout { font-family: monospace; margin: 4px 0 8px; white-space: pre; background: #f6f8fa; padding: 6px; }\n"
     << "</style>\n</head>\n<body>\n<h1>" << svg::escape(title) << "</h1>\n"
     << "<p>Each cell is one element of the tile, coloured by the thread that holds it (or, in a bank view, "
        "by its smem bank). Hover a cell for its thread, value index, coordinates and offset; click one (or open "
        "the page with <code>#thread=N</code>) to pick its thread and see its own partition. The data is the step "
        "binary's own partitions, written by <code>--html</code>.</p>\n"
     << "<p><label>Show: <select id=\"view\"></select></label> <span id=\"what\"></span></p>\n"
     << "<div id=\"picked\"></div>\n<pre id=\"layout\"></pre>\n<div id=\"info\">hover a cell</div>\n"
     << "<div id=\"frame\"><div id=\"corner\"></div><div id=\"top\"></div><div id=\"left\"></div>"
        "<div id=\"grid\"></div></div>\n<script>\n"
     << data.str() << kScript << "</script>\n</body>\n</html>\n";
  return os.str();
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
      if (t.m >= tiles_m) continue;  // a cluster's tile past C's last tile-row (TileSchedule::cluster_m)
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

// Printing: ranges, grids, banners.
#include "tut/format.hpp"

#include <algorithm>
#include <iomanip>
#include <ostream>
#include <set>

namespace tut {

std::string ranges(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  std::ostringstream os;
  os << '{';
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    if (i) os << ", ";
    os << v[i];
    if (j > i) os << ".." << v[j];
    i = j + 1;
  }
  os << '}';
  return os.str();
}

std::pair<std::string, std::string> rows_cols(std::vector<std::pair<std::int64_t, std::int64_t>> const& coords) {
  std::vector<std::int64_t> r, c;
  for (auto const& [row, col] : coords) {
    r.push_back(row);
    c.push_back(col);
  }
  return {ranges(r), ranges(c)};
}

std::string ranges_compact(std::vector<std::int64_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  bool strided = v.size() > 4 && v[1] - v[0] > 1;
  for (std::size_t i = 2; strided && i < v.size(); ++i) strided = v[i] - v[i - 1] == v[1] - v[0];
  if (!strided) return ranges(v);
  return "{" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", .., " + std::to_string(v.back()) + "}";
}

TextBlock grid_lines(CharGrid const& g, int cell_rows, int cell_cols, std::string const& col_name) {
  constexpr int kGroup = 8;  // a space every 8 cells keeps the columns countable
  TextBlock out;
  std::ostringstream ruler;  // the first element column of every group of 8 cells
  ruler << "      ";
  for (int c = 0; c < g.cols; c += kGroup)
    ruler << std::left << std::setw(std::min(kGroup, g.cols - c) + 1) << c * cell_cols << std::right;
  ruler << " <- " << col_name;
  out.push_back(ruler.str());
  for (int r = 0; r < g.rows; ++r) {
    std::ostringstream line;
    line << std::setw(5) << r * cell_rows << ' ';
    for (int c = 0; c < g.cols; ++c) {
      if (c && c % kGroup == 0) line << ' ';
      line << g.at(r, c);
    }
    out.push_back(line.str());
  }
  return out;
}

void print_grid(std::ostream& os, CharGrid const& g, int cell_rows, int cell_cols, std::string const& indent) {
  for (auto const& line : grid_lines(g, cell_rows, cell_cols)) os << indent << line << '\n';
}

void print_side_by_side(std::ostream& os, std::vector<TextBlock> const& blocks, int width, std::string const& indent) {
  std::size_t rows = 0;
  for (auto const& b : blocks) rows = std::max(rows, b.size());
  for (std::size_t i = 0; i < rows; ++i) {
    std::string line = indent;
    for (auto const& b : blocks) {
      std::string const field = i < b.size() ? b[i] : std::string();
      line += field + std::string(std::size_t(std::max<int>(1, width - int(field.size()))), ' ');
    }
    line.erase(line.find_last_not_of(' ') + 1);
    os << line << '\n';
  }
}

CharGrid ownership_grid(std::vector<std::pair<std::int64_t, std::int64_t>> const& owned, int tile_rows,
                        int tile_cols, int cell_rows, int cell_cols) {
  int const gr = (tile_rows + cell_rows - 1) / cell_rows;
  int const gc = (tile_cols + cell_cols - 1) / cell_cols;
  std::vector<int> count(std::size_t(gr) * gc, 0);
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (auto const& rc : owned) {
    if (rc.first < 0 || rc.first >= tile_rows || rc.second < 0 || rc.second >= tile_cols) continue;
    if (!seen.insert(rc).second) continue;
    ++count[std::size_t(rc.first / cell_rows) * gc + rc.second / cell_cols];
  }
  CharGrid g(gr, gc);
  for (int r = 0; r < gr; ++r)
    for (int c = 0; c < gc; ++c) {
      int const h = std::min(cell_rows, tile_rows - r * cell_rows);
      int const w = std::min(cell_cols, tile_cols - c * cell_cols);
      int const n = count[std::size_t(r) * gc + c];
      g.at(r, c) = n == 0 ? '.' : (n == h * w ? '#' : '+');
    }
  return g;
}

void print_section(std::ostream& os, int number, std::string const& title) {
  std::string head = "== " + std::to_string(number) + ". " + title + " ";
  if (head.size() < 100) head += std::string(100 - head.size(), '=');
  os << '\n' << head << '\n';
}

void print_item(std::ostream& os, std::string const& name, std::string const& value, std::string const& note) {
  os << "  " << std::left << std::setw(10) << name << ' ';
  if (note.empty())
    os << value;
  else
    os << std::setw(44) << value << "  " << note;
  os << std::right << '\n';
}

}  // namespace tut

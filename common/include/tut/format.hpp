/// \file format.hpp
/// \brief Text, the printout's vocabulary: layouts as `shape:stride`, integer ranges, the coordinates a
/// partition addresses, character grids, and the section and item lines (host only). Knows no step.
#pragma once

#include <algorithm>
#include <cstdint>
#include <iosfwd>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <cute/tensor.hpp>

namespace tut {

namespace detail {
template <class T>
void write_plain(std::ostream& os, T const& x) {
  if constexpr (cute::is_composed_layout<T>::value) {
    // A swizzled layout, outer o offset o inner: `Sw<3,2,7> o (128,32):(1,128)` (a zero offset left out).
    os << x.layout_a() << " o ";
    if (!(x.offset() == cute::Int<0>{})) {
      write_plain(os, x.offset());
      os << " o ";
    }
    write_plain(os, x.layout_b());
  } else if constexpr (cute::is_layout<T>::value) {
    write_plain(os, x.shape());
    os << ':';
    write_plain(os, x.stride());
  } else if constexpr (cute::is_tuple<T>::value) {
    os << '(';
    bool first = true;
    cute::for_each(x, [&](auto const& e) {
      if (!first) os << ',';
      first = false;
      write_plain(os, e);
    });
    os << ')';
  } else if constexpr (cute::is_scaled_basis<T>::value) {
    // A stride of a tensor of coordinates: `64@1` is 64 along coordinate 1 (CuTe's form, marks dropped).
    std::ostringstream cute_form;
    cute_form << x;
    std::string str = cute_form.str();
    str.erase(std::remove(str.begin(), str.end(), '_'), str.end());
    os << str;
  } else if constexpr (cute::is_integral<T>::value) {
    os << static_cast<long long>(x);
  } else {
    os << x;  // anything else (a swizzle, a composed layout): CuTe's own printer
  }
}
}  // namespace detail

/// \brief A layout, shape or stride as the seeds write it: `(1,(4,2),(4,2)):(0,(128,8192),(1,64))`;
/// a swizzled layout as `Sw<3,2,7> o (128,32):(1,128)`.
///
/// CuTe's own printer marks compile-time integers with an underscore (`_4`); this form drops the marks,
/// so static and dynamic layouts with the same values print the same. cute_str() keeps them.
template <class T>
std::string plain(T const& x) {
  std::ostringstream os;
  detail::write_plain(os, x);
  return os.str();
}

/// \brief CuTe's own rendering (static integers as `_N`).
template <class T>
std::string cute_str(T const& x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

/// \brief Sorted, de-duplicated integers as ranges: {0..3, 64..67}.
std::string ranges(std::vector<std::int64_t> v);

/// \brief Like ranges(), but a run with one stride > 1 (more than 4 values) as {first, second, .., last}.
std::string ranges_compact(std::vector<std::int64_t> v);

/// \brief The (row,col) of every element of a tensor of coordinates, in the tensor's own order.
/// Pass the partition of an identity tensor to learn which elements a partition addresses.
template <class CoordTensor>
std::vector<std::pair<std::int64_t, std::int64_t>> coords_of(CoordTensor const& t) {
  std::vector<std::pair<std::int64_t, std::int64_t>> out;
  out.reserve(std::size_t(cute::size(t)));
  for (int i = 0; i < int(cute::size(t)); ++i) {
    auto c = t(i);
    out.emplace_back(std::int64_t(cute::get<0>(c)), std::int64_t(cute::get<1>(c)));
  }
  return out;
}

/// \brief The distinct rows and the distinct cols of \p coords, each as ranges().
std::pair<std::string, std::string> rows_cols(std::vector<std::pair<std::int64_t, std::int64_t>> const& coords);

/// \brief A rows×cols grid of one-character cells, printed with a ruler every 8 cells.
struct CharGrid {
  int rows = 0;             ///< cells down
  int cols = 0;             ///< cells across
  std::vector<char> cells;  ///< row-major, rows·cols

  /// \brief \p r × \p c cells, all \p fill.
  CharGrid(int r, int c, char fill = '.') : rows(r), cols(c), cells(std::size_t(r) * c, fill) {}
  char& at(int r, int c) { return cells[std::size_t(r) * cols + c]; }              ///< cell (r,c)
  char at(int r, int c) const { return cells[std::size_t(r) * cols + c]; }         ///< cell (r,c)
};

/// \brief Lines of text: one column of print_side_by_side().
using TextBlock = std::vector<std::string>;

/// \brief \p g as lines: a ruler naming the first element col of every 8 cells ("<- \p col_name"), then
/// one line per row of cells, labelled with its first element row. Each cell stands for a
/// \p cell_rows × \p cell_cols block of elements.
TextBlock grid_lines(CharGrid const& g, int cell_rows, int cell_cols, std::string const& col_name = "col");

/// \brief Print grid_lines(), each line behind \p indent.
void print_grid(std::ostream& os, CharGrid const& g, int cell_rows, int cell_cols, std::string const& indent = "  ");

/// \brief Print \p blocks next to each other, each in a column \p width wide (at least one blank between
/// columns), behind \p indent; trailing blanks are trimmed.
void print_side_by_side(std::ostream& os, std::vector<TextBlock> const& blocks, int width,
                        std::string const& indent = "  ");

/// \brief Ownership map of a tile_rows×tile_cols tile, one cell per cell_rows×cell_cols block:
/// '#' the block is wholly in \p owned, '+' partly, '.' not at all.
CharGrid ownership_grid(std::vector<std::pair<std::int64_t, std::int64_t>> const& owned, int tile_rows,
                        int tile_cols, int cell_rows, int cell_cols);

/// \brief A section banner: "== 3. Partitions ====...", 100 columns wide.
void print_section(std::ostream& os, int number, std::string const& title);

/// \brief One "name  value  # note" line with aligned columns.
void print_item(std::ostream& os, std::string const& name, std::string const& value, std::string const& note = "");

}  // namespace tut

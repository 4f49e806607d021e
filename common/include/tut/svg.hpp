/// \file svg.hpp
/// \brief A small SVG writer, and the pictures every step draws from its own partitions (host only).
///
/// The pictures are made from plain data (who owns which cell), which the templates in pictures.hpp
/// read off the step's CuTe objects; nothing here knows CuTe.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tut/banks.hpp"

namespace tut::svg {

/// \brief One SVG document, written top to bottom: shapes in user units of a viewBox.
class Doc {
 public:
  /// \brief A \p width × \p height canvas (user units = pixels at 100%).
  Doc(double width, double height);
  /// \brief A rectangle; \p stroke "" for none; \p title a tooltip ("" for none).
  void rect(double x, double y, double w, double h, std::string const& fill, std::string const& stroke = "",
            double stroke_width = 0, std::string const& title = "");
  /// \brief A line of text at (\p x, \p y) (baseline); \p anchor start, middle or end.
  void text(double x, double y, std::string const& s, double size = 11, std::string const& anchor = "start",
            std::string const& fill = "#222");
  /// \brief A path of unit-free commands \p d (already in user units), filled and optionally stroked.
  void path(std::string const& d, std::string const& fill, std::string const& stroke = "", double stroke_width = 0,
            std::string const& title = "");
  /// \brief Open a group translated by (\p dx, \p dy) and scaled by \p scale; close it with end_group().
  void begin_group(double dx, double dy, double scale = 1);
  /// \brief Close the innermost group.
  void end_group();
  /// \brief The document.
  std::string str() const;

 private:
  double width_, height_;
  std::ostringstream body_;
};

/// \brief \p s with &, <, >, " escaped for XML text and attributes.
std::string escape(std::string const& s);

/// \brief A colour for thread \p t: hues spread by the golden angle, so neighbouring threads differ.
std::string thread_color(int t);

/// \brief Write \p content to \p path; throws UsageError naming the file if it cannot.
void write_file(std::string const& path, std::string const& content);

/// \brief Who holds each cell of a rows × cols tile (row-major): a thread and a value index, or -1.
struct Cells {
  int rows = 0;                               ///< cells down
  int cols = 0;                               ///< cells across
  std::vector<std::pair<int, int>> owner;     ///< (thread, value) per cell; (-1,-1) for none
  std::vector<bool> inside;                   ///< per cell: inside the problem (false: past an edge)
};

/// \brief A tile coloured by owning thread, the \p traced thread outlined, cells past the problem's edge
/// greyed; \p row_name and \p col_name label the axes, \p first_row and \p first_col their first values.
std::string ownership(Cells const& c, int traced, std::string const& title, char row_name,
                      char col_name, std::int64_t first_row, std::int64_t first_col);

/// \brief Panels side by side (A, B and C tiles, say), each with the cells one thread touches coloured
/// and the rest light grey: (title, rows, cols, touched cells as (row, col)).
struct Panel {
  std::string title;                                  ///< above the panel
  int rows = 0;                                       ///< cells down
  int cols = 0;                                       ///< cells across
  std::vector<std::pair<int, int>> touched;           ///< (row, col) in the panel
  char row_name = 'm';                                ///< the row coordinate's name
  char col_name = 'k';                                ///< the column coordinate's name
};
/// \brief The panels of one thread, in colour \p color.
std::string thread_panels(std::vector<Panel> const& panels, std::string const& color, std::string const& title);

/// \brief A TV grid: each cell coloured by its thread, labelled with the thread where a value run starts
/// (value index 0 of the thread's vector), for a copy partition.
std::string tv_grid(Cells const& c, int run, std::string const& title, char row_name, char col_name);

/// \brief The order in which a 1-D or persistent grid's CTAs visit the tiles (empty for a 2-D grid).
struct GridOrder {
  std::vector<int> cta_of_tile;   ///< per tile (row-major, m·tiles_n + n): the CTA that computes it
  std::vector<int> rank_of_tile;  ///< per tile: when its CTA takes it up (0 first), for the colour
  int ranks = 0;                  ///< how many ranks there are
  std::string words;              ///< the order in one line
};

/// \brief The tiles of an M×N problem in blk_m×blk_n tiles, the traced tile (\p tm, \p tn) outlined. For
/// a 2-D grid (\p order empty) each tile is the CTA blockIdx (x,y): coloured whole, cut in M, cut in N,
/// cut in both. Otherwise coloured by when its CTA takes it up and labelled with that CTA.
std::string grid_map(std::int64_t M, std::int64_t N, int blk_m, int blk_n, std::int64_t tm, std::int64_t tn,
                     GridOrder const& order = {});

/// \brief One warp-wide smem instruction before and after the swizzle: lanes, the bank each lane's first
/// word falls in, and the wavefronts the model counts.
std::string bank_maps(std::string const& title, banks::WarpAccess const& unswizzled, banks::WarpAccess const& swizzled);

}  // namespace tut::svg

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
  /// \brief A line of text centred on (\p cx, \p cy), turned to run downwards if \p down.
  void text_turned(double cx, double cy, std::string const& s, double size, bool down);
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

/// \brief The fewest rows after which \p key (rows × cols, row-major) repeats: the smallest divisor p of
/// rows with key(r, c) == key(r - p, c) for every r >= p. A picture need only draw those rows.
int row_period(std::vector<int> const& key, int rows, int cols);

/// \brief The first \p rows rows and \p cols columns of \p c (\p cols < 0: all of them).
Cells first_rows(Cells const& c, int rows, int cols = -1);

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

/// \brief A TV grid of a copy partition: each cell coloured by its thread, and each \p run-element vector
/// (one copy instruction's) outlined and labelled with its thread, along the vector.
std::string tv_grid(Cells const& c, int run, std::string const& title, char row_name, char col_name);

/// \brief A tensor-core TiledMMA's A (m,k), B (n,k) and C (m,n) side by side, as CuTe's print_svg lays
/// them out (A left of C, B above it, drawn k down), each panel labelled and each cell with its thread T
/// and value V. The cells are a window of the tile (a.rows × a.cols, b.rows × b.cols, c.rows × c.cols),
/// which \p note names.
std::string mma_panels(Cells const& a, Cells const& b, Cells const& c, std::string const& title, std::string const& note);

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

/// \brief A bar on a timeline: on row \p row, from column \p from up to (not including) column \p to.
struct Bar {
  int row = 0;               ///< which row
  int from = 0;              ///< the first column it covers
  int to = 1;                ///< one past the last
  std::string label;         ///< written on the bar
  std::string fill;          ///< its colour
  std::string tip;           ///< the tooltip ("" for the label)
};

/// \brief A timeline: named rows (a pipeline's stages, say) against named columns (its iterations), and
/// bars on them; \p key lists (colour, meaning) pairs under it.
std::string timeline(std::string const& title, std::string const& note, std::vector<std::string> const& rows,
                     std::vector<std::string> const& cols, std::vector<Bar> const& bars,
                     std::vector<std::pair<std::string, std::string>> const& key);

/// \brief One lane of an ldmatrix: the smem row it names (\p chunk elements from (mn, k)), at which byte.
struct LaneRow {
  int lane = 0;              ///< 0..31
  int matrix = 0;            ///< the 8x8 matrix its row belongs to: lane / 8
  int mn = 0;                ///< the row's m (or n) in the tile
  int k = 0;                 ///< its first k
  std::int64_t byte = 0;     ///< its smem byte offset
};

/// \brief An ldmatrix.x4: the tile region it reads, each row segment labelled with the lane that names it
/// and coloured by its matrix, with the 16-byte bank group it lies in.
std::string ldmatrix_lanes(std::string const& title, std::string const& note, std::vector<LaneRow> const& rows,
                           int chunk, char row_name);

/// \brief A TMA's boxes over an operand: an M×K matrix cut into tile-rows of \p box_m, one box of box_m ×
/// box_k per k-tile, the traced tile-row \p tile_m's coloured by the smem stage they land in (k-tile %
/// stages); the box rows past M marked as filled with zeros.
std::string tma_boxes(std::string const& title, std::string const& note, std::int64_t M, std::int64_t K,
                      int box_m, int box_k, std::int64_t tile_m, int stages);

/// \brief One smem tile, each cell coloured by the bank its element lies in (its first 4-byte word's).
struct BankPanel {
  std::string title;        ///< above the panel: "sA, plain"
  int rows = 0;             ///< cells down
  int cols = 0;             ///< cells across
  char row_name = 'm';      ///< the row coordinate's name
  char col_name = 'k';      ///< the column coordinate's name
  std::vector<int> bank;    ///< per cell, row-major: 0..31
};

/// \brief Smem tiles side by side (a tile before and after its swizzle, say), coloured by bank, with a key
/// of the 32 banks' colours; each drawn for the rows after which all of them repeat (row_period).
std::string bank_tiles(std::string const& title, std::string const& note, std::vector<BankPanel> const& panels);

/// \brief The colour of bank \p b: 32 hues around the wheel, alternately lighter and darker.
std::string bank_color(int b);

}  // namespace tut::svg

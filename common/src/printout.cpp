// The printout's non-template section printers.
#include "tut/printout.hpp"

namespace tut {

void print_schedule(std::ostream& os, TracedTile const& t, int threads) {
  TileSchedule const& s = t.schedule;
  std::string const tiles = "(" + str(t.tiles.m) + "," + str(t.tiles.n) + ")";
  if (s.kind == Visit::grid_2d) {
    print_item(os, "grid", tiles, "ceil(M/BLK_M), ceil(N/BLK_N) CTAs of " + str(threads) + " threads");
    return;
  }
  int const ctas = s.cta_count(t.tiles.m, t.tiles.n);
  print_item(os, "tiles", tiles, "ceil(M/BLK_M), ceil(N/BLK_N) tiles of C");
  if (s.kind == Visit::raster_1d)
    print_item(os, "grid", "(" + str(ctas) + ")", "1-D: one CTA of " + str(threads) + " threads per tile");
  else
    print_item(os, "grid", "(" + str(ctas) + ")",
               "persistent: CTAs of " + str(threads) + " threads, each loops over tiles");
  print_item(os, "order",
             s.kind == Visit::raster_1d ? "CTA i computes raster_tile(i)"
                                         : "CTA c computes raster_tile(c), then c+" + str(ctas) + ", ...",
             "groups of " + str(s.group_m) + " tile-rows, for L2");
}

void print_visits(std::ostream& os, TracedTile const& traced) {
  TileSchedule const& s = traced.schedule;
  int const tm = traced.tiles.m, tn = traced.tiles.n, rows = s.rows_of(tm), tiles = rows * tn;
  int const ctas = s.cta_count(tm, tn), cta = traced.visitor.cta, visits = s.visits(cta, tm, tn);
  std::string const rule = s.balanced ? "as few as compute ceil(tiles/" + str(s.ctas) + ") tiles each:\n  "
                                      : "min(" + str(s.ctas) + ", tiles) = ";
  os << "  Persistent CTAs: the launch starts " << rule << ctas << " CTAs for " << tiles << " tiles (" << rows
     << " x " << tn << (rows == tm ? "" : ", the last tile-row past C's: whole clusters")
     << "), one per SM,\n  and they stay: CTA c loops over raster tiles c, c+"
     << ctas << ", c+" << 2 * ctas << ", ... ";
  int const q = tiles / ctas, r = tiles % ctas;
  auto n_tiles = [](int n) { return str(n) + (n == 1 ? " tile" : " tiles"); };
  if (r == 0)
    os << "Each CTA computes " << n_tiles(q) << ".\n";
  else
    os << "CTAs 0.." << r - 1 << " compute " << n_tiles(q + 1) << ",\n  the others " << q << ".\n";
  std::string list;
  for (int j = 0; j < visits && j < 8; ++j) {
    TileCoord const t = s.tile(cta, j, tm, tn);
    list += (j ? ", " : "") + std::string("(") + str(t.m) + "," + str(t.n) + ")";
  }
  if (visits > 8) list += ", ...";
  print_item(os, "CTA " + str(cta), str(visits) + " tile" + (visits == 1 ? "" : "s") + ": " + list,
             "visit 0, 1, ...: schedule.tile(cta, visit)");
}

void print_grid_map(std::ostream& os, std::int64_t M, std::int64_t N, int bm, int bn) {
  int const gx = int((M + bm - 1) / bm), gy = int((N + bn - 1) / bn);
  constexpr int kMaxCells = 32;
  int const per_x = (gx + kMaxCells - 1) / kMaxCells, per_y = (gy + kMaxCells - 1) / kMaxCells;
  int const rows = (gx + per_x - 1) / per_x, cols = (gy + per_y - 1) / per_y;
  bool const ragged_m = M % bm != 0, ragged_n = N % bn != 0;
  CharGrid g(rows, cols, '#');
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      bool const cut_m = ragged_m && r == rows - 1;  // the last x holds the CTAs whose rows pass M
      bool const cut_n = ragged_n && c == cols - 1;
      g.at(r, c) = cut_m && cut_n ? '+' : cut_m ? 'm' : cut_n ? 'n' : '#';
    }
  os << "  The grid of " << gx << "x" << gy << " CTAs: x = blockIdx.x runs down along M, y across along N.\n";
  if (per_x == 1 && per_y == 1)
    os << "  One cell per CTA.\n";
  else
    os << "  One cell per " << per_x << "x" << per_y << " CTAs (the map has at most 32x32 cells).\n";
  os << "  # whole tile   m rows past M   n cols past N   + both;  labels are the first row/col of a cell\n";
  print_grid(os, g, bm * per_x, bn * per_y, "  ");
  if (ragged_m)
    os << "  CTAs (" << gx - 1 << ",*) hold rows " << (gx - 1) * bm << ".." << (gx - 1) * bm + bm - 1 << ", of which "
       << (gx - 1) * bm << ".." << M - 1 << " exist (" << M - (gx - 1) * bm << " of " << bm << ")\n";
  if (ragged_n)
    os << "  CTAs (*," << gy - 1 << ") hold cols " << (gy - 1) * bn << ".." << (gy - 1) * bn + bn - 1 << ", of which "
       << (gy - 1) * bn << ".." << N - 1 << " exist (" << N - (gy - 1) * bn << " of " << bn << ")\n";
  if (!ragged_m && !ragged_n) os << "  No CTA is partial in M or N: both are multiples of the tile.\n";
}

void print_k_edge(std::ostream& os, std::int64_t K, int bk) {
  std::int64_t const k_last = (K + bk - 1) / bk - 1;
  if (K % bk != 0)
    os << "  Every CTA's last k-tile (" << k_last << ") holds k " << k_last * bk << ".." << k_last * bk + bk - 1
       << ", of which " << k_last * bk << ".." << K - 1 << " exist (" << K - k_last * bk << " of " << bk << ")\n";
  else
    os << "  No k-tile is ragged: K is a multiple of BLK_K.\n";
}

std::string box_rows(int first, int rows, int extent) {
  std::string s = std::to_string(first) + ".." + std::to_string(first + rows - 1);
  if (first + rows <= extent) return s + ", all inside";
  if (first >= extent) return s + ", all outside: zeros";
  return s + ", of which " + std::to_string(first) + ".." + std::to_string(extent - 1) + " exist; " +
         std::to_string(first + rows - extent) + " rows of zeros";
}

void print_chunk_stores(std::ostream& os, int T, std::int64_t N, int chunk, int chunks, int inside, int floats) {
  auto rest = [](int done, int of) {
    return done == of ? ": all lie inside C.\n" : done == 0 ? ": none lies inside C.\n" : "; the rest lie outside C.\n";
  };
  if (N % chunk == 0)
    os << "  N % " << chunk << " == 0: 128-bit stores. Thread " << T << " stores " << inside << " of its " << chunks
       << " chunks" << rest(inside, chunks);
  else
    os << "  N % " << chunk << " != 0: rows of C do not start 16-byte aligned, so the same partition stores one float"
       << " at a\n  time. Thread " << T << " stores " << floats << " of its " << chunks * chunk << " floats"
       << rest(floats, chunks * chunk);
}

void print_swizzle_bits(std::ostream& os, int B, int M, int S, int low_bits, int high_bits, char low, char high,
                        std::string const& index) {
  auto name = [&](int bit) {
    return bit < low_bits ? low + std::to_string(bit) : high + std::to_string(bit - low_bits);
  };
  auto field = [&](int lo) {
    std::string f;
    for (int b = lo + B - 1; b >= lo; --b) f += name(b) + (b > lo ? " " : "");
    return f;
  };
  os << "  Swizzle<" << B << "," << M << "," << S << ">(i) = i ^ (((i >> " << M + S << ") & " << (1 << B) - 1 << ") << " << M
     << ")   with i = " << index << ", the plain index\n";
  os << "    bits of i:";
  for (int b = low_bits + high_bits - 1; b >= 0; --b)
    os << ' ' << std::string(name(b).size() < 3 ? 3 - name(b).size() : 0, ' ') << name(b);
  os << "\n    it XORs bits " << M + S + B - 1 << ".." << M + S << " (" << field(M + S) << ") into bits " << M + B - 1
     << ".." << M << " (" << field(M) << "):\n";
}

std::vector<std::pair<int, int>> transpose_cells(std::vector<std::pair<int, int>> const& cells, int rows, int cols) {
  std::vector<std::pair<int, int>> out(cells.size());
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) out[std::size_t(c) * rows + r] = cells[std::size_t(r) * cols + c];
  return out;
}

TextBlock tv_grid(std::string const& title, std::vector<std::pair<int, int>> const& cells, int rows, int cols,
                  int c0, int c1, char row_name, char col_name) {
  // Cells are joined by one blank, as the slides read them ("T0V0 T0V1 T1V0 ..."): rows of different
  // widths do not line up, but each reads as one line of the instruction's fragment.
  auto cell = [&](int r, int c) {
    auto const [t, v] = cells[std::size_t(r) * cols + c];
    return t >= 0 ? "T" + std::to_string(t) + "V" + std::to_string(v) : t == -1 ? std::string("--") : std::string("??");
  };
  TextBlock out{title, std::string("  ") + row_name + " \\ " + col_name + " = " + std::to_string(c0) + ".." +
                           std::to_string(c1 - 1) + " left to right"};
  for (int r = 0; r < rows; ++r) {
    std::ostringstream line;
    line << std::setw(5) << r << " | ";
    for (int c = c0; c < c1; ++c) line << (c > c0 ? " " : "") << cell(r, c);
    out.push_back(line.str());
  }
  return out;
}

}  // namespace tut

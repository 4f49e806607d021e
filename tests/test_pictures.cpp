// Host tests of the pictures (tut/svg.hpp, tut/pictures.hpp): the cells they draw are the TiledMMA's
// partition_C, edges are marked, the page embeds exactly that data, and the SVG text is escaped; the
// choice picture (tut/choice.hpp) draws each shape's key and a legend of the keys it drew.
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

#include <cute/tensor.hpp>

#include "catch.hpp"
#include "tut/choice.hpp"
#include "tut/pictures.hpp"
#include "tut/svg.hpp"

using namespace cute;

namespace {

// A small scalar-FMA TiledMMA: 2x4 threads over an 8x8 C tile, each thread a 4x2 block (values 0..7).
using Tiler = Shape<_8, _8, _4>;
using Mma = decltype(make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_2, _4, _1>>{}));

}  // namespace

TEST_CASE("c_cells holds partition_C at every cell, and marks the cells past the edges", "[pictures]") {
  // CTA (1,1) of a 13x10 problem: rows 8..15 of which 8..12 exist, cols 8..15 of which 8..9 exist.
  tut::svg::Cells const c = tut::c_cells<Tiler, Mma>({13, 10, 4}, 1, 1);
  REQUIRE(c.rows == 8);
  REQUIRE(c.cols == 8);
  Mma mma;
  Tensor cC = make_identity_tensor(make_shape(8, 8));
  std::set<std::pair<int, int>> seen;
  for (int t = 0; t < int(size(mma)); ++t) {
    Tensor part = mma.get_slice(t).partition_C(cC);
    for (int v = 0; v < int(size(part)); ++v) {
      int const m = get<0>(part(v)), n = get<1>(part(v));
      CHECK(c.owner[std::size_t(m * 8 + n)] == std::pair{t, v});
      seen.insert({m, n});
    }
  }
  CHECK(seen.size() == 64);
  for (int m = 0; m < 8; ++m)
    for (int n = 0; n < 8; ++n) CHECK(c.inside[std::size_t(m * 8 + n)] == (8 + m < 13 && 8 + n < 10));
}

TEST_CASE("the page embeds each view's cells, strides and every thread's own text, nothing else", "[pictures]") {
  tut::ViewerPage p;
  p.step = "stepXX";
  p.cta = "CTA (1,1)";
  tut::PageView c{"C tile", "who stores it", tut::c_cells<Tiler, Mma>({13, 10, 4}, 1, 1), 'm', 'n', 8, 8, 10, 1, {}};
  for (int t = 0; t < 8; ++t) c.text.push_back("layout" + std::to_string(t));
  tut::PageView a{"A tile", "who copies it", tut::c_cells<Tiler, Mma>({8, 8, 4}, 0, 0), 'm', 'k', 8, 0, 0, 0, {}};
  for (int t = 0; t < 8; ++t) a.text.push_back("copy" + std::to_string(t) + "\nsecond line");
  p.views = {c, a};
  p.traced = 5;
  std::string const html = tut::html_page(p);
  std::smatch m;
  REQUIRE(std::regex_search(html, m, std::regex("\"owner\": \\[([^\\]]*)\\]")));
  std::string owners = m[1];
  std::size_t commas = 0;
  for (char ch : owners) commas += ch == ',';
  CHECK(commas + 1 == 2 * 64);  // (thread, value) for each of the 64 cells
  CHECK(html.find("\"inside\": \"" + std::string("1100000011000000110000001100000011000000") +
                  "000000000000000000000000\"") != std::string::npos);
  CHECK(html.find("\"traced\": 5") != std::string::npos);
  CHECK(html.find("\"first_row\": 8, \"first_col\": 8, \"row_name\": \"m\", \"col_name\": \"n\", "
                  "\"stride_row\": 10, \"stride_col\": 1") != std::string::npos);
  CHECK(html.find("\"layout7\"") != std::string::npos);
  CHECK(html.find("\"copy3\\nsecond line\"") != std::string::npos);  // the second view, its newlines escaped
  CHECK(html.find("\"col_name\": \"k\"") != std::string::npos);
  CHECK(html.find("<script src") == std::string::npos);  // self-contained: no external script
  CHECK(html.find("http") == std::string::npos);         // and no network
}

TEST_CASE("SVG text is escaped, and the ownership picture has one path per thread", "[pictures]") {
  CHECK(tut::svg::escape("a<b & \"c\">") == "a&lt;b &amp; &quot;c&quot;&gt;");
  tut::svg::Cells const c = tut::c_cells<Tiler, Mma>({8, 8, 4}, 0, 0);
  std::string const s = tut::svg::ownership(c, 3, "t<1>", 'm', 'n', 0, 0);
  CHECK(s.find("t&lt;1&gt;") != std::string::npos);
  std::size_t threads = 0;
  for (std::size_t at = s.find("<title>thread "); at != std::string::npos; at = s.find("<title>thread ", at + 1)) ++threads;
  CHECK(threads == 8);
  CHECK(s.find("stroke=\"black\"") != std::string::npos);  // the traced thread, outlined
  CHECK(tut::svg::thread_color(0) != tut::svg::thread_color(1));
}

TEST_CASE("smem words and banks: an element's word is its byte offset / 4, stage 0 of a staged tile", "[pictures]") {
  using Floats = Layout<Shape<_8, _4>, Stride<_1, _8>>;               // (m,k) -> m + 8k, M-major
  using Staged = Layout<Shape<_8, _4, _2>, Stride<_4, _1, _32>>;      // (m,k,stage) -> 4m + k + 32·stage
  std::vector<std::int64_t> const f = tut::detail::smem_words<Floats, float>();
  std::vector<std::int64_t> const h = tut::detail::smem_words<Staged, cute::half_t>();
  REQUIRE(f.size() == 32);
  REQUIRE(h.size() == 32);
  for (int m = 0; m < 8; ++m)
    for (int k = 0; k < 4; ++k) {
      CHECK(f[std::size_t(m * 4 + k)] == m + 8 * k);        // one float per word
      CHECK(h[std::size_t(m * 4 + k)] == (4 * m + k) / 2);  // two halves per word, stage 0
    }
  tut::svg::BankPanel const p = tut::bank_panel<Layout<Shape<_64, _2>, Stride<_1, _64>>, float>("t", 'm', 'k');
  CHECK(p.bank[0] == 0);
  CHECK(p.bank[std::size_t(33 * 2)] == 1);      // row 33, k 0: word 33, bank 1
  CHECK(p.bank[std::size_t(5 * 2 + 1)] == 5);   // row 5, k 1: word 69, bank 5
}

TEST_CASE("row_period: the fewest rows after which a picture repeats", "[pictures]") {
  // 6 rows x 2 cols: rows repeat every 2; every 3 does not divide... 3 divides 6 but rows 0 and 3 differ.
  std::vector<int> const k{1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4};
  CHECK(tut::svg::row_period(k, 6, 2) == 2);
  std::vector<int> const none{1, 2, 3, 4, 5, 6};
  CHECK(tut::svg::row_period(none, 3, 2) == 3);  // no repeat: all rows
  std::vector<int> k2 = k;
  k2[11] = 9;  // the last row differs: no period shorter than the whole
  CHECK(tut::svg::row_period(k2, 6, 2) == 6);
  tut::svg::Cells c{4, 2, {{0, 0}, {1, 0}, {2, 0}, {3, 0}, {0, 1}, {1, 1}, {2, 1}, {3, 1}}, std::vector<bool>(8, true)};
  tut::svg::Cells const f = tut::svg::first_rows(c, 2);
  CHECK(f.rows == 2);
  CHECK(f.owner.size() == 4);
  CHECK(f.owner[3] == std::pair{3, 0});
}

TEST_CASE("the choice picture: a cell per shape, and a legend of the keys its cells use", "[pictures]") {
  namespace fs = std::filesystem;
  fs::path const file = fs::temp_directory_path() / ("tut_choice_" + std::to_string(::getpid()) + ".svg");
  // Key 0 where M is at most 2048, key 2 elsewhere; key 1 never.
  tut::write_choice_picture(file.string(), "title", "note", 64, [](tut::Problem const& p) { return p.m <= 2048 ? 0 : 2; },
                            {{"A", "#ffffff", "first", "one"}, {"B", "#ffffff", "second", "two"},
                             {"C", "#ffffff", "third", "three"}});
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string const svg = ss.str();
  fs::remove(file);
  CHECK(svg.find("A: first one") != std::string::npos);
  CHECK(svg.find("C: third three") != std::string::npos);
  CHECK(svg.find("B: second two") == std::string::npos);
  CHECK(svg.find("M 2048, N 8192: first, one") != std::string::npos);
  CHECK(svg.find("M 3072, N 1024: third, three") != std::string::npos);
}

#include "tut/choice.hpp"

#include "tut/svg.hpp"

namespace tut {

std::string thousandths(std::int64_t v) {
  std::string const f = std::to_string(v % 1000);
  return std::to_string(v / 1000) + "." + std::string(3 - f.size(), '0') + f;
}

std::string k_tile_cost_note(int row, bool ragged) {
  char const* const rows[] = {"a multiple of 64", "a multiple of 16, not of 64", "not a multiple of 16"};
  return "(the busiest CTA's tiles, and the k-tiles of each; the k-tile's cost with K " + std::string(rows[row]) + "." +
         (ragged ? "\n  M or N leave a partial tile: the k-tile costs include kRaggedFactor.)" : ")");
}

void write_choice_picture(std::string const& file, std::string const& title, std::string const& note, std::int64_t k,
                          std::function<int(Problem const&)> const& choose, std::vector<ChoiceKey> const& keys) {
  constexpr int kStep = 1024, kCells = 8;  // 1024, 2048, ..., 8192
  std::vector<std::string> rows, cols;
  std::vector<svg::Bar> bars;
  std::vector<bool> used(keys.size(), false);
  for (int i = 0; i < kCells; ++i) {
    rows.push_back("M " + str((i + 1) * kStep));
    cols.push_back("N " + str((i + 1) * kStep));
  }
  for (int i = 0; i < kCells; ++i)
    for (int j = 0; j < kCells; ++j) {
      Problem const p{(i + 1) * kStep, (j + 1) * kStep, k};
      std::size_t const key = std::size_t(choose(p));
      ChoiceKey const& c = keys.at(key);
      used[key] = true;
      bars.push_back({i, j, j + 1, c.mark, c.fill, "M " + str(p.m) + ", N " + str(p.n) + ": " + c.name + ", " + c.schedule});
    }
  std::vector<std::pair<std::string, std::string>> legend;
  for (std::size_t i = 0; i < keys.size(); ++i)  // the keys of the cells only
    if (used[i]) legend.push_back({keys[i].fill, keys[i].mark + ": " + keys[i].name + " " + keys[i].schedule});
  svg::write_file(file, svg::timeline(title, note, rows, cols, bars, legend));
}

}  // namespace tut

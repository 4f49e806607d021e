#include "tut/choice.hpp"

#include "tut/svg.hpp"

namespace tut {

std::string thousandths(std::int64_t v) {
  std::string const f = std::to_string(v % 1000);
  return std::to_string(v / 1000) + "." + std::string(3 - f.size(), '0') + f;
}

void write_choice_picture(std::string const& file, std::string const& title, std::string const& note, std::int64_t k,
                          std::function<int(Problem const&)> const& choose, std::vector<ChoiceKey> const& keys) {
  constexpr int kStep = 1024, kCells = 8;  // 1024, 2048, ..., 8192
  std::vector<std::string> rows, cols;
  std::vector<svg::Bar> bars;
  for (int i = 0; i < kCells; ++i) {
    rows.push_back("M " + str((i + 1) * kStep));
    cols.push_back("N " + str((i + 1) * kStep));
  }
  for (int i = 0; i < kCells; ++i)
    for (int j = 0; j < kCells; ++j) {
      Problem const p{(i + 1) * kStep, (j + 1) * kStep, k};
      ChoiceKey const& c = keys.at(std::size_t(choose(p)));
      bars.push_back({i, j, j + 1, c.mark, c.fill, "M " + str(p.m) + ", N " + str(p.n) + ": " + c.name + ", " + c.schedule});
    }
  std::vector<std::pair<std::string, std::string>> legend;
  for (ChoiceKey const& c : keys) legend.push_back({c.fill, c.mark + ": " + c.name + " " + c.schedule});
  svg::write_file(file, svg::timeline(title, note, rows, cols, bars, legend));
}

}  // namespace tut

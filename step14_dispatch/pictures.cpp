// Step 14's own picture (--svg): which configuration choose() runs, over M and N from 1024 to 8192, with K
// a multiple of 64 (kTimePerEntry's first row). The same picture whatever the problem.
#include <string>
#include <vector>

#include <cute/tensor.hpp>

#include "config.hpp"
#include "step14_dispatch.hpp"
#include "tut/pictures.hpp"
#include "tut/printout.hpp"
#include "tut/printout_sm90.hpp"
#include "tut/svg.hpp"

namespace step14 {

using tut::str;

template <class Cfg>
void choice_picture(tut::Options const&, std::string const& dir) {
  constexpr int kStep = 1024, kCells = 8;  // 1024, 2048, ..., 8192
  std::string const names[] = {tut::config_name<Default>(), tut::config_name<Pingpong>(), tut::config_name<Small>()};
  std::string const fills[] = {"#90caf9", "#ffcc80", "#a5d6a7"};
  std::string const marks[] = {"C", "P", "S"};  // cooperative, ping-pong, small
  std::vector<std::string> rows, cols;
  std::vector<tut::svg::Bar> bars;
  for (int i = 0; i < kCells; ++i) {
    rows.push_back("M " + str((i + 1) * kStep));
    cols.push_back("N " + str((i + 1) * kStep));
  }
  for (int i = 0; i < kCells; ++i)
    for (int j = 0; j < kCells; ++j) {
      tut::Problem const p{(i + 1) * kStep, (j + 1) * kStep, 4096};
      int const c = choose(p);
      bars.push_back({i, j, j + 1, marks[c], fills[c],
                      "M " + str(p.m) + ", N " + str(p.n) + ": " + names[c] + (c == 0 ? ", cooperative" : ", ping-pong")});
    }
  tut::svg::write_file(dir + "/choice.svg",
                       tut::svg::timeline("step14: the configuration the launch picks, by M and N",
                                          "choose() in config.hpp, K a multiple of 64: the busiest CTA's tiles x their "
                                          "entries x the time per entry; hover a cell for the shape",
                                          rows, cols, bars,
                                          {{fills[0], "C: " + names[0] + " cooperative"},
                                           {fills[1], "P: " + names[1] + " ping-pong"},
                                           {fills[2], "S: " + names[2] + " ping-pong"}}));
}

template void choice_picture<Default>(tut::Options const&, std::string const&);
template void choice_picture<Pingpong>(tut::Options const&, std::string const&);
template void choice_picture<Small>(tut::Options const&, std::string const&);

}  // namespace step14

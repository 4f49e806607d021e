// Step 16's own picture (--svg): which configuration choose() runs, over M and N from 1024 to 8192, with K
// 1024, and where its launch lets the next kernel start early (one tile per CTA: the smallest sizes). The
// same picture whatever the problem.
#include <string>
#include <vector>

#include "config.hpp"
#include "step16_pdl.hpp"
#include "tut/choice.hpp"

namespace step16 {

template <class Cfg>
void choice_picture(tut::Options const&, std::string const& dir) {
  // The configurations' keys, then the same with the dependent launch: index choose() + 6 where it is on.
  std::vector<tut::ChoiceKey> keys = {
      {"2C", "#ce93d8", tut::config_name<Default>(), "cooperative, clusters of 2"},
      {"C", "#90caf9", tut::config_name<Wide>(), "cooperative"},
      {"P", "#ffcc80", tut::config_name<Pingpong>(), "ping-pong"},
      {"S", "#a5d6a7", tut::config_name<Small>(), "ping-pong"},
      {"2M", "#fff59d", tut::config_name<Mid>(), "cooperative, clusters of 2"},
      {"2N", "#ffab91", tut::config_name<Narrow>(), "cooperative, clusters of 2"}};
  for (std::size_t i = 0, n = keys.size(); i < n; ++i) {
    tut::ChoiceKey const k = keys[i];
    keys.push_back({k.mark + "+", k.fill, k.name, k.schedule + ", dependent launch"});
  }
  tut::write_choice_picture(dir + "/choice.svg", "step16: the configuration the launch picks, by M and N, K 1024",
                            "choose() in config.hpp; + where the launch lets the next kernel start early "
                            "(dependent_launch(): one tile per CTA); hover a cell for the shape",
                            1024,
                            [](tut::Problem const& p) { return choose(p) + (chosen_launch_dependent(p) ? 6 : 0); },
                            keys);
}

template void choice_picture<Default>(tut::Options const&, std::string const&);
template void choice_picture<Wide>(tut::Options const&, std::string const&);
template void choice_picture<Pingpong>(tut::Options const&, std::string const&);
template void choice_picture<Small>(tut::Options const&, std::string const&);
template void choice_picture<Mid>(tut::Options const&, std::string const&);
template void choice_picture<Narrow>(tut::Options const&, std::string const&);

}  // namespace step16

// Step 15's own picture (--svg): which configuration choose() runs, over M and N from 1024 to 8192, with K
// not a multiple of 16 (kKTileFactor's third row, where the clusters win). The same picture whatever
// the problem.
#include <string>

#include "config.hpp"
#include "step15_cluster.hpp"
#include "tut/choice.hpp"

namespace step15 {

template <class Cfg>
void choice_picture(tut::Options const&, std::string const& dir) {
  tut::write_choice_picture(dir + "/choice.svg", "step15: the configuration the launch picks, by M and N, K 4104",
                            "choose() in config.hpp, K not a multiple of 16: the busiest CTA's tiles x (their "
                            "k-tiles x the k-tile's cost + the tile's); hover a cell for the shape",
                            4104, &choose,
                            {{"2C", "#ce93d8", tut::config_name<Default>(), "cooperative, clusters of 2"},
                             {"C", "#90caf9", tut::config_name<Wide>(), "cooperative"},
                             {"P", "#ffcc80", tut::config_name<Pingpong>(), "ping-pong"},
                             {"S", "#a5d6a7", tut::config_name<Small>(), "ping-pong"},
                             {"2M", "#fff59d", tut::config_name<Mid>(), "cooperative, clusters of 2"},
                             {"2N", "#ffab91", tut::config_name<Narrow>(), "cooperative, clusters of 2"},
                             {"PW", "#b0bec5", tut::config_name<PingpongWide>(), "ping-pong"}});
}

template void choice_picture<Default>(tut::Options const&, std::string const&);
template void choice_picture<Wide>(tut::Options const&, std::string const&);
template void choice_picture<Pingpong>(tut::Options const&, std::string const&);
template void choice_picture<Small>(tut::Options const&, std::string const&);
template void choice_picture<Mid>(tut::Options const&, std::string const&);
template void choice_picture<Narrow>(tut::Options const&, std::string const&);
template void choice_picture<PingpongWide>(tut::Options const&, std::string const&);

}  // namespace step15

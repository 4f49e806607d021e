// Step 14's own picture (--svg): which configuration choose() runs, over M and N from 1024 to 8192, with K
// a multiple of 64 (kTimePerEntry's first row). The same picture whatever the problem.
#include <string>

#include "config.hpp"
#include "step14_dispatch.hpp"
#include "tut/choice.hpp"

namespace step14 {

template <class Cfg>
void choice_picture(tut::Options const&, std::string const& dir) {
  tut::write_choice_picture(dir + "/choice.svg", "step14: the configuration the launch picks, by M and N",
                            "choose() in config.hpp, K a multiple of 64: the busiest CTA's tiles x their "
                            "entries x the time per entry; hover a cell for the shape",
                            4096, &choose,
                            {{"C", "#90caf9", tut::config_name<Default>(), "cooperative"},
                             {"P", "#ffcc80", tut::config_name<Pingpong>(), "ping-pong"},
                             {"S", "#a5d6a7", tut::config_name<Small>(), "ping-pong"}});
}

template void choice_picture<Default>(tut::Options const&, std::string const&);
template void choice_picture<Pingpong>(tut::Options const&, std::string const&);
template void choice_picture<Small>(tut::Options const&, std::string const&);

}  // namespace step14

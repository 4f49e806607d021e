/// \file step12_tile_choice/step12_tile_choice.hpp
/// \brief Step 12's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 12: the kernel's two configurations, the choice, the launch and the printout (docs/step12_tile_choice.md tells the story).
namespace step12 {

/// \brief The bugs --bug plants (config.hpp).
enum class Bug : int;

/// \brief Launch the kernel of configuration \p Cfg (one of Variants), with bug \p BUG (Bug::none: the kernel
/// as written), on \p stream. K must be a multiple
/// of 8 and A and B 16-byte aligned; otherwise it throws tut::UsageError.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief Launch the configuration choose() picks for the problem (config.hpp), with bug \p BUG: the
/// launch --bug runs (the harness launches a variant's own launch() otherwise).
template <Bug BUG>
void launch_chosen(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step12

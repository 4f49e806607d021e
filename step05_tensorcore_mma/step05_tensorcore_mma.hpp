/// \file step05_tensorcore_mma/step05_tensorcore_mma.hpp
/// \brief Step 05's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 05: the kernel, its launch and its printout (docs/step05_tensorcore_mma.md tells the story).
namespace step05 {

/// \brief The bugs --bug plants (config.hpp).
enum class Bug : int;

/// \brief Launch the kernel of configuration \p Cfg (one of Variants), with bug \p BUG (Bug::none: the kernel
/// as written), on \p stream. M, N, K must be
/// multiples of multiple_of() (the harness checks).
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step05

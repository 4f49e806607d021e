/// \file step02_local_tile/step02_local_tile.hpp
/// \brief Step 02's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 02: the kernel, its launch and its printout (docs/step02_local_tile.md tells the story).
namespace step02 {

/// \brief Launch the step-02 kernel on \p stream (any M, N, K >= 1).
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step02

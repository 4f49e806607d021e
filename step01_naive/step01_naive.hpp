/// \file step01_naive/step01_naive.hpp
/// \brief Step 01's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 01: the kernel, its launch and its printout (docs/step01_naive.md tells the story).
namespace step01 {

/// \brief Launch the step-01 kernel on \p stream (M, N multiples of 128, K a multiple of 8).
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step01

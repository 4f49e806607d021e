/// \file step07_multistage/step07_multistage.hpp
/// \brief Step 07's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <string>

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 07: the kernel, its launch and its printout (docs/step07_multistage.md tells the story).
namespace step07 {

/// \brief --svg: the step's own pictures of configuration \p Cfg (one of Variants), written into \p dir
/// (pictures.cpp).
template <class Cfg>
void pipeline_pictures(tut::Options const& o, std::string const& dir);

/// \brief The bugs --bug plants (config.hpp).
enum class Bug : int;

/// \brief Launch the kernel of configuration \p Cfg (one of Variants), with bug \p BUG (Bug::none: the kernel
/// as written), on \p stream. K must be a multiple
/// of 8 and A and B 16-byte aligned; otherwise it throws tut::UsageError.
template <class Cfg, Bug BUG>
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step07

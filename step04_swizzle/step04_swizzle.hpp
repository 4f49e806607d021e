/// \file step04_swizzle/step04_swizzle.hpp
/// \brief Step 04's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <string>

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 04: the kernel, its launch and its printout (docs/step04_swizzle.md tells the story).
namespace step04 {

/// \brief --svg: the step's own pictures of configuration \p Cfg (one of Variants), written into \p dir
/// (pictures.cpp).
template <class Cfg>
void bank_pictures(tut::Options const& o, std::string const& dir);

/// \brief The bugs --bug plants (config.hpp).
enum class Bug : int;

/// \brief Launch the kernel of configuration \p Cfg (one of Variants), with bug \p BUG (Bug::none: the
/// kernel as written), on \p stream, with scalar loads where 128-bit loads do not fit (K % 4 != 0; any M,
/// N, K >= 1).
template <class Cfg, Bug BUG>
void launch_vector_or_scalar(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step04

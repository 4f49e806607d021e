/// \file step03_smem_tiling/step03_smem_tiling.hpp
/// \brief Step 03's entry points, for its main(), the tests and the benchmark.
#pragma once

#include <vector>

#include <cuda_runtime_api.h>

#include "tut/harness.hpp"

/// \brief Step 03: shared-memory tiling, a copy partition and a math partition.
namespace step03 {

/// \brief Launch the step-03 kernel (config Default) on \p stream (any M, N, K >= 1).
void launch(tut::GemmArgs const& args, cudaStream_t stream);

/// \brief One compiled configuration of the kernel, for the benchmark.
struct Variant {
  char const* name;                                                ///< "<BLK_M>x<BLK_N>x<BLK_K>_t<threads>_vec<VEC>" (or _scalar)
  void (*launch)(tut::GemmArgs const& args, cudaStream_t stream);  ///< launches it (any M, N, K >= 1)
};

/// \brief The configurations compiled into this step; the first is Default, the one launch() runs.
std::vector<Variant> const& variants();

/// \brief The step, as the harness drives it.
tut::Step const& step();

}  // namespace step03

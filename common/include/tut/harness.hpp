/// \file harness.hpp
/// \brief The driver every step's main() hands itself to: parse, print, run, verify, time.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>

#include <cuda_runtime_api.h>

#include "tut/cli.hpp"
#include "tut/cuda_check.hpp"
#include "tut/problem.hpp"

namespace tut {

/// \brief Device pointers of one GEMM launch. A and B hold Step::in_type elements.
struct GemmArgs {
  Problem problem;          ///< extents
  void const* A = nullptr;  ///< (M,K), laid out as the step says
  void const* B = nullptr;  ///< (N,K)
  float* C = nullptr;       ///< (M,N)
};

/// \brief What a step tells the harness about itself. Everything here is derived from the step's own
/// config (its CuTe layouts, tiler and TiledMMA), so what is printed is what runs.
struct Step {
  char const* name;                 ///< "step01_naive"
  char const* title;                ///< one line for the banner and --help
  DType in_type;                    ///< type of A and B
  int min_cc;                       ///< oldest compute capability the kernel runs on, e.g. 80
  Problem defaults;                 ///< default problem size
  int threads;                      ///< threads per CTA (range of --thread)
  std::int64_t tile_m;              ///< CTA tile rows: grid = ⌈M/tile_m⌉ × ⌈N/tile_n⌉
  std::int64_t tile_n;              ///< CTA tile cols
  /// \brief "" if the step runs \p p, else why not and which step lifts the limit.
  std::string (*unsupported)(Problem const& p);
  /// \brief Operand strides, read off the step's CuTe layouts for \p p.
  OperandStrides (*strides)(Problem const& p);
  /// \brief Print sections 2-4: the tiler and grid, the traced CTA's and thread's partitions, what is new.
  void (*trace)(std::ostream& os, Options const& o);
  /// \brief Launch the kernel on \p stream (asynchronously; the harness checks for errors).
  void (*launch)(GemmArgs const& args, cudaStream_t stream);
};

/// \brief The CTA grid of \p s for \p p: (⌈M/tile_m⌉, ⌈N/tile_n⌉).
std::pair<std::int64_t, std::int64_t> grid_of(Step const& s, Problem const& p);

/// \brief Check \p o against \p s (sizes, element counts, thread and block ranges); throw UsageError.
void validate(Step const& s, Options const& o);

/// \brief Throw UsageError if A, B and C of \p p do not fit in \p dev's free memory.
void check_device_memory(Step const& s, Problem const& p, DeviceInfo const& dev);

/// \brief The whole program of a step binary. Returns the process exit code (see ExitCode).
int run_step(int argc, char** argv, Step const& s);

}  // namespace tut

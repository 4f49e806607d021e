/// \file status.hpp
/// \brief Exit codes and the two error types every step binary reports through.
#pragma once

#include <stdexcept>
#include <string>

namespace tut {

/// \brief Process exit codes shared by every step binary (GUIDE §2).
enum ExitCode : int {
  kExitVerified    = 0,   ///< the GPU result matched the CPU reference
  kExitWrongResult = 1,   ///< the GPU result did not match, or some entries were never written
  kExitBadUsage    = 2,   ///< bad command line, or a size the step does not support
  kExitCudaError   = 3,   ///< a CUDA call or a kernel failed
  kExitNoGpu       = 77,  ///< no usable GPU (the printout still happened); CTest reads this as "skipped"
};

/// \brief Bad input from the user: reported as one line, exit code kExitBadUsage.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// \brief A failed CUDA runtime call or kernel: exit code kExitCudaError.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// \brief No usable GPU, or one older than the step needs: exit code kExitNoGpu.
struct NoGpuError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace tut

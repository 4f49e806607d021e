/// \file watchdog.hpp
/// \brief Waiting for the GPU without hanging: a kernel that has not finished in time ends the program
/// with one line and exit code 3, instead of holding the terminal (or CI) forever.
///
/// A kernel can wait forever: an mbarrier waited on with the parity it will never reach, a barrier some
/// threads never arrive at. cudaDeviceSynchronize() would then never return. The harness and the
/// benchmark wait through wait_or_exit() instead.
#pragma once

#include <string>

#include "tut/problem.hpp"

namespace tut {

/// \brief The seconds one launch of an M×N×K GEMM may take: \p timeout_s if it is above 0 (--timeout),
/// else generous: 10 times the time at 1 TFLOP/s (slower than any step runs) plus 5 seconds.
double watchdog_seconds(Problem const& p, double timeout_s = 0);

/// \brief Wait until the work queued on the device is done, at most \p seconds. If it is not done by
/// then, print one line to stderr, "<program>: watchdog: <what> has not finished after S s; likely cause:
/// ...", and end the process with exit code 3 (kExitCudaError) at once: a kernel that never finishes
/// cannot be waited for, so nothing is cleaned up.
void wait_or_exit(std::string const& program, std::string const& what, double seconds);

}  // namespace tut

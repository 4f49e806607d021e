// Waiting for the GPU with a time limit (watchdog.hpp).
#include "tut/watchdog.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include <cuda_runtime_api.h>

#include "tut/cuda_check.hpp"
#include "tut/status.hpp"

namespace tut {

double watchdog_seconds(Problem const& p, double timeout_s) {
  if (timeout_s > 0) return timeout_s;
  double const at_1_tflops = 2.0 * double(p.m) * double(p.n) * double(p.k) / 1e12;
  return 10.0 * at_1_tflops + 5.0;
}

void wait_or_exit(std::string const& program, std::string const& what, double seconds) {
  cudaEvent_t done{};
  TUT_CUDA_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
  TUT_CUDA_CHECK(cudaEventRecord(done, nullptr));  // after everything queued on the legacy default stream
  auto const deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  auto nap = std::chrono::microseconds(20);
  for (;;) {
    cudaError_t const e = cudaEventQuery(done);
    if (e == cudaSuccess) break;
    if (e != cudaErrorNotReady) {
      cudaEventDestroy(done);
      TUT_CUDA_CHECK(e);
    }
    if (std::chrono::steady_clock::now() > deadline) {
      std::cout.flush();
      char limit[32];
      std::snprintf(limit, sizeof limit, "%.1f", seconds);
      std::cerr << program << ": watchdog: " << what << " has not finished after " << limit
                << " s; likely cause: a wait that never completes (an mbarrier waited on with the wrong "
                   "parity, or a barrier some threads never reach)\n";
      std::cerr.flush();
      std::_Exit(kExitCudaError);  // no destructors, no atexit: the CUDA runtime's would wait for the kernel
    }
    std::this_thread::sleep_for(nap);
    if (nap < std::chrono::milliseconds(2)) nap *= 2;
  }
  cudaEventDestroy(done);
}

}  // namespace tut

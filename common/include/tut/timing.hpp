/// \file timing.hpp
/// \brief CUDA-event timing.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tut/cuda_check.hpp"

namespace tut {

/// \brief Times work on a stream with a pair of CUDA events (GPU time, not host time).
class GpuTimer {
 public:
  GpuTimer() {
    TUT_CUDA_CHECK(cudaEventCreate(&start_));
    TUT_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~GpuTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  GpuTimer(GpuTimer const&) = delete;
  GpuTimer& operator=(GpuTimer const&) = delete;

  /// \brief Record the start event on \p stream.
  void start(cudaStream_t stream = nullptr) { TUT_CUDA_CHECK(cudaEventRecord(start_, stream)); }
  /// \brief Record the stop event on \p stream, wait for it, and return the elapsed milliseconds.
  float stop(cudaStream_t stream = nullptr) {
    record_stop(stream);
    TUT_CUDA_CHECK(cudaEventSynchronize(stop_));
    return elapsed();
  }
  /// \brief Record the stop event on \p stream and return at once: the caller waits its own way (the
  /// benchmark through its watchdog), then reads elapsed(). Recorded before the wait, the stop event does
  /// not count the wait's own delay.
  void record_stop(cudaStream_t stream = nullptr) { TUT_CUDA_CHECK(cudaEventRecord(stop_, stream)); }
  /// \brief The milliseconds from the start to the stop event, once the stop event has completed.
  float elapsed() const {
    float ms = 0.f;
    TUT_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_{};
  cudaEvent_t stop_{};
};

/// \brief TFLOP/s of an M×N×K GEMM (2·M·N·K flops) that took \p ms milliseconds.
inline double gemm_tflops(std::int64_t m, std::int64_t n, std::int64_t k, double ms) {
  return ms > 0 ? 2.0 * double(m) * double(n) * double(k) / (ms * 1e-3) / 1e12 : 0.0;
}

}  // namespace tut

/// \file cuda_check.hpp
/// \brief CUDA error checking and the device query.
#pragma once

#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include "tut/status.hpp"

/// \brief Evaluate a CUDA runtime call; throw tut::CudaError naming the call and its place if it failed.
#define TUT_CUDA_CHECK(expr) ::tut::cuda_check((expr), #expr, __FILE__, __LINE__)

namespace tut {

/// \brief Throw CudaError("<file>:<line>: <expr> failed: <cuda error string>") unless \p err is cudaSuccess.
void cuda_check(cudaError_t err, char const* expr, char const* file, int line);

/// \brief What the harness needs to know about GPU 0.
struct DeviceInfo {
  bool usable = false;        ///< a CUDA device is present and the runtime could talk to it
  bool absent = false;        ///< not usable because there is no device or no driver (not an error)
  std::string why;            ///< when not usable: what the runtime said
  std::string name;           ///< e.g. "NVIDIA H100 80GB HBM3"
  int cc_major = 0;           ///< compute capability, major
  int cc_minor = 0;           ///< compute capability, minor
  int sm_count = 0;           ///< number of SMs
  std::size_t free_bytes = 0; ///< free device memory
  std::size_t total_bytes = 0;///< total device memory

  /// \brief Compute capability as one number, e.g. 90 for sm_90.
  int cc() const { return cc_major * 10 + cc_minor; }
};

/// \brief Query device 0. Never throws: a machine without a GPU or driver gives usable == false and
/// absent == true; any other failure of the runtime gives usable == false, absent == false.
DeviceInfo query_device();

}  // namespace tut

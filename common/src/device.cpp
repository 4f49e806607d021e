// CUDA error checks and the device query.
#include <string>

#include <cuda_runtime_api.h>

#include "tut/cuda_check.hpp"
#include "tut/problem.hpp"

namespace tut {

void cuda_check(cudaError_t err, char const* expr, char const* file, int line) {
  if (err == cudaSuccess) return;
  throw CudaError(std::string(file) + ":" + std::to_string(line) + ": " + expr + " failed: " +
                  cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

DeviceInfo query_device() {
  DeviceInfo d;
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess || count == 0) {
    d.why = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA device";
    cudaGetLastError();  // clear the sticky-free error state
    return d;
  }
  cudaDeviceProp prop{};
  if ((err = cudaGetDeviceProperties(&prop, 0)) != cudaSuccess ||
      (err = cudaMemGetInfo(&d.free_bytes, &d.total_bytes)) != cudaSuccess) {
    d.why = cudaGetErrorString(err);
    return d;
  }
  d.usable = true;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  return d;
}

char const* dtype_name(DType t) { return t == DType::f16 ? "fp16" : "fp32"; }
std::size_t dtype_bytes(DType t) { return t == DType::f16 ? 2 : 4; }

std::string majorness(std::int64_t stride0, std::int64_t stride1, char const* mode0, char const* mode1) {
  if (stride0 == 1) return std::string(mode0) + "-major";
  if (stride1 == 1) return std::string(mode1) + "-major";
  return "strided";
}

}  // namespace tut

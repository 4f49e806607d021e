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
    d.absent = err == cudaSuccess || err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver;
    cudaGetLastError();  // clear the error state
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

OperandStrides strides_of(Convention const& c, Problem const& p) {
  bool const a_mn = c.a == Major::mn, b_mn = c.b == Major::mn, c_row = c.c == Order::row;
  return {a_mn ? 1 : p.k, a_mn ? p.m : 1,    // A (M,K)
          b_mn ? 1 : p.k, b_mn ? p.n : 1,    // B (N,K)
          c_row ? p.n : 1, c_row ? 1 : p.m}; // C (M,N)
}

std::string major_name(Major m, char mn) { return m == Major::k ? "K-major" : std::string(1, mn) + "-major"; }
std::string order_name(Order o) { return o == Order::row ? "row-major" : "column-major"; }

}  // namespace tut

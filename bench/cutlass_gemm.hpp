// bench_gemm's third baseline: CUTLASS's own Hopper GEMMs for the tutorial's fp16 problem (cutlass_gemm.cu
// says which, and how they are built). Host interface only: bench_gemm.cpp needs no CUTLASS header.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace bench {

// One CUTLASS GEMM set up for one problem and its operands (arguments checked, workspace allocated).
class CutlassGemm {
 public:
  virtual ~CutlassGemm() = default;
  // One launch on \p stream: C = A·Bᵀ. Throws std::runtime_error with CUTLASS's status if it fails.
  virtual void run(cudaStream_t stream) = 0;
};

// The CUTLASS kernels, by name: "pingpong_128x128", "coop_128x256".
std::vector<std::string> cutlass_kernels();

// Whether they run M×N×K: their TMA needs C's rows (N floats) and A's and B's (K halves) 16-byte multiples.
bool cutlass_runs(int M, int N, int K);

// Kernel \p name for C (M,N) row-major = A (M,K) · B (N,K)ᵀ, A and B fp16 and K-major (device pointers),
// C fp32. Throws std::invalid_argument for an unknown name or a size it does not run.
std::unique_ptr<CutlassGemm> cutlass_gemm(std::string const& name, int M, int N, int K, void const* A, void const* B,
                                          float* C);

}  // namespace bench

// The host half of tut/launch.cuh: what needs no template and no nvcc.
#include <cstdint>
#include <mutex>
#include <set>
#include <string>

#include <cuda_runtime_api.h>

#include "tut/cuda_check.hpp"
#include "tut/harness.hpp"
#include "tut/status.hpp"

namespace tut {

namespace {
bool aligned_16(void const* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }
}  // namespace

void check_16_byte_rows(GemmArgs const& args, int chunk, char const* unit) {
  if (args.problem.k % chunk != 0 || !aligned_16(args.A) || !aligned_16(args.B))
    throw UsageError(std::string(unit) + " needs K a multiple of " + std::to_string(chunk) +
                     " and 16-byte aligned A and B (got K=" + std::to_string(args.problem.k) + ")");
}

bool c_rows_aligned(GemmArgs const& args) { return args.problem.n % 4 == 0 && aligned_16(args.C); }

void allow_dynamic_smem(void const* kernel, int bytes) {
  static std::mutex mutex;
  static std::set<void const*> done;  // the kernels that asked already
  std::lock_guard<std::mutex> lock(mutex);
  if (done.count(kernel) != 0) return;
  TUT_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
  done.insert(kernel);
}

}  // namespace tut

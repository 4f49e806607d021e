/// \file problem.hpp
/// \brief The GEMM problem every step solves: C(M,N) = A(M,K) · B(N,K)ᵀ, and its operand layouts.
#pragma once

#include <cstdint>
#include <string>

namespace tut {

/// \brief GEMM extents. C is M×N, A is M×K, B is N×K (CuTe's convention: B is stored as (N,K)).
struct Problem {
  std::int64_t m = 0;  ///< rows of C and A
  std::int64_t n = 0;  ///< columns of C, rows of B
  std::int64_t k = 0;  ///< the reduction extent
};

/// \brief Element type of A and B. C and the accumulators are always fp32.
enum class DType { f32, f16 };

/// \brief "fp32" or "fp16".
char const* dtype_name(DType t);
/// \brief Bytes per element of \p t.
std::size_t dtype_bytes(DType t);

/// \brief Strides of the three operands, read off a step's CuTe layouts so that the CPU reference sees
/// exactly the layouts the kernel sees. A is indexed (m,k), B is (n,k), C is (m,n).
struct OperandStrides {
  std::int64_t a_m;  ///< A(m,k) lives at a_m·m + a_k·k
  std::int64_t a_k;  ///< see a_m
  std::int64_t b_n;  ///< B(n,k) lives at b_n·n + b_k·k
  std::int64_t b_k;  ///< see b_n
  std::int64_t c_m;  ///< C(m,n) lives at c_m·m + c_n·n
  std::int64_t c_n;  ///< see c_m
};

/// \brief How the inputs are filled.
enum class Init {
  random,  ///< uniform in [-1,1] from the printed seed, rounded to the input type
  ones,    ///< every element 1 (each entry of C is then K)
};

/// \brief "M-major", "K-major", ... for a 2-D operand whose modes are named \p mode0 and \p mode1.
std::string majorness(std::int64_t stride0, std::int64_t stride1, char const* mode0, char const* mode1);

}  // namespace tut

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

/// \brief Strides of the three operands. A is indexed (m,k), B is (n,k), C is (m,n).
struct OperandStrides {
  std::int64_t a_m;  ///< A(m,k) lives at a_m·m + a_k·k
  std::int64_t a_k;  ///< see a_m
  std::int64_t b_n;  ///< B(n,k) lives at b_n·n + b_k·k
  std::int64_t b_k;  ///< see b_n
  std::int64_t c_m;  ///< C(m,n) lives at c_m·m + c_n·n
  std::int64_t c_n;  ///< see c_m

  /// \brief Field by field.
  bool operator==(OperandStrides const& o) const {
    return a_m == o.a_m && a_k == o.a_k && b_n == o.b_n && b_k == o.b_k && c_m == o.c_m && c_n == o.c_n;
  }
};

/// \brief Which extent of A or B is contiguous in memory.
enum class Major {
  mn,  ///< A is M-major (stride (1,M)), B is N-major (stride (1,N))
  k,   ///< K-major: A is (K,1) strided, B is (K,1) strided
};

/// \brief How C is stored.
enum class Order {
  row,  ///< row-major: C(m,n) at m·N + n
  col,  ///< column-major: C(m,n) at m + n·M
};

/// \brief The operand convention a step declares. The harness derives the CPU reference's view of the
/// operands from it alone, never from the step's own layout functions: a step whose layouts disagree
/// with what it declares then fails verification.
struct Convention {
  Major a;  ///< A (M,K)
  Major b;  ///< B (N,K)
  Order c;  ///< C (M,N)
};

/// \brief The strides of packed operands of \p p laid out as \p c says.
OperandStrides strides_of(Convention const& c, Problem const& p);

/// \brief "M-major", "K-major", "N-major", "row-major", ... for printing.
std::string major_name(Major m, char mn);
/// \brief "row-major" or "column-major".
std::string order_name(Order o);

/// \brief How the inputs are filled.
enum class Init {
  random,  ///< uniform in [-1,1] from the printed seed, rounded to the input type
  ones,    ///< every element 1 (each entry of C is then K)
};


}  // namespace tut

/// \file reference.hpp
/// \brief The CPU reference GEMM, over CuTe tensors of any layout.
#pragma once

#include <cmath>
#include <cstdint>

#include <cute/tensor.hpp>

namespace tut {

/// \brief One entry of the reference product, and the scale its rounding error is measured against.
struct RefEntry {
  double value = 0;    ///< Σ_k A(m,k)·B(n,k), accumulated in double
  double abs_sum = 0;  ///< Σ_k |A(m,k)·B(n,k)|: the size of the terms, for the error bound
  double sq_sum = 0;   ///< Σ_k (A(m,k)·B(n,k))²: the scale of the rounding error's random walk
};

/// \brief C(m,n) = Σ_k A(m,k)·B(n,k) in double. \p A is an (M,K) tensor and \p B an (N,K) tensor, each with
/// any layout: the reference reads them through the same CuTe layouts the kernel uses.
template <class TensorA, class TensorB>
RefEntry reference_entry(TensorA const& A, TensorB const& B, std::int64_t m, std::int64_t n) {
  RefEntry r;
  auto const K = cute::size<1>(A);
  for (std::int64_t k = 0; k < std::int64_t(K); ++k) {
    double const p = double(A(m, k)) * double(B(n, k));
    r.value += p;
    r.abs_sum += std::abs(p);
    r.sq_sum += p * p;
  }
  return r;
}

/// \brief Plain triple-loop reference, R(m,n) = Σ_k A(m,k)·B(n,k), for every (m,n) of \p R.
template <class TensorA, class TensorB, class TensorR>
void reference_gemm(TensorA const& A, TensorB const& B, TensorR&& R) {
  for (std::int64_t m = 0; m < std::int64_t(cute::size<0>(R)); ++m)
    for (std::int64_t n = 0; n < std::int64_t(cute::size<1>(R)); ++n)
      R(m, n) = reference_entry(A, B, m, n).value;
}

}  // namespace tut

/// \file verify.hpp
/// \brief Checking a GPU result against the CPU reference: poison, coverage, error norms, tolerance.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "tut/problem.hpp"

namespace tut {

/// \brief C is filled with this bit pattern (all bytes 0xFF: a NaN no arithmetic produces) before every
/// run, so an entry that still holds it afterwards was never written by the kernel.
constexpr std::uint32_t kPoisonBits = 0xFFFFFFFFu;

/// \brief True if \p x still holds the poison pattern.
bool is_poison(float x);

/// \brief The relative tolerance for inputs of type \p t and reduction length \p k.
///
/// Inputs are identical on both sides, so the only difference is the fp32 accumulation.
/// - fp32 inputs, FMA on the CUDA cores: each FMA rounds to nearest (unit 2⁻²⁴) and the errors take a
///   random walk, √K steps long: max(1e-5, 4·√K·2⁻²⁴).
/// - fp16 inputs, tensor cores: a product of two halves is exact in fp32, but the adds inside the MMA
///   align to the largest exponent and truncate, with no round-to-nearest to make the errors cancel. The
///   bound is the worst case: each of the K adds loses at most 2⁻²³ of a running sum no larger than
///   Σ_k|A·B|, so max(the fp32 value, K·2⁻²³): 1e-5 up to K = 83, 2⁻¹¹ ≈ 4.9e-4 at K = 4096, 2⁻¹⁰ at 8192.
double default_rtol(DType t, std::int64_t k);

/// \brief How to verify.
struct VerifyConfig {
  double rtol = 1e-5;                         ///< see default_rtol()
  std::int64_t full_limit = std::int64_t(1) << 30;  ///< compare every entry up to this many M·N·K
  std::int64_t samples = 4096;                ///< random entries compared above full_limit, besides the tiles below
  std::int64_t tile_m = 1;                    ///< CTA tile rows: when sampling, the first tile and every tile of the
                                              ///< last tile row and last tile column are always compared
  std::int64_t tile_n = 1;                    ///< CTA tile cols
  std::uint64_t seed = 0;                     ///< picks the random samples
  int max_report = 8;                         ///< mismatches listed in the report
};

/// \brief One wrong or unwritten entry.
struct Mismatch {
  std::int64_t m = 0;         ///< row
  std::int64_t n = 0;         ///< column
  float got = 0;              ///< the GPU value (NaN if unwritten)
  double want = 0;            ///< the reference value
  double bound = 0;           ///< the allowed |got - want|
  bool unwritten = false;     ///< still the poison pattern
};

/// \brief The outcome of verify_gemm().
struct VerifyReport {
  bool pass = false;              ///< every entry written, every checked entry within bound, and rel_frob ≤ rtol
  bool sampled = false;           ///< true if only a sample was compared
  std::int64_t total = 0;         ///< M·N
  std::int64_t checked = 0;       ///< entries compared with the reference
  std::int64_t unwritten = 0;     ///< entries still holding the poison (all M·N are scanned)
  std::int64_t wrong = 0;         ///< compared entries outside their bound
  double max_abs_err = 0;         ///< max |C − R| over the compared entries
  double rel_frob = 0;            ///< ‖C − R‖_F / ‖AB‖ over the compared entries, where
                                  ///< ‖AB‖² = Σ_{m,n} Σ_k (A(m,k)·B(n,k))²
  double rtol = 0;                ///< the tolerance used
  std::vector<Mismatch> first;    ///< the first few mismatches, in (m,n) order of checking
};

/// \brief Compare the GPU's \p C against a double-precision reference computed from \p A and \p B.
///
/// All three are host arrays laid out by \p s (the step's own layouts). Every entry of C is scanned for the
/// poison; entries are compared in full up to cfg.full_limit multiply-adds (M·N·K). Beyond that only a
/// sample is compared: cfg.samples random entries (4096 by default) plus the 4 corners and the centre of
/// the first cfg.tile_m × cfg.tile_n tile and of every tile in the last tile row and the last tile column
/// (the partial tiles, where index bugs show). Other tiles of the first tile row and column are only
/// reached by the random samples. An entry (m,n) passes when |C − R| ≤ rtol·Σ_k|A(m,k)·B(n,k)|; the whole
/// passes when every entry is written, every compared entry passes, and ‖C−R‖_F/‖AB‖ ≤ rtol over the
/// compared entries, with ‖AB‖² = Σ_{m,n} Σ_k (A(m,k)·B(n,k))². For independent zero-mean inputs ‖AB‖
/// equals ‖R‖_F in expectation, but unlike ‖R‖_F it does not collapse when the few entries of a small
/// problem cancel; and it is about √K smaller than the per-entry bounds' Σ_k|A·B|, so the norm criterion
/// still catches an error spread thinly over every entry.
VerifyReport verify_gemm(Problem const& p, OperandStrides const& s, float const* A, float const* B,
                         float const* C, VerifyConfig const& cfg);

/// \brief Print the verification line ("PASS ..."/"FAIL ...") and, on failure, the first mismatches.
void print_report(std::ostream& os, VerifyReport const& r);

}  // namespace tut

/// \file random.hpp
/// \brief Seeded input generation, rounded to the input type.
#pragma once

#include <cstdint>
#include <vector>

#include "tut/problem.hpp"

namespace tut {

/// \brief Round \p x to the nearest value representable in \p t (identity for fp32).
float round_to(DType t, float x);

/// \brief Fill \p v with inputs for \p t: uniform in [-1,1] from \p seed (or all ones), already
/// rounded to \p t so that the GPU and the CPU reference multiply the very same numbers.
void fill_inputs(std::vector<float>& v, DType t, Init init, std::uint64_t seed);

/// \brief IEEE binary16 bit patterns of \p v (whose values must already be fp16-representable).
std::vector<std::uint16_t> to_f16_bits(std::vector<float> const& v);

/// \brief A fresh seed from std::random_device, for runs that do not pass --seed.
std::uint64_t fresh_seed();

}  // namespace tut

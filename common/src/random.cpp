// Seeded inputs, rounded to the input type.
#include "tut/random.hpp"

#include <cstring>
#include <random>

#include <cuda_fp16.h>

namespace tut {

float round_to(DType t, float x) { return t == DType::f16 ? __half2float(__float2half_rn(x)) : x; }

void fill_inputs(std::vector<float>& v, DType t, Init init, std::uint64_t seed) {
  if (init == Init::ones) {
    std::fill(v.begin(), v.end(), 1.0f);
    return;
  }
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (auto& x : v) x = round_to(t, dist(gen));
}

std::vector<std::uint16_t> to_f16_bits(std::vector<float> const& v) {
  std::vector<std::uint16_t> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    __half const h = __float2half_rn(v[i]);
    std::memcpy(&out[i], &h, sizeof(h));
  }
  return out;
}

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (std::uint64_t(rd()) << 32 | rd()) % 1000000007ull;  // short enough to retype
}

}  // namespace tut

/// \file buffers.hpp
/// \brief An owning device buffer; host buffers are plain std::vector.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

#include "tut/cuda_check.hpp"
#include "tut/problem.hpp"
#include "tut/random.hpp"

namespace tut {

/// \brief Owning, move-only array of \p T in device memory.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  /// \brief Allocate \p count elements (uninitialised).
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count_ > 0) TUT_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ptr_), bytes()));
  }
  ~DeviceBuffer() { if (ptr_) cudaFree(ptr_); }
  DeviceBuffer(DeviceBuffer const&) = delete;
  DeviceBuffer& operator=(DeviceBuffer const&) = delete;
  /// \brief Take over \p other's allocation.
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : ptr_(std::exchange(other.ptr_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  /// \brief Release ours, take over \p other's allocation.
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      if (ptr_) cudaFree(ptr_);
      ptr_ = std::exchange(other.ptr_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* get() const { return ptr_; }                             ///< device pointer
  std::size_t size() const { return count_; }                 ///< number of elements
  std::size_t bytes() const { return count_ * sizeof(T); }    ///< number of bytes

  /// \brief Copy \p host (exactly size() elements) to the device.
  void upload(std::vector<T> const& host) {
    if (host.size() != count_) throw CudaError("DeviceBuffer::upload: size mismatch");
    TUT_CUDA_CHECK(cudaMemcpy(ptr_, host.data(), bytes(), cudaMemcpyHostToDevice));
  }
  /// \brief Copy the device contents into \p host (resized to size()).
  void download(std::vector<T>& host) const {
    host.resize(count_);
    TUT_CUDA_CHECK(cudaMemcpy(host.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
  }
  /// \brief Set every byte to \p byte (0xFF turns every fp32 element into the poison NaN).
  void fill_bytes(int byte) { TUT_CUDA_CHECK(cudaMemset(ptr_, byte, bytes())); }

 private:
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
};

/// \brief Copy inputs \p h (already rounded to \p t) into \p d as elements of type \p t: fp32 as they
/// are, fp16 as IEEE binary16. \p d holds h.size()·dtype_bytes(t) bytes.
inline void upload_inputs(DeviceBuffer<unsigned char>& d, std::vector<float> const& h, DType t) {
  if (d.bytes() != h.size() * dtype_bytes(t)) throw CudaError("upload_inputs: size mismatch");
  if (t == DType::f16) {
    auto bits = to_f16_bits(h);
    TUT_CUDA_CHECK(cudaMemcpy(d.get(), bits.data(), d.bytes(), cudaMemcpyHostToDevice));
  } else {
    TUT_CUDA_CHECK(cudaMemcpy(d.get(), h.data(), d.bytes(), cudaMemcpyHostToDevice));
  }
}

}  // namespace tut

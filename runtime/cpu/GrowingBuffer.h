//===- GrowingBuffer.h - Reused storage that only grows ---------*- C++ -*-===//
//
// Per-thread storage the runtime hands to generated code again and again (a
// block's shared memory, the groups of a launch's sliced blocks): kept from
// use to use and only ever grown, so that steady state allocates nothing.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_GROWINGBUFFER_H
#define RESPEC_RUNTIME_CPU_GROWINGBUFFER_H

#include <cstdint>
#include <new>

namespace respec::cpu {

class GrowingBuffer {
public:
  /// Alignment of the storage: enough for any CUDA type, and a cache line.
  static constexpr uint64_t alignment = 64;

  GrowingBuffer() = default;
  GrowingBuffer(const GrowingBuffer &) = delete;
  GrowingBuffer &operator=(const GrowingBuffer &) = delete;
  ~GrowingBuffer() { release(); }

  /// Storage of at least `bytes` bytes (and never null). Growing it loses
  /// what it held; it grows at least twofold, so that a sequence of growing
  /// requests reallocates only a few times.
  char *reserve(uint64_t bytes) {
    if (!buffer || bytes > capacity) {
      uint64_t wanted = capacity * 2 > bytes ? capacity * 2 : bytes;
      wanted = (wanted + alignment - 1) / alignment * alignment;
      if (wanted == 0)
        wanted = alignment;
      release();
      buffer = static_cast<char *>(
          ::operator new(wanted, std::align_val_t(alignment)));
      capacity = wanted;
    }
    return buffer;
  }

  /// The storage, or null before the first reserve.
  char *data() const { return buffer; }

private:
  void release() {
    if (buffer)
      ::operator delete(buffer, std::align_val_t(alignment));
    buffer = nullptr;
    capacity = 0;
  }

  char *buffer = nullptr;
  uint64_t capacity = 0;
};

} // namespace respec::cpu

#endif // RESPEC_RUNTIME_CPU_GROWINGBUFFER_H

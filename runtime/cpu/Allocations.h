//===- Allocations.h - What the runtime knows about each pointer ----------===//
//
// On the CPU device, device, pinned-host and managed memory are all ordinary
// host memory. The runtime still tracks which allocation API produced each
// block, because CUDA programs observe it: cudaFree of a pointer that
// cudaMalloc did not return fails, cudaPointerGetAttributes reports a type.
//
//===----------------------------------------------------------------------===//

#ifndef RESPEC_RUNTIME_CPU_ALLOCATIONS_H
#define RESPEC_RUNTIME_CPU_ALLOCATIONS_H

#include <cuda_runtime_api.h>

#include <cstddef>

namespace respec {
namespace cpu {

enum class AllocationKind {
  Device,         ///< cudaMalloc, cudaMallocPitch, cudaMalloc3D
  Managed,        ///< cudaMallocManaged
  PinnedHost,     ///< cudaMallocHost, cudaHostAlloc
  RegisteredHost, ///< cudaHostRegister (memory owned by the program)
  /// A `__managed__` variable (memory owned by the program): managed for
  /// cudaPointerGetAttributes, but never freed.
  ManagedVariable,
};

/// x86 cores take a load for dependent on an earlier store whose address
/// agrees with it modulo this many bytes (see Allocations.cpp).
inline constexpr size_t aliasingPeriod = 4096;

struct Allocation {
  void *base = nullptr;
  size_t size = 0;
  AllocationKind kind = AllocationKind::Device;
  unsigned flags = 0;
  /// What the runtime got from the C library (`base` may lie past it); null
  /// for registered host ranges.
  void *storage = nullptr;
};

/// Allocates `size` bytes (at least 1) aligned like cudaMalloc's (256 bytes)
/// and records it; null when out of memory. Large allocations start at
/// staggered offsets within a 4 KiB page (see Allocations.cpp).
void *allocate(size_t size, AllocationKind kind, unsigned flags);

/// Frees the allocation starting exactly at `ptr` if it has kind `kind`
/// (Device and Managed are interchangeable, as for cudaFree).
bool release(void *ptr, AllocationKind kind);

/// Records or forgets a program-owned range (cudaHostRegister; `kind` is
/// RegisteredHost or ManagedVariable).
bool registerRange(void *ptr, size_t size, unsigned flags,
                   AllocationKind kind = AllocationKind::RegisteredHost);
bool unregisterRange(void *ptr);

/// The allocation containing `ptr`, if any.
bool findAllocation(const void *ptr, Allocation *found);

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_ALLOCATIONS_H

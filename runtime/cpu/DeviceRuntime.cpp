//===- DeviceRuntime.cpp - Services generated device code calls -----------===//
//
// Shared memory, assert, clocks (abi.h). Device printf is in DevicePrintf.cpp.
//
//===----------------------------------------------------------------------===//

#include "respec_rt/abi.h"

#include "Allocations.h"
#include "DeviceProperties.h"
#include "GrowingBuffer.h"
#include "Launch.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <pthread.h>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

extern "C" int omp_get_thread_num(void) __attribute__((weak));

namespace {

/// One block's shared memory per host thread. Generated code asks for it at
/// the start of each block it runs on this thread, so the buffer only grows.
class SharedMemoryArena {
public:
  void *get(uint64_t bytes) {
    used = bytes;
    return storage.reserve(bytes);
  }

  /// Whether `pointer` points into the shared memory of the block this host
  /// thread runs now.
  bool contains(const void *pointer) const {
    auto address = reinterpret_cast<uintptr_t>(pointer);
    auto start = reinterpret_cast<uintptr_t>(storage.data());
    return storage.data() && address >= start && address - start < used;
  }

private:
  respec::cpu::GrowingBuffer storage;
  uint64_t used = 0;
};

thread_local SharedMemoryArena sharedMemory;

/// Per-host-thread bump allocator for the block-scope arrays of barrier
/// lowering (a 1024-thread block keeping a 1 KiB local array across a
/// barrier needs 1 MiB: too much for thread stacks). Everything allocated
/// for one block is released at once when the next block starts; chunks are
/// kept, so steady state allocates nothing.
class BlockScratchArena {
public:
  ~BlockScratchArena() {
    for (Chunk &chunk : chunks)
      ::operator delete(chunk.data, std::align_val_t(alignment));
  }

  void reset() {
    current = 0;
    offset = 0;
  }

  bool contains(const void *pointer) const {
    auto address = reinterpret_cast<uintptr_t>(pointer);
    for (const Chunk &chunk : chunks) {
      auto start = reinterpret_cast<uintptr_t>(chunk.data);
      if (address >= start && address - start < chunk.size)
        return true;
    }
    return false;
  }

  void *allocate(uint64_t bytes) {
    bytes = (bytes + alignment - 1) / alignment * alignment;
    if (bytes == 0)
      bytes = alignment;
    for (; current < chunks.size(); ++current, offset = 0) {
      if (offset + bytes <= chunks[current].size) {
        void *result = static_cast<char *>(chunks[current].data) + offset;
        offset += bytes;
        return result;
      }
    }
    uint64_t size = chunks.empty() ? minChunk : chunks.back().size * 2;
    if (size < bytes)
      size = bytes;
    chunks.push_back({::operator new(size, std::align_val_t(alignment)), size});
    current = chunks.size() - 1;
    offset = bytes;
    return chunks.back().data;
  }

private:
  struct Chunk {
    void *data;
    uint64_t size;
  };
  static constexpr uint64_t alignment = 64;
  static constexpr uint64_t minChunk = 1 << 20;
  std::vector<Chunk> chunks;
  size_t current = 0;
  uint64_t offset = 0;
};

thread_local BlockScratchArena blockScratch;

/// Whether `pointer` points into the calling thread's stack.
bool onThisThreadStack(const void *pointer) {
  thread_local uintptr_t low = 0, high = 0;
  if (!high) {
    pthread_attr_t attributes;
    void *start = nullptr;
    size_t size = 0;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0)
      return false;
    pthread_attr_getstack(&attributes, &start, &size);
    pthread_attr_destroy(&attributes);
    low = reinterpret_cast<uintptr_t>(start);
    high = low + size;
  }
  auto address = reinterpret_cast<uintptr_t>(pointer);
  return address >= low && address < high;
}

} // namespace

// Generated code is told (CPUBackend.cpp, describeRuntimeAllocators) that
// these two return 64-byte aligned storage that no other pointer of the
// calling block points into: keep it so.
extern "C" void *__respec_shared_memory(uint64_t bytes) {
  return sharedMemory.get(bytes);
}

extern "C" void *__respec_block_scratch(uint64_t bytes) {
  return blockScratch.allocate(bytes);
}

extern "C" void __respec_block_scratch_reset(void) { blockScratch.reset(); }

extern "C" uint32_t __respec_nsmid(void) {
  return uint32_t(respec::cpu::deviceProperties().multiProcessorCount);
}

extern "C" uint32_t __respec_smid(void) {
  // Weak: programs without kernels do not link libomp.
  int thread = omp_get_thread_num ? omp_get_thread_num() : 0;
  return uint32_t(thread) % __respec_nsmid();
}

// PTX `fns.b32` (CUDA's __fns): the position of the |offset|-th set bit of
// `mask` counting from bit `base` (included) upwards for a positive offset,
// downwards for a negative one; for offset 0, `base` itself if that bit is
// set. 0xffffffff if there is no such bit.
extern "C" uint32_t __respec_fns(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31)
    return 0xffffffffu;
  if (offset == 0)
    return (mask >> base) & 1u ? base : 0xffffffffu;
  int64_t remaining = offset > 0 ? int64_t(offset) : -int64_t(offset);
  int step = offset > 0 ? 1 : -1;
  for (int position = int(base); position >= 0 && position < 32;
       position += step)
    if ((mask >> position) & 1u && --remaining == 0)
      return uint32_t(position);
  return 0xffffffffu;
}

extern "C" int32_t __respec_address_space(const void *pointer) {
  if (sharedMemory.contains(pointer))
    return RESPEC_ADDRESS_SPACE_SHARED;
  // A thread's local variables live on the stack, or in block scratch where
  // they are live across a barrier.
  if (onThisThreadStack(pointer) || blockScratch.contains(pointer))
    return RESPEC_ADDRESS_SPACE_LOCAL;
  return RESPEC_ADDRESS_SPACE_GLOBAL;
}

extern "C" int32_t __respec_distinct_allocations(const void *a,
                                                 const void *b) {
  // Memory the runtime allocated holds no other object: a pointer outside
  // it (a global variable, host memory, another allocation) points
  // elsewhere. A registered host range (cudaHostRegister) may be part of a
  // larger array of the program, and two pointers outside all allocations
  // may point into the same array: no answer for those.
  respec::cpu::Allocation first, second;
  bool inFirst = respec::cpu::findAllocation(a, &first);
  bool inSecond = respec::cpu::findAllocation(b, &second);
  bool ownedFirst = inFirst && first.storage;
  bool ownedSecond = inSecond && second.storage;
  if (!ownedFirst && !ownedSecond)
    return 0;
  return !(inFirst && inSecond && first.base == second.base);
}

extern "C" void __respec_assertfail(const char *message, const char *file,
                                    uint32_t line, const char *function,
                                    uint64_t) {
  // CUDA's device assert message format; the CPU has no way to report the
  // failing block and thread after the fact, so the process stops here.
  std::fflush(stdout);
  std::fprintf(
      stderr, "%s:%u: %s: Assertion `%s` failed.\n", file ? file : "<unknown>",
      line, function ? function : "<unknown>", message ? message : "<unknown>");
  std::fflush(stderr);
  std::abort();
}

extern "C" void __respec_trap(void) {
  // A GPU ends the kernel and every later API call fails with
  // cudaErrorLaunchFailure; on the CPU the other threads of the grid cannot
  // be stopped cleanly, so the process stops, as for a failed assert.
  std::fflush(stdout);
  std::fprintf(stderr, "respec: a kernel executed __trap() (PTX trap): "
                       "unspecified launch failure\n");
  if (respec::cpu::gridSyncOutsideCooperativeLaunch())
    std::fprintf(stderr,
                 "respec: note: a kernel that synchronizes its grid "
                 "(cooperative groups' this_grid().sync()) was launched "
                 "without cudaLaunchCooperativeKernel, where grid.sync() "
                 "traps\n");
  std::fflush(stderr);
  std::abort();
}

extern "C" uint64_t __respec_clock64(void) {
#if defined(__x86_64__) || defined(__i386__)
  return __rdtsc();
#else
  return static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
#endif
}

extern "C" uint64_t __respec_globaltimer_ns(void) {
  // %globaltimer counts nanoseconds since an unspecified epoch.
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(
          std::chrono::system_clock::now().time_since_epoch())
          .count());
}

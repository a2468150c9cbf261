//===- SliceGroups.cpp - Blocks whose threads run on several cores --------===//
//
// A grid of fewer blocks than cores may run each block as slices of its
// threads on several cores (respec-parallelize-few-block-grids). For
// kernels with `__syncthreads()`, the slices of a block share its shared
// memory and wait for each other between the phases barrier lowering left:
// a group of slices per block, whose state the launching thread sets up
// before the launch's parallel region and every slice uses inside it.
//
// The slices of a group wait for each other, so all must run at once: the
// compiler takes the sliced version only for a team no larger than
// `__respec_slice_team_size()` says OpenMP will give, and gives the grid a
// static schedule of one slice per thread. OpenMP may still give fewer
// threads (KMP_DEVICE_THREAD_LIMIT, which no API reports): each slice asks
// `__respec_slice_team_ready()` first, and if the team is too small the
// first slice of each block runs the whole block, as without slices.
//
//===----------------------------------------------------------------------===//

#include "GrowingBuffer.h"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <new>

#include <sched.h>

// libomp's API, weak so that the runtime links into programs without
// kernels (which do not link libomp).
extern "C" {
int omp_get_max_threads(void) __attribute__((weak));
int omp_get_num_threads(void) __attribute__((weak));
int omp_get_dynamic(void) __attribute__((weak));
int omp_get_active_level(void) __attribute__((weak));
int omp_get_thread_limit(void) __attribute__((weak));
int omp_get_num_procs(void) __attribute__((weak));
}

namespace {

constexpr uint64_t kCacheLine = 64;

/// The state of one block's slices, a cache line of its own so that the
/// spinning of one group does not slow another's.
struct alignas(kCacheLine) SliceGroup {
  /// Slices that reached the barrier of the current phase.
  std::atomic<uint32_t> arrived;
  /// Barriers passed so far; waiting slices spin until it changes.
  std::atomic<uint32_t> phase;
  /// Slices in the group, and in the launch (the team it needs).
  uint32_t slices, team;
  /// The block's shared memory, and the per-thread storage that barrier
  /// lowering keeps in block-scope arrays (each thread's part used by its
  /// slice, or by a neighbouring one between barriers).
  char *shared, *perThread;
};

/// Where a launching thread keeps its launches' groups and their storage:
/// one launch at a time per thread, so the storage is reused from launch to
/// launch and only grows.
class SliceGroupStorage {
public:
  SliceGroup *prepare(uint64_t groups, uint64_t slices, uint64_t sharedBytes,
                      uint64_t perThreadBytes) {
    uint64_t sharedStride = roundUp(sharedBytes);
    uint64_t perThreadStride = roundUp(perThreadBytes);
    char *buffer = storage.reserve(
        groups * (sizeof(SliceGroup) + sharedStride + perThreadStride));
    auto *table = reinterpret_cast<SliceGroup *>(buffer);
    char *shared = buffer + groups * sizeof(SliceGroup);
    char *perThread = shared + groups * sharedStride;
    for (uint64_t group = 0; group < groups; ++group) {
      SliceGroup *state = new (&table[group]) SliceGroup;
      state->arrived.store(0, std::memory_order_relaxed);
      state->phase.store(0, std::memory_order_relaxed);
      state->slices = uint32_t(slices);
      state->team = uint32_t(groups * slices);
      state->shared = shared + group * sharedStride;
      state->perThread = perThread + group * perThreadStride;
    }
    return table;
  }

private:
  static uint64_t roundUp(uint64_t bytes) {
    return (bytes + kCacheLine - 1) / kCacheLine * kCacheLine;
  }

  respec::cpu::GrowingBuffer storage;
};

thread_local SliceGroupStorage groupStorage;

/// Spins before a waiting slice starts yielding its core (a few
/// microseconds): a slice descheduled by other work on the machine then
/// gets the core back soon.
constexpr unsigned kSpinsBeforeYield = 512;

/// Yields after which a waiting slice checks that its team is as large as
/// its grid needs, the one way a barrier of slices could wait forever.
constexpr unsigned kYieldsBeforeCheck = 1u << 16;

[[noreturn]] void reportSmallTeam(uint32_t team) {
  std::fprintf(stderr,
               "respec: internal error: a grid's blocks run as %u slices of "
               "threads that wait for each other, but the OpenMP team has "
               "only %d threads\n",
               team, omp_get_num_threads());
  std::abort();
}

/// Tells the core that this thread spins.
inline void relaxWhileSpinning() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

} // namespace

extern "C" int __respec_slice_team_size(void) {
  // Weak: without libomp, or where OpenMP may give a parallel region fewer
  // threads than it asks for (dynamic adjustment, a nested region), no
  // slices wait for each other.
  if (!omp_get_max_threads || !omp_get_dynamic || !omp_get_active_level ||
      !omp_get_thread_limit)
    return 1;
  if (omp_get_dynamic() || omp_get_active_level() > 0)
    return 1;
  int threads = omp_get_max_threads();
  int limit = omp_get_thread_limit();
  if (limit < threads)
    threads = limit;
  // Slices that wait for each other on fewer cores than slices take turns
  // at every barrier (OMP_NUM_THREADS=4 on 2 cores: a 4-slice block with
  // many barriers ran 700x slower): no more slices than the processors the
  // process may run on.
  int processors = omp_get_num_procs ? omp_get_num_procs() : 1;
  return threads < processors ? threads : processors;
}

extern "C" void *__respec_slice_groups_begin(uint64_t groups, uint64_t slices,
                                             uint64_t sharedBytes,
                                             uint64_t perThreadBytes) {
  return groupStorage.prepare(groups, slices, sharedBytes, perThreadBytes);
}

extern "C" int32_t __respec_slice_team_ready(void *groups) {
  // Every group records the team the launch needs; the team is the caller's.
  uint32_t needed = static_cast<SliceGroup *>(groups)[0].team;
  int threads = omp_get_num_threads ? omp_get_num_threads() : 1;
  return threads >= 0 && uint32_t(threads) >= needed;
}

extern "C" void *__respec_slice_group_shared(void *groups, uint64_t group) {
  return static_cast<SliceGroup *>(groups)[group].shared;
}

extern "C" void *__respec_slice_group_private(void *groups, uint64_t group) {
  return static_cast<SliceGroup *>(groups)[group].perThread;
}

extern "C" void __respec_slice_barrier(void *groups, uint64_t group) {
  SliceGroup &state = static_cast<SliceGroup *>(groups)[group];
  // Read before arriving: the phase cannot move on before this slice
  // arrives.
  uint32_t phase = state.phase.load(std::memory_order_acquire);
  if (state.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 ==
      state.slices) {
    state.arrived.store(0, std::memory_order_relaxed);
    state.phase.store(phase + 1, std::memory_order_release);
    return;
  }
  unsigned spins = 0, yields = 0;
  while (state.phase.load(std::memory_order_acquire) == phase) {
    if (spins < kSpinsBeforeYield) {
      ++spins;
      relaxWhileSpinning();
      continue;
    }
    sched_yield();
    if (++yields == kYieldsBeforeCheck && omp_get_num_threads &&
        omp_get_num_threads() < int(state.team))
      reportSmallTeam(state.team);
  }
}

//===- MemoryPools.h - Stream-ordered allocation on the CPU device --------===//

#ifndef RESPEC_RUNTIME_CPU_MEMORYPOOLS_H
#define RESPEC_RUNTIME_CPU_MEMORYPOOLS_H

namespace respec {
namespace cpu {

/// Tells the pools that `ptr` was freed by cudaFree (or cudaFreeHost),
/// which CUDA allows for memory from cudaMallocAsync: its pool stops
/// counting it. Nothing happens for memory no pool handed out.
void forgetPoolAllocation(void *ptr);

} // namespace cpu
} // namespace respec

#endif // RESPEC_RUNTIME_CPU_MEMORYPOOLS_H

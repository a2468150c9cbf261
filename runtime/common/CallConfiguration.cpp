//===- CallConfiguration.cpp - kernel<<<...>>> configuration stack --------===//
//
// Clang lowers `kernel<<<grid, block, shmem, stream>>>(args)` to a push of the
// configuration followed by a call of the kernel's host stub, which pops it and
// calls cudaLaunchKernel. Argument expressions may themselves launch kernels,
// so the configurations form a stack, one per host thread.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include <vector>

namespace {

struct CallConfiguration {
  dim3 grid;
  dim3 block;
  size_t sharedMem;
  cudaStream_t stream;
};

thread_local std::vector<CallConfiguration> pendingConfigurations;

} // namespace

extern "C" unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                size_t sharedMem,
                                                struct CUstream_st *stream) {
  pendingConfigurations.push_back({gridDim, blockDim, sharedMem, stream});
  return 0;
}

extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                  size_t *sharedMem,
                                                  void *stream) {
  if (pendingConfigurations.empty())
    return respec::reportError(cudaErrorMissingConfiguration,
                               "__cudaPopCallConfiguration",
                               "kernel stub called without <<<...>>>");
  CallConfiguration configuration = pendingConfigurations.back();
  pendingConfigurations.pop_back();
  *gridDim = configuration.grid;
  *blockDim = configuration.block;
  *sharedMem = configuration.sharedMem;
  *static_cast<cudaStream_t *>(stream) = configuration.stream;
  return cudaSuccess;
}

// A warp primitive the CPU back end does not implement in its context is
// rejected at the user's line, naming the CUDA primitive: __activemask in a
// kernel with a block barrier (whose warps cannot run as interleaved
// lanes); the shuffles next to it compile.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void warpSum(int *x) {
  int v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  __syncthreads();
  // CHECK: {{.*}}diag-warp-unsupported.cu:[[@LINE+1]]:8: error: kernel 'warpSum(int*)' uses a warp-level primitive (__activemask) that the CPU back end does not support here (it supports __activemask only where warps run as interleaved lanes: no __syncthreads in the kernel, not in a for loop whose bounds differ between lanes; no shuffles with a validity predicate; no primitives in functions that could not be inlined into their kernel)
  v += __activemask();
  x[threadIdx.x] = v;
}

int main() { return 0; }

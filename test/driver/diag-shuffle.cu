// A kernel with a warp shuffle is rejected at the user's line, naming the
// CUDA primitive.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void warpSum(int *x) {
  int v = x[threadIdx.x];
  // CHECK: {{.*}}diag-shuffle.cu:[[@LINE+1]]:8: error: kernel 'warpSum(int*)' uses a warp-level primitive (__shfl_down_sync); the CPU back end does not support warp primitives yet
  v += __shfl_down_sync(0xffffffffu, v, 1);
  x[threadIdx.x] = v;
}

int main() { return 0; }

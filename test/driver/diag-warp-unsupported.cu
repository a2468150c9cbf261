// A warp primitive the CPU back end does not implement is rejected at the
// user's line, naming the CUDA primitive; the shuffles next to it compile.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void warpSum(int *x) {
  int v = x[threadIdx.x];
  v += __shfl_down_sync(0xffffffffu, v, 1);
  // CHECK: {{.*}}diag-warp-unsupported.cu:[[@LINE+1]]:8: error: kernel 'warpSum(int*)' uses a warp-level primitive (__activemask); the CPU back end does not support warp primitives yet
  v += __activemask();
  x[threadIdx.x] = v;
}

int main() { return 0; }

// A barrier that not every thread of the block reaches is undefined
// behaviour in CUDA: respec warns at the branch, and the program still
// compiles, runs without hanging and synchronizes the threads that arrive.
// RUN: %respec -O2 %s -o %t 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: %t | FileCheck %s
// WARN: diag-divergent-barrier.cu:[[@LINE+10]]:{{[0-9]+}}: warning: __syncthreads under control flow that depends on threadIdx
// WARN-NOT: warning
// CHECK: sum 6

#include <cstdio>
#include <cuda_runtime.h>

__global__ void firstFour(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  if (t >= 4)
    return;
  s[t] = t;
  __syncthreads();
  if (t == 0)
    *out = s[0] + s[1] + s[2] + s[3];
}

int main() {
  int *d, h = -1;
  cudaMalloc(&d, sizeof(int));
  firstFour<<<1, 64>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d\n", h);
  return 0;
}

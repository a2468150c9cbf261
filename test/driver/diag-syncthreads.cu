// A kernel with a block barrier is rejected at the user's line.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void reverse(float *x) {
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  // CHECK: {{.*}}diag-syncthreads.cu:[[@LINE+1]]:3: error: kernel 'reverse(float*)' uses a block barrier (__syncthreads); the CPU back end does not support barriers yet
  __syncthreads();
  x[threadIdx.x] = s[63 - threadIdx.x];
}

int main() { return 0; }

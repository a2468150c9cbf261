// A barrier over part of the block (bar.sync with a thread count) is
// rejected at the user's line; __syncthreads itself compiles.
// RUN: not %respec -c %s -o %t.o 2>&1 | FileCheck %s

#include <cuda_runtime.h>

__global__ void reverse(float *x) {
  __shared__ float s[64];
  s[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  // CHECK: {{.*}}diag-partial-barrier.cu:[[@LINE+1]]:3: error: kernel 'reverse(float*)' uses a barrier over part of the block (__barrier_sync_count
  __barrier_sync_count(1, 32);
  x[threadIdx.x] = s[63 - threadIdx.x];
}

int main() { return 0; }

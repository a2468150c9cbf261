// __trap() in a kernel stops the program with a message (a GPU reports an
// unspecified launch failure) instead of the CPU's illegal-instruction signal.
// RUN: %respec -O2 %s -o %t
// RUN: not --crash %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// CHECK: before the launch
// CHECK: respec: a kernel executed __trap() (PTX trap): unspecified launch failure
// CHECK-NOT: after the launch

#include <cstdio>
#include <cuda_runtime.h>

__global__ void check(const int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && data[i] < 0)
    __trap();
}

int main() {
  int host[64];
  for (int i = 0; i < 64; ++i)
    host[i] = i == 37 ? -1 : i;
  int *d;
  cudaMalloc(&d, sizeof host);
  cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice);
  printf("before the launch\n");
  check<<<2, 32>>>(d, 64);
  cudaDeviceSynchronize();
  printf("after the launch\n");
  return 0;
}

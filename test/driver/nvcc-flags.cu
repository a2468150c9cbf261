// nvcc's GPU-selection and host-compiler flags are accepted; -D, -I and
// -std take effect.
// RUN: %respec -arch=sm_80 -gencode arch=compute_80,code=sm_80 -lineinfo --use_fast_math -Xcompiler -fPIC,-Wall -std=c++17 -DVALUE=3 -I%S/Inputs %s -o %t
// RUN: %t | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>
#include "flags_header.h"

#ifndef VALUE
#error "VALUE not defined by -DVALUE=3"
#endif
static_assert(VALUE == 3, "-DVALUE=3 sets VALUE to 3");

// C++17: inline variables and if constexpr.
inline constexpr int kThreads = 64;

template <int N> __global__ void addN(int *x) {
  int i = threadIdx.x;
  if constexpr (N > 0)
    x[i] = addMagic(i) + N;
}

int main() {
  int *d;
  cudaMalloc(&d, kThreads * sizeof(int));
  addN<VALUE><<<1, kThreads>>>(d);
  int h[kThreads];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < kThreads; ++i)
    if (h[i] != i + FLAGS_HEADER_MAGIC + VALUE) {
      std::printf("FAILED at %d: %d\n", i, h[i]);
      return 1;
    }
  std::printf("PASSED\n");
  return 0;
}

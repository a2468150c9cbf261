// Conversions between __int128 and floating-point types in device code:
// LLVM's NVPTX code generator has none (it stopped with "LLVM ERROR:
// unsupported library call operation"), so --target=nvptx reports each at
// the user's line; the CPU target compiles and runs them.
// RUN: not %respec --target=nvptx --emit=ptx %s -o %t.ptx 2>&1 | FileCheck %s
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s --check-prefix=CPU
// CHECK: diag-int128-nvptx.cu:[[@LINE+8]]:{{[0-9]+}}: error: conversion between a 128-bit integer and a floating-point type in 'toWide(double const*, long long*)' is not supported for --target=nvptx yet
// CHECK: diag-int128-nvptx.cu:[[@LINE+14]]:{{[0-9]+}}: error: conversion between a 128-bit integer and a floating-point type in 'fromWide(long long const*, float*)' is not supported for --target=nvptx yet
// CHECK-NOT: LLVM ERROR
// CPU: PASSED

#include <cstdio>

__global__ void toWide(const double *a, long long *q) {
  __int128 x = (__int128)a[threadIdx.x];
  x <<= 40;
  q[threadIdx.x] = (long long)(x >> 64);
}

__global__ void fromWide(const long long *a, float *f) {
  unsigned __int128 x = (unsigned __int128)a[threadIdx.x] << 70;
  f[threadIdx.x] = (float)x;
}

int main() {
  double *d;
  long long *q, *l;
  float *f;
  cudaMallocManaged(&d, 32 * sizeof(double));
  cudaMallocManaged(&q, 32 * sizeof(long long));
  cudaMallocManaged(&l, 32 * sizeof(long long));
  cudaMallocManaged(&f, 32 * sizeof(float));
  for (int i = 0; i < 32; ++i) {
    d[i] = 1.5e15 * (i + 1);
    l[i] = i + 1;
  }
  toWide<<<1, 32>>>(d, q);
  fromWide<<<1, 32>>>(l, f);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < 32; ++i) {
    __int128 x = (__int128)d[i];
    x <<= 40;
    bad += q[i] != (long long)(x >> 64);
    bad += f[i] != (float)((unsigned __int128)l[i] << 70);
  }
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}

// Code generation in parallel partitions (--threads, nvcc's -t): with a
// tiny partition size the module of each translation unit is split, its
// partial objects are joined into the object -c asked for, and the symbols
// that were local to the module (here the anonymous-namespace kernel and
// the static host function that both translation units define) carry a
// suffix of their own translation unit, so that the two objects link.
// RUN: env RESPEC_CODEGEN_PARTITION_SIZE=10 %respec -O2 -c %s -o %t1.o --threads 2
// RUN: env RESPEC_CODEGEN_PARTITION_SIZE=10 %respec -O2 -c %s -DSECOND -o %t2.o -t 2
// RUN: llvm-nm %t1.o | FileCheck %s --check-prefix=SPLIT
// RUN: %respec %t1.o %t2.o -o %t && %t | FileCheck %s
// One thread: no partitions, local symbols stay local.
// RUN: env RESPEC_CODEGEN_PARTITION_SIZE=10 %respec -O2 -c %s -o %t3.o --threads=1
// RUN: llvm-nm %t3.o | FileCheck %s --check-prefix=SERIAL
// RUN: not %respec --threads=x -c %s -o %t4.o 2>&1 | FileCheck %s --check-prefix=BAD
//
// SPLIT-DAG: T _ZN12_GLOBAL__N_119__device_stub__bumpEPii.respec.{{[0-9a-f]+$}}
// SPLIT-DAG: D __respec_module_table.respec.{{[0-9a-f]+$}}
// SPLIT-DAG: T main
// SERIAL-NOT: .respec.
// SERIAL: T main
// BAD: respec: error: --threads x is not a number of threads from 0 (one per core) to 1024
// CHECK: first 1 2 3 4 5 6 7 8 / 10
// CHECK: second 101 102 103 104 105 106 107 108 / 20
// CHECK: PASSED

#include <cstdio>
#include <cuda_runtime.h>

#ifdef SECOND
#define BASE 100
#define TOTAL 20
#define ENTRY second
#else
#define BASE 0
#define TOTAL 10
#define ENTRY first
#endif

namespace {
__device__ int offset() { return BASE; }

__global__ void bump(int *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = offset() + i + 1;
}

__global__ void total(int *out) {
  __shared__ int sum[32];
  sum[threadIdx.x] = threadIdx.x < 4 ? 2 : 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < 32; ++i)
      s += sum[i];
    *out = s + BASE / 10 * 0 + TOTAL - 8;
  }
}
} // namespace

static int check(const int *x, int value) {
  int bad = 0;
  for (int i = 0; i < 8; ++i)
    bad += x[i] != BASE + i + 1;
  return bad + (value != TOTAL);
}

int ENTRY() {
  int *d, *t, h[8], v;
  cudaMalloc(&d, 8 * sizeof(int));
  cudaMalloc(&t, sizeof(int));
  bump<<<2, 4>>>(d, 8);
  total<<<1, 32>>>(t);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&v, t, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%s", BASE ? "second" : "first");
  for (int i = 0; i < 8; ++i)
    printf(" %d", h[i]);
  printf(" / %d\n", v);
  return check(h, v);
}

#ifndef SECOND
int second();
int main() {
  int bad = first() + second();
  printf(bad ? "FAILED\n" : "PASSED\n");
  return bad != 0;
}
#endif

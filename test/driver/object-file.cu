// -c writes an object holding the device code's module table and the host
// side's kernel launch through the CUDA runtime API.
// RUN: %respec -c %s -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s
// CHECK-DAG: U cudaLaunchKernel
// CHECK-DAG: __respec_module_table
// CHECK-DAG: T main
// Without -o the object is named after the input.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir && %respec -c %s
// RUN: llvm-nm %t.dir/object-file.o | FileCheck %s

#include <cuda_runtime.h>

__global__ void fill(int *x, int v) { x[threadIdx.x] = v; }

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  fill<<<1, 32>>>(d, 7);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

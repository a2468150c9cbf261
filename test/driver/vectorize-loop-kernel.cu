// A kernel without barriers whose threads each run a loop (a column-major
// matrix-vector product): its thread body is inlined into the thread loop
// as structured control flow, and the CPU back end runs 8 threads as the
// lanes of one vector around the loop (the matrix column loads are vector
// loads, x[k] is one scalar load for all lanes).
// RUN: %respec --emit=parallel-ir %s -o - | FileCheck %s --check-prefix=PIR
// PIR-LABEL: llvm.func @__respec_launch._Z6matvecPKfS0_Pfi(
// PIR-NOT: llvm.call @__respec_thread
// PIR: scf.parallel
// PIR: scf.while
// PIR: } {respec.parallel_level = "block"}
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -O2 --keep --cpu=haswell -c %s -o %t.dir/matvec.o
// RUN: FileCheck %s < %t.dir/vectorize-loop-kernel.cpu.ll
// CHECK-LABEL: define {{.*}}@__respec_launch._Z6matvecPKfS0_Pfi{{.*}}omp_par{{.*}}(
// CHECK: fmul {{.*}}<8 x float>
// CHECK: {{^}}}

#include <cuda_runtime.h>

__global__ void matvec(const float *A, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    float acc = 0.0f;
    for (int k = 0; k < n; ++k)
      acc += A[(size_t)k * n + row] * x[k];
    y[row] = acc;
  }
}

int main() {
  const int n = 256;
  float *a, *x, *y;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  matvec<<<n / 64, 64>>>(a, x, y, n);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

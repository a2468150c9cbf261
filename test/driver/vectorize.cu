// The serialized thread loop of a one-element-per-thread kernel is
// vectorized by LLVM's loop vectorizer: with AVX2 (haswell) the kept CPU
// LLVM IR holds 8-wide float vectors in the kernel's OpenMP outlined body.
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -O2 --keep --cpu=haswell -c %s -o %t.dir/saxpy.o
// RUN: FileCheck %s < %t.dir/vectorize.cpu.ll
// The `if (i < n)` makes the vector accesses masked (or plain, if LLVM
// peels the tail); either way the arithmetic is on <8 x float>.
// CHECK-LABEL: define {{.*}}@__respec_launch._Z5saxpyifPKfPf{{.*}}omp_par{{.*}}(
// CHECK: {{load <8 x float>|call <8 x float> @llvm.masked.load.v8f32}}
// CHECK: fmul {{.*}}<8 x float>
// CHECK: fadd {{.*}}<8 x float>
// CHECK: {{store <8 x float>|call void @llvm.masked.store.v8f32}}
// CHECK: {{^}}}

#include <cuda_runtime.h>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 16;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, x, y);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

// Threads per vector of the thread vectorizer: 16 on a CPU with AVX-512,
// 8 with AVX2, and what --thread-lanes asks for.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/512 %t.dir/256 %t.dir/flag
// RUN: %respec -O2 --keep --cpu=skylake-avx512 -c %s -o %t.dir/512/matvec.o
// RUN: FileCheck %s --check-prefix=AVX512 < %t.dir/512/thread-lanes.cpu-unoptimized.ll
// RUN: %respec -O2 --keep --cpu=haswell -c %s -o %t.dir/256/matvec.o
// RUN: FileCheck %s --check-prefix=AVX2 < %t.dir/256/thread-lanes.cpu-unoptimized.ll
// RUN: %respec -O2 --keep --cpu=skylake-avx512 --thread-lanes=4 -c %s -o %t.dir/flag/matvec.o
// RUN: FileCheck %s --check-prefix=FOUR < %t.dir/flag/thread-lanes.cpu-unoptimized.ll
// AVX512: fmul {{.*}}<16 x float>
// AVX2: fmul {{.*}}<8 x float>
// AVX2-NOT: <16 x float>
// FOUR: fmul {{.*}}<4 x float>
// FOUR-NOT: <16 x float>

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

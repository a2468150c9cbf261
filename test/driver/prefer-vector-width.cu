// LLVM's vectorizers use the device CPU's widest vectors in device code: 512
// bits with AVX-512 (where LLVM's own default is 256), 256 with AVX2, and
// what --prefer-vector-width asks for. A 16-wide thread row of floats is
// then one <16 x float> vector on AVX-512.
// RUN: rm -rf %t.dir && mkdir -p %t.dir/512 %t.dir/256 %t.dir/flag
// RUN: %respec -O2 --keep --cpu=skylake-avx512 -c %s -o %t.dir/512/rows.o
// RUN: FileCheck %s --check-prefix=AVX512 < %t.dir/512/prefer-vector-width.cpu.ll
// RUN: %respec -O2 --keep --cpu=haswell -c %s -o %t.dir/256/rows.o
// RUN: FileCheck %s --check-prefix=AVX2 < %t.dir/256/prefer-vector-width.cpu.ll
// RUN: %respec -O2 --keep --cpu=skylake-avx512 --prefer-vector-width=256 -c %s -o %t.dir/flag/rows.o
// RUN: FileCheck %s --check-prefix=FLAG < %t.dir/flag/prefer-vector-width.cpu.ll
// RUN: not %respec --prefer-vector-width=300 -c %s -o %t.dir/bad.o 2>&1 | FileCheck %s --check-prefix=BAD
// AVX512: define {{.*}}@__respec_launch._Z5scalePfS_f({{.*}} #[[ATTRS:[0-9]+]]
// AVX512: fmul {{.*}}<16 x float>
// AVX512: attributes #[[ATTRS]] = {{.*}}"prefer-vector-width"="512"
// AVX2: define {{.*}}@__respec_launch._Z5scalePfS_f({{.*}} #[[ATTRS:[0-9]+]]
// AVX2-NOT: <16 x float>
// AVX2: attributes #[[ATTRS]] = {{.*}}"prefer-vector-width"="256"
// FLAG: define {{.*}}@__respec_launch._Z5scalePfS_f({{.*}} #[[ATTRS:[0-9]+]]
// FLAG-NOT: <16 x float>
// FLAG: attributes #[[ATTRS]] = {{.*}}"prefer-vector-width"="256"
// BAD: respec: error: --prefer-vector-width=300 is not 128, 256 or 512

#include <cuda_runtime.h>

// Rows of 16 threads: each block scales a 16 x 16 tile.
__global__ void scale(float *out, float *in, float s) {
  int i = (blockIdx.x * 16 + threadIdx.y) * 16 + threadIdx.x;
  out[i] = in[i] * s;
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * 256 * sizeof(float));
  cudaMalloc(&out, 64 * 256 * sizeof(float));
  scale<<<64, dim3(16, 16)>>>(out, in, 2.0f);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

// The thread loops that barrier fission produces are vectorized by LLVM like
// any other: the stencil's load phase (global -> shared) and compute phase
// (shared -> global), on either side of __syncthreads, both become 8-wide
// float code with AVX2 (haswell).
// RUN: rm -rf %t.dir && mkdir -p %t.dir
// RUN: %respec -O2 --keep --cpu=haswell -c %s -o %t.dir/stencil.o
// RUN: FileCheck %s < %t.dir/vectorize-barrier.cpu.ll
// CHECK-LABEL: define {{.*}}@__respec_launch._Z7stencilPKfPf{{.*}}omp_par{{.*}}(
// The load phase copies the block's inputs to shared memory.
// CHECK: {{load <8 x float>|call <8 x float> @llvm.masked.load.v8f32}}
// CHECK: {{store <8 x float>|call void @llvm.masked.store.v8f32}}
// The compute phase, after the barrier, reads neighbours from shared memory.
// CHECK: fadd {{.*}}<8 x float>
// CHECK: {{store <8 x float>|call void @llvm.masked.store.v8f32}}
// CHECK: {{^}}}

#include <cuda_runtime.h>

#define BLOCK 256

__global__ void stencil(const float *in, float *out) {
  __shared__ float tile[BLOCK];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  float left = threadIdx.x > 0 ? tile[threadIdx.x - 1] : 0.0f;
  out[i] = left + tile[threadIdx.x];
}

int main() {
  const int n = 1 << 16;
  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  stencil<<<n / BLOCK, BLOCK>>>(x, y);
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}

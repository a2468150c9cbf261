// Makefiles and CMake (CUDA::cudart) link NVIDIA's CUDA runtime: respec
// provides its own, so -lcudart, -lcudart_static, -lcudadevrt and the
// libraries' files are left out of the link. Linked as well, NVIDIA's
// runtime would answer the program's CUDA calls (and need an NVIDIA GPU).
// REQUIRES: cuda-toolkit
// RUN: %respec -O2 %s -o %t -L%cuda_path/lib64 -lcudart -lcudadevrt -lcudart_static -lm
// RUN: %t | FileCheck %s
// RUN: %respec -O2 %s -o %t.files %cuda_path/lib64/libcudart.so %cuda_path/lib64/libcudart_static.a
// RUN: %t.files | FileCheck %s
// RUN: %respec -O2 -v %s -o %t.v -L%cuda_path/lib64 -lcudart 2>&1 | FileCheck %s --check-prefix=LINK
// LINK: clang++ -o
// LINK-NOT: -lcudart
// LINK-SAME: librespec_cudart.a
// CHECK: sum 496

#include <cstdio>
#include <cuda_runtime.h>

__global__ void iota(int *out) { out[threadIdx.x] = threadIdx.x; }

int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  iota<<<1, 32>>>(d);
  cudaError_t status = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("error: %s\n", cudaGetErrorString(status));
    return 1;
  }
  int sum = 0;
  for (int v : h)
    sum += v;
  std::printf("sum %d\n", sum);
  return 0;
}

// Device printf from several threads of several blocks: the order between
// threads is unspecified, so every line is matched with CHECK-DAG. Each
// thread prints values it computed, including a float with a width.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// CHECK-DAG: block 0 thread 0 square 0 root  0.00
// CHECK-DAG: block 0 thread 1 square 1 root  1.00
// CHECK-DAG: block 0 thread 2 square 4 root  1.41
// CHECK-DAG: block 1 thread 0 square 9 root  1.73
// CHECK-DAG: block 1 thread 1 square 16 root  2.00
// CHECK-DAG: block 1 thread 2 square 25 root  2.24
// CHECK-DAG: block 2 thread 0 square 36 root  2.45
// CHECK-DAG: block 2 thread 1 square 49 root  2.65
// CHECK-DAG: block 2 thread 2 square 64 root  2.83
// CHECK-NOT: square
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t err_ = (call);                                                \
    if (err_ != cudaSuccess) {                                                \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,    \
              cudaGetErrorString(err_));                                      \
      printf("FAILED\n");                                                     \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

__global__ void squares(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    printf("block %d thread %d square %d root %5.2f\n", blockIdx.x,
           threadIdx.x, i * i, sqrtf((float)i));
}

int main() {
  squares<<<4, 3>>>(9); // the last block is entirely beyond n and prints
                         // nothing
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  fflush(stdout);
  printf("PASSED\n");
  return 0;
}

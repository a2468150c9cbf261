// Two translation units that each define a static __global__ kernel named
// `transform` and a static __constant__ array named `table`; each TU must
// launch and read its own. Also a differently named __constant__ array per
// TU, and one TU updating its table with cudaMemcpyToSymbol.
// RUN: %respec -O3 -c %s -o %t.a.o
// RUN: %respec -O1 -c %S/Inputs/same_static_name_b.cu -o %t.b.o
// RUN: %respec %t.a.o %t.b.o -o %t && %t | FileCheck %s
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

cudaError_t runTransformB(int *d, int n);
cudaError_t setTableB(const int *values);

static __constant__ int table[4] = {1, 2, 3, 4};
__constant__ int tableOfA[2] = {10, 20};

static __global__ void transform(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = d[i] - table[i % 4] + tableOfA[i % 2];
}

int main() {
  const int n = 10007;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    h[i] = i;
  int *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(int)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));

  transform<<<(n + 255) / 256, 256>>>(d, n); // this TU's kernel
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(runTransformB(d, n)); // the other TU's kernel, original table
  const int newB[4] = {7, 8, 9, 10};
  CUDA_CHECK(setTableB(newB));
  CUDA_CHECK(runTransformB(d, n)); // the other TU's kernel, updated table
  transform<<<(n + 255) / 256, 256>>>(d, n); // this TU's table is unchanged
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost));

  const int tableA[4] = {1, 2, 3, 4}, tableOfA_h[2] = {10, 20};
  const int tableB[4] = {100, 200, 300, 400}, tableOfB_h[3] = {-1, -2, -3};
  for (int i = 0; i < n; ++i) {
    int v = i;
    v = v - tableA[i % 4] + tableOfA_h[i % 2];
    v = v * 3 + tableB[i % 4] + tableOfB_h[i % 3];
    v = v * 3 + newB[i % 4] + tableOfB_h[i % 3];
    v = v - tableA[i % 4] + tableOfA_h[i % 2];
    if (h[i] != v) {
      printf("mismatch at %d: got %d, expected %d\n", i, h[i], v);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  printf("PASSED\n");
  return 0;
}

// Unified memory: cudaMallocManaged buffers written on the host, updated by
// kernels, read on the host after cudaDeviceSynchronize, then updated on
// the host again and used by another kernel; a managed struct with a
// pointer to another managed buffer (a small linked structure), and a
// managed counter updated with atomics on the device and read on the host.
// RUN: %respec -O2 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=7,thread=4 -O2 %s -o %t.c7x4 && %t.c7x4 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
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

struct Table {
  int size;
  int *values;
};

__global__ void squareInPlace(long long *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    v[i] = v[i] * v[i];
}

__global__ void useTable(const Table *t, long long *v, int n,
                         int *managedTotal) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    v[i] += t->values[i % t->size];
    atomicAdd(managedTotal, t->values[i % t->size]);
  }
}

int main() {
  const int n = 300000;
  long long *v;
  CUDA_CHECK(cudaMallocManaged(&v, n * sizeof(long long)));
  for (int i = 0; i < n; ++i)
    v[i] = i - 1000;
  squareInPlace<<<(n + 255) / 256, 256>>>(v, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) {
    long long e = (long long)(i - 1000) * (i - 1000);
    if (v[i] != e) {
      printf("after kernel 1, v[%d] = %lld, expected %lld\n", i, v[i], e);
      printf("FAILED\n");
      return 1;
    }
    v[i] = -v[i] / 2; // host update between kernels
  }

  Table *t;
  CUDA_CHECK(cudaMallocManaged(&t, sizeof(Table)));
  t->size = 17;
  CUDA_CHECK(cudaMallocManaged(&t->values, t->size * sizeof(int)));
  for (int k = 0; k < t->size; ++k)
    t->values[k] = k * k - 50;
  int *managedTotal;
  CUDA_CHECK(cudaMallocManaged(&managedTotal, sizeof(int)));
  *managedTotal = 5;
  useTable<<<(n + 127) / 128, 128>>>(t, v, n, managedTotal);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  long long total = 5;
  for (int i = 0; i < n; ++i) {
    long long sq = (long long)(i - 1000) * (i - 1000);
    long long e = -sq / 2 + ((i % 17) * (i % 17) - 50);
    total += (i % 17) * (i % 17) - 50;
    if (v[i] != e) {
      printf("after kernel 2, v[%d] = %lld, expected %lld\n", i, v[i], e);
      printf("FAILED\n");
      return 1;
    }
  }
  if (*managedTotal != (int)total) {
    printf("managed total %d, expected %lld\n", *managedTotal, total);
    printf("FAILED\n");
    return 1;
  }
  CUDA_CHECK(cudaFree(managedTotal));
  CUDA_CHECK(cudaFree(t->values));
  CUDA_CHECK(cudaFree(t));
  CUDA_CHECK(cudaFree(v));
  printf("PASSED\n");
  return 0;
}

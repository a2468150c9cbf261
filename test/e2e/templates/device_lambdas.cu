// Extended device lambdas ([=] __device__) passed to generic kernels:
// a for_each over indices, a transform capturing scalars and device
// pointers by value, a lambda that calls another captured lambda, and a
// __host__ __device__ lambda used on both sides.
// RUN: %respec -O3 -std=c++17 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=1 -O3 -std=c++17 %s -o %t.c4x1 && %t.c4x1 | FileCheck %s
// RUN: %respec --coarsen=block=4,thread=2 -O3 -std=c++17 %s -o %t.c4x2 && %t.c4x2 | FileCheck %s
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

template <typename F> __global__ void forEachIndex(int n, F f) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    f(i);
}

template <typename T, typename F>
__global__ void transformKernel(const T *in, T *out, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = f(in[i]);
}

template <typename F> static void launchForEach(int n, F f) {
  forEachIndex<<<(n + 255) / 256 < 64 ? (n + 255) / 256 : 64, 256>>>(n, f);
  CUDA_CHECK(cudaGetLastError());
}

int main() {
  const int n = 250000;
  int *a, *b;
  CUDA_CHECK(cudaMalloc(&a, n * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&b, n * sizeof(int)));

  // 1) fill through a lambda capturing a device pointer and a scalar.
  int seed = 17;
  launchForEach(n, [=] __device__(int i) { a[i] = (i * seed) % 1009; });

  // 2) a lambda calling a captured lambda.
  auto inner = [=] __device__(int v) { return v * v - 3 * v; };
  int bias = -250;
  auto outer = [=] __device__(int v) { return inner(v) + bias; };
  transformKernel<<<(n + 127) / 128, 128>>>(a, b, n, outer);
  CUDA_CHECK(cudaGetLastError());

  // 3) a host-device lambda checked on both sides.
  auto mix = [] __host__ __device__(int x, int y) { return (x ^ y) + (x & 7); };
  launchForEach(n, [=] __device__(int i) { b[i] = mix(b[i], i); });

  int *h = (int *)malloc(n * sizeof(int));
  CUDA_CHECK(cudaMemcpy(h, b, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int v = (i * seed) % 1009;
    int e = mix(v * v - 3 * v + bias, i);
    if (h[i] != e) {
      printf("mismatch at %d: got %d, expected %d\n", i, h[i], e);
      printf("FAILED\n");
      return 1;
    }
  }

  // 4) a lambda capturing a struct by value with a double field.
  struct Scale {
    double factor;
    int offset;
  } sc{0.5, 3};
  double *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(double)));
  launchForEach(n, [=] __device__(int i) {
    d[i] = (i % 100) * sc.factor + sc.offset;
  });
  double *hd = (double *)malloc(n * sizeof(double));
  CUDA_CHECK(cudaMemcpy(hd, d, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    double e = (i % 100) * 0.5 + 3;
    if (hd[i] != e) {
      printf("struct capture mismatch at %d: got %f, expected %f\n", i, hd[i],
             e);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(a));
  CUDA_CHECK(cudaFree(b));
  CUDA_CHECK(cudaFree(d));
  free(h);
  free(hd);
  printf("PASSED\n");
  return 0;
}

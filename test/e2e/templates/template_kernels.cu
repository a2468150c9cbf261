// A templated reduction-free kernel (axpby with a clamp) instantiated for
// float, double, int and unsigned char, plus a kernel templated on a
// non-type parameter (compile-time unroll factor) and a C++17 if constexpr.
// RUN: %respec -O2 -std=c++17 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=1 -O2 -std=c++17 %s -o %t.c8x1 && %t.c8x1 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O2 -std=c++17 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// CHECK: PASSED

#include <cstdio>
#include <cstdlib>
#include <type_traits>
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

template <typename T>
__host__ __device__ T clampTo(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

template <typename T>
__host__ __device__ T axpbyValue(T a, T x, T b, T y) {
  if constexpr (std::is_floating_point<T>::value)
    return clampTo<T>(a * x + b * y, T(-1000), T(1000));
  else
    return clampTo<T>(a * x + b * y, T(0), T(200));
}

template <typename T>
__global__ void axpby(T a, const T *x, T b, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = axpbyValue(a, x[i], b, y[i]);
}

// Each thread handles UNROLL consecutive elements.
template <int UNROLL, typename T>
__global__ void addConstUnrolled(T *data, T c, int n) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u)
    if (base + u < n)
      data[base + u] += c * (T)(u + 1);
}

template <typename T> static bool testAxpby(int n, T a, T b) {
  T *x = (T *)malloc(n * sizeof(T));
  T *y = (T *)malloc(n * sizeof(T));
  T *r = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i) {
    x[i] = (T)(i % 50);
    y[i] = (T)(i % 23);
  }
  T *dx, *dy;
  CUDA_CHECK(cudaMalloc(&dx, n * sizeof(T)));
  CUDA_CHECK(cudaMalloc(&dy, n * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(dx, x, n * sizeof(T), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(dy, y, n * sizeof(T), cudaMemcpyHostToDevice));
  axpby<T><<<(n + 127) / 128, 128>>>(a, dx, b, dy, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(r, dy, n * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    T e = axpbyValue(a, x[i], b, y[i]);
    if (r[i] != e) {
      printf("axpby<%zu-byte type> mismatch at %d: got %f, expected %f\n",
             sizeof(T), i, (double)r[i], (double)e);
      ok = false;
      break;
    }
  }
  CUDA_CHECK(cudaFree(dx));
  CUDA_CHECK(cudaFree(dy));
  free(x);
  free(y);
  free(r);
  return ok;
}

template <int UNROLL, typename T> static bool testUnrolled(int n, T c) {
  T *h = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i)
    h[i] = (T)(i % 9);
  T *d;
  CUDA_CHECK(cudaMalloc(&d, n * sizeof(T)));
  CUDA_CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  int threads = (n + UNROLL - 1) / UNROLL;
  addConstUnrolled<UNROLL, T><<<(threads + 63) / 64, 64>>>(d, c, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    T e = (T)(i % 9) + c * (T)(i % UNROLL + 1);
    if (h[i] != e) {
      printf("unrolled<%d> mismatch at %d: got %f, expected %f\n", UNROLL, i,
             (double)h[i], (double)e);
      ok = false;
      break;
    }
  }
  CUDA_CHECK(cudaFree(d));
  free(h);
  return ok;
}

int main() {
  bool ok = testAxpby<float>(100003, 1.5f, -0.25f) &&
            testAxpby<double>(70001, -2.0, 3.5) &&
            testAxpby<int>(90001, 3, -2) &&
            testAxpby<unsigned char>(5000, 2, 1) &&
            testUnrolled<1, int>(1001, 5) &&
            testUnrolled<4, float>(100003, 0.5f) &&
            testUnrolled<7, double>(77777, -1.25);
  if (!ok) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}

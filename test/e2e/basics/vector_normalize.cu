// Normalizes an array of 3-D vectors in two kernels: one computes the
// lengths, the other divides by them. Uses a float3 array and rsqrtf-free
// sqrtf so the result can be compared with a tight tolerance.
// RUN: %respec -O1 %s -o %t && %t | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=2 -O1 %s -o %t.c8x2 && %t.c8x2 | FileCheck %s
// RUN: %respec --coarsen=block=8,thread=4 -O1 %s -o %t.c8x4 && %t.c8x4 | FileCheck %s
// CHECK: PASSED

#include <cmath>
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

__global__ void computeLengths(const float3 *v, float *len, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float3 p = v[i];
  len[i] = sqrtf(p.x * p.x + p.y * p.y + p.z * p.z);
}

__global__ void normalize(float3 *v, const float *len, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float l = len[i];
  if (l > 0.0f) {
    v[i].x /= l;
    v[i].y /= l;
    v[i].z /= l;
  }
}

int main() {
  const int n = 300001;
  float3 *h = (float3 *)malloc(n * sizeof(float3));
  float3 *res = (float3 *)malloc(n * sizeof(float3));
  float *lens = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) {
    h[i] = make_float3((float)(i % 17) - 8.0f, (float)(i % 29) * 0.5f,
                       (float)((i * 7) % 13) - 6.0f);
  }
  h[5] = make_float3(0.0f, 0.0f, 0.0f); // zero vector must stay zero

  float3 *dv;
  float *dlen;
  CUDA_CHECK(cudaMalloc(&dv, n * sizeof(float3)));
  CUDA_CHECK(cudaMalloc(&dlen, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(dv, h, n * sizeof(float3), cudaMemcpyHostToDevice));
  int block = 192;
  int grid = (n + block - 1) / block;
  computeLengths<<<grid, block>>>(dv, dlen, n);
  CUDA_CHECK(cudaGetLastError());
  normalize<<<grid, block>>>(dv, dlen, n);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaMemcpy(res, dv, n * sizeof(float3), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(lens, dlen, n * sizeof(float), cudaMemcpyDeviceToHost));

  for (int i = 0; i < n; ++i) {
    double x = h[i].x, y = h[i].y, z = h[i].z;
    double l = sqrt(x * x + y * y + z * z);
    if (fabs(lens[i] - l) > 1e-5 * (l + 1.0)) {
      printf("length mismatch at %d: got %f, expected %f\n", i, lens[i], l);
      printf("FAILED\n");
      return 1;
    }
    double ex = l > 0 ? x / l : 0.0, ey = l > 0 ? y / l : 0.0,
           ez = l > 0 ? z / l : 0.0;
    if (fabs(res[i].x - ex) > 1e-5 || fabs(res[i].y - ey) > 1e-5 ||
        fabs(res[i].z - ez) > 1e-5) {
      printf("mismatch at %d: got (%f,%f,%f), expected (%f,%f,%f)\n", i,
             res[i].x, res[i].y, res[i].z, ex, ey, ez);
      printf("FAILED\n");
      return 1;
    }
  }
  CUDA_CHECK(cudaFree(dv));
  CUDA_CHECK(cudaFree(dlen));
  free(h);
  free(res);
  free(lens);
  printf("PASSED\n");
  return 0;
}
